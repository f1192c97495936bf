import Foundation

/// CONTRACT FAKE of Apple Push Notification service's provider API, for `slipway push send`:
/// HTTP/2 over TLS on 127.0.0.1 (Python's `h2` package; the certificate from a
/// `TestCertificateAuthority`, whose PEM is `caFile`), checking every request as Apple documents it
/// in https://developer.apple.com/documentation/usernotifications/sending-notification-requests-to-apns
/// and answering as https://developer.apple.com/documentation/usernotifications/handling-notification-responses-from-apns says:
/// - HTTP/2 only: a connection that negotiates HTTP/1.1 is answered 505 and recorded as such.
/// - `POST /3/device/<hex token>`; other methods 405 MethodNotAllowed, other paths 404 BadPath,
///   a token that is not hex 400 BadDeviceToken.
/// - `authorization: bearer <JWT>`: header alg ES256 and kid = the key id, claims iss = the team
///   id and iat, the ES256 signature verified with `cryptography` against the key's public key
///   (403 MissingProviderToken / InvalidProviderToken), iat older than an hour 403 ExpiredProviderToken.
/// - `apns-topic` among the fake's topics (400 MissingTopic / TopicDisallowed); `apns-push-type`
///   known (400 InvalidPushType); `apns-priority` 10, 5 or 1, and 5 for background (400
///   BadPriority); `apns-expiration` digits (400 BadExpirationDate).
/// - The payload: not empty (400 PayloadEmpty), at most 4096 bytes, 5120 for voip (413
///   PayloadTooLarge), a JSON object with `aps` (else a contract violation, answered 400).
/// - 200 with an `apns-id` (the request's own when it sent one, else a new UUID).
/// Faults (`failNext`) answer the next requests with a status and reason (410 with a timestamp).
public final class APNsContractFake: @unchecked Sendable {
    /// A recorded request and the answer it got.
    public struct Request: Decodable, Sendable {
        /// "h2" or "http/1.1".
        public let protocolName: String
        /// `:method`.
        public let method: String?
        /// `:path`.
        public let path: String?
        /// Header fields (lower-case names); `authorization` is kept.
        public let headers: [String: String]
        /// The body as text.
        public let payload: String?
        /// The status answered.
        public let status: Int
        /// The reason answered (nil for 200).
        public let reason: String?
        /// The JWT's header `kid` and claims `iss`/`iat`, when it verified.
        public let kid: String?
        public let iss: String?
        public let iat: Int?
        /// What broke the contract beyond Apple's reasons (not JSON, no `aps`).
        public let violations: [String]

        enum CodingKeys: String, CodingKey {
            case protocolName = "protocol", method, path, headers, payload, status, reason, kid, iss, iat, violations
        }
    }

    /// One injected answer.
    public struct Fault: Sendable {
        /// The status to answer.
        public let status: Int
        /// Apple's reason to answer.
        public let reason: String
        /// Milliseconds since 1970, sent with 410.
        public let timestamp: Int64?

        /// A fault answering `status` with `reason` (and `timestamp`, for 410).
        public init(status: Int, reason: String, timestamp: Int64? = nil) {
            self.status = status
            self.reason = reason
            self.timestamp = timestamp
        }
    }

    /// The trusted CA's PEM (hand it to the client as its CA file).
    public let caFile: String
    private let state: TemporaryDirectory
    private let server: PythonScriptServer

    /// Why the fake cannot run: the Python packages it needs are missing. Tests fail with this.
    public struct MissingPackages: Error, CustomStringConvertible {
        /// What is missing and how to install it.
        public let description: String
    }

    /// Starts the fake for the key `keyID` of `teamID` (its public key as PEM), accepting `topics`.
    /// - Throws: `MissingPackages` when `h2` or `cryptography` is not installed (a failure, never a skip).
    public init(keyID: String, teamID: String, publicKeyPEM: String, topics: [String]) throws {
        try Self.requirePythonModules(["h2", "cryptography"])
        state = try TemporaryDirectory(prefix: "slipway-apns")
        let authority = try TestCertificateAuthority(name: "Slipway APNs fake CA")
        let (certificate, key) = try authority.issueLoopbackServer()
        caFile = state.path + "/ca.pem"
        try Data(try authority.certificatePEM.utf8).write(to: URL(fileURLWithPath: caFile))
        try Data(certificate.utf8).write(to: URL(fileURLWithPath: state.path + "/server.pem"))
        try Data(key.utf8).write(to: URL(fileURLWithPath: state.path + "/server-key.pem"))
        try Data(publicKeyPEM.utf8).write(to: URL(fileURLWithPath: state.path + "/provider.pem"))
        server = try PythonScriptServer(script: Self.script, arguments: [state.path, keyID, teamID, topics.joined(separator: ",")],
                                        name: "apns")
    }

    /// `https://127.0.0.1:PORT`, in place of https://api.sandbox.push.apple.com.
    public var url: String { "https://127.0.0.1:\(server.port)" }

    /// Answers the next requests (after their checks pass) with `faults`, in order.
    public func failNext(_ faults: [Fault]) throws {
        let list = faults.map { fault -> [String: Any] in
            var item: [String: Any] = ["status": fault.status, "reason": fault.reason]
            if let timestamp = fault.timestamp { item["timestamp"] = timestamp }
            return item
        }
        // Atomic (a temporary file renamed over it): the server reads it while requests arrive.
        try JSONSerialization.data(withJSONObject: list).write(to: URL(fileURLWithPath: state.path + "/faults.json"), options: .atomic)
    }

    /// Every request so far, in order.
    public func requests() throws -> [Request] {
        let path = state.path + "/requests.json"
        guard FileManager.default.fileExists(atPath: path) else { return [] }
        return try JSONDecoder().decode([Request].self, from: Data(contentsOf: URL(fileURLWithPath: path)))
    }

    /// Throws `MissingPackages` naming what `python3` cannot import.
    public static func requirePythonModules(_ modules: [String]) throws {
        // off-pool: a test's set-up, run once before the fake starts.
        let result = try CommandResult.run("/usr/bin/env", ["python3", "-c", modules.map { "import \($0)" }.joined(separator: "; ")],
                                           in: FileManager.default.temporaryDirectory.path)
        guard result.status == 0 else {
            throw MissingPackages(description: "the APNs contract fake needs the Python packages \(modules.joined(separator: ", ")) "
                + "(python3 -m pip install \(modules.joined(separator: " ")), or run scripts/setup.sh): \(result.standardError)")
        }
    }
}
