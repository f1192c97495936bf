import Archives
import Basics
import Foundation

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
