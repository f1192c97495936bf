import Crypto
import _CryptoExtras
import Foundation

/// fastlane match's file encryption, both ways, learnt from fastlane's
/// `match/lib/match/encryption/encryption.rb` (fastlane/fastlane on GitHub; no code copied).
///
/// A stored file is base64 text (Ruby's `Base64.encode64`: lines of 60 characters, each ending in
/// a newline) of one of:
///
/// - v2, written by current match: `match_encrypted_v2__` (20 bytes) + salt (8 random bytes) +
///   AES-GCM tag (16) + ciphertext. PBKDF2-HMAC-SHA256(passphrase, salt, 10,000 iterations)
///   gives 68 bytes: the AES-256-GCM key (0..<32), the 12-byte IV (32..<44) and the 24 bytes of
///   additional authenticated data (44..<68).
/// - v1, written by match before v2 and still read by it: `Salted__` + salt (8) + AES-256-CBC
///   ciphertext (PKCS#7 padding), key and IV from OpenSSL's EVP_BytesToKey with one iteration of
///   MD5 (or SHA-256, which OpenSSL 1.1.0c and later used by default; match tries both). v1 has
///   no integrity check, so a wrong passphrase can, rarely, yield garbage: Slipway only reads it.
public struct MatchCipher: SigningFileCipher {
    /// `match-v2`.
    public let formatName = "match-v2"
    /// The v2 prefix.
    public static let v2Prefix: [UInt8] = Array("match_encrypted_v2__".utf8)
    /// The v1 (OpenSSL `enc`) prefix.
    public static let v1Prefix: [UInt8] = Array("Salted__".utf8)
    static let iterations = 10_000
    private let passphrase: [UInt8]
    private let randomSalt: @Sendable () -> [UInt8]

    /// A cipher with match's passphrase (MATCH_PASSWORD). `randomSalt` is for tests.
    /// - Throws: `SigningStorageError.emptyPassphrase`, as match refuses an empty one.
    public init(passphrase: String, storage: String = "signing storage",
                randomSalt: @escaping @Sendable () -> [UInt8] = { (0..<8).map { _ in UInt8.random(in: 0...255) } }) throws {
        guard !passphrase.isEmpty else { throw SigningStorageError.emptyPassphrase(storage: storage) }
        self.passphrase = Array(passphrase.utf8)
        self.randomSalt = randomSalt
    }

    /// Encrypts with v2 and wraps the result in base64 lines, as match writes it.
    public func encrypt(_ plaintext: [UInt8]) throws -> [UInt8] {
        let salt = randomSalt()
        let (key, iv, aad) = try v2Material(salt: salt)
        let sealed = try AES.GCM.seal(plaintext, using: key, nonce: iv, authenticating: aad)
        return Array(Self.base64Lines(Self.v2Prefix + salt + Array(sealed.tag) + Array(sealed.ciphertext)).utf8)
    }

    /// Decrypts a v2 or v1 file.
    public func decrypt(_ data: [UInt8], file: String) throws -> [UInt8] {
        // Ruby's Base64.decode64 skips line breaks; so does this (bytes, not Characters: fast).
        let text = data.filter { $0 != 0x0A && $0 != 0x0D && $0 != 0x20 && $0 != 0x09 }
        guard let decoded = Data(base64Encoded: Data(text)) else {
            throw SigningStorageError.unreadableFormat(file: file, detail: "it is not base64 text as fastlane match writes")
        }
        let stored = Array(decoded)
        if stored.starts(with: Self.v2Prefix) {
            return try decryptV2(stored, file: file)
        }
        if stored.starts(with: Self.v1Prefix), stored.count >= 32 {
            return try decryptV1(stored, file: file)
        }
        throw SigningStorageError.unreadableFormat(
            file: file, detail: "it starts with neither 'match_encrypted_v2__' nor 'Salted__' once base64-decoded")
    }

    private func decryptV2(_ stored: [UInt8], file: String) throws -> [UInt8] {
        guard stored.count >= 44 else {
            throw SigningStorageError.matchDecryptionFailed(file: file, format: "v2, only \(stored.count) bytes")
        }
        let salt = Array(stored[20..<28])
        let (key, iv, aad) = try v2Material(salt: salt)
        do {
            let box = try AES.GCM.SealedBox(nonce: iv, ciphertext: stored[44...], tag: stored[28..<44])
            return Array(try AES.GCM.open(box, using: key, authenticating: aad))
        } catch {
            throw SigningStorageError.matchDecryptionFailed(file: file, format: "v2")
        }
    }

    private func decryptV1(_ stored: [UInt8], file: String) throws -> [UInt8] {
        let salt = Array(stored[8..<16])
        let ciphertext = stored[16...]
        for useSHA256 in [false, true] {
            let bytes = Self.evpBytesToKey(passphrase: passphrase, salt: salt, sha256: useSHA256)
            guard let iv = try? AES._CBC.IV(ivBytes: bytes[32..<48]) else { continue }
            if let plaintext = try? AES._CBC.decrypt(ciphertext, using: SymmetricKey(data: bytes[0..<32]), iv: iv) {
                return Array(plaintext)
            }
        }
        throw SigningStorageError.matchDecryptionFailed(file: file, format: "v1")
    }

    private func v2Material(salt: [UInt8]) throws -> (SymmetricKey, AES.GCM.Nonce, [UInt8]) {
        let derived = try KDF.Insecure.PBKDF2.deriveKey(
            from: passphrase, salt: salt, using: .sha256, outputByteCount: 68, unsafeUncheckedRounds: Self.iterations)
        let bytes = derived.withUnsafeBytes { Array($0) }
        return (SymmetricKey(data: bytes[0..<32]), try AES.GCM.Nonce(data: bytes[32..<44]), Array(bytes[44..<68]))
    }

    /// OpenSSL's EVP_BytesToKey with one iteration: D1 = H(pass‖salt), Di = H(Di-1‖pass‖salt),
    /// concatenated to 48 bytes (key 32 + IV 16).
    static func evpBytesToKey(passphrase: [UInt8], salt: [UInt8], sha256: Bool) -> [UInt8] {
        var output: [UInt8] = []
        var previous: [UInt8] = []
        while output.count < 48 {
            let input = previous + passphrase + salt
            previous = sha256 ? Array(SHA256.hash(data: input)) : Array(Insecure.MD5.hash(data: input))
            output += previous
        }
        return Array(output.prefix(48))
    }

    /// Ruby's `Base64.encode64`: 60 characters a line, every line ending in "\n".
    static func base64Lines(_ bytes: [UInt8]) -> String {
        let encoded = Array(Data(bytes).base64EncodedData())
        var output: [UInt8] = []
        output.reserveCapacity(encoded.count + encoded.count / 60 + 1)
        var start = 0
        while start < encoded.count {
            let end = min(start + 60, encoded.count)
            output += encoded[start..<end]
            output.append(0x0A)
            start = end
        }
        return String(decoding: output, as: UTF8.self)
    }
}
