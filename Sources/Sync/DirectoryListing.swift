import PBXProj
import Basics

/// A snapshot of the project folder, taken once before planning so that the planner is a pure
/// function of the project, this listing and the options.
///
/// Paths are relative to the folder that holds the `.xcodeproj` ("" is that folder). On a
/// case-insensitive file system lookups ignore case and return the spelling on disk.
public struct DirectoryListing: Sendable {
    /// What an entry is. Symbolic links are never followed.
    public enum Kind: String, Hashable, Sendable, Codable {
        /// A regular file.
        case file
        /// A directory.
        case directory
        /// A symbolic link (see `Entry.linkDestination`).
        case symbolicLink
        /// A socket, device or pipe.
        case other
    }

    /// One entry on disk.
    public struct Entry: Hashable, Sendable {
        /// The path as spelled on disk, relative to the root.
        public let path: String
        /// What it is.
        public let kind: Kind
        /// For a symbolic link: what it points to, as stored in the link.
        public let linkDestination: String?

        /// Creates an entry.
        public init(path: String, kind: Kind, linkDestination: String? = nil) {
            self.path = path
            self.kind = kind
            self.linkDestination = linkDestination
        }
    }

    /// Folder names whose contents are never listed: version control and build output, which no
    /// project references into and which can hold hundreds of thousands of files.
    public static let unlistedFolders: Set<String> = [".git", ".build", "DerivedData", "node_modules", ".swiftpm"]

    /// The absolute path of the folder that holds the `.xcodeproj`.
    public let root: String
    /// Whether the file system tells `a` and `A` apart.
    public let isCaseSensitive: Bool
    private var entries: [String: Entry] = [:]
    private var childNames: [String: [String]] = [:]
    /// `lstat` data of scanned entries, by key, when the file system gave them.
    private var details: [String: FileStatus.Details] = [:]

    /// A listing from explicit entries (the root folder is implied); for tests and for callers
    /// that already know the tree. Missing parent folders are added.
    public init(root: String, isCaseSensitive: Bool = true, entries list: [Entry]) {
        self.root = root
        self.isCaseSensitive = isCaseSensitive
        entries.reserveCapacity(list.count + 1)
        childNames.reserveCapacity(list.count / 4 + 1)
        entries[""] = Entry(path: "", kind: .directory)
        childNames[""] = []
        for entry in list { insert(entry) }
        for key in childNames.keys { childNames[key]?.sort() }
    }

    private mutating func insert(_ entry: Entry) {
        let key = self.key(entry.path)
        guard entries[key] == nil else { return }
        let parent = ProjectPath.parent(entry.path)
        if entries[self.key(parent)] == nil { insert(Entry(path: parent, kind: .directory)) }
        entries[key] = entry
        childNames[self.key(parent), default: []].append(ProjectPath.lastComponent(entry.path))
        if entry.kind == .directory && childNames[key] == nil { childNames[key] = [] }
    }

    /// The lookup key of a path: the path itself, or folded to lower case when the file system
    /// ignores case.
    public func key(_ path: String) -> String {
        isCaseSensitive ? path : path.lowercased()
    }

    /// The entry at `path` (any case on a case-insensitive file system), or nil.
    public func entry(_ path: String) -> Entry? {
        entries[key(path)]
    }

    /// The names in a listed folder, sorted; empty for files, unknown paths and unlisted folders.
    public func children(of path: String) -> [String] {
        childNames[key(path)] ?? []
    }

    /// Whether the folder's contents were listed (false for `unlistedFolders`, bundles of other
    /// projects and unreadable folders).
    public func isListed(_ path: String) -> Bool {
        childNames[key(path)] != nil
    }

    /// How many entries there are, the root included.
    public var count: Int { entries.count }

    /// What `lstat` said of `path` during the scan (nil when it was not scanned from the disk).
    public func details(_ path: String) -> FileStatus.Details? {
        details[key(path)]
    }

    /// Every entry, in no particular order.
    public var allEntries: [Entry] { Array(entries.values) }

    /// Lists `root` recursively through `fileSystem`, without following symbolic links and
    /// without entering `unlistedFolders` or `.xcodeproj`/`.xcworkspace` bundles.
    /// - Throws: `SyncError.projectFolderUnreadable` when the root itself cannot be listed.
    /// `details: false` skips the `lstat` of each entry (the kinds come from the listing of
    /// each folder) for callers that do not need `details(_:)`, such as lint.
    public static func scan(root: String, fileSystem: any FileSystem, details withDetails: Bool = true) throws -> DirectoryListing {
        func list(_ folder: String) throws -> [(name: String, kind: FileKind?)] {
            withDetails ? try fileSystem.contents(ofDirectory: folder).map { ($0, nil) } : try fileSystem.kinds(ofDirectory: folder)
        }
        let names: [(name: String, kind: FileKind?)]
        do {
            names = try list(root)
        } catch {
            throw SyncError.projectFolderUnreadable(path: root, reason: errorText(error))
        }
        var listing = DirectoryListing(
            root: root, isCaseSensitive: probeCaseSensitivity(root: root, names: names.map(\.name), fileSystem: fileSystem), entries: [])
        var pending: [(relative: String, names: [(name: String, kind: FileKind?)])] = [("", names)]
        while let (folder, names) = pending.popLast() {
            for (name, listedKind) in names {
                let relative = folder.isEmpty ? name : folder + "/" + name
                var absolute: String { root + "/" + relative }
                let kind: Kind
                if withDetails {
                    let status = fileSystem.status(of: absolute)
                    kind = Self.kind(status?.kind)
                    if let found = status?.details { listing.details[listing.key(relative)] = found }
                } else {
                    kind = Self.kind(listedKind)
                }
                let destination = kind == .symbolicLink ? fileSystem.destinationOfSymbolicLink(absolute) : nil
                listing.insertScanned(Entry(path: relative, kind: kind, linkDestination: destination), name: name, parent: folder)
                guard kind == .directory, !unlistedFolders.contains(name), !name.hasSuffix(".xcodeproj"),
                    !name.hasSuffix(".xcworkspace"), let inner = try? list(root + "/" + relative)
                else { continue }
                listing.childNames[listing.key(relative)] = []
                pending.append((relative, inner))
            }
        }
        return listing
    }

    private mutating func insertScanned(_ entry: Entry, name: String, parent: String) {
        entries[key(entry.path)] = entry
        childNames[key(parent), default: []].append(name)
    }

    private static func kind(_ kind: FileKind?) -> Kind {
        switch kind {
        case .file?: return .file
        case .directory?: return .directory
        case .symbolicLink?: return .symbolicLink
        case .other?, nil: return .other
        }
    }

    /// Whether the file system at `root` tells `a` from `A`, found without writing anything: an
    /// entry's name with its case flipped either is listed too (two entries: case-sensitive),
    /// or reaches the same entry (case-insensitive), or reaches nothing (case-sensitive).
    /// With no name that has a case to flip, `fallback` decides: the platform's usual file system
    /// (`platformIsCaseSensitive`).
    static func probeCaseSensitivity(root: String, names: [String], fileSystem: any FileSystem,
                                     fallback: Bool = platformIsCaseSensitive) -> Bool {
        let listed = Set(names)
        for name in names {
            let flipped = name.map { $0.isUppercase ? $0.lowercased() : $0.uppercased() }.joined()
            guard flipped != name else { continue }
            if listed.contains(flipped) { return true }
            return fileSystem.kind(of: root + "/" + flipped) == nil
        }
        return fallback
    }

    /// Whether this platform's usual file system tells `a` from `A`: APFS and HFS+ as macOS
    /// formats them do not; ext4 and the other Linux file systems do.
    static var platformIsCaseSensitive: Bool {
        #if os(macOS)
        return false
        #else
        return true
        #endif
    }
}
