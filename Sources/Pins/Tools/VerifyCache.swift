import Basics
import Foundation

/// What `tools verify` learnt about each executable, keyed by path and valid only while the
/// file's identity (size, mtime, ctime, inode, device) is unchanged: its SHA-256 and what its
/// version command printed. Any change to the file, and anything unreadable here, means
/// hashing and asking again. Versioned JSON in the tools cache.
struct VerifyCache: Sendable, Codable, Equatable {
    static let formatVersion = 1

    struct Entry: Sendable, Codable, Equatable {
        var identity: FileIdentity
        /// Nil for system tools, whose contents are not pinned.
        var sha256: String?
        /// Version command output by the arguments that produced it (joined with a space).
        var versionOutputs: [String: String]
    }

    var version: Int = Self.formatVersion
    var entries: [String: Entry] = [:]

    /// The entry for `path` when it was recorded for exactly this identity.
    func entry(for path: String, identity: FileIdentity) -> Entry? {
        guard let entry = entries[path], entry.identity == identity else { return nil }
        return entry
    }

    /// Reads the cache; an absent, unreadable or other-version file gives an empty cache.
    static func load(from path: String, fileSystem: any FileSystem) -> VerifyCache {
        guard let bytes = try? fileSystem.read(path),
              let cache = try? JSONDecoder().decode(VerifyCache.self, from: Data(bytes)),
              cache.version == formatVersion
        else { return VerifyCache() }
        return cache
    }

    /// Writes the cache atomically; failures are ignored (it is only a cache).
    func save(to path: String, fileSystem: any FileSystem) {
        guard let data = try? JSONFormatting.encoder(pretty: false).encode(self) else { return }
        let folder = (path as NSString).deletingLastPathComponent
        if !fileSystem.exists(folder) { try? fileSystem.createDirectory(folder) }
        try? fileSystem.writeAtomically(Array(data), to: path)
    }
}
