import Basics
import Foundation
import Transport

/// A Firebase app id, `1:1234567890:ios:0a1b2c3d4e5f6789` (Firebase console → Project settings →
/// Your apps), and the project number inside it.
public struct FirebaseAppID: Sendable, Hashable, CustomStringConvertible {
    /// The whole id.
    public let description: String
    /// The project number (its second field).
    public let projectNumber: String

    /// Parses `text`; nil unless it has the four fields `version:project-number:platform:hex`.
    public init?(_ text: String) {
        let fields = text.split(separator: ":", omittingEmptySubsequences: false)
        guard fields.count == 4, fields[0].allSatisfy(\.isASCIIDigitish), !fields[0].isEmpty,
              fields[1].allSatisfy(\.isASCIIDigitish), !fields[1].isEmpty,
              ["ios", "android", "web"].contains(fields[2]), !fields[3].isEmpty, fields[3].allSatisfy(\.isHexDigit) else { return nil }
        description = text
        projectNumber = String(fields[1])
    }

    /// `projects/{projectNumber}/apps/{appId}`.
    public var resourceName: String { "projects/\(projectNumber)/apps/\(description)" }
}

extension Character {
    fileprivate var isASCIIDigitish: Bool { isASCII && isNumber }
}

/// A release of Firebase App Distribution, as the API describes it.
public struct FirebaseRelease: Sendable, Hashable {
    /// `projects/{n}/apps/{app}/releases/{id}`.
    public var name: String
    /// The version people see (CFBundleShortVersionString, versionName).
    public var displayVersion: String
    /// The build (CFBundleVersion, versionCode).
    public var buildVersion: String
    /// The release's page in the Firebase console.
    public var consoleURI: String?
    /// The link testers open.
    public var testingURI: String?
}

/// What an upload's long-running operation says.
public enum FirebaseOperationState: Sendable, Hashable {
    /// Still working; the text describes what the operation says so far.
    case running(String)
    /// Done: the release and `RELEASE_CREATED`, `RELEASE_UPDATED` or `RELEASE_UNMODIFIED`.
    case done(FirebaseRelease, result: String)
    /// Done with an error (Google's status message).
    case failed(String)
}

/// Firebase App Distribution's REST API (https://firebase.google.com/docs/reference/app-distribution/rest):
/// `releases:upload` (raw body), operations, release notes and `:distribute`. Every call carries
/// a service account's access token; a 401 makes one new token and one more try.
public struct FirebaseDistributionClient: Sendable {
    /// The API's host.
    public static let defaultBaseURL = "https://firebaseappdistribution.googleapis.com"
    private let baseURL: String
    private let app: FirebaseAppID
    private let tokens: GoogleAccessTokens
    private let http: PublishHTTPClient

    /// A client for `app`.
    public init(baseURL: String = FirebaseDistributionClient.defaultBaseURL, app: FirebaseAppID, tokens: GoogleAccessTokens,
                http: RetryingHTTPClient) {
        self.baseURL = baseURL.hasSuffix("/") ? String(baseURL.dropLast()) : baseURL
        self.app = app
        self.tokens = tokens
        self.http = PublishHTTPClient(http)
    }

    /// Sends `file`'s bytes; returns the name of the operation to poll.
    /// - Throws: `PublishError.serviceRefused` (4xx), `.failedAfterRetries`, `.unexpectedResponse`.
    public func upload(_ file: UploadFile, progress: HTTPProgressHandler?) async throws -> String {
        let headers: HTTPHeaders = ["X-Goog-Upload-Protocol": "raw", "X-Goog-Upload-File-Name": file.name,
                                    "Content-Type": "application/octet-stream"]
        let object = try await call("the upload of '\(file.name)' to Firebase app '\(app)'", .post,
                                    "/upload/v1/\(app.resourceName)/releases:upload", headers: headers,
                                    body: .file(path: file.path), progress: progress, timeout: .seconds(300))
        guard let name = object["name"] as? String, !name.isEmpty else {
            throw PublishError.unexpectedResponse(action: "the upload of '\(file.name)'", problem: "the operation has no name")
        }
        return name
    }

    /// The state of the operation `name`.
    /// - Throws: as `upload`.
    public func operation(_ name: String) async throws -> FirebaseOperationState {
        let action = "reading the Firebase operation '\(name)'"
        let object = try await call(action, .get, "/v1/\(name)")
        guard object["done"] as? Bool == true else {
            let metadata = (object["metadata"] as? [String: Any]).flatMap { try? JSONSerialization.data(withJSONObject: $0, options: .sortedKeys) }
            return .running("not done" + (metadata.map { ", metadata " + String(decoding: $0, as: UTF8.self) } ?? ""))
        }
        if let error = object["error"] as? [String: Any] {
            return .failed((error["message"] as? String) ?? "code \(error["code"] ?? "?")")
        }
        guard let response = object["response"] as? [String: Any], let release = response["release"] as? [String: Any],
              let releaseName = release["name"] as? String else {
            throw PublishError.unexpectedResponse(action: action, problem: "it is done but names no release")
        }
        return .done(FirebaseRelease(name: releaseName, displayVersion: release["displayVersion"] as? String ?? "",
                                     buildVersion: release["buildVersion"] as? String ?? "",
                                     consoleURI: release["firebaseConsoleUri"] as? String, testingURI: release["testingUri"] as? String),
                     result: response["result"] as? String ?? "UPLOAD_RELEASE_RESULT_UNSPECIFIED")
    }

    /// Sets the release's notes (`PATCH ?updateMask=release_notes.text`).
    /// - Throws: as `upload`.
    public func setReleaseNotes(_ release: String, _ text: String) async throws {
        let body: [String: Any] = ["name": release, "releaseNotes": ["text": text]]
        _ = try await call("setting the release notes of '\(release)'", .patch, "/v1/\(release)?updateMask=release_notes.text",
                           headers: ["Content-Type": "application/json"], body: .bytes(Self.json(body)))
    }

    /// Gives testers (e-mail addresses) and groups (aliases) access to the release.
    /// - Throws: as `upload`; a 400 when a group alias does not exist.
    public func distribute(_ release: String, testers: [String], groups: [String]) async throws {
        let body: [String: Any] = ["testerEmails": testers, "groupAliases": groups]
        _ = try await call("distributing '\(release)' to testers", .post, "/v1/\(release):distribute",
                           headers: ["Content-Type": "application/json"], body: .bytes(Self.json(body)))
    }

    /// One authorized call; the JSON object it answers.
    private func call(_ action: String, _ method: HTTPMethod, _ path: String, headers: HTTPHeaders = [:], body: HTTPBody? = nil,
                      progress: HTTPProgressHandler? = nil, timeout: Duration? = nil) async throws -> [String: Any] {
        guard let url = URL(string: baseURL + path) else {
            throw PublishError.invalidConfiguration(name: baseURL + path, problem: "is not a valid URL")
        }
        func send(_ token: String) async throws -> HTTPResponse {
            var all = headers
            all["Authorization"] = "Bearer \(token)"
            all["Accept"] = "application/json"
            return try await http.send(action, progress: progress) {
                HTTPRequest(method: method, url: url, headers: all, body: body, timeout: timeout)
            }
        }
        var response = try await send(try await tokens.current())
        if response.status == 401 { response = try await send(try await tokens.refresh()) }
        let object = (try? JSONSerialization.jsonObject(with: Data(response.body))) as? [String: Any]
        guard response.isSuccess else {
            let error = object?["error"] as? [String: Any]
            let message = (error?["message"] as? String) ?? response.bodyText.trimmingCharacters(in: .whitespacesAndNewlines)
            throw PublishError.serviceRefused(service: "Firebase App Distribution", action: action, status: response.status,
                                              message: message.isEmpty ? "no reason given" : String(message.prefix(300)),
                                              advice: advice(response.status))
        }
        return object ?? [:]
    }

    private func advice(_ status: Int) -> String {
        switch status {
        case 401: return "The access token was refused twice; check that the service account key is current."
        case 403: return "Give the service account the 'Firebase App Distribution Admin' role in the project's IAM settings."
        case 404: return "Check 'app-id' (Firebase console → Project settings → Your apps → App ID) and that the account belongs to its project."
        default: return "Check the step's options; 4xx answers are not retried."
        }
    }

    private static func json(_ object: [String: Any]) -> [UInt8] {
        Array((try? JSONSerialization.data(withJSONObject: object, options: [.sortedKeys, .withoutEscapingSlashes])) ?? Data("{}".utf8))
    }
}
