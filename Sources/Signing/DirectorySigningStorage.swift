import Basics
import Foundation

/// A signing storage in a local directory. Writes are atomic (a temporary file in the same
/// folder, then a rename), so a reader never sees half a file. No file is read, written or
/// deleted through a symbolic link (`StorageFileAccess`).
public struct DirectorySigningStorage: SigningStorage {
    /// The directory (created with the first write).
    public let root: String
    /// Whether writes are refused.
    public let isReadOnly: Bool
    private let fileSystem: any FileSystem

    /// A storage at `root` on `fileSystem`. (Reads go through `StorageFileAccess`, which opens
    /// files without following links, on the local disk.)
    public init(root: String, readOnly: Bool = false, fileSystem: any FileSystem = LocalFileSystem()) {
        self.root = root.hasSuffix("/") && root.count > 1 ? String(root.dropLast()) : root
        self.isReadOnly = readOnly
        self.fileSystem = fileSystem
    }

    /// The directory's path.
    public var displayName: String { root }

    /// Every regular file below the root, as relative paths, sorted.
    public func list() async throws -> [String] {
        // The root is no symbolic link (checked), so its own kind is what it names.
        try StorageFileAccess.checkNoLinks(root: root, relative: "")
        switch fileSystem.kind(of: root) {
        case nil: return []
        case .directory?: break
        default: throw SigningStorageError.unreachable(storage: root, detail: "it is a file, not a directory")
        }
        guard let top = try? fileSystem.kinds(ofDirectory: root) else {
            throw SigningStorageError.unreachable(storage: root, detail: "it cannot be listed")
        }
        // Regular files only; links are neither listed nor entered, and a folder below the root
        // that cannot be listed is skipped, as a directory enumerator does.
        var files: [String] = []
        var pending: [(prefix: String, entries: [(name: String, kind: FileKind?)])] = [("", top)]
        while let (prefix, entries) = pending.popLast() {
            for entry in entries {
                let relative = prefix + entry.name
                if entry.kind == .file {
                    files.append(relative)
                } else if entry.kind == .directory, let inner = try? fileSystem.kinds(ofDirectory: root + "/" + relative) {
                    pending.append((relative + "/", inner))
                }
            }
        }
        return files.sorted()
    }

    /// The file's bytes, or nil.
    /// Never through a symbolic link, and at most `StorageFileAccess.maximumFileBytes`.
    public func read(_ path: String) async throws -> [UInt8]? {
        try SigningLayout.validate(path: path)
        return try StorageFileAccess.read(root: root, relative: path)
    }

    /// Writes atomically.
    public func write(_ path: String, _ bytes: [UInt8]) async throws {
        try SigningLayout.validate(path: path)
        try requireWritable("write '\(path)'")
        try StorageFileAccess.checkNoLinks(root: root, relative: path)
        let full = root + "/" + path
        do {
            try fileSystem.createDirectory((full as NSString).deletingLastPathComponent)
            try fileSystem.writeAtomically(bytes, to: full)
        } catch {
            throw SigningStorageError.writeFailed(storage: root, detail: "'\(path)': \(error.localizedDescription)")
        }
    }

    /// Deletes the file if it is there.
    public func delete(_ path: String) async throws {
        try SigningLayout.validate(path: path)
        try requireWritable("delete '\(path)'")
        try StorageFileAccess.checkNoLinks(root: root, relative: path)
        let full = root + "/" + path
        guard fileSystem.exists(full) else { return }
        do {
            try fileSystem.remove(full)
        } catch {
            throw SigningStorageError.writeFailed(storage: root, detail: "'\(path)': \(error.localizedDescription)")
        }
    }

    /// Nothing to do: writes are already durable.
    public func save(message: String) async throws {}
}
