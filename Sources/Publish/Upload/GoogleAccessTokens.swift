import Basics
import Foundation
import Transport

/// OAuth 2 access tokens for a service account, made through the JWT-bearer grant
/// (https://developers.google.com/identity/protocols/oauth2/service-account#authorizingrequests):
/// a signed assertion POSTed form-encoded to the account's `token_uri`. A token is kept until a
/// minute before it expires, or until a caller says it was refused (`refresh`).
public actor GoogleAccessTokens {
    /// The scope Firebase App Distribution's API requires.
    public static let cloudPlatformScope = "https://www.googleapis.com/auth/cloud-platform"
    private let account: GoogleServiceAccount
    private let scope: String
    private let http: PublishHTTPClient
    private let now: @Sendable () -> Date
    private let onSecret: @Sendable (String) -> Void
    private var token: (value: String, expires: Date)?

    /// Tokens for `account` with `scope`; `onSecret` receives every assertion and token made,
    /// so that the caller can mask them in output.
    public init(account: GoogleServiceAccount, scope: String = GoogleAccessTokens.cloudPlatformScope, http: RetryingHTTPClient,
                now: @escaping @Sendable () -> Date, onSecret: @escaping @Sendable (String) -> Void) {
        self.account = account
        self.scope = scope
        self.http = PublishHTTPClient(http)
        self.now = now
        self.onSecret = onSecret
    }

    /// A token valid for at least another minute.
    /// - Throws: `PublishError.serviceRefused` when Google refuses the assertion,
    ///   `.failedAfterRetries`, `.unexpectedResponse`.
    public func current() async throws -> String {
        if let token, token.expires.timeIntervalSince(now()) > 60 { return token.value }
        return try await refresh()
    }

    /// A new token, whatever the one held.
    /// - Throws: as `current`.
    public func refresh() async throws -> String {
        guard let url = URL(string: account.tokenURI) else {
            throw PublishError.malformedServiceAccount(source: "for \(account.clientEmail)", problem: "its token_uri is not a URL")
        }
        let issued = now()
        let assertion = try account.assertion(scope: scope, now: issued)
        onSecret(assertion)
        let form = "grant_type=" + Self.formEncode("urn:ietf:params:oauth:grant-type:jwt-bearer") + "&assertion=" + Self.formEncode(assertion)
        let action = "the access token request for '\(account.clientEmail)' to '\(account.tokenURI)'"
        let response = try await http.send(action) {
            HTTPRequest(method: .post, url: url, headers: ["Content-Type": "application/x-www-form-urlencoded", "Accept": "application/json"],
                        body: .bytes(Array(form.utf8)))
        }
        let object = (try? JSONSerialization.jsonObject(with: Data(response.body))) as? [String: Any]
        guard response.isSuccess else {
            let error = object?["error"] as? String ?? "HTTP \(response.status)"
            let description = object?["error_description"] as? String
            throw PublishError.serviceRefused(
                service: "Google's token endpoint", action: action, status: response.status,
                message: description.map { "\(error): \($0)" } ?? error,
                advice: "Check that the service account key is current (not deleted or disabled) and the machine's clock is right.")
        }
        guard let value = object?["access_token"] as? String, !value.isEmpty else {
            throw PublishError.unexpectedResponse(action: action, problem: "it has no access_token")
        }
        onSecret(value)
        let lifetime = (object?["expires_in"] as? Double) ?? 3600
        token = (value, issued.addingTimeInterval(lifetime))
        return value
    }

    /// `application/x-www-form-urlencoded` escaping: everything but unreserved characters.
    static func formEncode(_ text: String) -> String {
        var allowed = CharacterSet.alphanumerics
        allowed.insert(charactersIn: "-._~")
        return text.addingPercentEncoding(withAllowedCharacters: allowed) ?? text
    }
}
