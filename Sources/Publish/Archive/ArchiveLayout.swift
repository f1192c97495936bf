import Basics
import Foundation

/// One entry of an archive, as it will be stored.
public struct ArchiveEntry: Sendable, Hashable {
    /// What the entry holds.
    public enum Content: Sendable, Hashable {
        /// A regular file's bytes, read from `source` while writing.
        case file(source: String, size: Int64)
        /// A folder.
        case directory
        /// A symbolic link and its target.
        case symbolicLink(target: String)
    }

    /// The path inside the archive, `/`-separated, without a leading or trailing slash.
    public var name: String
    /// What it holds.
    public var content: Content
    /// Permission bits as stored: 0755 for folders and executables, 0644 for other files,
    /// 0777 for links; never the builder's own umask or owner.
    public var mode: UInt16

    /// Creates an entry.
    public init(name: String, content: Content, mode: UInt16) {
        self.name = name
        self.content = content
        self.mode = mode
    }

    /// The name with a trailing `/` for folders: the order archives list entries in.
    public var storedName: String {
        if case .directory = content { return name + "/" }
        return name
    }

    /// The bytes of a regular file, 0 for others.
    public var size: Int64 {
        if case .file(_, let size) = content { return size }
        return 0
    }
}

/// A path to put into an archive and the name to store it under.
public struct ArchiveInput: Sendable, Hashable {
    /// The absolute path of a file, folder or link.
    public var path: String
    /// The name inside the archive.
    public var name: String

    /// Creates an input.
    public init(path: String, name: String) {
        self.path = path
        self.name = name
    }
}

/// Turns inputs into the sorted, normalised entry list of a reproducible archive: folders
/// walked recursively, names sorted byte-wise, modes reduced to 0644/0755.
public struct ArchiveLayout: Sendable {
    private let fileSystem: any FileSystem
    private let streams: any FileStreams

    /// A layout over the given file access.
    public init(fileSystem: any FileSystem, streams: any FileStreams) {
        self.fileSystem = fileSystem
        self.streams = streams
    }

    /// The entries for `inputs`, each under `prefix/` when a prefix is given (the prefix's own
    /// folders are entries too).
    /// `checkLink` is called with each symbolic link before it is stored (as a link), and
    /// refuses one by throwing (a link leading out of the project).
    /// - Throws: `PublishError.duplicateEntry` when two inputs end up with one name;
    ///   `FileSystemError` when something cannot be read; what `checkLink` throws.
    public func entries(for inputs: [ArchiveInput], prefix: String? = nil,
                        checkLink: (String) throws -> Void = { _ in }) throws -> [ArchiveEntry] {
        var byName: [String: ArchiveEntry] = [:]
        let cleanPrefix = prefix.map(Self.clean).flatMap { $0.isEmpty ? nil : $0 }
        if let cleanPrefix {
            var folder = ""
            for component in cleanPrefix.split(separator: "/") {
                folder += folder.isEmpty ? String(component) : "/" + component
                byName[folder] = ArchiveEntry(name: folder, content: .directory, mode: 0o755)
            }
        }
        for input in inputs {
            let name = Self.clean(input.name)
            try add(input.path, name: cleanPrefix.map { $0 + "/" + name } ?? name, into: &byName, checkLink: checkLink)
        }
        return byName.values.sorted { Array($0.storedName.utf8).lexicographicallyPrecedes(Array($1.storedName.utf8)) }
    }

    private func add(_ path: String, name: String, into entries: inout [String: ArchiveEntry],
                     checkLink: (String) throws -> Void) throws {
        guard let kind = fileSystem.kind(of: path) else { throw FileSystemError.notFound(path: path) }
        let entry: ArchiveEntry
        switch kind {
        case .directory:
            entry = ArchiveEntry(name: name, content: .directory, mode: 0o755)
        case .symbolicLink:
            try checkLink(path)
            entry = ArchiveEntry(name: name, content: .symbolicLink(target: try streams.linkTarget(path)), mode: 0o777)
        case .file:
            let info = try streams.info(path)
            entry = ArchiveEntry(name: name, content: .file(source: path, size: info.size),
                                 mode: info.isExecutable ? 0o755 : 0o644)
        case .other:
            throw PublishError.notAFile(path: path)
        }
        if let existing = entries[name], existing != entry || kind != .directory {
            throw PublishError.duplicateEntry(name: name)
        }
        entries[name] = entry
        if kind == .directory {
            for child in try fileSystem.contents(ofDirectory: path) {
                try add(path + "/" + child, name: name + "/" + child, into: &entries, checkLink: checkLink)
            }
        }
    }

    /// `a//b/./c/` → `a/b/c`.
    static func clean(_ name: String) -> String {
        name.split(separator: "/").filter { $0 != "." }.joined(separator: "/")
    }
}
