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

    /// synx's default exclusions.
    public static let defaultExcludedGroups = ["/Libraries", "/Frameworks", "/Products", "/Pods"]

    /// Creates options; the defaults are synx's.
    public init(
        prune: Bool = false, exclusions: [String] = [], sortByName: Bool = true, defaultExclusions: Bool = true,
        allowDirty: Bool = false, useGit: Bool = true
    ) {
        self.prune = prune
        self.exclusions = exclusions
        self.sortByName = sortByName
        self.defaultExclusions = defaultExclusions
        self.allowDirty = allowDirty
        self.useGit = useGit
    }
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
