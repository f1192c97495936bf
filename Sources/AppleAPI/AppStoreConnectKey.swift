import Crypto
import Foundation

/// An App Store Connect API key: the issuer id (team keys only), the key id and the `.p8`
/// private key Apple lets you download once from Users and Access → Integrations.
///
/// Checked when made: the key text must be PEM holding a PKCS#8 (or SEC1) P-256 private key,
/// the key id ten letters and digits, the issuer id a UUID. A team key needs its issuer id; an
/// individual key has none (its tokens say `sub: user` instead).
public struct AppStoreConnectKey: Sendable {
    /// Whose key it is, which decides the token's claims.
    public enum Kind: Sendable, Hashable {
        /// A team key, made by an Admin for the whole team; tokens carry `iss` (the issuer id).
        case team(issuerID: String)
        /// An individual key, tied to one user; tokens carry `sub: "user"` and no `iss`.
        case individual
    }

    /// Team or individual, with the issuer id of a team key.
    public let kind: Kind
    /// The key id (App Store Connect's "Key ID" column), the token header's `kid`.
    public let keyID: String
    /// The private key's scalar (swift-crypto's key type is not Sendable; it is re-made to sign).
    private let privateKeyScalar: Data
    /// The `.p8` text as given, kept only to be masked.
    private let pemText: String

    /// The issuer id of a team key; nil for an individual key.
    public var issuerID: String? {
        if case .team(let issuerID) = kind { return issuerID }
        return nil
    }

    /// Checks and holds a key.
    /// - Parameters:
    ///   - issuerID: the team's issuer id (a UUID); nil or empty for an individual key.
    ///   - keyID: the key id, ten letters and digits.
    ///   - privateKeyPEM: the `.p8` file's text.
    ///   - source: how to name the key text in errors, e.g. `'AuthKey_ABC.p8'` or
    ///     `from the secret ASC_KEY`.
    ///   - individual: true for an individual key (no issuer id).
    /// - Throws: `AppStoreConnectKeyError` naming the value at fault.
    public init(issuerID: String?, keyID: String, privateKeyPEM: String, source: String = "given",
                individual: Bool = false) throws {
        (kind, self.keyID) = try Self.checkIdentifiers(issuerID: issuerID, keyID: keyID, individual: individual)
        self.privateKeyScalar = try Self.parse(privateKeyPEM, source: source).rawRepresentation
        self.pemText = privateKeyPEM
    }

    /// Checks the key id and issuer id alone (as `init` does), e.g. while a lane is validated,
    /// before the key text is at hand; returns the key's kind and trimmed id.
    /// - Throws: `AppStoreConnectKeyError`.
    @discardableResult
    public static func checkIdentifiers(issuerID: String?, keyID: String, individual: Bool) throws -> (Kind, String) {
        let keyID = keyID.trimmingCharacters(in: .whitespacesAndNewlines)
        guard keyID.count == 10, keyID.unicodeScalars.allSatisfy({ $0.isASCII && CharacterSet.alphanumerics.contains($0) }) else {
            throw AppStoreConnectKeyError.malformedKeyID(keyID)
        }
        let issuer = issuerID?.trimmingCharacters(in: .whitespacesAndNewlines) ?? ""
        if individual {
            guard issuer.isEmpty else { throw AppStoreConnectKeyError.issuerIDForIndividualKey(keyID: keyID) }
            return (.individual, keyID)
        }
        guard !issuer.isEmpty else { throw AppStoreConnectKeyError.missingIssuerID(keyID: keyID) }
        guard UUID(uuidString: issuer) != nil else { throw AppStoreConnectKeyError.malformedIssuerID(issuer) }
        return (.team(issuerID: issuer), keyID)
    }

    /// Reads the `.p8` file at `path` and checks the key as `init` does.
    /// - Throws: `AppStoreConnectKeyError.unreadableKeyFile`, or as `init`.
    public static func load(issuerID: String?, keyID: String, file path: String, individual: Bool = false) throws
        -> AppStoreConnectKey {
        let text: String
        do {
            text = try String(contentsOfFile: path, encoding: .utf8)
        } catch {
            let reason = FileManager.default.fileExists(atPath: path) ? "it is not readable UTF-8 text" : "there is no such file"
            throw AppStoreConnectKeyError.unreadableKeyFile(path: path, reason: reason)
        }
        return try AppStoreConnectKey(issuerID: issuerID, keyID: keyID, privateKeyPEM: text, source: "'\(path)'",
                                      individual: individual)
    }

    /// The private key that signs tokens.
    var privateKey: P256.Signing.PrivateKey {
        get throws { try P256.Signing.PrivateKey(rawRepresentation: privateKeyScalar) }
    }

    /// What output must never show: the key's text, each of its lines (the base64 body lines in
    /// particular) and the body as one base64 run. Register these with the redactor.
    public var secretsToMask: [String] {
        let lines = pemText.split(whereSeparator: \.isNewline).map(String.init)
        let body = lines.filter { !$0.hasPrefix("-----") && !$0.isEmpty }
        var secrets = [pemText] + body
        if body.count > 1 { secrets.append(body.joined()) }
        return secrets
    }

    /// The PEM's DER bytes as a P-256 private key, or an error saying what the text is instead.
    static func parse(_ text: String, source: String) throws -> P256.Signing.PrivateKey {
        let lines = text.split(whereSeparator: \.isNewline).map { $0.trimmingCharacters(in: .whitespaces) }
        guard let begin = lines.firstIndex(where: { $0.hasPrefix("-----BEGIN ") && $0.hasSuffix("-----") }),
              let end = lines[begin...].firstIndex(where: { $0.hasPrefix("-----END ") && $0.hasSuffix("-----") }),
              let der = Data(base64Encoded: lines[(begin + 1)..<end].joined()), !der.isEmpty
        else {
            throw AppStoreConnectKeyError.notPEM(source: source)
        }
        if let key = try? P256.Signing.PrivateKey(derRepresentation: der) { return key }
        throw AppStoreConnectKeyError.notP256(source: source, found: describe(der: Array(der), label: lines[begin]))
    }

    /// What a DER key that is not P-256 seems to be, from the algorithm and curve identifiers in it.
    private static func describe(der: [UInt8], label: String) -> String {
        let rsa: [UInt8] = [0x2A, 0x86, 0x48, 0x86, 0xF7, 0x0D, 0x01, 0x01, 0x01]
        let p384: [UInt8] = [0x2B, 0x81, 0x04, 0x00, 0x22]
        let p521: [UInt8] = [0x2B, 0x81, 0x04, 0x00, 0x23]
        let ed25519: [UInt8] = [0x06, 0x03, 0x2B, 0x65, 0x70]
        func has(_ pattern: [UInt8]) -> Bool {
            guard der.count >= pattern.count else { return false }
            return (0...(der.count - pattern.count)).contains { Array(der[$0..<($0 + pattern.count)]) == pattern }
        }
        if has(rsa) { return "an RSA key" }
        if has(p384) { return "an EC key on the P-384 curve" }
        if has(p521) { return "an EC key on the P-521 curve" }
        if has(ed25519) { return "an Ed25519 key" }
        if label.contains("PUBLIC KEY") { return "a public key" }
        if label.contains("CERTIFICATE") { return "a certificate" }
        return "not a private key this tool can read"
    }
}
