import AppleAPI
import Foundation

/// Reads what the remote rules compare, once: the app with the app target's bundle id, its App
/// Store versions on the platform, and every build number uploaded for the project's version
/// (build uploads and builds, every page followed, at most
/// `AppStoreConnectClient.buildNumberPageLimit` pages of each: past them an error, never a part).
public enum PreflightRemote {
    /// Fetches the facts into `context`, or says in it why there are none to fetch.
    /// - Throws: as `fetch`.
    public static func attach(client: AppStoreConnectClient, to context: inout PreflightContext) async throws {
        if let facts = try await fetch(client: client, context: context) {
            context.remote = facts
        } else {
            if let problem = context.applicationProblem {
                context.remoteSkipReason = "App Store Connect was not asked: " + problem
            } else {
                context.remoteSkipReason = "the app target's bundle id cannot be read, so App Store Connect was not asked ("
                    + (context.mainApplication?.unread["bundle id"] ?? "PRODUCT_BUNDLE_IDENTIFIER and the Info.plist's CFBundleIdentifier give none") + ")"
            }
        }
    }

    /// The facts for `context`'s app, or nil when the project gives no bundle id to look up.
    /// - Throws: `AppStoreConnectError` (refused key, network).
    public static func fetch(client: AppStoreConnectClient, context: PreflightContext) async throws -> PreflightRemoteFacts? {
        guard let bundleID = context.mainApplication?.bundleID?.value else { return nil }
        guard let app = try await client.apps(bundleID: bundleID).first else { return PreflightRemoteFacts(bundleID: bundleID, app: nil) }
        let platform = context.options.platform
        var facts = PreflightRemoteFacts(bundleID: bundleID, app: app, versions: try await client.appStoreVersions(appID: app.id, platform: platform))
        guard let version = context.appVersion?.value else { return facts }
        facts.version = version
        let limit = AppStoreConnectClient.buildNumberPageLimit
        let uploads = try await client.everyPage(AppStoreConnectRequest(
            .get, "/v1/apps/\(app.id)/buildUploads",
            query: [URLQueryItem(name: "filter[cfBundleShortVersionString]", value: version), URLQueryItem(name: "filter[platform]", value: platform),
                    URLQueryItem(name: "limit", value: "200")],
            action: "list the build uploads of app \(app.id) version \(version)", roles: AppStoreConnectClient.readRoles),
            pageLimit: limit, what: "build uploads of app \(app.id) version \(version)")
        var numbers = uploads.filter { $0.attributes["state"]?["state"]?.string != "FAILED" }.compactMap { $0.string("cfBundleVersion") }
        // Builds uploaded before the Build Uploads API are only listed as builds.
        let builds = try await client.everyPage(AppStoreConnectRequest(
            .get, "/v1/builds",
            query: [URLQueryItem(name: "filter[app]", value: app.id), URLQueryItem(name: "filter[preReleaseVersion.version]", value: version),
                    URLQueryItem(name: "filter[preReleaseVersion.platform]", value: platform),
                    URLQueryItem(name: "fields[builds]", value: "version"), URLQueryItem(name: "limit", value: "200")],
            action: "list the builds of app \(app.id) version \(version)", roles: AppStoreConnectClient.readRoles),
            pageLimit: limit, what: "builds of app \(app.id) version \(version)")
        numbers += builds.compactMap { $0.string("version") }
        facts.buildNumbers = Array(Set(numbers)).sorted { BuildNumbers.isLower($0, $1) }
        return facts
    }
}
