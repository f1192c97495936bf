import Foundation

/// The file-system operations Slipway performs, behind a protocol so that tests can inject
/// faults (a full disk, a read-only folder) and so that no module touches the disk directly.
public protocol FileSystem: Sendable {
    /// The bytes of a file. Throws `FileSystemError.notFound` when it does not exist.
    func read(_ path: String) throws -> [UInt8]
    /// The bytes of a regular file of at most `limit` bytes, read without ever holding more
    /// than `limit + 1`. Throws `FileSystemError.tooLarge` past it (also for a file that grows
    /// while it is read), `.notFound`, and `.failed` for what is not a regular file.
    func read(_ path: String, limit: Int) throws -> [UInt8]
    /// Writes `bytes` to a temporary file beside `path`, then renames it into place, so that a
    /// reader never sees a half-written file. The file gets `permissions` (such as 0o600) when
    /// given, else those of the file it replaces (0o644 for a new one); the temporary file is
    /// never more open than that while it is written.
    func writeAtomically(_ bytes: [UInt8], to path: String, permissions: Int?) throws
    /// Creates a directory and its missing parents; the folders it creates get `permissions`
    /// (such as 0o700) when given, else the default mode. An existing folder is left as it is.
    func createDirectory(_ path: String, permissions: Int?) throws
    /// Copies a file, or a directory with everything in it, to `destination` (which must not exist).
    func copyItem(_ source: String, to destination: String) throws
    /// The absolute path of the process's working directory (what relative paths are resolved against).
    var currentDirectoryPath: String { get }
    /// The names in a directory, sorted.
    func contents(ofDirectory path: String) throws -> [String]
    /// Renames (moves) a file or directory.
    func move(_ source: String, to destination: String) throws
    /// Removes a file, or a directory with everything in it.
    func remove(_ path: String) throws
    /// What is at `path`, without following a final symbolic link.
    func kind(of path: String) -> FileKind?
    /// True when `path` is a regular file the current user may execute.
    func isExecutable(_ path: String) -> Bool
    /// What `lstat` says of `path`, or nil when nothing is there. File systems that are not
    /// the disk (or cannot say) answer with the kind only (`FileStatus.details` nil).
    func status(of path: String) -> FileStatus?

    // Transactional moves (Sync); defaults and LocalFileSystem's versions in FileSystem+Sync.swift.

    /// Renames `source` to `destination`, failing instead of replacing anything already there.
    func moveWithoutReplacing(_ source: String, to destination: String) throws
    /// Removes a directory only if it is empty (never anything inside it).
    func removeEmptyDirectory(_ path: String) throws
    /// The target of a symbolic link as stored in the link, or nil when `path` is not one.
    func destinationOfSymbolicLink(_ path: String) -> String?
    /// Flushes a directory's entries (renames and creations in it) to the disk.
    func synchronizeDirectory(_ path: String) throws
    /// Appends `bytes` to a file, creating it when missing; `synchronize` flushes it to the disk.
    func append(_ bytes: [UInt8], to path: String, synchronize: Bool) throws
    /// The names in a directory, sorted, each with what it is (nil: vanished meanwhile). The
    /// disk says the kind while listing, without an `lstat` per entry.
    func kinds(ofDirectory path: String) throws -> [(name: String, kind: FileKind?)]
}

extension FileSystem {
    /// Reads the whole file, then checks its size: for file systems that are not the disk.
    public func read(_ path: String, limit: Int) throws -> [UInt8] {
        let bytes = try read(path)
        guard bytes.count <= limit else { throw FileSystemError.tooLarge(path: path, limit: limit) }
        return bytes
    }

    /// The names and, for each, `kind(of:)`.
    public func kinds(ofDirectory path: String) throws -> [(name: String, kind: FileKind?)] {
        try contents(ofDirectory: path).map { ($0, kind(of: path + "/" + $0)) }
    }
}

/// What a path names.
public enum FileKind: Sendable, Hashable {
    case file, directory, symbolicLink, other
}

/// A path's kind and, from the disk, the `lstat` data that tell whether a file changed (what
/// git's index records to avoid reading unchanged files).
public struct FileStatus: Sendable, Hashable {
    /// The numbers `lstat` gives.
    public struct Details: Sendable, Hashable {
        public var size: Int64
        public var inode: UInt64
        public var mode: UInt32
        public var modifiedSeconds: Int64
        public var modifiedNanoseconds: Int64
        public var changedSeconds: Int64
        public var changedNanoseconds: Int64

        public init(size: Int64, inode: UInt64, mode: UInt32, modifiedSeconds: Int64, modifiedNanoseconds: Int64,
                    changedSeconds: Int64, changedNanoseconds: Int64) {
            self.size = size
            self.inode = inode
            self.mode = mode
            self.modifiedSeconds = modifiedSeconds
            self.modifiedNanoseconds = modifiedNanoseconds
            self.changedSeconds = changedSeconds
            self.changedNanoseconds = changedNanoseconds
        }
    }

    public var kind: FileKind
    /// Nil when the file system cannot say.
    public var details: Details?

    public init(kind: FileKind, details: Details? = nil) {
        self.kind = kind
        self.details = details
    }
}

extension FileSystem {
    /// The kind alone, from `kind(of:)`.
    public func status(of path: String) -> FileStatus? {
        kind(of: path).map { FileStatus(kind: $0) }
    }

    /// True when something exists at `path`.
    public func exists(_ path: String) -> Bool { kind(of: path) != nil }

    /// True when `path` is a directory (a link to one counts).
    public func isDirectory(_ path: String) -> Bool { kindFollowingLinks(of: path) == .directory }

    /// True when something exists at `path` once symbolic links are followed, as `stat(2)` (and
    /// `FileManager.fileExists`) say: a dangling link or a loop of links is nothing.
    public func existsFollowingLinks(_ path: String) -> Bool { kindFollowingLinks(of: path) != nil }

    /// What `path` names once symbolic links are followed (never `.symbolicLink`); nil when
    /// nothing is there, a link dangles or links loop.
    public func kindFollowingLinks(of path: String) -> FileKind? {
        // Follows links as stat(2) does, through this file system rather than the disk; 40
        // links in a row is where the kernel gives up too (ELOOP).
        var current = path
        for _ in 0..<40 {
            switch kind(of: current) {
            case .symbolicLink?:
                guard let target = destinationOfSymbolicLink(current), !target.isEmpty else { return nil }
                if target.hasPrefix("/") {
                    current = target
                } else {
                    let parent = (current as NSString).deletingLastPathComponent
                    current = parent.isEmpty ? target : parent + "/" + target
                }
            case let other: return other
            }
        }
        return nil
    }

    /// The file decoded as UTF-8; throws `FileSystemError.notUTF8` naming the first bad byte.
    public func readText(_ path: String) throws -> String {
        let bytes = try read(path)
        if let text = String(validating: bytes, as: UTF8.self) { return text }
        throw FileSystemError.notUTF8(path: path, location: firstInvalidUTF8(in: bytes))
    }

    /// Writes a string as UTF-8, atomically.
    public func writeAtomically(_ text: String, to path: String) throws {
        try writeAtomically(Array(text.utf8), to: path)
    }

    /// Writes `bytes` atomically, keeping the permissions of the file replaced (0o644 for a new one).
    public func writeAtomically(_ bytes: [UInt8], to path: String) throws {
        try writeAtomically(bytes, to: path, permissions: nil)
    }

    /// Creates a directory and its missing parents with the default mode.
    public func createDirectory(_ path: String) throws {
        try createDirectory(path, permissions: nil)
    }
}

/// Line and column (1-based) of the first byte that is not valid UTF-8.
func firstInvalidUTF8(in bytes: [UInt8]) -> (line: Int, column: Int) {
    var line = 1, lineStart = 0, index = 0
    while index < bytes.count {
        let byte = bytes[index]
        let length: Int
        switch byte {
        case 0x00...0x7F: length = 1
        case 0xC2...0xDF: length = 2
        case 0xE0...0xEF: length = 3
        case 0xF0...0xF4: length = 4
        default: return (line, index - lineStart + 1)
        }
        let end = index + length
        guard end <= bytes.count,
              String(validating: bytes[index..<end], as: UTF8.self) != nil
        else { return (line, index - lineStart + 1) }
        if byte == 0x0A { line += 1; lineStart = end }
        index = end
    }
    return (line, index - lineStart + 1)
}

/// Why a file-system operation failed, with the path and what to do.
public enum FileSystemError: Error, LocalizedError, Sendable, Equatable {
    case notFound(path: String)
    case notUTF8(path: String, location: (line: Int, column: Int))
    case permissionDenied(path: String, operation: String)
    case noSpace(path: String)
    case tooLarge(path: String, limit: Int)
    case failed(path: String, operation: String, reason: String)

    public var errorDescription: String? {
        switch self {
        case .notFound(let path):
            return "'\(path)' does not exist. Check the path."
        case .notUTF8(let path, let location):
            return "\(path):\(location.line):\(location.column): the file is not valid UTF-8. "
                + "Save it as UTF-8 and try again."
        case .permissionDenied(let path, let operation):
            return "Permission denied to \(operation) '\(path)'. Check the file's permissions."
        case .noSpace(let path):
            return "No space left on the device while writing '\(path)'. Free some space and try again."
        case .tooLarge(let path, let limit):
            return "'\(path)' is larger than \(limit) bytes, the most Slipway reads of it. Check that it is the file you meant."
        case .failed(let path, let operation, let reason):
            return "Could not \(operation) '\(path)': \(reason)."
        }
    }

    public static func == (lhs: FileSystemError, rhs: FileSystemError) -> Bool {
        lhs.errorDescription == rhs.errorDescription
    }

    /// Maps an `errno` value from a failed call to an error that names the path.
    public static func from(errno code: Int32, path: String, operation: String) -> FileSystemError {
        switch code {
        case ENOENT: return .notFound(path: path)
        case EACCES, EPERM, EROFS: return .permissionDenied(path: path, operation: operation)
        case ENOSPC, EDQUOT: return .noSpace(path: path)
        default: return .failed(path: path, operation: operation, reason: String(cString: strerror(code)))
        }
    }
}
