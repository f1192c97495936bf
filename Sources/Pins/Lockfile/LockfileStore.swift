import Basics
import Foundation

/// Reads and writes `Toolfile.lock`: the `version` field first (unknown versions refused before
/// anything else is looked at), sorted keys, atomic replacement.
public struct LockfileStore: Sendable {
    /// The lockfile's absolute path.
    public let path: String
    /// The name shown in messages.
    public let displayName: String
    /// The file system.
    public let fileSystem: any FileSystem

    /// A store for the lockfile at `path`.
    public init(path: String, displayName: String? = nil, fileSystem: any FileSystem) {
        self.path = path
        self.displayName = displayName ?? (path as NSString).lastPathComponent
        self.fileSystem = fileSystem
    }

    /// The lockfile, or nil when there is none.
    /// - Throws: `PinsError.lockfileCorrupt` (not JSON, or not shaped like a lock),
    ///   `.lockfileUnsupportedVersion`, `FileSystemError` when it cannot be read.
    public func load() throws -> Lockfile? {
        guard fileSystem.exists(path) else { return nil }
        return try decode(try fileSystem.read(path, as: .lockfile))
    }

    /// The lockfile; a missing one is an error.
    /// - Throws: `PinsError.lockfileNotFound`, and what `load()` throws.
    public func loadRequired() throws -> Lockfile {
        guard let lockfile = try load() else { throw PinsError.lockfileNotFound(path: displayName) }
        return lockfile
    }

    /// Decodes lockfile bytes.
    /// - Throws: as `load()`.
    public func decode(_ bytes: [UInt8]) throws -> Lockfile {
        struct VersionOnly: Decodable { var version: Int }
        let data = Data(bytes)
        let decoder = JSONDecoder()
        let version: Int
        do {
            version = try decoder.decode(VersionOnly.self, from: data).version
        } catch {
            throw PinsError.lockfileCorrupt(path: displayName, reason: Self.describe(error))
        }
        guard version == Lockfile.formatVersion else {
            throw PinsError.lockfileUnsupportedVersion(path: displayName, found: version, supported: Lockfile.formatVersion)
        }
        do {
            return try decoder.decode(Lockfile.self, from: data)
        } catch {
            throw PinsError.lockfileCorrupt(path: displayName, reason: Self.describe(error))
        }
    }

    /// The bytes `save` writes: pretty JSON, sorted keys, a final newline.
    public static func encode(_ lockfile: Lockfile) throws -> [UInt8] {
        Array(try JSONFormatting.encoder(pretty: true).encode(lockfile)) + [0x0A]
    }

    /// Writes the lockfile atomically (temp file + rename).
    /// - Throws: `FileSystemError`.
    public func save(_ lockfile: Lockfile) throws {
        try fileSystem.writeAtomically(try Self.encode(lockfile), to: path)
    }

    /// A short, stable account of a decoding error: what and where.
    static func describe(_ error: any Error) -> String {
        guard let decoding = error as? DecodingError else { return errorText(error) }
        switch decoding {
        case .dataCorrupted(let context):
            if context.codingPath.isEmpty { return "it is not valid JSON" }
            return "\(path(context.codingPath)): \(context.debugDescription)"
        case .keyNotFound(let key, let context):
            return "\(path(context.codingPath + [key])) is missing"
        case .typeMismatch(let type, let context):
            return "\(path(context.codingPath)) is not \(describe(type))"
        case .valueNotFound(let type, let context):
            return "\(path(context.codingPath)) is null, expected \(describe(type))"
        @unknown default:
            return "\(error)"
        }
    }

    private static func path(_ keys: [any CodingKey]) -> String {
        let text = keys.map { $0.intValue.map { "[\($0)]" } ?? ".\($0.stringValue)" }.joined()
        return text.isEmpty ? "the top level" : "'\(text.hasPrefix(".") ? String(text.dropFirst()) : text)'"
    }

    private static func describe(_ type: Any.Type) -> String {
        switch type {
        case is String.Type: return "a string"
        case is Int.Type: return "a number"
        default: return String(describing: type).hasPrefix("Array") ? "a list" : "an object"
        }
    }
}
