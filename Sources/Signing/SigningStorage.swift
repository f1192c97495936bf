import Foundation

/// Where a signing storage keeps its files, byte for byte (already encrypted): a directory, a git
/// repository or an S3 bucket. Paths are relative, with `/` between components.
public protocol SigningStorage: Sendable {
    /// The storage as users know it (a path, a repository URL, `s3://bucket/prefix`), for messages.
    var displayName: String { get }
    /// Whether writes are refused; a read-only storage never changes anything anywhere.
    var isReadOnly: Bool { get }
    /// Every file's relative path, sorted.
    /// - Throws: `SigningStorageError.unreachable`.
    func list() async throws -> [String]
    /// The file's bytes, or nil when there is no such file.
    /// - Throws: `SigningStorageError.invalidPath`, `.unreachable`.
    func read(_ path: String) async throws -> [UInt8]?
    /// Writes (creates or replaces) a file. Git storages keep it until `save(message:)`.
    /// - Throws: `SigningStorageError.readOnly`, `.invalidPath`, `.writeFailed`.
    func write(_ path: String, _ bytes: [UInt8]) async throws
    /// Deletes a file; deleting a missing file does nothing.
    /// - Throws: `SigningStorageError.readOnly`, `.invalidPath`, `.writeFailed`.
    func delete(_ path: String) async throws
    /// Makes the writes so far durable where that is a separate step: a git storage commits them
    /// with `message` and pushes; the others have nothing to do.
    /// - Throws: `SigningStorageError.readOnly`, `.pushConflict`, `.writeFailed`.
    func save(message: String) async throws
}

extension SigningStorage {
    /// Throws `SigningStorageError.readOnly` when the storage is read-only.
    func requireWritable(_ operation: String) throws {
        if isReadOnly { throw SigningStorageError.readOnly(storage: displayName, operation: operation) }
    }
}
