import Foundation

/// A signing storage in a local directory. Writes are atomic (a temporary file in the same
/// folder, then a rename), so a reader never sees half a file. No file is read, written or
/// deleted through a symbolic link (`StorageFileAccess`).
public struct DirectorySigningStorage: SigningStorage {
    /// The directory (created with the first write).
    public let root: String
    /// Whether writes are refused.
    public let isReadOnly: Bool

    /// A storage at `root`.
    public init(root: String, readOnly: Bool = false) {
        self.root = root.hasSuffix("/") && root.count > 1 ? String(root.dropLast()) : root
        self.isReadOnly = readOnly
    }

    /// The directory's path.
    public var displayName: String { root }

    /// Every regular file below the root, as relative paths, sorted.
    public func list() async throws -> [String] {
        try StorageFileAccess.checkNoLinks(root: root, relative: "")
        var isDirectory: ObjCBool = false
        guard FileManager.default.fileExists(atPath: root, isDirectory: &isDirectory) else { return [] }
        guard isDirectory.boolValue else {
            throw SigningStorageError.unreachable(storage: root, detail: "it is a file, not a directory")
        }
        guard let walker = FileManager.default.enumerator(atPath: root) else {
            throw SigningStorageError.unreachable(storage: root, detail: "it cannot be listed")
        }
        var files: [String] = []
        while let path = walker.nextObject() as? String {
            if walker.fileAttributes?[.type] as? FileAttributeType == .typeRegular { files.append(path) }
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
        let full = URL(fileURLWithPath: root + "/" + path)
        do {
            try FileManager.default.createDirectory(at: full.deletingLastPathComponent(), withIntermediateDirectories: true)
            try Data(bytes).write(to: full, options: .atomic)
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
        guard FileManager.default.fileExists(atPath: full) else { return }
        do {
            try FileManager.default.removeItem(atPath: full)
        } catch {
            throw SigningStorageError.writeFailed(storage: root, detail: "'\(path)': \(error.localizedDescription)")
        }
    }

    /// Nothing to do: writes are already durable.
    public func save(message: String) async throws {}
}
