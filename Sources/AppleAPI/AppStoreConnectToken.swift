import Crypto
import Foundation

/// A signed App Store Connect JSON Web Token (ES256) and its validity.
///
/// Header `{"alg":"ES256","kid":KEY,"typ":"JWT"}`; claims `iss` (team keys) or `sub: "user"`
/// (individual keys), `iat`, `exp` (at most 20 minutes after `iat`, as Apple requires) and
/// `aud: "appstoreconnect-v1"`; the signature is P-256 ECDSA over SHA-256 as raw r‖s (64 bytes),
/// base64url without padding. The value is a secret: never print it.
public struct AppStoreConnectToken: Sendable, Hashable {
    /// The compact JWT, `header.claims.signature`, sent as `Authorization: Bearer <value>`.
    public let value: String
    /// `iat`.
    public let issuedAt: Date
    /// `exp`.
    public let expiresAt: Date

    /// Apple's longest allowed lifetime: 20 minutes.
    public static let longestLifetime: Duration = .seconds(20 * 60)
    /// The audience every App Store Connect token names.
    public static let audience = "appstoreconnect-v1"

    /// Signs a token for `key`, issued at `now` (whole seconds) and valid for `lifetime` (capped
    /// at 20 minutes).
    /// - Throws: errors from the signer (none in practice for a valid P-256 key).
    public static func make(key: AppStoreConnectKey, now: Date, lifetime: Duration = .seconds(19 * 60)) throws
        -> AppStoreConnectToken {
        let issued = Int64(now.timeIntervalSince1970.rounded(.down))
        let seconds = min(max(lifetime.components.seconds, 1), longestLifetime.components.seconds)
        let expires = issued + seconds
        // Key and issuer ids were checked (letters, digits, '-'), so no JSON escaping is needed.
        let header = #"{"alg":"ES256","kid":"\#(key.keyID)","typ":"JWT"}"#
        let subject: String
        switch key.kind {
        case .team(let issuerID): subject = #""iss":"\#(issuerID)""#
        case .individual: subject = #""sub":"user""#
        }
        let claims = #"{\#(subject),"iat":\#(issued),"exp":\#(expires),"aud":"\#(audience)"}"#
        let signingInput = base64URL(Array(header.utf8)) + "." + base64URL(Array(claims.utf8))
        let signature = try key.privateKey.signature(for: Data(signingInput.utf8))
        return AppStoreConnectToken(value: signingInput + "." + base64URL(Array(signature.rawRepresentation)),
                                    issuedAt: Date(timeIntervalSince1970: TimeInterval(issued)),
                                    expiresAt: Date(timeIntervalSince1970: TimeInterval(expires)))
    }

    /// Base64url without padding (RFC 7515 §2).
    static func base64URL(_ bytes: [UInt8]) -> String {
        Data(bytes).base64EncodedString()
            .replacingOccurrences(of: "+", with: "-")
            .replacingOccurrences(of: "/", with: "_")
            .replacingOccurrences(of: "=", with: "")
    }
}

/// Hands out tokens for one key: the same token until it comes within `renewalMargin` of its
/// expiry, then a new one; `renew()` makes a new one at once (after a 401). The clock is
/// injected so that tests can move time without waiting.
public actor AppStoreConnectTokenProvider {
    /// The key that signs.
    public let key: AppStoreConnectKey
    private let lifetime: Duration
    private let renewalMargin: Duration
    private let now: @Sendable () -> Date
    private var current: AppStoreConnectToken?
    private var observers: [@Sendable (AppStoreConnectToken) -> Void] = []
    /// How many tokens were made so far (for tests and diagnostics).
    public private(set) var tokensMade = 0

    /// A provider for `key`.
    /// - Parameters:
    ///   - lifetime: each token's validity, at most 20 minutes (19 by default, for clock skew).
    ///   - renewalMargin: a token this close to its expiry is replaced before use.
    ///   - now: the clock.
    ///   - onNewToken: called with every token made (to register it with a redactor before it is
    ///     sent anywhere).
    public init(key: AppStoreConnectKey, lifetime: Duration = .seconds(19 * 60), renewalMargin: Duration = .seconds(60),
                now: @escaping @Sendable () -> Date = { Date() },
                onNewToken: (@Sendable (AppStoreConnectToken) -> Void)? = nil) {
        self.key = key
        self.lifetime = min(lifetime, AppStoreConnectToken.longestLifetime)
        self.renewalMargin = renewalMargin
        self.now = now
        if let onNewToken { observers = [onNewToken] }
    }

    /// Calls `observer` with every token made from now on (to register it with a redactor).
    public func onNewToken(_ observer: @escaping @Sendable (AppStoreConnectToken) -> Void) {
        observers.append(observer)
    }

    /// A token valid for at least `renewalMargin` more.
    /// - Throws: as `AppStoreConnectToken.make`.
    public func token() throws -> AppStoreConnectToken {
        let margin = TimeInterval(renewalMargin.components.seconds)
        if let current, current.expiresAt.timeIntervalSince(now()) > margin { return current }
        return try renew()
    }

    /// A new token, replacing the current one.
    /// - Throws: as `AppStoreConnectToken.make`.
    @discardableResult
    public func renew() throws -> AppStoreConnectToken {
        let made = try AppStoreConnectToken.make(key: key, now: now(), lifetime: lifetime)
        current = made
        tokensMade += 1
        for observer in observers { observer(made) }
        return made
    }
}
