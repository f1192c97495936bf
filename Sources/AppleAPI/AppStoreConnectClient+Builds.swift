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
    /// At most this many pages of 200 are read for the build numbers (20,000 uploads, and as
    /// many builds); past them `buildNumbers` fails rather than answer from a part.
    public static let buildNumberPageLimit = 100

    /// The highest build number of the app (for `version` when given): every page of its build
    /// uploads (`GET /v1/apps/{id}/buildUploads`, failed uploads left out) and of its builds
    /// (`GET /v1/builds?filter[app]=`, for builds uploaded before the Build Uploads API). Build
    /// numbers need not rise with the upload time, so no page is skipped.
    /// - Throws: `AppStoreConnectError`; `AppStoreConnectPagingError` past `pageLimit` pages of either list.
    public func buildNumbers(appID: String, version: String?, platform: String? = nil,
                             pageLimit: Int = buildNumberPageLimit) async throws -> BuildNumbers {
        var query = [URLQueryItem(name: "sort", value: "-uploadedDate"), URLQueryItem(name: "limit", value: "200")]
        if let version { query.append(URLQueryItem(name: "filter[cfBundleShortVersionString]", value: version)) }
        if let platform { query.append(URLQueryItem(name: "filter[platform]", value: platform)) }
        let uploads = try await everyPage(AppStoreConnectRequest(
            .get, "/v1/apps/\(appID)/buildUploads", query: query, action: "list the build uploads of app \(appID)",
            roles: Self.readRoles), pageLimit: pageLimit, what: "build uploads of app \(appID)" + (version.map { " version \($0)" } ?? ""))
        var numbers = uploads.filter { $0.attributes["state"]?["state"]?.string != "FAILED" }.compactMap { $0.string("cfBundleVersion") }
        var builds = [URLQueryItem(name: "filter[app]", value: appID), URLQueryItem(name: "sort", value: "-uploadedDate"),
                      URLQueryItem(name: "fields[builds]", value: "version"), URLQueryItem(name: "limit", value: "200")]
        if let version { builds.append(URLQueryItem(name: "filter[preReleaseVersion.version]", value: version)) }
        if let platform { builds.append(URLQueryItem(name: "filter[preReleaseVersion.platform]", value: platform)) }
        numbers += try await everyPage(AppStoreConnectRequest(
            .get, "/v1/builds", query: builds, action: "list the builds of app \(appID)", roles: Self.readRoles),
            pageLimit: pageLimit, what: "builds of app \(appID)" + (version.map { " version \($0)" } ?? ""))
            .compactMap { $0.string("version") }
        return BuildNumbers(latest: numbers.max(by: BuildNumbers.isLower))
    }

    /// Every resource of a collection, following `links.next` (on the API's host only); a
    /// collection longer than `pageLimit` pages is an error, never a silent part.
    /// - Throws: as `document`; `AppStoreConnectPagingError` when a next page remains after `pageLimit`.
    public func everyPage(_ request: AppStoreConnectRequest, pageLimit: Int, what: String) async throws -> [JSONAPIResource] {
        var page = try await document(request)
        var resources = page.data
        var pages = 1
        while let next = page.next {
            guard pages < pageLimit else { throw AppStoreConnectPagingError(what: what, pages: pages, read: resources.count) }
            page = try await document(nextPage(next, of: request))
            resources += page.data
            pages += 1
        }
        return resources
    }
}

/// App Store Connect lists more than Slipway reads of a collection that must be taken whole.
public struct AppStoreConnectPagingError: Error, LocalizedError, Sendable, Equatable {
    /// What was listed ("build uploads of app 123 version 1.4.0").
    public var what: String
    /// The pages read.
    public var pages: Int
    /// The resources read.
    public var read: Int

    public var errorDescription: String? {
        "App Store Connect lists more \(what) than slipway reads: \(pages) page\(pages == 1 ? "" : "s") (\(read) item\(read == 1 ? "" : "s")) read, "
            + "and a next page remains. slipway does not answer from a part of them (the highest could be on a page not read): "
            + "narrow the question (give the version, or the platform)."
    }
}
