import Crypto
import Foundation

/// An APNs authentication key: the `.p8` file (a PKCS#8 PEM holding a P-256 private key) that
/// Certificates, Identifiers & Profiles → Keys lets you download once, its key id and the team id.
/// It signs the ES256 provider tokens of token-based APNs
/// (https://developer.apple.com/documentation/usernotifications/establishing-a-token-based-connection-to-apns).
public struct APNsAuthKey: Sendable {
    /// The key id (the token header's `kid`).
    public let keyID: String
    /// The team id (the token's `iss`).
    public let teamID: String
    /// The file the key came from, for messages.
    public let file: String
    /// The private key's scalar (swift-crypto's key type is not Sendable; it is re-made to sign).
    private let scalar: Data
    private let pemText: String

    /// The largest `.p8` file read: a P-256 key's PEM is about 250 bytes.
    public static let fileLimit = 16 * 1024

    /// Reads and checks `path`.
    /// - Parameters:
    ///   - keyID: `--key-id`; nil takes it from a file named `AuthKey_<KEYID>.p8`.
    ///   - teamID: `--team-id`.
    /// - Throws: `PushCredentialError` naming the file or value at fault.
    public static func load(file path: String, keyID: String?, teamID: String) throws -> APNsAuthKey {
        let bytes = try PushFiles.read(path, limit: fileLimit)
        return try APNsAuthKey(pem: bytes, file: path, keyID: keyID, teamID: teamID)
    }

    /// Checks a key given as bytes; `file` names it (and may carry the key id in its name).
    /// - Throws: `PushCredentialError`.
    public init(pem bytes: [UInt8], file: String, keyID: String?, teamID: String) throws {
        let fromName = Self.keyID(fromFileName: file)
        let given = keyID?.trimmingCharacters(in: .whitespacesAndNewlines)
        if let given, !given.isEmpty {
            guard Self.isIdentifier(given) else { throw PushCredentialError.malformedKeyID(given) }
            if let fromName, fromName != given {
                throw PushCredentialError.keyIDMismatch(file: file, fromName: fromName, given: given)
            }
            self.keyID = given
        } else {
            guard let fromName else { throw PushCredentialError.missingKeyID(file: file) }
            self.keyID = fromName
        }
        let team = teamID.trimmingCharacters(in: .whitespacesAndNewlines)
        guard Self.isIdentifier(team) else { throw PushCredentialError.malformedTeamID(team) }
        self.teamID = team
        self.file = file
        guard let text = String(validating: bytes, as: UTF8.self) else { throw PushCredentialError.notPEM(file: file) }
        scalar = try Self.parse(text, file: file).rawRepresentation
        pemText = text
    }

    /// The key id in a file named `AuthKey_<KEYID>.p8` (as Apple names the download), else nil.
    public static func keyID(fromFileName path: String) -> String? {
        let name = path.split(separator: "/").last.map(String.init) ?? path
        guard name.hasPrefix("AuthKey_"), name.hasSuffix(".p8") else { return nil }
        let id = String(name.dropFirst("AuthKey_".count).dropLast(".p8".count))
        return isIdentifier(id) ? id : nil
    }

    /// A provider token: header `{"alg":"ES256","kid":KEYID}`, claims `{"iss":TEAMID,"iat":NOW}`,
    /// signed with ES256 (raw r‖s), base64url without padding. APNs accepts it for an hour. A secret.
    /// - Throws: `SigningCertificateError.encodingFailed` if the crypto library fails.
    public func token(now: Date) throws -> String {
        let issued = Int64(now.timeIntervalSince1970.rounded(.down))
        // Both ids were checked to be letters and digits: no JSON escaping is needed.
        let header = #"{"alg":"ES256","kid":"\#(keyID)"}"#
        let claims = #"{"iss":"\#(teamID)","iat":\#(issued)}"#
        let input = Self.base64URL(Data(header.utf8)) + "." + Self.base64URL(Data(claims.utf8))
        do {
            let key = try P256.Signing.PrivateKey(rawRepresentation: scalar)
            return input + "." + Self.base64URL(try key.signature(for: Data(input.utf8)).rawRepresentation)
        } catch {
            throw SigningCertificateError.encodingFailed(subject: "an APNs provider token", detail: "\(error)")
        }
    }

    /// What output must never show: the PEM text, each of its body lines, and the body as one run.
    public var secretsToMask: [String] {
        let body = pemText.split(whereSeparator: \.isNewline).map(String.init).filter { !$0.hasPrefix("-----") && !$0.isEmpty }
        return [pemText] + body + (body.count > 1 ? [body.joined()] : [])
    }

    static func isIdentifier(_ value: String) -> Bool {
        value.count == 10 && value.unicodeScalars.allSatisfy { $0.isASCII && CharacterSet.alphanumerics.contains($0) }
    }

    static func base64URL(_ data: Data) -> String {
        data.base64EncodedString().replacingOccurrences(of: "+", with: "-").replacingOccurrences(of: "/", with: "_")
            .replacingOccurrences(of: "=", with: "")
    }

    /// The P-256 key in `text`, or an error saying what the text holds instead.
    private static func parse(_ text: String, file: String) throws -> P256.Signing.PrivateKey {
        let lines = text.split(whereSeparator: \.isNewline).map { $0.trimmingCharacters(in: .whitespaces) }
        guard let begin = lines.firstIndex(where: { $0.hasPrefix("-----BEGIN ") && $0.hasSuffix("-----") }),
              let end = lines[begin...].firstIndex(where: { $0.hasPrefix("-----END ") && $0.hasSuffix("-----") }),
              let der = Data(base64Encoded: lines[(begin + 1)..<end].joined()), !der.isEmpty
        else { throw PushCredentialError.notPEM(file: file) }
        let label = lines[begin]
        if label.contains("ENCRYPTED") { throw PushCredentialError.encryptedKey(file: file) }
        if let key = try? P256.Signing.PrivateKey(derRepresentation: der) { return key }
        throw PushCredentialError.notP256(file: file, found: describe(Array(der), label: label))
    }

    /// What a DER key that is not P-256 seems to be, from the identifiers in it.
    private static func describe(_ der: [UInt8], label: String) -> String {
        func has(_ pattern: [UInt8]) -> Bool {
            guard der.count >= pattern.count else { return false }
            return (0...(der.count - pattern.count)).contains { Array(der[$0..<($0 + pattern.count)]) == pattern }
        }
        if label.contains("PUBLIC KEY") { return "a public key" }
        if label.contains("CERTIFICATE") { return "a certificate" }
        if has([0x2A, 0x86, 0x48, 0x86, 0xF7, 0x0D, 0x01, 0x01, 0x01]) { return "an RSA key" }
        if has([0x2B, 0x81, 0x04, 0x00, 0x22]) { return "an EC key on the P-384 curve" }
        if has([0x2B, 0x81, 0x04, 0x00, 0x23]) { return "an EC key on the P-521 curve" }
        if has([0x2B, 0x81, 0x04, 0x00, 0x0A]) { return "an EC key on the secp256k1 curve" }
        if has([0x06, 0x03, 0x2B, 0x65, 0x70]) { return "an Ed25519 key" }
        return "something that is not a private key"
    }
}

/// Bounded reads of credential files given on the command line.
enum PushFiles {
    /// At most `limit` bytes of the regular file at `path`.
    /// - Throws: `PushCredentialError.unreadableFile` or `.fileTooLarge`.
    static func read(_ path: String, limit: Int) throws -> [UInt8] {
        var isDirectory: ObjCBool = false
        guard FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory) else {
            throw PushCredentialError.unreadableFile(file: path, reason: "there is no such file")
        }
        guard !isDirectory.boolValue else { throw PushCredentialError.unreadableFile(file: path, reason: "it is a folder") }
        let resolved = URL(fileURLWithPath: path).resolvingSymlinksInPath().path
        let type = (try? FileManager.default.attributesOfItem(atPath: resolved))?[.type] as? FileAttributeType
        guard type == .typeRegular else {
            throw PushCredentialError.unreadableFile(file: path, reason: "it is not a regular file")
        }
        guard let handle = FileHandle(forReadingAtPath: path) else {
            throw PushCredentialError.unreadableFile(file: path, reason: "it cannot be opened (check its permissions)")
        }
        defer { try? handle.close() }
        let data: Data
        do { data = try handle.read(upToCount: limit + 1) ?? Data() } catch {
            throw PushCredentialError.unreadableFile(file: path, reason: error.localizedDescription)
        }
        guard data.count <= limit else { throw PushCredentialError.fileTooLarge(file: path, limit: limit) }
        return Array(data)
    }
}
