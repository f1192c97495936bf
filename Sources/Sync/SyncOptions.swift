/// What `slipway sync` should do, with synx's options and Slipway's own.
public struct SyncOptions: Sendable, Hashable, Codable {
    /// Delete source and image files in the groups' folders that nothing in the project refers to
    /// (listed first; nothing is deleted without it).
    public var prune: Bool
    /// Groups to leave alone, as paths from the main group (`/Vendor`, `App/Generated`; the
    /// leading `/` is optional). Each must name a group.
    public var exclusions: [String]
    /// Sort every synced group's children by name, folders first (synx's default).
    public var sortByName: Bool
    /// Leave synx's default groups alone: `/Libraries`, `/Frameworks`, `/Products`, `/Pods` (and
    /// the project's products group whatever its name).
    public var defaultExclusions: Bool
    /// Run even when the git working tree has uncommitted changes.
    public var allowDirty: Bool
    /// Use git when the project is in a repository: refuse a dirty tree, stage the moves.
    public var useGit: Bool
    /// Where a group's folder comes from: its `path` (Xcode's tie, the default) or its display
    /// name (synx's layout).
    public var foldersFrom: FolderSource
    /// With `foldersFrom: .paths`, what a group with a name and no path gets: none (`.virtual`,
    /// the default: its files belong to its parent's folder), or a folder named after it
    /// (`.folder`, synx's layout).
    public var groupsWithoutPath: PathlessGroups
    /// With `SyncMode.check`: also fail when a group's children are not sorted by name (without
    /// it, `--check` looks at placement only).
    public var checkOrder: Bool

    /// synx's default exclusions.
    public static let defaultExcludedGroups = ["/Libraries", "/Frameworks", "/Products", "/Pods"]

    /// Creates options; the defaults are synx's, except that a group with a `path` keeps the
    /// folder its path names and a group with only a name gets no folder (`foldersFrom: .names`
    /// gives synx's layout; `groupsWithoutPath: .folder` gives folders to name-only groups).
    public init(
        prune: Bool = false, exclusions: [String] = [], sortByName: Bool = true, defaultExclusions: Bool = true,
        allowDirty: Bool = false, useGit: Bool = true, foldersFrom: FolderSource = .paths, groupsWithoutPath: PathlessGroups = .virtual,
        checkOrder: Bool = false
    ) {
        self.prune = prune
        self.exclusions = exclusions
        self.sortByName = sortByName
        self.defaultExclusions = defaultExclusions
        self.allowDirty = allowDirty
        self.useGit = useGit
        self.foldersFrom = foldersFrom
        self.groupsWithoutPath = groupsWithoutPath
        self.checkOrder = checkOrder
    }
}

/// What `slipway sync` gives a group that has a name and no path (`--groups-without-path`).
public enum PathlessGroups: String, Sendable, Hashable, Codable, CaseIterable {
    /// A folder named after the group, below its parent's folder (synx's layout).
    case folder
    /// No folder (the default): the group only arranges the navigator; its files belong to its
    /// parent's folder and stay wherever they are inside it. Most teams keep such groups on
    /// purpose.
    case virtual
}

/// Where `slipway sync` takes a group's folder from (`--folders-from`).
public enum FolderSource: String, Sendable, Hashable, Codable, CaseIterable {
    /// Xcode's tie between a group and its `path`: a group with a path keeps the folder the path
    /// names (below its parent's folder); only a group with a name and no path gets a folder,
    /// named after its name. A file anywhere inside its group's folder stays where it is; only
    /// files outside it move (into the group's folder).
    case paths
    /// synx's layout: every group's folder is its parent's folder plus its display name (its
    /// `name`, else its path's last component), and every file goes straight into its group's
    /// folder.
    case names
}

/// Extensions of files `--prune` may delete (synx's list plus Swift-era sources and images);
/// anything else that nothing references is carried along instead.
enum PrunableExtensions {
    static let all: Set<String> = [
        "h", "m", "mm", "c", "cc", "cpp", "cxx", "hh", "hpp", "swift", "xib", "storyboard",
        "png", "jpg", "jpeg", "gif", "heic", "pdf", "svg",
    ]

    static func contains(_ name: String) -> Bool {
        guard let dot = name.lastIndex(of: "."), dot != name.startIndex else { return false }
        return all.contains(name[name.index(after: dot)...].lowercased())
    }
}

/// Files a tool finds by their place, which `slipway sync` never moves (a project often shows
/// them in a group for editing): Swift package manifests and lockfiles, CocoaPods', Carthage's,
/// Bundler's and Mint's files, a podspec, XcodeGen's and Tuist's manifests.
enum ToolManifests {
    static let names: Set<String> = [
        "Package.swift", "Package.resolved", "Podfile", "Podfile.lock", "Cartfile", "Cartfile.private", "Cartfile.resolved",
        "Gemfile", "Gemfile.lock", "Mintfile", "Brewfile", "project.yml", "Project.swift", "Workspace.swift", "Tuist.swift",
        "Dangerfile", "Fastfile", "Appfile", "Matchfile", "Pluginfile",
    ]

    static func contains(_ name: String) -> Bool {
        if names.contains(name) { return true }
        if name.hasPrefix("Package@swift-") && name.hasSuffix(".swift") { return true }
        return name.hasSuffix(".podspec") || name.hasSuffix(".podspec.json")
    }
}
