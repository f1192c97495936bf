import Foundation

/// The file system the CLI gives every command and step: the disk, with every path inside the
/// project going through the door (`ProjectFiles`).
///
/// Reads inside the project take regular files whose real path stays inside, at most
/// `defaultBudget` unless the caller names a smaller cap (`read(_:limit:)`); writes, moves,
/// copies, removals and new folders inside the project go to folders whose real path stays
/// inside and never through a link at the name written; listings refuse a folder that leads
/// outside. Paths outside the project (temporary folders, caches, `--output` folders the user
/// named) pass through unchanged. Status queries (`kind`, `status`, `destinationOfSymbolicLink`)
/// are `lstat`s and pass through: they follow nothing.
public struct ProjectFileSystem: FileSystem {
    /// The door and its project.
    public let files: ProjectFiles
    /// The cap of a read that names none.
    public let defaultBudget: FileBudget
    private var base: any FileSystem { files.fileSystem }

    /// The project at `root` over `base` (the disk unless a test gives another).
    public init(root: String, base: any FileSystem = LocalFileSystem(), defaultBudget: FileBudget = .other) {
        self.files = ProjectFiles(root: root, fileSystem: base)
        self.defaultBudget = defaultBudget
    }

    public func read(_ path: String) throws -> [UInt8] {
        try read(path, limit: defaultBudget.limit)
    }

    public func read(_ path: String, limit: Int) throws -> [UInt8] {
        let checked = try files.checkedForReading(absolute(path))
        do {
            return try base.read(checked, limit: limit)
        } catch FileSystemError.tooLarge(_, let limit) where files.isInside(absolute(path)) {
            throw FileSystemError.tooLarge(path: path, limit: limit)
        }
    }

    public func writeAtomically(_ bytes: [UInt8], to path: String, permissions: Int?) throws {
        try base.writeAtomically(bytes, to: files.checkedForWriting(absolute(path)), permissions: permissions)
    }

    public func createDirectory(_ path: String, permissions: Int?) throws {
        try files.createFolder(absolute(path), permissions: permissions)
    }

    public func copyItem(_ source: String, to destination: String) throws {
        let from = try checkedSource(source)
        try base.copyItem(from, to: files.checkedForWriting(absolute(destination)))
    }

    public var currentDirectoryPath: String { base.currentDirectoryPath }

    public func contents(ofDirectory path: String) throws -> [String] {
        try base.contents(ofDirectory: files.checkedForReading(absolute(path), folder: true))
    }

    public func kinds(ofDirectory path: String) throws -> [(name: String, kind: FileKind?)] {
        try base.kinds(ofDirectory: files.checkedForReading(absolute(path), folder: true))
    }

    public func move(_ source: String, to destination: String) throws {
        try base.move(checkedSource(source), to: files.checkedForWriting(absolute(destination)))
    }

    public func moveWithoutReplacing(_ source: String, to destination: String) throws {
        try base.moveWithoutReplacing(checkedSource(source), to: files.checkedForWriting(absolute(destination)))
    }

    public func remove(_ path: String) throws {
        try base.remove(checkedSource(path))
    }

    public func removeEmptyDirectory(_ path: String) throws {
        try base.removeEmptyDirectory(checkedSource(path))
    }

    public func append(_ bytes: [UInt8], to path: String, synchronize: Bool) throws {
        try base.append(bytes, to: files.checkedForWriting(absolute(path)), synchronize: synchronize)
    }

    public func synchronizeDirectory(_ path: String) throws {
        try base.synchronizeDirectory(path)
    }

    public func kind(of path: String) -> FileKind? { base.kind(of: path) }
    public func status(of path: String) -> FileStatus? { base.status(of: path) }
    public func isExecutable(_ path: String) -> Bool { base.isExecutable(path) }
    public func destinationOfSymbolicLink(_ path: String) -> String? { base.destinationOfSymbolicLink(path) }

    /// A path that a move or removal takes away: the item itself may be a link (the link moves
    /// or goes, not its target), but the folder it is in must stay inside the project.
    private func checkedSource(_ path: String) throws -> String {
        let absolute = absolute(path)
        guard files.isInside(absolute) else { return absolute }
        let name = (absolute as NSString).lastPathComponent
        let folder = try files.resolve((absolute as NSString).deletingLastPathComponent)
        guard files.containsRealPath(folder.real) else {
            throw ProjectFileError.outside(path: files.display(absolute), link: folder.firstLink.map(files.display),
                                           target: folder.real + "/" + name, root: files.root)
        }
        return folder.real + "/" + name
    }

    private func absolute(_ path: String) -> String {
        path.hasPrefix("/") ? path : base.currentDirectoryPath + "/" + path
    }
}
