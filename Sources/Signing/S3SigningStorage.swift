import Foundation
import Transport

/// A signing storage in an S3-compatible bucket, under a key prefix (as match's S3 storage keeps
/// it): one object per file. Writes are single PUTs, atomic on S3's side.
public struct S3SigningStorage: SigningStorage {
    /// The bucket's client.
    public let client: S3Client
    /// The key prefix, empty or ending in `/`.
    public let prefix: String
    /// Whether writes are refused.
    public let isReadOnly: Bool

    /// A storage in `client`'s bucket under `prefix` (a `/` is added when missing).
    public init(client: S3Client, prefix: String = "", readOnly: Bool = false) {
        self.client = client
        self.prefix = prefix.isEmpty || prefix.hasSuffix("/") ? prefix : prefix + "/"
        self.isReadOnly = readOnly
    }

    /// `s3://bucket/prefix`.
    public var displayName: String { "s3://\(client.location.bucket)/\(prefix)" }

    /// Every key under the prefix, relative to it, sorted.
    public func list() async throws -> [String] {
        do {
            return try await client.listKeys(prefix: prefix).map { String($0.dropFirst(prefix.count)) }.filter { !$0.isEmpty }.sorted()
        } catch {
            throw SigningStorageError.unreachable(storage: displayName, detail: Self.describe(error))
        }
    }

    /// The object's bytes, or nil.
    public func read(_ path: String) async throws -> [UInt8]? {
        try SigningLayout.validate(path: path)
        do {
            return try await client.getObject(key: prefix + path)
        } catch {
            throw SigningStorageError.unreachable(storage: displayName, detail: Self.describe(error))
        }
    }

    /// PUTs the object.
    public func write(_ path: String, _ bytes: [UInt8]) async throws {
        try SigningLayout.validate(path: path)
        try requireWritable("write '\(path)'")
        do {
            try await client.putObject(key: prefix + path, bytes: bytes, action: "upload of '\(displayName)\(path)'")
        } catch {
            throw SigningStorageError.writeFailed(storage: displayName, detail: Self.describe(error))
        }
    }

    /// DELETEs the object.
    public func delete(_ path: String) async throws {
        try SigningLayout.validate(path: path)
        try requireWritable("delete '\(path)'")
        do {
            try await client.deleteObject(key: prefix + path)
        } catch {
            throw SigningStorageError.writeFailed(storage: displayName, detail: Self.describe(error))
        }
    }

    /// Nothing to do: every PUT is already durable.
    public func save(message: String) async throws {}

    private static func describe(_ error: any Error) -> String {
        (error as? LocalizedError)?.errorDescription ?? String(describing: error)
    }
}
