import Basics
import Foundation

/// A signing storage whose files are encrypted with one passphrase: reads decrypt, writes
/// encrypt. The format is found when opening: Slipway's (a `slipway-signing.json` manifest),
/// fastlane match's (its `match_version.txt` marker), or, for an empty storage, the one asked for.
public struct EncryptedSigningStorage: Sendable {
    /// The two formats a storage can use.
    public enum Format: String, Sendable {
        /// Slipway's scrypt + AES-256-GCM format with a manifest.
        case slipway
        /// fastlane match's v2 (and, for reading, v1) format with its marker file.
        case match
    }

    /// The storage underneath.
    public let storage: any SigningStorage
    /// The format of its files.
    public let format: Format
    private let cipher: any SigningFileCipher
    /// The marker or manifest to write with the first write (a new storage), if any.
    private let pendingRootFile: (path: String, bytes: [UInt8])?

    /// The version written into `match_version.txt` of a new match-format storage.
    public static let matchVersionWritten = "2.220.0"

    /// Opens `storage`. An empty storage takes `newFormat` (its manifest or marker is written with
    /// the first write, so read-only use writes nothing).
    /// - Throws: `SigningStorageError.emptyPassphrase`, `.invalidManifest`, `.unrecognizedStorage`,
    ///   `.unreachable`.
    public static func open(
        _ storage: any SigningStorage, passphrase: String, newFormat: Format = .slipway,
        parameters: ScryptParameters = .standard
    ) async throws -> EncryptedSigningStorage {
        let name = storage.displayName
        if let manifestBytes = try await storage.read(SigningLayout.manifest) {
            let manifest = try SigningManifest.decode(manifestBytes, storage: name)
            let cipher = try SlipwayCipher(passphrase: passphrase, parameters: manifest.scrypt, salt: manifest.saltBytes, storage: name,
                                          requiresStorageKey: true)
            return EncryptedSigningStorage(storage: storage, format: .slipway, cipher: cipher, pendingRootFile: nil)
        }
        if try await storage.read(SigningLayout.matchMarker) != nil {
            return EncryptedSigningStorage(storage: storage, format: .match, cipher: try MatchCipher(passphrase: passphrase, storage: name),
                                           pendingRootFile: nil)
        }
        let files = try await storage.list().filter { !$0.hasPrefix(".") && $0 != "README.md" }
        guard files.isEmpty else {
            throw SigningStorageError.unrecognizedStorage(
                storage: name, detail: "no '\(SigningLayout.manifest)' or '\(SigningLayout.matchMarker)', but \(files.count) file(s) such as '\(files[0])'")
        }
        switch newFormat {
        case .slipway:
            let cipher = try SlipwayCipher(passphrase: passphrase, parameters: parameters, storage: name, requiresStorageKey: true)
            let manifest = try SigningManifest(scrypt: parameters, salt: cipher.salt).encoded()
            return EncryptedSigningStorage(storage: storage, format: .slipway, cipher: cipher,
                                           pendingRootFile: (SigningLayout.manifest, manifest))
        case .match:
            return EncryptedSigningStorage(storage: storage, format: .match, cipher: try MatchCipher(passphrase: passphrase, storage: name),
                                           pendingRootFile: (SigningLayout.matchMarker, Array(matchVersionWritten.utf8)))
        }
    }

    /// The encrypted files' paths (not the manifest, marker or README), sorted.
    public func list() async throws -> [String] {
        try await storage.list().filter { !SigningLayout.plainFiles.contains($0) && !$0.hasPrefix(".") }
    }

    /// The decrypted content of `path`.
    /// - Throws: `SigningStorageError.fileNotFound`, `.wrongPassphrase`, `.tampered`,
    ///   `.matchDecryptionFailed`, `.unreadableFormat`, `.invalidPath`.
    public func read(_ path: String) async throws -> [UInt8] {
        try SigningLayout.validate(path: path)
        guard let bytes = try await storage.read(path) else {
            throw SigningStorageError.fileNotFound(path: path, storage: storage.displayName)
        }
        let (cipher, file) = (cipher, fileName(path))
        // scrypt takes ~0.2 s the first time: keep it off the cooperative pool.
        return try await BlockingWork.run(name: "slipway-signing-decrypt") { try cipher.decrypt(bytes, file: file) }
    }

    /// `path` prefixed with the storage's name, for messages.
    func fileName(_ path: String) -> String {
        let name = storage.displayName
        return name.hasSuffix("/") ? name + path : name + "/" + path
    }

    /// Encrypts `plaintext` and writes it to `path` (plus the manifest or marker of a new storage).
    /// - Throws: `SigningStorageError.readOnly`, `.invalidPath`, `.writeFailed`.
    public func write(_ path: String, _ plaintext: [UInt8]) async throws {
        try SigningLayout.validate(path: path)
        guard !SigningLayout.plainFiles.contains(path) else { throw SigningStorageError.invalidPath(path: path) }
        try storage.requireWritable("write '\(path)'")
        if let pendingRootFile, try await storage.read(pendingRootFile.path) == nil {
            try await storage.write(pendingRootFile.path, pendingRootFile.bytes)
        }
        let cipher = cipher
        let encrypted = try await BlockingWork.run(name: "slipway-signing-encrypt") { try cipher.encrypt(plaintext) }
        try await storage.write(path, encrypted)
    }

    /// Deletes `path`.
    /// - Throws: `SigningStorageError.readOnly`, `.invalidPath`, `.writeFailed`.
    public func delete(_ path: String) async throws {
        try SigningLayout.validate(path: path)
        try await storage.delete(path)
    }

    /// Commits and pushes (git), or does nothing (directory, S3).
    public func save(message: String) async throws {
        try await storage.save(message: message)
    }
}
