import Basics
import PBXProj

/// Works out what a sync does, without touching the disk: a pure function of the project model,
/// a directory listing and the options.
///
/// A group with a `path` keeps the folder it resolves to (Xcode ties the group to it); a group
/// with only a name gets a folder, its parent's folder plus its name; every reference under a
/// `<group>` chain that is outside its group's folder goes into it (a localized file keeps its
/// `xx.lproj`), and one already inside, at any depth, stays. With `--folders-from names`
/// (synx's layout) every group's folder is its parent's folder plus its display name and every
/// reference goes straight into its group's folder. Bundles,
/// folder references, model versions and synchronized folders move whole. Everything else keeps
/// pointing where it pointed: paths of references that do not move are recomputed only where
/// their group's folder changed.
public enum SyncPlanner {
    /// The plan for `project` against `listing`.
    ///
    /// - Parameter projectBundle: The `.xcodeproj` folder's path relative to `listing.root`
    ///   (nothing inside it ever moves; the journal's trash lives there).
    /// - Returns: A plan; check `conflicts` before applying it.
    /// - Throws: `SyncError.unknownGroups` for exclusions that match no group,
    ///   `SyncError.unreadableProject` when the group tree is broken (a cycle, no main group).
    /// - Parameter submodules: The paths of the repository's git submodules (from `.gitmodules`)
    ///   relative to `listing.root`: nothing moves into, out of or within them. A checked-out
    ///   submodule (a folder with a `.git` of its own) is found in the listing too.
    public static func plan(
        project: PBXProject, listing: DirectoryListing, options: SyncOptions, projectBundle: String? = nil,
        submodules: [String] = []
    ) throws -> SyncPlan {
        let tree: GroupTree
        do {
            tree = try project.groupTree()
        } catch {
            throw SyncError.unreadableProject(path: (projectBundle ?? project.projectName + ".xcodeproj") + "/project.pbxproj", detail: errorText(error))
        }
        return try plan(
            project: project, tree: tree, listing: listing, options: options, projectBundle: projectBundle, submodules: submodules)
    }

    /// The plan for `project`, whose group tree (`project.groupTree()`) the caller already
    /// built: for callers that need the tree too (lint), so that it is built once.
    ///
    /// - Throws: `SyncError.unknownGroups` for exclusions that match no group.
    public static func plan(
        project: PBXProject, tree: GroupTree, listing: DirectoryListing, options: SyncOptions, projectBundle: String? = nil,
        submodules: [String] = []
    ) throws -> SyncPlan {
        var builder = PlanBuilder(
            project: project, tree: tree, listing: listing, options: options,
            projectBundle: projectBundle ?? project.projectName + ".xcodeproj")
        try builder.markExclusions()
        builder.computeOrder()
        builder.assignGroupFolders()
        builder.collectClaims()
        builder.collectProtectedAreas(submodules: submodules)
        builder.placeUnits()
        builder.reportRecoveredReferences()
        builder.carryAndPrune()
        builder.checkTargets()
        builder.computeEdits()
        builder.rewriteBuildSettings()
        if options.sortByName { builder.sortGroups() }
        builder.orderMoves()
        return builder.plan
    }
}

/// The planner's working state: one slot per group-tree node, filled pass by pass.
struct PlanBuilder {
    /// What the sync does with a tree node.
    enum Role: Equatable {
        /// The main group: its folder is the project folder's and never moves.
        case main
        /// An excluded group, or anything inside one: stays where it is.
        case excluded
        /// A group that gets (or keeps) a folder of its own, named after the group.
        case folderGroup
        /// A group without name or path, or a variant group: its children live in its parent's
        /// folder.
        case passThrough
        /// A group whose folder cannot move: `SOURCE_ROOT`, absolute or build-setting-relative,
        /// or outside the project folder; with `--folders-from paths`, any group with a path
        /// (Xcode ties it to that folder). Its children are still synced below it.
        case anchored
        /// A file reference, version group, synchronized folder or reference proxy.
        case unit
        /// Something inside a unit (a model version): moves with it.
        case insideUnit
        /// A second occurrence of an element placed earlier in the tree.
        case alias
    }

    let project: PBXProject
    let tree: GroupTree
    let listing: DirectoryListing
    let options: SyncOptions
    let projectBundle: String
    /// `projectDirPath`, normalized: what `SOURCE_ROOT` and build settings are relative to.
    let base: String

    var roles: [Role]
    /// For groups: the folder their children resolve against after the sync.
    var folders: [ResolvedPath]
    /// Node indexes in the order the tree will have after the sync (see `computeOrder`).
    var order: [Int] = []
    /// The first node of each element, in `order`.
    var firstNode: [ObjectID: Int] = [:]
    /// The sorted children of the groups that sorting reorders (or would).
    var sortedOrder: [ObjectID: [ObjectID]] = [:]
    /// Group-tree paths (`/App/Models`) of the excluded groups' nodes.
    var excludedRoots: Set<Int> = []

    /// Keys of every path something in the project refers to, with their ancestors.
    var claimed: Set<String> = []
    /// Keys of folders that belong to a group (its own `path`).
    var groupFolders: Set<String> = []
    /// Keys of every unit's path on disk (moving or not): nothing inside them moves on its own.
    var unitPaths: Set<String> = []
    /// Keys of paths nothing may move out of or into besides `.xcodeproj`/`.xcworkspace`
    /// bundles: the project's own bundle and local Swift packages.
    var pinned: [String] = []
    /// What never moves (see `collectProtectedAreas`): key → the area's path and why.
    var protectedAreas: [String: (path: String, reason: UnmovedReference.Reason)] = [:]
    /// True when the project folder itself is protected (it holds a `Package.swift`).
    var protectsEverything = false
    /// Keys of the top-level folders that groups' folders are in after the sync.
    var groupTopFolders: Set<String> = []
    /// Elements some target builds (a build file refers to them).
    var builtElements: Set<ObjectID> = []
    /// Xcode's "Recovered References" groups: left alone like excluded groups.
    var recoveredRoots: Set<Int> = []
    /// Files that several references point at: source key → their nodes, the deciding one first.
    var sharedFiles: [String: [Int]] = [:]
    /// Source key → index in `plan.moves`.
    var moveBySource: [String: Int] = [:]
    /// Final `path`/`name` of elements the edits touch.
    var finalPath: [ObjectID: String?] = [:]
    var finalName: [ObjectID: String?] = [:]
    var finalSourceTree: [ObjectID: String] = [:]
    /// Elements listed by several groups that became `SOURCE_ROOT`-relative.
    var madeProjectRelative: Set<ObjectID> = []

    var plan = SyncPlan()

    init(project: PBXProject, tree: GroupTree, listing: DirectoryListing, options: SyncOptions, projectBundle: String) {
        self.project = project
        self.tree = tree
        self.listing = listing
        self.options = options
        self.projectBundle = projectBundle
        base = ProjectPath.normalize(project.projectObject?.string("projectDirPath") ?? "")
        roles = Array(repeating: .unit, count: tree.nodes.count)
        folders = tree.nodes.map(\.resolvedPath)
    }

    func key(_ path: String) -> String { listing.key(path) }

    /// A node's element's display name: its name, else its path's last component.
    func displayName(_ element: FileElement) -> String {
        let name = finalName[element.id] ?? element.name
        let path = finalPath[element.id] ?? element.path
        return name ?? path.map { ProjectPath.lastComponent($0) } ?? ""
    }

    /// `/App/Models`: a node's place in the group tree, by display names.
    func treePath(_ index: Int) -> String {
        var parts: [String] = []
        var current: Int? = index
        while let node = current, node != 0 {
            parts.append(displayName(tree.nodes[node].element))
            current = tree.nodes[node].parent
        }
        return "/" + parts.reversed().joined(separator: "/")
    }

    /// Where a path will be after the moves: a moved entry's destination, or the place inside
    /// one; anything else stays.
    func mapped(_ path: String) -> String {
        guard !path.isEmpty, !ProjectPath.isOutside(path), !moveBySource.isEmpty else { return path }
        if let index = moveBySource[key(path)] { return plan.moves[index].destination }
        for prefix in ProjectPath.Ancestors(path) {
            if let index = moveBySource[key(String(prefix))] { return plan.moves[index].destination + path[prefix.endIndex...] }
        }
        return path
    }

    func mapped(_ resolved: ResolvedPath) -> ResolvedPath {
        switch resolved {
        case .relative(let path): return .relative(mapped(path))
        case .absolute(let path):
            guard let inside = ProjectPath.removingPrefix(listing.root, from: path) else { return resolved }
            let moved = mapped(inside)
            return moved == inside ? resolved : .absolute(moved.isEmpty ? listing.root : listing.root + "/" + moved)
        case .buildSetting: return resolved
        }
    }

    /// Whether nothing may move out of or into `path`: inside an `.xcodeproj` or
    /// `.xcworkspace`, or a local Swift package.
    func isPinnedPath(_ path: String) -> Bool {
        if ProjectPath.hasProjectBundleComponent(path) { return true }
        let pathKey = key(path)
        for item in pinned where ProjectPath.isWithin(pathKey, item) { return true }
        return false
    }
}
