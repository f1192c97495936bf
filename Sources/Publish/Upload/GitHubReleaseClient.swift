import Basics
import Foundation
import Transport

/// A GitHub release as the REST API returns it (the fields Slipway uses).
public struct GitHubRelease: Sendable, Hashable, Decodable {
    /// The release's id.
    public var id: Int
    /// Its tag.
    public var tagName: String
    /// True while it is a draft.
    public var draft: Bool
    /// Its page.
    public var htmlUrl: String?
}

/// A release asset.
public struct GitHubAsset: Sendable, Hashable, Decodable {
    /// The asset's id.
    public var id: Int
    /// Its file name.
    public var name: String
    /// Its size in bytes.
    public var size: Int64
    /// `uploaded`, or `starter` when an upload broke off (such an asset can be deleted).
    public var state: String?
    /// Where users download it.
    public var browserDownloadUrl: String?
}

/// What a new release is made with.
public struct GitHubReleaseDraft: Sendable, Hashable {
    /// The tag (created from `targetCommitish` when it does not exist yet).
    public var tag: String
    /// The title; the tag when nil.
    public var name: String?
    /// The notes (Markdown).
    public var notes: String?
    /// Create it as a draft.
    public var draft: Bool
    /// Mark it as a pre-release.
    public var prerelease: Bool
    /// The branch or commit a new tag points at; the default branch when nil.
    public var targetCommitish: String?

    /// Creates a value.
    public init(tag: String, name: String? = nil, notes: String? = nil, draft: Bool = false, prerelease: Bool = false,
                targetCommitish: String? = nil) {
        self.tag = tag
        self.name = name
        self.notes = notes
        self.draft = draft
        self.prerelease = prerelease
        self.targetCommitish = targetCommitish
    }
}

/// The documented GitHub Releases endpoints Slipway uses: get a release by tag, list releases
/// (to find drafts, which the by-tag endpoint does not return), create a release, list, delete
/// and upload assets. The API and upload base URLs are configurable (GitHub Enterprise, and
/// the loopback contract fake the tests use).
public struct GitHubReleaseClient: Sendable {
    /// `https://api.github.com` or an Enterprise `https://HOST/api/v3`.
    public let apiURL: String
    /// `https://uploads.github.com` or an Enterprise `https://HOST/api/uploads`.
    public let uploadURL: String
    /// `owner/name`.
    public let repository: String
    private let token: String
    private let http: PublishHTTPClient

    /// A client for `repository` (`owner/name`) authenticated with `token`.
    public init(apiURL: String, uploadURL: String, repository: String, token: String, http: RetryingHTTPClient) {
        self.apiURL = Self.trimmed(apiURL)
        self.uploadURL = Self.trimmed(uploadURL)
        self.repository = repository
        self.token = token
        self.http = PublishHTTPClient(http)
    }

    private static func trimmed(_ url: String) -> String {
        var text = url
        while text.hasSuffix("/") { text.removeLast() }
        return text
    }

    private var repositoryPath: String {
        repository.split(separator: "/").map { SigV4Signer.uriEncode(String($0)) }.joined(separator: "/")
    }

    private func request(_ method: HTTPMethod, _ url: String, body: HTTPBody? = nil, contentType: String? = nil) throws -> HTTPRequest {
        guard let parsed = URL(string: url) else { throw PublishError.invalidConfiguration(name: url, problem: "is not a valid URL") }
        var headers: HTTPHeaders = [
            "Accept": "application/vnd.github+json", "X-GitHub-Api-Version": "2022-11-28",
            "User-Agent": "slipway", "Authorization": "Bearer \(token)",
        ]
        if let contentType { headers["Content-Type"] = contentType }
        return HTTPRequest(method: method, url: parsed, headers: headers, body: body)
    }

    private func decode<T: Decodable>(_ type: T.Type, from response: HTTPResponse, action: String) throws -> T {
        let decoder = JSONDecoder()
        decoder.keyDecodingStrategy = .convertFromSnakeCase
        do {
            return try decoder.decode(type, from: Data(response.body))
        } catch {
            throw PublishError.unexpectedResponse(action: action, problem: "\(error)")
        }
    }

    /// The published release for `tag`, a draft with that tag, or nil.
    public func release(tag: String) async throws -> GitHubRelease? {
        let url = "\(apiURL)/repos/\(repositoryPath)/releases/tags/\(SigV4Signer.uriEncode(tag))"
        let action = "GET '\(url)'"
        let response = try await http.send(action) { try request(.get, url) }
        if response.status == 404 { return try await draft(tag: tag) }
        guard response.isSuccess else { throw PublishError.refused(action: action, status: response.status, body: response.bodyText) }
        return try decode(GitHubRelease.self, from: response, action: action)
    }

    private func draft(tag: String) async throws -> GitHubRelease? {
        var page = 1
        while page <= 10 {
            let url = "\(apiURL)/repos/\(repositoryPath)/releases?per_page=100&page=\(page)"
            let action = "GET '\(url)'"
            let response = try await http.sendExpectingSuccess(action) { try request(.get, url) }
            let releases = try decode([GitHubRelease].self, from: response, action: action)
            if let match = releases.first(where: { $0.tagName == tag }) { return match }
            if releases.count < 100 { return nil }
            page += 1
        }
        return nil
    }

    /// Creates a release.
    public func createRelease(_ draft: GitHubReleaseDraft) async throws -> GitHubRelease {
        let url = "\(apiURL)/repos/\(repositoryPath)/releases"
        var fields: [String: JSONValue] = ["tag_name": .string(draft.tag), "name": .string(draft.name ?? draft.tag),
                                           "draft": .bool(draft.draft), "prerelease": .bool(draft.prerelease)]
        if let notes = draft.notes { fields["body"] = .string(notes) }
        if let target = draft.targetCommitish { fields["target_commitish"] = .string(target) }
        let body = try JSONFormatting.encoder(pretty: false).encode(fields)
        let action = "creating release '\(draft.tag)' in '\(repository)'"
        let response = try await http.sendExpectingSuccess(action) {
            try request(.post, url, body: .bytes(Array(body)), contentType: "application/json")
        }
        return try decode(GitHubRelease.self, from: response, action: action)
    }

    /// Every asset of a release.
    public func assets(releaseID: Int) async throws -> [GitHubAsset] {
        var all: [GitHubAsset] = []
        var page = 1
        while true {
            let url = "\(apiURL)/repos/\(repositoryPath)/releases/\(releaseID)/assets?per_page=100&page=\(page)"
            let action = "GET '\(url)'"
            let response = try await http.sendExpectingSuccess(action) { try request(.get, url) }
            let batch = try decode([GitHubAsset].self, from: response, action: action)
            all += batch
            if batch.count < 100 || page >= 100 { return all }
            page += 1
        }
    }

    /// Deletes an asset.
    public func deleteAsset(id: Int, name: String) async throws {
        let url = "\(apiURL)/repos/\(repositoryPath)/releases/assets/\(id)"
        let action = "deleting asset '\(name)' (\(url))"
        let response = try await http.send(action) { try request(.delete, url) }
        guard response.isSuccess || response.status == 404 else {
            throw PublishError.refused(action: action, status: response.status, body: response.bodyText)
        }
    }

    /// Uploads `file` as asset `name`.
    public func uploadAsset(releaseID: Int, file: String, name: String, progress: HTTPProgressHandler?) async throws -> GitHubAsset {
        let url = "\(uploadURL)/repos/\(repositoryPath)/releases/\(releaseID)/assets?name=\(SigV4Signer.uriEncode(name))"
        let action = "upload of '\(file)' to '\(url)'"
        let response = try await http.sendExpectingSuccess(action, progress: progress) {
            try request(.post, url, body: .file(path: file), contentType: ContentType.of(name))
        }
        return try decode(GitHubAsset.self, from: response, action: action)
    }
}

/// A JSON value for small request bodies.
enum JSONValue: Encodable {
    case string(String)
    case bool(Bool)

    func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        switch self {
        case .string(let text): try container.encode(text)
        case .bool(let flag): try container.encode(flag)
        }
    }
}
