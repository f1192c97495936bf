import Foundation

/// CONTRACT FAKE — not Apple. A loopback server implementing the App Store Connect API calls
/// Slipway makes, as Apple documents them, so that clients are tested without Apple:
///
/// - Tokens: https://developer.apple.com/documentation/appstoreconnectapi/generating-tokens-for-api-requests
///   (ES256, `kid`, `typ`, `iss`/`sub: user`, `iat`, `exp` ≤ 20 min, `aud: appstoreconnect-v1`).
///   EVERY request's JWT is checked: header, claims, the expiry window and the signature, with
///   the key's public key through Python's `cryptography` (independent of swift-crypto).
/// - Rate limits: https://developer.apple.com/documentation/appstoreconnectapi/identifying-rate-limits
///   (`X-Rate-Limit: user-hour-lim:N;user-hour-rem:M` on every answer; 429 past it).
/// - Errors: https://developer.apple.com/documentation/appstoreconnectapi/interpreting-and-handling-errors
///   (`{"errors": [{"status", "code", "title", "detail"}]}`; 401 NOT_AUTHORIZED, 403 FORBIDDEN_ERROR,
///   404 NOT_FOUND, 409 ENTITY_ERROR..., 429 RATE_LIMIT_EXCEEDED).
/// - Apps: https://developer.apple.com/documentation/appstoreconnectapi/get-v1-apps
///   (`filter[bundleId]`, `fields[apps]`, `limit`, `links.next` paging).
/// - EVERY request and EVERY answer is validated against Apple's OpenAPI document 4.4.1
///   (`openAPIDocumentPath`; as vendored in AvdLee/appstoreconnect-swift-sdk,
///   Sources/OpenAPI/app_store_connect_api.json): paths, methods, query parameters and their enum
///   values, request and response bodies, strictly (see `AppStoreConnectContractFake+OpenAPI`).
///   Not in that document, so checked only by their sections: the upload operations' part PUTs
///   (`/upload-parts/...`, Apple's storage hosts) and the Notary API (`/notary/v2/...`).
///
/// Undocumented requests (unknown paths or query parameters, a wrong content type, a body that is
/// not the JSON:API shape) are answered 400/404 AND recorded in `State.violations`, as are answers
/// the document does not allow. When the fake is released, violations nobody took with
/// `acknowledgeViolations()` go to `onViolations` (tests record an issue), so no test can forget
/// to check. Where the document is silent, the setting `linkage` (`"always"`, `"included_only"`)
/// answers relationship linkage either way Apple's pages allow. Not modelled: real rate-limit accounting, pagination beyond `cursor`,
/// relationships' `links`, anything not listed above or in a section.
///
/// Extending it: the Python script is the `core` below, then each entry of `sections` (apps and
/// build uploads here; colleagues add TestFlight, App Store review and Notary sections as
/// separate strings), then `serve`. A section registers handlers with
/// `@route("METHOD", r"/v1/regex/(?P<id>[^/]+)", params=[...])` and keeps resources in the shared
/// `store` through `put`/`get`/`find`, and reads `SETTINGS` (set through `/_control`).
/// Control endpoints (not Apple's): `POST /_control` (`faults`, `settings`, `clock_offset`),
/// `POST /_seed` (a resource), `GET /_state`.
public final class AppStoreConnectContractFake: @unchecked Sendable {
    /// A key the fake accepts: the issuer id (nil for an individual key), key id and public key.
    public struct Key: Sendable {
        public var issuerID: String?
        public var keyID: String
        public var publicKeyPEM: String

        public init(issuerID: String?, keyID: String, publicKeyPEM: String) {
            self.issuerID = issuerID
            self.keyID = keyID
            self.publicKeyPEM = publicKeyPEM
        }
    }

    /// A fault: answer (or hang up on) the next `times` requests whose method and path match.
    public struct Fault: Sendable {
        var json: String

        /// Answer `status` (with `Retry-After` when given, and Apple's error shape); with
        /// `echoToken`, the error's detail quotes the request's `Authorization` header (the JWT),
        /// as a careless server does.
        public static func status(_ status: Int, method: String? = nil, path: String? = nil, times: Int = 1,
                                  retryAfter: Int? = nil, code: String? = nil, echoToken: Bool = false) -> Fault {
            var fields = ["\"status\": \(status)", "\"times\": \(times)"]
            if echoToken { fields.append("\"echo_token\": true") }
            if let method { fields.append("\"method\": \(quoted(method))") }
            if let path { fields.append("\"path\": \(quoted(path))") }
            if let retryAfter { fields.append("\"retry_after\": \(retryAfter)") }
            if let code { fields.append("\"code\": \(quoted(code))") }
            return Fault(json: "{" + fields.joined(separator: ", ") + "}")
        }

        /// Read `afterBytes` of the body, then drop the connection without answering.
        public static func drop(method: String? = nil, path: String? = nil, afterBytes: Int = 0, times: Int = 1) -> Fault {
            var fields = ["\"drop\": true", "\"drop_after\": \(afterBytes)", "\"times\": \(times)"]
            if let method { fields.append("\"method\": \(quoted(method))") }
            if let path { fields.append("\"path\": \(quoted(path))") }
            return Fault(json: "{" + fields.joined(separator: ", ") + "}")
        }
    }

    /// One logged request.
    public struct LoggedRequest: Decodable, Sendable {
        /// The method.
        public var method: String
        /// The path without the query.
        public var path: String
        /// The raw query.
        public var query: String
        /// The status answered (0 for a dropped connection).
        public var status: Int
        /// The JSON body, as text, when there was one.
        public var body: String?
        /// For upload parts: the bytes received and their SHA-256.
        public var received: Int?
        public var sha256: String?

        /// `METHOD path`.
        public var line: String { "\(method) \(path)" }
    }

    /// What the fake saw and holds.
    public struct State: Decodable, Sendable {
        /// Every request outside the control endpoints, in order.
        public var requests: [LoggedRequest]
        /// Contract violations: requests the client made and answers the fake gave that Apple's
        /// OpenAPI document (or the section's own checks) does not allow.
        public var violations: [String]
    }

    /// Why the fake did not start.
    public struct SetupError: Error, CustomStringConvertible {
        public let description: String
    }

    private let server: PythonScriptServer
    private let onViolations: @Sendable ([String]) -> Void

    /// Starts the fake accepting `keys`, with the Python `sections` after the core.
    ///
    /// - Parameters:
    ///   - openAPIDocument: Apple's OpenAPI document (gzipped JSON).
    ///   - onViolations: called when the fake is released with contract violations
    ///     nobody took through `acknowledgeViolations()` (tests record an issue there, so no test
    ///     can forget to check them).
    /// - Throws: `SetupError` when Apple's OpenAPI document is missing (a test failure, never a
    ///   skip); `PythonScriptServer.StartError`.
    public init(keys: [Key], sections: [String] = AppStoreConnectContractFake.standardSections,
                openAPIDocument: String = AppStoreConnectContractFake.openAPIDocumentPath,
                onViolations: @escaping @Sendable ([String]) -> Void) throws {
        let spec = openAPIDocument
        guard FileManager.default.fileExists(atPath: spec) else {
            throw SetupError(description: "Apple's OpenAPI document is not at '\(spec)': put app-store-connect-openapi-4.4.1.json.gz "
                             + "in ../shared/apple beside the repository, or set SLIPWAY_ASC_OPENAPI to its path")
        }
        let config = "{\"spec\": \(Self.quoted(spec)), \"keys\": [" + keys.map { key in
            "{\"issuer_id\": \(key.issuerID.map(Self.quoted) ?? "null"), \"key_id\": \(Self.quoted(key.keyID)), "
                + "\"public_key\": \(Self.quoted(key.publicKeyPEM))}"
        }.joined(separator: ", ") + "]}"
        let script = ([Self.core, Self.openAPI] + sections + [Self.serve]).joined(separator: "\n\n")
        server = try PythonScriptServer(script: script, arguments: [config], name: "appstoreconnect-contract-fake")
        self.onViolations = onViolations
    }

    deinit {
        // Blocking, like every control call: tests run on dedicated threads, off the cooperative pool.
        let left = (try? state().violations) ?? ["the contract fake's state could not be read at the end of the test"]
        if !left.isEmpty { onViolations(left) }
    }

    /// The violations so far, which are then cleared (for tests that provoke them on purpose).
    public func acknowledgeViolations() throws -> [String] {
        try JSONDecoder().decode([String].self, from: server.get("/_acknowledge"))
    }

    /// The API base URL (in place of https://api.appstoreconnect.apple.com).
    public var baseURL: URL { URL(string: server.url()) ?? URL(fileURLWithPath: "/") }

    /// The base URL as text.
    public var url: String { server.url() }

    /// Queues faults, applied in order to matching requests.
    public func inject(_ faults: Fault...) throws {
        try server.post("/_control", json: "{\"faults\": [" + faults.map(\.json).joined(separator: ", ") + "]}")
    }

    /// Sets values the sections read (e.g. `processing_polls`), as JSON text per name.
    public func set(_ settings: [String: String]) throws {
        let body = settings.sorted { $0.key < $1.key }.map { "\(Self.quoted($0.key)): \($0.value)" }.joined(separator: ", ")
        try server.post("/_control", json: "{\"settings\": {\(body)}}")
    }

    /// Moves the fake's clock (for token-expiry tests with an injected client clock).
    public func setClockOffset(seconds: Int) throws {
        try server.post("/_control", json: "{\"clock_offset\": \(seconds)}")
    }

    /// Adds a resource as if it existed already; returns its id.
    /// - Parameters:
    ///   - attributes: JSON object text, e.g. `{"bundleId": "com.example.app", "name": "Example"}`.
    ///   - relationships: name → JSON linkage text, e.g. `["app": #"{"type": "apps", "id": "1"}"#]`.
    @discardableResult
    public func seed(_ type: String, id: String? = nil, attributes: String = "{}", relationships: [String: String] = [:]) throws
        -> String {
        let links = relationships.sorted { $0.key < $1.key }.map { "\(Self.quoted($0.key)): \($0.value)" }.joined(separator: ", ")
        let body = "{\"type\": \(Self.quoted(type)), \"id\": \(id.map(Self.quoted) ?? "null"), \"attributes\": \(attributes), "
            + "\"relationships\": {\(links)}}"
        let answer = try PythonScriptServer.request("POST", server.url("/_seed"), body: Data(body.utf8))
        return String(decoding: answer, as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines)
    }

    /// Adds several resources at once (one request, for long histories); returns their ids in order.
    /// - Parameter resources: each `(type, attributes, relationships)` as `seed` takes them.
    public func seed(_ resources: [(type: String, attributes: String, relationships: [String: String])]) throws -> [String] {
        guard !resources.isEmpty else { return [] }
        let body = "[" + resources.map { resource in
            let links = resource.relationships.sorted { $0.key < $1.key }.map { "\(Self.quoted($0.key)): \($0.value)" }.joined(separator: ", ")
            return "{\"type\": \(Self.quoted(resource.type)), \"attributes\": \(resource.attributes), \"relationships\": {\(links)}}"
        }.joined(separator: ", ") + "]"
        let answer = try PythonScriptServer.request("POST", server.url("/_seed"), body: Data(body.utf8))
        return String(decoding: answer, as: UTF8.self).split(separator: "\n").map(String.init)
    }

    /// Seeds an app; returns its id.
    @discardableResult
    public func seedApp(bundleID: String, name: String, id: String? = nil) throws -> String {
        try seed("apps", id: id, attributes: "{\"bundleId\": \(Self.quoted(bundleID)), \"name\": \(Self.quoted(name)), "
                 + "\"sku\": \(Self.quoted(bundleID.uppercased())), \"primaryLocale\": \"en-US\"}")
    }

    /// The request log and contract violations.
    public func state() throws -> State {
        try JSONDecoder().decode(State.self, from: server.get("/_state"))
    }

    /// The resources of `type` in the store, as JSON text (for assertions by colleagues' tests).
    public func resources(_ type: String) throws -> Data {
        try server.get("/_store/" + type)
    }

    static func quoted(_ text: String) -> String {
        let data = (try? JSONSerialization.data(withJSONObject: [text], options: [])) ?? Data("[\"\"]".utf8)
        return String(String(decoding: data, as: UTF8.self).dropFirst().dropLast())
    }
}
