import Basics
import Crypto
import _CryptoExtras
import Foundation

/// A Google service account's JSON key, parsed, and what it is for: signing the RS256 JWT of
/// OAuth 2's JWT-bearer grant (RFC 7523; https://developers.google.com/identity/protocols/oauth2/service-account).
/// The private key never leaves this value except as a signature; `secrets` lists the strings
/// to mask in output.
public struct GoogleServiceAccount: Sendable {
    /// The account's e-mail address: the JWT's `iss`.
    public let clientEmail: String
    /// The key's id: the JWT header's `kid`, when the JSON has one.
    public let privateKeyID: String?
    /// The token endpoint: where the assertion goes, and the JWT's `aud`.
    public let tokenURI: String
    /// The project the account belongs to, when the JSON says.
    public let projectID: String?
    private let privateKey: _RSA.Signing.PrivateKey
    /// The key's PEM text, each of its lines, and the key id: what output must never show.
    public let secrets: [String]

    /// Parses the JSON key. `source` names where it came from, for errors (never its text).
    /// - Throws: `PublishError.malformedServiceAccount` when the text is not JSON, not a
    ///   service account's key, lacks a field, or its private key is not an RSA key.
    public init(json: [UInt8], source: String) throws {
        func problem(_ text: String) -> PublishError { .malformedServiceAccount(source: source, problem: text) }
        guard let object = (try? JSONSerialization.jsonObject(with: Data(json))) as? [String: Any] else {
            throw problem("it is not a JSON object")
        }
        guard let type = object["type"] as? String else { throw problem("it has no \"type\"; a service account key has \"type\": \"service_account\"") }
        guard type == "service_account" else {
            throw problem("its \"type\" is \"\(type)\", not \"service_account\" (user credentials and other key kinds cannot sign for a service)")
        }
        func field(_ name: String) throws -> String {
            guard let value = object[name] as? String, !value.isEmpty else { throw problem("it has no \"\(name)\"") }
            return value
        }
        clientEmail = try field("client_email")
        let pem = try field("private_key")
        tokenURI = try field("token_uri")
        guard let uri = URL(string: tokenURI), ["http", "https"].contains(uri.scheme?.lowercased() ?? ""), uri.host != nil else {
            throw problem("its \"token_uri\" '\(tokenURI)' is not an http(s) URL")
        }
        privateKeyID = object["private_key_id"] as? String
        projectID = object["project_id"] as? String
        var masked = [pem] + pem.split(whereSeparator: \.isNewline).map(String.init).filter { !$0.hasPrefix("-----") }
        if let privateKeyID { masked.append(privateKeyID) }
        secrets = masked
        guard pem.contains("-----BEGIN") else { throw problem("its \"private_key\" is not a PEM key") }
        do {
            privateKey = try _RSA.Signing.PrivateKey(pemRepresentation: pem)
        } catch {
            let kind = pem.contains("BEGIN EC PRIVATE KEY") ? "an EC key" : "not an RSA key of 2048 bits or more"
            throw problem("its \"private_key\" is \(kind); Google signs service-account tokens with RS256, which needs an RSA key")
        }
    }

    /// The signed JWT (`header.claims.signature`, base64url) asking for `scope`, issued at `now`
    /// and valid for `lifetime` (Google accepts at most an hour).
    /// - Throws: when signing fails (it does not for a key that parsed).
    public func assertion(scope: String, now: Date, lifetime: TimeInterval = 3600) throws -> String {
        var header: [String: Any] = ["alg": "RS256", "typ": "JWT"]
        if let privateKeyID { header["kid"] = privateKeyID }
        let issued = Int(now.timeIntervalSince1970)
        let claims: [String: Any] = ["iss": clientEmail, "scope": scope, "aud": tokenURI, "iat": issued,
                                     "exp": issued + Int(min(lifetime, 3600))]
        let signingInput = try Self.base64URL(JSONSerialization.data(withJSONObject: header, options: .sortedKeys)) + "."
            + Self.base64URL(JSONSerialization.data(withJSONObject: claims, options: [.sortedKeys, .withoutEscapingSlashes]))
        let signature = try privateKey.signature(for: Data(signingInput.utf8), padding: .insecurePKCS1v1_5)
        return signingInput + "." + Self.base64URL(signature.rawRepresentation)
    }

    /// Base64url without padding (RFC 7515 §2).
    static func base64URL(_ data: Data) -> String {
        data.base64EncodedString().replacingOccurrences(of: "+", with: "-").replacingOccurrences(of: "/", with: "_")
            .replacingOccurrences(of: "=", with: "")
    }
}
