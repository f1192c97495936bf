import Foundation

/// CONTRACT FAKE — not Google. A loopback server implementing the documented endpoints the
/// upload step calls for Firebase App Distribution, with Google's OAuth token endpoint beside
/// them, so that the client can be tested without the internet:
///
/// - `POST /token` (form: `grant_type=urn:ietf:params:oauth:grant-type:jwt-bearer&assertion=JWT`):
///   the JWT's header (`alg` RS256, `typ` JWT, `kid`), claims (`iss` = client_email, `scope` with
///   cloud-platform, `aud` = token_uri, `iat` near now, `exp` at most an hour later) and its
///   RS256 signature, verified with the service account's public key (Python `cryptography`)
///   → `{access_token, expires_in, token_type}` | 400 `{error: invalid_grant, error_description}`.
/// - `POST /upload/v1/projects/{n}/apps/{app}/releases:upload` (headers `X-Goog-Upload-Protocol:
///   raw`, `X-Goog-Upload-File-Name`; raw body) → an Operation `{name}`.
/// - `GET /v1/{operation}` → `{name, done: false}` until N polls, then `{done: true, response:
///   {result, release}}` (`RELEASE_CREATED`, or `RELEASE_UNMODIFIED` for the same bytes again).
/// - `PATCH /v1/{release}?updateMask=release_notes.text` with `{name, releaseNotes: {text}}`.
/// - `POST /v1/{release}:distribute` with `{testerEmails, groupAliases}`; 400 for an unknown alias.
/// Every API call needs `Authorization: Bearer` with a token this fake issued (401 otherwise);
/// errors have Google's shape `{"error": {code, message, status}}`.
///
/// Documents relied on: https://firebase.google.com/docs/reference/app-distribution/rest/v1/upload.v1.projects.apps.releases/upload,
/// .../rest/v1/projects.apps.releases.operations/get, .../rest/v1/projects.apps.releases/patch,
/// .../rest/v1/projects.apps.releases/distribute, .../rest/v1/projects.apps.releases#Release,
/// .../rest/v1/UploadReleaseResponse, https://developers.google.com/identity/protocols/oauth2/service-account
/// (the JWT-bearer grant) and RFC 7523. Anything else is recorded as a violation and refused
/// with 400. Not modelled: quotas, Android App Bundle checks, binary validation, tester limits.
public final class FirebaseContractFake: @unchecked Sendable {
    private let server: PythonScriptServer
    /// The app the fake knows.
    public let appID: String
    /// The service account's JSON key (its private key made by the fake at start), whose
    /// `token_uri` is this fake's `/token`.
    public let serviceAccountJSON: String

    /// Starts the fake for `appID`, which tester groups `groups` exist in.
    public init(appID: String = "1:1234567890:ios:0a1b2c3d4e5f6789", groups: [String] = ["qa", "beta"]) throws {
        self.appID = appID
        server = try PythonScriptServer(script: Self.script, arguments: [appID, groups.joined(separator: ",")], name: "firebase-contract-fake")
        serviceAccountJSON = String(decoding: try server.get("/_service_account"), as: UTF8.self)
    }

    /// The API base URL (`firebase-url`).
    public var baseURL: String { server.url() }

    /// Fault injection: `fail` uploads answer 500, `drop` uploads lose their connection mid-body,
    /// `unauthorized` API calls answer 401 whatever the token, `polls` polls before an operation
    /// is done, `neverDone` keeps operations running for ever.
    public func inject(fail: Int = 0, drop: Int = 0, unauthorized: Int = 0, polls: Int = 2, neverDone: Bool = false) throws {
        try server.post("/_control", json: """
            {"fail": \(fail), "drop": \(drop), "unauthorized": \(unauthorized), "polls": \(polls), "never_done": \(neverDone)}
            """)
    }

    /// A PEM private key that is not RSA (P-256), for bad-input tests.
    public func ecPrivateKeyPEM() throws -> String {
        String(decoding: try server.get("/_ec_key"), as: UTF8.self)
    }

    /// The fake's state.
    public struct State: Decodable, Sendable {
        /// One release.
        public struct Release: Decodable, Sendable {
            public var name: String
            public var sha256: String
            public var size: Int
            public var filename: String
            public var notes: String?
            public var testers: [String]
            public var groups: [String]
        }
        public var releases: [Release]
        /// "METHOD path" of every request, in order (`/token` included).
        public var requests: [String]
        /// What the client sent that the documents do not allow (empty when it kept the contract).
        public var violations: [String]
        /// The access tokens issued, in order.
        public var tokens: [String]
    }

    /// The releases, request log, violations and tokens.
    public func state() throws -> State {
        try JSONDecoder().decode(State.self, from: server.get("/_state"))
    }

    static let script = FirebaseContractFakeScript.text
}
