import Foundation

/// The one door for the project's own files (beside `StateFiles`, which guards Slipway's state).
///
/// The checkout may be a pull request's, so any of its files or folders may be a committed
/// symbolic link to a file outside (`Podfile.lock -> ~/.aws/credentials`, `Support -> ~/x`), a
/// device (`-> /dev/zero`), a FIFO, or simply huge. Every read or write of a path inside the
/// project goes through these rules:
///
/// - **Reads** take a regular file whose real path (every link followed, `..` resolved as the
///   kernel does) stays inside the project, at most the size cap of its kind (`FileBudget`).
///   A link whose target stays inside is fine.
/// - **Writes** go to a file whose folder's real path stays inside the project, never through a
///   link (a link at the file's own name is refused), atomically.
/// - **Listings** of a folder whose real path is outside are refused, so no walk leaves the
///   project through a folder link.
///
/// A path is *inside* when, made absolute, it begins with the project folder (as given or as
/// its real path); those are checked. A path that names somewhere else outright (an absolute
/// `/tmp/dist`, `--junit /reports/x.xml`, the tools cache, a temporary folder) is not the
/// project's and is left to its caller: the user or the lane named it in the open. A path that
/// begins inside and climbs out (`Support/../../x`) is inside, and refused.
public struct ProjectFiles: Sendable {
    /// The project folder, absolute, as given.
    public let root: String
    /// The project folder's real path (links resolved), what containment is measured against.
    public let realRoot: String
    /// Where the bytes come from and go to.
    public let fileSystem: any FileSystem

    /// A door for the project at `root` (absolute; a relative one is taken from the current
    /// folder), over `fileSystem`.
    public init(root: String, fileSystem: any FileSystem = LocalFileSystem()) {
        let absolute = root.hasPrefix("/") ? root : fileSystem.currentDirectoryPath + "/" + root
        let trimmed = Self.trimmed(absolute)
        self.root = trimmed
        self.fileSystem = fileSystem
        self.realRoot = Self.trimmed((try? fileSystem.realPath(of: trimmed)) ?? trimmed)
    }

    // MARK: - Which paths are the project's

    /// `path` made absolute against the project folder.
    public func absolute(_ path: String) -> String {
        if path.hasPrefix("/") { return path }
        if path.isEmpty || path == "." { return root }
        return root + "/" + path
    }

    /// True when `path` (absolute) begins with the project folder, as given or as its real path.
    public func isInside(_ path: String) -> Bool {
        Self.begins(path, with: root) || Self.begins(path, with: realRoot)
    }

    /// True when a real path (links resolved) stays inside the project.
    public func containsRealPath(_ realPath: String) -> Bool {
        Self.begins(realPath, with: realRoot)
    }

    /// `path` relative to the project folder when inside it, for messages.
    public func display(_ path: String) -> String {
        for base in [root, realRoot] where Self.begins(path, with: base) {
            let rest = path.dropFirst(base.count).drop { $0 == "/" }
            return rest.isEmpty ? "." : String(rest)
        }
        return path
    }

    // MARK: - Reads

    /// Checks that `path` may be read as a project file: when inside the project, its real path
    /// stays inside and it is a regular file (or, with `folder`, a folder). Returns the path to
    /// open: the real path for a project file (so that nothing swapped in later redirects it),
    /// `path` itself for a path outside the project.
    /// - Throws: `FileSystemError.notFound`; `ProjectFileError.outside`, `.notAFile`, `.linkLoop`.
    public func checkedForReading(_ path: String, folder: Bool = false) throws -> String {
        let absolute = absolute(path)
        guard isInside(absolute) else { return absolute }
        let resolution = try resolve(absolute)
        guard containsRealPath(resolution.real) else {
            throw ProjectFileError.outside(path: display(absolute), link: resolution.firstLink.map(display),
                                           target: resolution.real, root: root)
        }
        guard let kind = fileSystem.kind(of: resolution.real) else { throw FileSystemError.notFound(path: absolute) }
        switch (kind, folder) {
        case (.file, false), (.directory, true): return resolution.real
        default: throw ProjectFileError.notAFile(path: display(absolute), kind: kind, expectedFolder: folder)
        }
    }

    /// The bytes of a project file, at most `budget.limit` of them.
    /// - Throws: what `checkedForReading` throws; `ProjectFileError.tooLarge`; `FileSystemError`.
    public func read(_ path: String, as budget: FileBudget) throws -> [UInt8] {
        let openPath = try checkedForReading(path)
        do {
            return try fileSystem.read(openPath, limit: budget.limit)
        } catch FileSystemError.tooLarge(_, let limit) {
            throw ProjectFileError.tooLarge(path: display(absolute(path)), kind: budget.name, limit: limit)
        }
    }

    /// The project file decoded as UTF-8 (see `read(_:as:)`).
    /// - Throws: what `read(_:as:)` throws; `FileSystemError.notUTF8` naming the first bad byte.
    public func readText(_ path: String, as budget: FileBudget) throws -> String {
        let bytes = try read(path, as: budget)
        if let text = String(validating: bytes, as: UTF8.self) { return text }
        throw FileSystemError.notUTF8(path: absolute(path), location: firstInvalidUTF8(in: bytes))
    }

    /// Like `readText(_:as:)`, but nil when nothing is at `path`.
    public func readTextIfPresent(_ path: String, as budget: FileBudget) throws -> String? {
        do {
            return try readText(path, as: budget)
        } catch FileSystemError.notFound {
            return nil
        }
    }

    // MARK: - Writes

    /// Checks that `path` may be written as a project file: when inside the project, the real
    /// path of its folder stays inside, and nothing at `path` itself is a link or a non-file.
    /// Returns the path to write (in the folder's real path). Missing folders are fine: they
    /// are checked as `createFolder` would make them.
    /// - Throws: `ProjectFileError.outside`, `.writeThroughLink`, `.notAFile`, `.linkLoop`.
    public func checkedForWriting(_ path: String) throws -> String {
        let absolute = absolute(path)
        guard isInside(absolute) else { return absolute }
        let name = (absolute as NSString).lastPathComponent
        let parent = (absolute as NSString).deletingLastPathComponent
        guard !name.isEmpty, name != ".", name != ".." else {
            throw ProjectFileError.notAFile(path: display(absolute), kind: .directory, expectedFolder: false)
        }
        let resolution = try resolve(parent)
        guard containsRealPath(resolution.real) else {
            throw ProjectFileError.outside(path: display(absolute), link: resolution.firstLink.map(display),
                                           target: resolution.real + "/" + name, root: root)
        }
        let target = resolution.real + "/" + name
        switch fileSystem.kind(of: target) {
        case nil, .file?: return target
        case .symbolicLink?:
            throw ProjectFileError.writeThroughLink(path: display(absolute),
                                                    target: fileSystem.destinationOfSymbolicLink(target) ?? "?")
        case let kind?: throw ProjectFileError.notAFile(path: display(absolute), kind: kind, expectedFolder: false)
        }
    }

    /// Writes a project file atomically (temporary file beside it, then a rename), creating
    /// missing folders, after `checkedForWriting`.
    public func write(_ bytes: [UInt8], to path: String, permissions: Int? = nil) throws {
        let target = try checkedForWriting(path)
        let folder = (target as NSString).deletingLastPathComponent
        if !folder.isEmpty, fileSystem.kind(of: folder) == nil { try createFolder(folder) }
        try fileSystem.writeAtomically(bytes, to: target, permissions: permissions)
    }

    /// Writes text as UTF-8 (see `write(_:to:permissions:)`).
    public func write(_ text: String, to path: String) throws {
        try write(Array(text.utf8), to: path)
    }

    /// Creates a folder and its missing parents inside the project; no existing component may
    /// lead outside.
    public func createFolder(_ path: String, permissions: Int? = nil) throws {
        let absolute = absolute(path)
        guard isInside(absolute) else { return try fileSystem.createDirectory(absolute, permissions: permissions) }
        let resolution = try resolve(absolute)
        guard containsRealPath(resolution.real) else {
            throw ProjectFileError.outside(path: display(absolute), link: resolution.firstLink.map(display),
                                           target: resolution.real, root: root)
        }
        if let kind = fileSystem.kind(of: resolution.real), kind != .directory {
            throw ProjectFileError.notAFile(path: display(absolute), kind: kind, expectedFolder: true)
        }
        try fileSystem.createDirectory(resolution.real, permissions: permissions)
    }

    // MARK: - Resolution

    /// A path's real path and the first symbolic link met on the way (the one to blame).
    public struct Resolution: Sendable, Hashable {
        public var real: String
        public var firstLink: String?
    }

    /// Resolves `path` (absolute) as the kernel would: each component in turn, links followed
    /// (at most 40, as `ELOOP`), `..` taken after the links before it. Components that do not
    /// exist are kept as they are.
    /// - Throws: `ProjectFileError.linkLoop`.
    public func resolve(_ path: String) throws -> Resolution {
        var firstLink: String?
        let real = try fileSystem.realPath(of: path) { link in
            if firstLink == nil { firstLink = link }
        }
        return Resolution(real: real, firstLink: firstLink)
    }

    static func trimmed(_ path: String) -> String {
        var path = path
        while path.count > 1 && path.hasSuffix("/") { path.removeLast() }
        return path
    }

    static func begins(_ path: String, with base: String) -> Bool {
        if base == "/" { return path.hasPrefix("/") }
        return path == base || path.hasPrefix(base + "/")
    }
}

extension FileSystem {
    /// The real path of `path` (absolute): every component resolved in order, links followed
    /// (at most 40 in all, as the kernel's `ELOOP`), `.` dropped and `..` applied to what the
    /// path has resolved to so far. Components that do not exist are appended as they are.
    /// `onLink` is told each link met, as the path that named it.
    /// - Throws: `ProjectFileError.linkLoop` after 40 links.
    public func realPath(of path: String, onLink: (String) -> Void = { _ in }) throws -> String {
        var pending = path.split(separator: "/", omittingEmptySubsequences: true).map(String.init).reversed() as [String]
        var resolved: [String] = []
        var links = 0
        var missing = false
        while let component = pending.popLast() {
            if component == "." { continue }
            if component == ".." {
                if !resolved.isEmpty { resolved.removeLast() }
                continue
            }
            resolved.append(component)
            if missing { continue }
            let current = "/" + resolved.joined(separator: "/")
            switch kind(of: current) {
            case nil: missing = true
            case .symbolicLink?:
                links += 1
                guard links <= 40, let target = destinationOfSymbolicLink(current) else {
                    throw ProjectFileError.linkLoop(path: path)
                }
                onLink(current)
                resolved.removeLast()
                if target.hasPrefix("/") { resolved.removeAll() }
                pending.append(contentsOf: target.split(separator: "/", omittingEmptySubsequences: true).map(String.init).reversed())
            default: break
            }
        }
        return "/" + resolved.joined(separator: "/")
    }
}

/// The size caps of the project's files, by kind: far above any real file of the kind, low
/// enough that a hostile one cannot exhaust memory. docs/security.md lists them.
public struct FileBudget: Sendable, Hashable {
    /// What the file is, for messages ("lockfile").
    public let name: String
    /// The largest size read, in bytes.
    public let limit: Int

    /// A budget.
    public init(_ name: String, limit: Int) {
        self.name = name
        self.limit = limit
    }

    /// Lane files (`lanes/*.yml`): 1 MiB.
    public static let laneFile = FileBudget("lane file", limit: 1 << 20)
    /// Configuration files (`Toolfile`, `.slipway/lint.yml`, tool configs): 1 MiB.
    public static let configuration = FileBudget("configuration file", limit: 1 << 20)
    /// Lockfiles (`Toolfile.lock`, `Package.resolved`, `Podfile.lock`, `Cartfile.resolved`,
    /// `Gemfile.lock`): 16 MiB.
    public static let lockfile = FileBudget("lockfile", limit: 16 << 20)
    /// `project.pbxproj`: 64 MiB (the largest real one seen is under 10 MiB).
    public static let projectFile = FileBudget("project file", limit: 64 << 20)
    /// Build settings files (`.xcconfig`), schemes, test plans: 4 MiB.
    public static let buildSettings = FileBudget("build settings file", limit: 4 << 20)
    /// Property lists (Info.plist, entitlements, ExportOptions.plist): 32 MiB, as
    /// `PropertyListLimits.standard`.
    public static let propertyList = FileBudget("property list", limit: 32 << 20)
    /// Files a version lives in (`VERSION`, a Swift source constant, `Package.swift`): 4 MiB.
    public static let versionFile = FileBudget("version file", limit: 4 << 20)
    /// Changelogs: 16 MiB.
    public static let changelog = FileBudget("changelog", limit: 16 << 20)
    /// Templates (changelog entries, release notes): 256 KiB, as the template budget.
    public static let template = FileBudget("template", limit: 256 << 10)
    /// App Store listing texts: 64 KiB.
    public static let listingText = FileBudget("listing text", limit: 64 << 10)
    /// Screenshots: 64 MiB.
    public static let screenshot = FileBudget("screenshot", limit: 64 << 20)
    /// Anything else read whole from the project: 256 MiB.
    public static let other = FileBudget("file", limit: 256 << 20)
}

/// Why the door refused a project file, naming the file (and the link) and what to do.
public enum ProjectFileError: Error, LocalizedError, Sendable, Equatable {
    /// The file's real path leaves the project (through `link`, or by `..`).
    case outside(path: String, link: String?, target: String, root: String)
    /// Not a regular file (a device, a FIFO, a socket, a folder), or not a folder where one was wanted.
    case notAFile(path: String, kind: FileKind, expectedFolder: Bool)
    /// Over the cap of its kind.
    case tooLarge(path: String, kind: String, limit: Int)
    /// A write would go through the symbolic link at the file's own name.
    case writeThroughLink(path: String, target: String)
    /// More than 40 links on the way (a loop).
    case linkLoop(path: String)

    public var errorDescription: String? {
        switch self {
        case .outside(let path, let link, let target, let root):
            let how: String
            if let link, link == path {
                how = "'\(path)' is a symbolic link to '\(target)', outside the project"
            } else if let link {
                how = "'\(path)' leads outside the project through the symbolic link '\(link)' (to '\(target)')"
            } else {
                how = "'\(path)' is outside the project ('\(target)')"
            }
            return how + ". Slipway reads and writes the project's files only inside the project ('\(root)'): "
                + "replace the link with the file or folder itself, or name a path inside the project."
        case .notAFile(let path, let kind, let expectedFolder):
            if expectedFolder { return "'\(path)' is not a folder. Remove it or name another folder." }
            let what: String
            switch kind {
            case .directory: what = "a folder"
            case .symbolicLink: what = "a symbolic link"
            default: what = "not a regular file (a device, a FIFO or a socket)"
            }
            return "'\(path)' is \(what). Slipway reads and writes only regular files here: replace it with a regular file."
        case .tooLarge(let path, let kind, let limit):
            return "'\(path)' is larger than \(limit) bytes, the most Slipway reads of a \(kind). "
                + "Check that it is the file you meant."
        case .writeThroughLink(let path, let target):
            return "'\(path)' is a symbolic link (to '\(target)'), and Slipway never writes through a link. "
                + "Replace the link with a regular file, or remove it."
        case .linkLoop(let path):
            return "'\(path)' goes through more than 40 symbolic links (a loop?). Remove the loop."
        }
    }
}
