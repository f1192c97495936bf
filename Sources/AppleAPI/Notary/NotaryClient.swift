import Basics
import Foundation
import Transport

/// The Notary API's calls (https://developer.apple.com/documentation/notaryapi), made through an
/// `AppStoreConnectClient` whose base URL is the notary host: the same ES256 team key and token
/// (Apple: "Use the same key to sign tokens for the notary service that you use for the App
/// Store Connect API"; no `scope` claim is needed, it only narrows a token), the same retries,
/// rate-limit waits and error messages.
public struct NotaryClient: Sendable {
    /// Apple's notary host; paths are `/notary/v2/...`.
    public static let productionURL = URL(string: "https://appstoreconnect.apple.com")!
    /// The roles that may notarize (the key's role, for the 403 message).
    public static let roles = ["Admin", "App Manager", "Developer"]

    /// The client, its base URL the notary host.
    public let client: AppStoreConnectClient

    /// A client over `client` (made with the notary host as its base URL).
    public init(client: AppStoreConnectClient) {
        self.client = client
    }

    /// `POST /notary/v2/submissions` with the name, the SHA-256 and, when given, a webhook to
    /// notify: the new submission's id and where to upload.
    /// - Throws: `AppStoreConnectError`, `NotaryError.unexpectedAnswer`.
    public func submit(name: String, sha256: String, webhook: String? = nil) async throws -> NotaryUploadTicket {
        var body: [String: JSONValue] = ["submissionName": .string(name), "sha256": .string(sha256)]
        if let webhook { body["notifications"] = [["channel": "webhook", "target": .string(webhook)]] }
        let step = "POST /notary/v2/submissions"
        let answer = try await client.document(AppStoreConnectRequest(
            .post, "/notary/v2/submissions", body: .object(body), action: "start a notarization of '\(name)'", roles: Self.roles))
        guard let data = answer.first, !data.id.isEmpty else { throw NotaryError.unexpectedAnswer(step: step, problem: "no data.id") }
        let names = ["awsAccessKeyId", "awsSecretAccessKey", "awsSessionToken", "bucket", "object"]
        let values = names.map { data.string($0) ?? "" }
        if let missing = zip(names, values).first(where: { $0.1.isEmpty }) {
            throw NotaryError.unexpectedAnswer(step: step, problem: "no \(missing.0) in data.attributes")
        }
        return NotaryUploadTicket(submissionID: data.id,
                                  credentials: AWSCredentials(accessKeyID: values[0], secretAccessKey: values[1], sessionToken: values[2]),
                                  bucket: values[3], object: values[4])
    }

    /// `GET /notary/v2/submissions/{id}`.
    /// - Throws: `AppStoreConnectError`, `NotaryError.unexpectedAnswer`.
    public func submission(_ id: String) async throws -> NotarySubmission {
        let answer = try await client.document(AppStoreConnectRequest(
            .get, "/notary/v2/submissions/\(id)", action: "read notarization submission \(id)", roles: Self.roles))
        guard let data = answer.first, data.string("status") != nil else {
            throw NotaryError.unexpectedAnswer(step: "GET /notary/v2/submissions/\(id)", problem: "no data.attributes.status")
        }
        return NotarySubmission(data)
    }

    /// `GET /notary/v2/submissions`: the team's 100 most recent submissions.
    /// - Throws: `AppStoreConnectError`.
    public func recentSubmissions() async throws -> [NotarySubmission] {
        try await client.document(AppStoreConnectRequest(
            .get, "/notary/v2/submissions", action: "list recent notarization submissions", roles: Self.roles)).data
            .map(NotarySubmission.init)
    }

    /// `GET /notary/v2/submissions/{id}/logs`: the temporary URL of the developer log.
    /// - Throws: `AppStoreConnectError`, `NotaryError.unexpectedAnswer`.
    public func logURL(_ id: String) async throws -> URL {
        let answer = try await client.document(AppStoreConnectRequest(
            .get, "/notary/v2/submissions/\(id)/logs", action: "get the log of notarization submission \(id)", roles: Self.roles))
        guard let text = answer.first?.string("developerLogUrl"), let url = URL(string: text) else {
            throw NotaryError.unexpectedAnswer(step: "GET /notary/v2/submissions/\(id)/logs", problem: "no developerLogUrl")
        }
        return url
    }

    /// Downloads the developer log at `url` (a presigned URL: sent without the token), retried
    /// on 5xx and dropped connections.
    /// - Throws: `NotaryError.unreadableLog`.
    public func log(at url: URL, submissionID: String) async throws -> NotaryLog {
        let http = RetryingHTTPClient(client: client.http, policy: client.retry)
        let body: [UInt8]
        do {
            body = try await http.sendExpectingSuccess("download of the developer log") {
                HTTPRequest(method: .get, url: url, headers: ["Accept": "application/json"])
            }.body
        } catch {
            throw NotaryError.unreadableLog(submissionID: submissionID, problem: errorText(error))
        }
        do {
            return try JSONDecoder().decode(NotaryLog.self, from: Data(body))
        } catch {
            throw NotaryError.unreadableLog(submissionID: submissionID,
                                            problem: "it is not JSON (\(String(decoding: body.prefix(120), as: UTF8.self)))")
        }
    }
}
