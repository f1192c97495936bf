import Basics
import Foundation
import Transport

/// What a DeployGate upload says besides the binary: the fields of DeployGate's upload API
/// (https://docs.deploygate.com/docs/api/application/upload).
public struct DeployGateUpload: Sendable, Hashable {
    /// The user or organization that owns the app (`{OWNER_NAME}` in the URL).
    public var owner: String
    /// A description of this build (`message`).
    public var message: String?
    /// The distribution page to update, by its key (`distribution_key`); wins over the name.
    public var distributionKey: String?
    /// The distribution page to update or create, by name (`distribution_name`).
    public var distributionName: String?
    /// The message shown on the distribution page (`release_note`).
    public var releaseNote: String?
    /// True to send no notification e-mails (`disable_notify`, iOS only).
    public var disableNotify: Bool

    /// Creates a value.
    public init(owner: String, message: String? = nil, distributionKey: String? = nil, distributionName: String? = nil,
                releaseNote: String? = nil, disableNotify: Bool = false) {
        self.owner = owner
        self.message = message
        self.distributionKey = distributionKey
        self.distributionName = distributionName
        self.releaseNote = releaseNote
        self.disableNotify = disableNotify
    }

    /// The form fields, in the documented order, empty ones left out.
    var formFields: [(name: String, value: String)] {
        var fields: [(name: String, value: String)] = []
        if let message { fields.append(("message", message)) }
        if let distributionKey { fields.append(("distribution_key", distributionKey)) }
        if let distributionName { fields.append(("distribution_name", distributionName)) }
        if let releaseNote { fields.append(("release_note", releaseNote)) }
        if disableNotify { fields.append(("disable_notify", "true")) }
        return fields
    }
}

/// The revision DeployGate made of an upload.
public struct DeployGateRevision: Sendable, Hashable {
    /// The app's name.
    public var name: String
    /// The bundle id or package name.
    public var packageName: String
    /// The revision number DeployGate assigned (it counts up per app).
    public var revision: Int
    /// The app's page on DeployGate (`https://deploygate.com` + `path`).
    public var url: String
    /// Where the binary can be downloaded (`file`), when DeployGate says.
    public var downloadURL: String?
}

/// Uploads a binary to DeployGate: one multipart POST to `/api/users/{owner}/apps` with the
/// API key in `Authorization: Bearer` (the documented header; the older `token` form field is
/// not sent, so the key never sits in a body file on disk). The body is written to a temporary
/// file and streamed from there. Retried on 5xx and dropped connections, never on 4xx;
/// DeployGate's JSON errors (`error: true` with `message`/`because`) become `serviceRefused`.
public struct DeployGateClient: Sendable {
    /// DeployGate's site (the API lives under `/api`).
    public static let defaultBaseURL = "https://deploygate.com"
    private let baseURL: String
    private let token: String
    private let http: PublishHTTPClient
    private let fileSystem: any FileSystem
    private let streams: any FileStreams
    private let boundary: String

    /// A client authenticating with the API key `token`.
    public init(baseURL: String = DeployGateClient.defaultBaseURL, token: String, http: RetryingHTTPClient,
                fileSystem: any FileSystem, streams: any FileStreams, boundary: String = "slipway-" + UUID().uuidString) {
        self.baseURL = baseURL.hasSuffix("/") ? String(baseURL.dropLast()) : baseURL
        self.token = token
        self.http = PublishHTTPClient(http)
        self.fileSystem = fileSystem
        self.streams = streams
        self.boundary = boundary
    }

    /// The upload URL for `owner`.
    public func endpoint(owner: String) -> String {
        "\(baseURL)/api/users/\(SigV4Signer.uriEncode(owner))/apps"
    }

    /// Uploads `file` as `upload` says.
    /// - Throws: `PublishError.serviceRefused` (DeployGate's error, 4xx), `.failedAfterRetries`,
    ///   `.unexpectedResponse`, `FileSystemError` when the file cannot be read.
    public func upload(_ file: UploadFile, _ upload: DeployGateUpload, progress: HTTPProgressHandler?) async throws
        -> DeployGateRevision {
        let url = endpoint(owner: upload.owner)
        guard let target = URL(string: url) else {
            throw PublishError.invalidConfiguration(name: url, problem: "is not a valid URL")
        }
        let form = MultipartForm(boundary: boundary, fields: upload.formFields)
        let body = try form.write(file: file, fileField: "file", streams: streams, fileSystem: fileSystem)
        defer { MultipartForm.remove(body, fileSystem: fileSystem) }
        let action = "the DeployGate upload of '\(file.name)' to '\(upload.owner)'"
        let headers: HTTPHeaders = ["Authorization": "Bearer \(token)", "Content-Type": form.contentType, "Accept": "application/json"]
        let response = try await http.send(action, progress: progress) {
            HTTPRequest(method: .post, url: target, headers: headers, body: .file(path: body), timeout: .seconds(300))
        }
        return try Self.revision(from: response, action: action, baseURL: baseURL)
    }

    /// Reads DeployGate's answer: `{"error": false, "results": {...}}` or an error.
    static func revision(from response: HTTPResponse, action: String, baseURL: String) throws -> DeployGateRevision {
        let object = (try? JSONSerialization.jsonObject(with: Data(response.body))) as? [String: Any]
        if !response.isSuccess || (object?["error"] as? Bool) == true {
            let message = (object?["message"] as? String) ?? (object?["because"] as? String)
                ?? response.bodyText.trimmingCharacters(in: .whitespacesAndNewlines)
            throw PublishError.serviceRefused(service: "DeployGate", action: action, status: response.status,
                                              message: message.isEmpty ? "no reason given" : String(message.prefix(300)),
                                              advice: advice(status: response.status, message: message))
        }
        guard let results = object?["results"] as? [String: Any], let path = results["path"] as? String else {
            throw PublishError.unexpectedResponse(action: action, problem: "no results.path in \(PublishError.excerpt(response.bodyText))")
        }
        let revision = (results["revision"] as? Int) ?? Int("\(results["revision"] ?? "")") ?? 0
        return DeployGateRevision(name: results["name"] as? String ?? "", packageName: results["package_name"] as? String ?? "",
                                  revision: revision, url: baseURL + path, downloadURL: results["file"] as? String)
    }

    private static func advice(status: Int, message: String) -> String {
        if status == 401 || message.contains("not authenticated") {
            return "Check the API key in 'token' (DeployGate → Account settings → Profile → API key)."
        }
        if status == 403 || message.contains("permit") {
            return "Check 'owner': the key's user must be an owner or developer of that user or organization."
        }
        if status == 404 { return "Check 'owner' and 'distribution-key'." }
        return "Check the options of the upload step; 4xx answers are not retried."
    }
}
