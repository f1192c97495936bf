import Foundation

/// The latest build number App Store Connect knows for an app (and version), and the next one.
public struct BuildNumbers: Sendable, Hashable {
    /// The highest build number found, or nil when there is none.
    public var latest: String?
    /// `latest` with its last number raised by one (`41` → `42`, `1.2.9` → `1.2.10`), or `1`.
    public var next: String

    /// Derives `next` from `latest`.
    public init(latest: String?) {
        self.latest = latest
        guard let latest else { next = "1"; return }
        var parts = latest.split(separator: ".").map(String.init)
        if let last = parts.last, let number = Int(last) { parts[parts.count - 1] = String(number + 1) } else { parts.append("1") }
        next = parts.joined(separator: ".")
    }

    /// Orders build numbers as Apple does: number by number (`9` < `10`, `1.2` < `1.10`).
    public static func isLower(_ lhs: String, _ rhs: String) -> Bool {
        let left = lhs.split(separator: ".").map { Int($0) ?? 0 }, right = rhs.split(separator: ".").map { Int($0) ?? 0 }
        for index in 0..<max(left.count, right.count) {
            let a = index < left.count ? left[index] : 0, b = index < right.count ? right[index] : 0
            if a != b { return a < b }
        }
        return false
    }
}

extension AppStoreConnectClient {
    /// The latest build number of the app (for `version` when given): build uploads first,
    /// newest first (`GET /v1/apps/{id}/buildUploads?sort=-uploadedDate`), falling back to
    /// builds (`GET /v1/builds?filter[app]=`) for builds uploaded before the Build Uploads API.
    /// - Throws: `AppStoreConnectError`.
    public func buildNumbers(appID: String, version: String?, platform: String? = nil) async throws -> BuildNumbers {
        var query = [URLQueryItem(name: "sort", value: "-uploadedDate"), URLQueryItem(name: "limit", value: "200")]
        if let version { query.append(URLQueryItem(name: "filter[cfBundleShortVersionString]", value: version)) }
        if let platform { query.append(URLQueryItem(name: "filter[platform]", value: platform)) }
        let uploads = try await document(AppStoreConnectRequest(
            .get, "/v1/apps/\(appID)/buildUploads", query: query, action: "list the build uploads of app \(appID)",
            roles: Self.readRoles)).data
        var numbers = uploads.filter { $0.attributes["state"]?["state"]?.string != "FAILED" }.compactMap { $0.string("cfBundleVersion") }
        if numbers.isEmpty {
            var builds = [URLQueryItem(name: "filter[app]", value: appID), URLQueryItem(name: "sort", value: "-uploadedDate"),
                          URLQueryItem(name: "fields[builds]", value: "version"), URLQueryItem(name: "limit", value: "200")]
            if let version { builds.append(URLQueryItem(name: "filter[preReleaseVersion.version]", value: version)) }
            numbers = try await document(AppStoreConnectRequest(
                .get, "/v1/builds", query: builds, action: "list the builds of app \(appID)", roles: Self.readRoles))
                .data.compactMap { $0.string("version") }
        }
        return BuildNumbers(latest: numbers.max(by: BuildNumbers.isLower))
    }
}
