import Crypto
import _CryptoExtras
import Basics
import Foundation

/// Slipway's encrypted file format, version 1. All integers big-endian:
///
///     offset  size  field
///          0     8  magic "SLPWSIGN"
///          8     1  format version (1)
///          9     1  KDF id (1 = scrypt)
///         10     1  log2 N
///         11     2  r
///         13     2  p
///         15    16  salt
///         31    12  AES-GCM nonce
///         43    16  key check
///         59     n  AES-256-GCM ciphertext
///       59+n    16  AES-GCM tag
///
/// scrypt(passphrase, salt) gives 48 bytes: the AES-256 key (0..<32) and the key check (32..<48),
/// which tells a wrong passphrase apart from an altered file. The 59 header bytes are the GCM's
/// additional authenticated data, so changing any byte of the file fails the tag.
public final class SlipwayCipher: SigningFileCipher, Sendable {
    /// The format's magic bytes.
    public static let magic: [UInt8] = Array("SLPWSIGN".utf8)
    /// The header's length in bytes.
    public static let headerLength = 59
    static let tagLength = 16
    static let version: UInt8 = 1
    static let scryptID: UInt8 = 1

    /// `slipway-v1`.
    public let formatName = "slipway-v1"
    /// The parameters new files are written with.
    public let parameters: ScryptParameters
    private let passphrase: [UInt8]
    /// The salt new files are written with.
    public let salt: [UInt8]
    /// Whether every file must carry `parameters` and `salt` (a storage's cipher, made from its
    /// manifest): then one command derives at most one key, whatever the files' headers say.
    public let requiresStorageKey: Bool
    private let keys = Locked<[KeyID: DerivedKey]>([:])

    /// A cipher for one storage. New files are written with `parameters` and `salt` (random
    /// when nil), so a storage derives its key once per run; each file gets its own random nonce.
    /// - Throws: `SigningStorageError.emptyPassphrase`, `.unsupportedParameters`.
    ///
    /// With `requiresStorageKey`, `decrypt` refuses a file whose header names other scrypt
    /// parameters or another salt than these before deriving anything: Slipway writes every file
    /// of a storage with the key its manifest describes, and a hostile storage whose every file
    /// carried its own maximum-cost header would otherwise cost one slow derivation per file.
    public init(passphrase: String, parameters: ScryptParameters = .standard, salt: [UInt8]? = nil,
                storage: String = "signing storage", requiresStorageKey: Bool = false) throws {
        guard !passphrase.isEmpty else { throw SigningStorageError.emptyPassphrase(storage: storage) }
        try parameters.validate(file: storage)
        self.passphrase = Array(passphrase.utf8)
        self.parameters = parameters
        self.salt = salt ?? (0..<16).map { _ in UInt8.random(in: 0...255) }
        self.requiresStorageKey = requiresStorageKey
    }

    /// True when `data` starts with the format's magic.
    public static func isSlipwayFile(_ data: [UInt8]) -> Bool { data.starts(with: magic) }

    /// Encrypts `plaintext` into a version-1 file.
    public func encrypt(_ plaintext: [UInt8]) throws -> [UInt8] {
        let key = try derivedKey(parameters: parameters, salt: salt)
        let nonce = AES.GCM.Nonce()
        var header = Self.magic + [Self.version, Self.scryptID, parameters.logN]
        header += Self.bigEndian(parameters.r) + Self.bigEndian(parameters.p) + salt + Array(nonce) + key.check
        let sealed = try AES.GCM.seal(plaintext, using: key.key, nonce: nonce, authenticating: header)
        return header + Array(sealed.ciphertext) + Array(sealed.tag)
    }

    /// Decrypts a version-1 file stored as `file`.
    public func decrypt(_ data: [UInt8], file: String) throws -> [UInt8] {
        guard Self.isSlipwayFile(data) else {
            throw SigningStorageError.unreadableFormat(file: file, detail: "it does not start with Slipway's 'SLPWSIGN' header")
        }
        guard data.count >= Self.headerLength + Self.tagLength else {
            throw SigningStorageError.tampered(file: file, detail: "it is \(data.count) bytes, shorter than a header and a tag")
        }
        guard data[8] == Self.version, data[9] == Self.scryptID else {
            throw SigningStorageError.unreadableFormat(
                file: file, detail: "format version \(data[8]) with KDF \(data[9]); this Slipway reads version 1 with scrypt (1)")
        }
        let parameters = ScryptParameters(logN: data[10], r: Self.uint16(data, at: 11), p: Self.uint16(data, at: 13))
        let salt = Array(data[15..<31])
        if requiresStorageKey && (parameters != self.parameters || salt != self.salt) {
            throw SigningStorageError.tampered(
                file: file,
                detail: "its key (scrypt N=2^\(parameters.logN), r=\(parameters.r), p=\(parameters.p) and its salt) is not the one the "
                    + "storage's '\(SigningLayout.manifest)' names, and Slipway writes every file with that key; nothing was derived from it")
        }
        try parameters.validate(file: file)
        let key = try derivedKey(parameters: parameters, salt: salt)
        guard Array(data[43..<59]) == key.check else { throw SigningStorageError.wrongPassphrase(file: file) }
        let header = Array(data[0..<Self.headerLength])
        do {
            let box = try AES.GCM.SealedBox(
                nonce: AES.GCM.Nonce(data: data[31..<43]),
                ciphertext: data[Self.headerLength..<(data.count - Self.tagLength)],
                tag: data[(data.count - Self.tagLength)...])
            return Array(try AES.GCM.open(box, using: key.key, authenticating: header))
        } catch {
            throw SigningStorageError.tampered(file: file, detail: "the AES-GCM tag does not match")
        }
    }

    // MARK: - Keys

    private struct KeyID: Hashable {
        let parameters: ScryptParameters
        let salt: [UInt8]
    }

    private struct DerivedKey {
        let key: SymmetricKey
        let check: [UInt8]
    }

    private func derivedKey(parameters: ScryptParameters, salt: [UInt8]) throws -> DerivedKey {
        let id = KeyID(parameters: parameters, salt: salt)
        return try keys.withLock { keys in
            if let known = keys[id] { return known }
            let bytes = try Scrypt.derive(passphrase: passphrase, salt: salt, parameters: parameters, length: 48)
            let derived = DerivedKey(key: SymmetricKey(data: bytes[0..<32]), check: Array(bytes[32..<48]))
            keys[id] = derived
            return derived
        }
    }

    private static func bigEndian(_ value: UInt16) -> [UInt8] { [UInt8(value >> 8), UInt8(value & 0xFF)] }

    private static func uint16(_ data: [UInt8], at offset: Int) -> UInt16 {
        UInt16(data[offset]) << 8 | UInt16(data[offset + 1])
    }
}

/// scrypt through swift-crypto's `_CryptoExtras` (BoringSSL's EVP_PBE_scrypt).
public enum Scrypt {
    /// `length` bytes of scrypt(passphrase, salt, N, r, p).
    /// - Throws: `SigningStorageError.unsupportedParameters` when BoringSSL refuses them.
    public static func derive(passphrase: [UInt8], salt: [UInt8], parameters: ScryptParameters, length: Int) throws -> [UInt8] {
        do {
            let key = try KDF.Scrypt.deriveKey(
                from: passphrase, salt: salt, outputByteCount: length, rounds: 1 << Int(parameters.logN),
                blockSize: Int(parameters.r), parallelism: Int(parameters.p))
            return key.withUnsafeBytes { Array($0) }
        } catch {
            throw SigningStorageError.unsupportedParameters(
                file: "scrypt", detail: "N=2^\(parameters.logN), r=\(parameters.r), p=\(parameters.p): \(error)")
        }
    }
}
