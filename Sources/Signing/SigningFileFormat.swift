import Foundation

/// How the files of a signing storage are encrypted: Slipway's own format or fastlane match's.
public protocol SigningFileCipher: Sendable {
    /// The name recorded in `slipway-signing.json` (`slipway-v1`, `match-v2`).
    var formatName: String { get }
    /// `plaintext` encrypted, ready to store.
    /// - Throws: `SigningStorageError` when the key cannot be derived.
    func encrypt(_ plaintext: [UInt8]) throws -> [UInt8]
    /// The plaintext of `data`, stored as `file` (named in errors).
    /// - Throws: `SigningStorageError.wrongPassphrase`, `.tampered`, `.unreadableFormat`.
    func decrypt(_ data: [UInt8], file: String) throws -> [UInt8]
}

/// scrypt's cost parameters (RFC 7914): N = 2^logN, block size r, parallelism p.
public struct ScryptParameters: Sendable, Hashable, Codable {
    /// log2 of N, the CPU/memory cost.
    public var logN: UInt8
    /// The block size r.
    public var r: UInt16
    /// The parallelism p.
    public var p: UInt16

    /// Parameters; check them with `validate(file:)` before use.
    public init(logN: UInt8, r: UInt16, p: UInt16) {
        self.logN = logN
        self.r = r
        self.p = p
    }

    /// N = 2^15, r = 8, p = 1: 32 MiB and about 100-300 ms per derivation on a CI machine
    /// (`slipway-bench signing-kdf` measures it).
    public static let standard = ScryptParameters(logN: 15, r: 8, p: 1)

    /// The memory scrypt needs, in bytes (128 · N · r · p).
    public var memoryBytes: Int { 128 * (1 << Int(logN)) * Int(r) * Int(p) }

    /// Refuses parameters that are too weak to mean anything or so large that a damaged header
    /// could exhaust memory: 2^10 ≤ N ≤ 2^22, 1 ≤ r ≤ 32, 1 ≤ p ≤ 16, at most 1 GiB.
    /// - Throws: `SigningStorageError.unsupportedParameters` naming `file`.
    public func validate(file: String) throws {
        let detail = "scrypt N=2^\(logN), r=\(r), p=\(p)"
        guard (10...22).contains(logN), (1...32).contains(r), (1...16).contains(p), memoryBytes <= 1 << 30 else {
            throw SigningStorageError.unsupportedParameters(
                file: file, detail: detail + "; accepted: N from 2^10 to 2^22, r 1-32, p 1-16, at most 1 GiB")
        }
    }
}
