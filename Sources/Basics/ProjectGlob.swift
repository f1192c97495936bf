import Foundation

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// The one pattern expansion of every step that takes file patterns (archive, checksums, sign,
/// upload, a step's `artifacts:`), with the rules of docs/patterns.md:
/// - `*`, `?` and `[...]` match within one path component; a name starting with `.` only when
///   the component itself starts with `.` (`.*`, `.github`);
/// - `**` is any number of folders, as in `.gitignore`: `**/x` is `x` in any folder, `x/**`
///   everything inside `x` at any depth (not `x` itself), `a/**/b` zero or more folders between;
///   it never enters a hidden folder;
/// - links to folders are never followed (so no pattern can loop): a wildcard skips them (see
///   `Expansion.skippedFolderLinks`), a pattern that names one literally is refused;
/// - a link to a file is matched only when its real path stays inside the project; one that
///   leads out of it is refused, as is a pattern that names a place outside the project;
/// - FIFOs, devices and sockets are never matched;
/// - matches and folders visited are capped (`Limits`), so the result is bounded.
public struct ProjectGlob: Sendable {
    /// Caps on one pattern's work.
    public struct Limits: Sendable {
        /// Matches one pattern may have.
        public var matches: Int
        /// Folders one pattern may list.
        public var folders: Int

        /// Caps; the defaults are far above a release's files and far below a runaway walk.
        public init(matches: Int = 100_000, folders: Int = 100_000) {
            self.matches = matches
            self.folders = folders
        }
    }

    /// What a match is.
    public enum Kind: Sendable, Hashable {
        /// A regular file.
        case file
        /// A folder (only when folders are asked for).
        case directory
        /// A symbolic link to a regular file inside the project.
        case linkedFile
    }

    /// A path a pattern matched.
    public struct Match: Sendable, Hashable, Comparable {
        /// The absolute path (links in it not resolved).
        public var path: String
        /// The path relative to the project root.
        public var relative: String
        /// The path below the pattern's leading literal folders: `sub/y.txt` for `assets/**`,
        /// `a.txt` for `dist/*.txt`, `LICENSE` for `LICENSE`. What an archive stores by default.
        public var tail: String
        /// What it is.
        public var kind: Kind

        /// The last path component.
        public var name: String { (path as NSString).lastPathComponent }

        public static func < (lhs: Match, rhs: Match) -> Bool { lhs.path < rhs.path }
    }

    /// The matches of some patterns, and what the wildcards passed by.
    public struct Expansion: Sendable {
        /// Sorted by path, without duplicates.
        public var matches: [Match]
        /// Links to folders a wildcard met and did not follow (relative to the project root),
        /// for a note.
        public var skippedFolderLinks: [String]
    }

    private let fileSystem: any FileSystem
    fileprivate let root: String
    fileprivate let limits: Limits

    /// A glob over the project at `root` (absolute).
    public init(fileSystem: any FileSystem, root: String, limits: Limits = Limits()) {
        self.fileSystem = fileSystem
        self.root = Self.normalize(root)
        self.limits = limits
    }

    /// The paths `patterns` match, patterns being relative to `directory` (absolute).
    /// - Throws: `ProjectGlobError`: a pattern that matches nothing, names a folder when folders
    ///   are not wanted, names a folder link, reaches outside the project, or exceeds a limit.
    public func expand(_ patterns: [String], in directory: String, includeDirectories: Bool = false) throws -> Expansion {
        var found = Set<Match>()
        var skipped = Set<String>()
        for pattern in patterns {
            var walk = Walk(glob: self, pattern: pattern, includeDirectories: includeDirectories)
            try walk.run(in: directory)
            guard !walk.matches.isEmpty else { throw ProjectGlobError.noMatch(pattern: pattern) }
            found.formUnion(walk.matches)
            skipped.formUnion(walk.skipped)
        }
        return Expansion(matches: found.sorted(), skippedFolderLinks: skipped.sorted())
    }

    /// Refuses a symbolic link whose target resolves outside the project (for steps that store
    /// links as links, such as `archive` inside a packed folder).
    /// - Throws: `ProjectGlobError.linkOutsideProject`.
    public func checkLink(_ path: String) throws {
        guard fileSystem.kind(of: path) == .symbolicLink else { return }
        if staysInsideProject(path) == false {
            throw ProjectGlobError.linkOutsideProject(path: display(path), target: fileSystem.destinationOfSymbolicLink(path) ?? "?")
        }
    }

    // MARK: - Shared by the walk

    fileprivate func display(_ path: String) -> String {
        relative(path) ?? path
    }

    /// `path` relative to the root, nil when it is not below it (lexically).
    fileprivate func relative(_ path: String) -> String? {
        if path == root { return "." }
        let prefix = root == "/" ? "/" : root + "/"
        return path.hasPrefix(prefix) ? String(path.dropFirst(prefix.count)) : nil
    }

    fileprivate func list(_ folder: String) -> [(name: String, kind: FileKind?)] {
        (try? fileSystem.kinds(ofDirectory: folder)) ?? []
    }

    fileprivate func kind(_ path: String) -> FileKind? { fileSystem.kind(of: path) }
    fileprivate func kindBehindLink(_ path: String) -> FileKind? { fileSystem.kindFollowingLinks(of: path) }
    fileprivate func target(_ path: String) -> String { fileSystem.destinationOfSymbolicLink(path) ?? "?" }

    /// True when the real path of `path` (every link along it followed) is the project root or
    /// inside it, as the door (`ProjectFiles`) measures it; nil when links loop.
    fileprivate func staysInsideProject(_ path: String) -> Bool? {
        let door = ProjectFiles(root: root, fileSystem: fileSystem)
        guard let resolution = try? door.resolve(path) else { return nil }
        return door.containsRealPath(resolution.real)
    }

    /// `a//b/./c/../d` → `a/b/d` (lexically).
    static func normalize(_ path: String) -> String {
        var parts: [Substring] = []
        for component in path.split(separator: "/") where component != "." {
            if component == "..", let last = parts.last, last != ".." {
                parts.removeLast()
            } else if !(component == ".." && path.hasPrefix("/") && parts.isEmpty) {
                parts.append(component)
            }
        }
        return (path.hasPrefix("/") ? "/" : "") + parts.joined(separator: "/")
    }

    /// True when a component has a character that makes it a pattern.
    static func hasWildcard(_ component: some StringProtocol) -> Bool {
        component.contains { $0 == "*" || $0 == "?" || $0 == "[" }
    }

    /// One component against one name: fnmatch(3) with FNM_PERIOD (a leading `.` only matches
    /// a written `.`).
    static func matches(_ name: String, component: String) -> Bool {
        fnmatch(component, name, FNM_PERIOD) == 0
    }
}

/// One pattern's expansion: the literal lead walked component by component (refusing links
/// along it), then the wildcard components over `kinds(ofDirectory:)`, never through a link.
private struct Walk {
    let glob: ProjectGlob
    let pattern: String
    let includeDirectories: Bool
    var matches: [ProjectGlob.Match] = []
    var skipped: Set<String> = []
    private var seen: Set<String> = []
    private var folders = 0
    private var components: [String] = []
    private var tailStart = ""

    init(glob: ProjectGlob, pattern: String, includeDirectories: Bool) {
        self.glob = glob
        self.pattern = pattern
        self.includeDirectories = includeDirectories
    }

    mutating func run(in directory: String) throws {
        let written = pattern.split(separator: "/").map(String.init).filter { $0 != "." }
        // Consecutive `**` are one; a trailing `**` is everything inside, at any depth.
        var parts = written.enumerated().filter { index, part in !(part == "**" && index > 0 && written[index - 1] == "**") }.map(\.1)
        if parts.last == "**" { parts.append("*") }
        guard !parts.isEmpty else { return }
        let leadCount = parts.prefix { $0 != "**" && !ProjectGlob.hasWildcard($0) }.count
        // `..` is resolved lexically first, so that `../x` inside the project is fine.
        let start = ProjectGlob.normalize(pattern.hasPrefix("/") ? "/" : directory)
        var folder = start
        var index = 0
        // The leading literal folders, `..` included (never the last component: that is matched below).
        while index < parts.count - 1, index < leadCount {
            folder = ProjectGlob.normalize(folder + "/" + parts[index])
            index += 1
        }
        guard let relativeFolder = glob.relative(folder) else {
            throw ProjectGlobError.outsideProject(pattern: pattern)
        }
        guard parts[index...].allSatisfy({ $0 != ".." }) else { throw ProjectGlobError.outsideProject(pattern: pattern) }
        // The literal folders walked one by one from the root: none may be a link.
        var walked = glob.root == "/" ? "" : glob.root
        for name in relativeFolder.split(separator: "/") where relativeFolder != "." {
            walked += "/" + name
            switch glob.kind(walked) {
            case .directory?: continue
            case .symbolicLink? where glob.kindBehindLink(walked) == .directory:
                throw ProjectGlobError.folderLink(path: glob.display(walked), target: glob.target(walked))
            default: return   // nothing there: no match
            }
        }
        if glob.staysInsideProject(folder) != true { throw ProjectGlobError.outsideProject(pattern: pattern) }
        components = Array(parts[index...])
        tailStart = folder
        try match(0, in: folder)
    }

    private mutating func match(_ index: Int, in folder: String) throws {
        let component = components[index]
        let last = index == components.count - 1
        if component == "**" {
            try match(index + 1, in: folder)
            for (name, kind) in try list(folder) where !name.hasPrefix(".") {
                let path = folder + "/" + name
                if kind == .directory {
                    try match(index, in: path)
                } else if kind == .symbolicLink, glob.kindBehindLink(path) == .directory {
                    skipped.insert(glob.display(path))
                }
            }
            return
        }
        if !ProjectGlob.hasWildcard(component) {
            let path = folder + "/" + component
            guard let kind = glob.kind(path) else { return }
            if last {
                try accept(path, kind: kind, literal: true)
            } else if kind == .directory {
                try match(index + 1, in: path)
            } else if kind == .symbolicLink, glob.kindBehindLink(path) == .directory {
                // After a wildcard (`**/sub/x`): passed by like any other folder link.
                skipped.insert(glob.display(path))
            }
            return
        }
        for (name, kind) in try list(folder) where ProjectGlob.matches(name, component: component) {
            let path = folder + "/" + name
            guard let kind else { continue }
            if last {
                try accept(path, kind: kind, literal: false)
            } else if kind == .directory {
                try match(index + 1, in: path)
            } else if kind == .symbolicLink, glob.kindBehindLink(path) == .directory {
                skipped.insert(glob.display(path))
            }
        }
    }

    private mutating func accept(_ path: String, kind: FileKind, literal: Bool) throws {
        let found: ProjectGlob.Kind
        switch kind {
        case .file:
            found = .file
        case .directory:
            guard includeDirectories else {
                if literal && !isPattern { throw ProjectGlobError.notAFile(path: pattern) }
                return
            }
            found = .directory
        case .symbolicLink:
            switch glob.kindBehindLink(path) {
            case .file?:
                guard glob.staysInsideProject(path) == true else {
                    throw ProjectGlobError.linkOutsideProject(path: glob.display(path), target: glob.target(path))
                }
                found = .linkedFile
            case .directory?:
                if literal && !isPattern { throw ProjectGlobError.folderLink(path: glob.display(path), target: glob.target(path)) }
                skipped.insert(glob.display(path))
                return
            default:
                // A dangling link or a link to a FIFO: nothing to publish.
                if literal && !isPattern { throw ProjectGlobError.notAFile(path: pattern) }
                return
            }
        case .other:
            if literal && !isPattern { throw ProjectGlobError.notAFile(path: pattern) }
            return
        }
        guard seen.insert(path).inserted else { return }
        guard matches.count < glob.limits.matches else {
            throw ProjectGlobError.tooMany(pattern: pattern, what: "files", limit: glob.limits.matches)
        }
        let tail = path.hasPrefix(tailStart + "/") ? String(path.dropFirst(tailStart.count + 1)) : (path as NSString).lastPathComponent
        matches.append(ProjectGlob.Match(path: path, relative: glob.relative(path) ?? path, tail: tail, kind: found))
    }

    private var isPattern: Bool { ProjectGlob.hasWildcard(pattern) || pattern.split(separator: "/").contains("**") }

    private mutating func list(_ folder: String) throws -> [(name: String, kind: FileKind?)] {
        folders += 1
        guard folders <= glob.limits.folders else {
            throw ProjectGlobError.tooMany(pattern: pattern, what: "folders", limit: glob.limits.folders)
        }
        return glob.list(folder)
    }
}

/// Why a pattern could not be expanded. Each message names the pattern or file and what to do.
public enum ProjectGlobError: Error, LocalizedError, Sendable, Equatable {
    /// A pattern matched nothing.
    case noMatch(pattern: String)
    /// A pattern names something that is not a regular file where a file is needed.
    case notAFile(path: String)
    /// A pattern names a symbolic link to a folder, which is never followed.
    case folderLink(path: String, target: String)
    /// A matched symbolic link leads out of the project.
    case linkOutsideProject(path: String, target: String)
    /// A pattern names a place outside the project.
    case outsideProject(pattern: String)
    /// A pattern matched more files, or listed more folders, than the cap.
    case tooMany(pattern: String, what: String, limit: Int)

    public var errorDescription: String? {
        switch self {
        case .noMatch(let pattern):
            return "no file matches '\(pattern)'. Check the pattern (relative to the working directory) and that an earlier step made the files."
        case .notAFile(let path):
            return "'\(path)' is not a regular file. Name files, or a pattern such as 'dist/*' that matches files."
        case .folderLink(let path, let target):
            return "'\(path)' is a symbolic link to a folder ('\(target)'); Slipway never follows links to folders. Name the folder itself."
        case .linkOutsideProject(let path, let target):
            return "'\(path)' is a symbolic link to '\(target)', outside the project; Slipway publishes no file from outside the project. Replace the link by the file or remove it."
        case .outsideProject(let pattern):
            return "'\(pattern)' names files outside the project; Slipway publishes no file from outside the project. Copy the files into the project first."
        case .tooMany(let pattern, let what, let limit):
            return "'\(pattern)' reaches more than \(limit) \(what); Slipway stops there. Narrow the pattern."
        }
    }
}
