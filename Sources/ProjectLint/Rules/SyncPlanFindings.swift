import PBXProj
import Sync

/// The plan `slipway sync --check --prune` would make, as the two sync rules read it.
enum SyncPlanFindings {
    /// The plan (nil when the folder is unknown or the planner refuses the project).
    static func plan(_ context: LintContext) -> SyncPlan? {
        context.memo.syncPlan.get {
            // The context's group tree: building it again is most of a plan's cost.
            guard let project = context.project, let tree = context.groupTree, let listing = context.files.listing() else { return nil }
            return try? SyncPlanner.plan(project: project, tree: tree, listing: listing,
                                         options: SyncOptions(prune: true, sortByName: false, useGit: false),
                                         projectBundle: context.bundlePath)
        }
    }

    /// The file element each resolved path belongs to (first occurrence).
    static func elements(_ context: LintContext) -> [String: ObjectID] {
        var result: [String: ObjectID] = [:]
        for node in context.groupTree?.nodes ?? [] where result[node.resolvedPath.description] == nil {
            result[node.resolvedPath.description] = node.element.id
        }
        return result
    }
}

extension SyncPlanFindings {
    /// The group each resolved path's element is in (first occurrence): its id and display name.
    static func groups(_ context: LintContext) -> [String: (id: ObjectID, name: String)] {
        var result: [String: (id: ObjectID, name: String)] = [:]
        let nodes = context.groupTree?.nodes ?? []
        for node in nodes where result[node.resolvedPath.description] == nil {
            guard let parent = node.parent, parent != 0, nodes.indices.contains(parent) else { continue }
            let group = nodes[parent].element
            result[node.resolvedPath.description] = (group.id, group.displayName ?? group.id.rawValue)
        }
        return result
    }
}

/// Files and folders not where their groups say (what `slipway sync --check` finds).
public struct GroupFolderMismatchRule: LintRule {
    public init() {}
    public var id: String { "group-folder-mismatch" }
    public var summary: String { "Files are not in their group's folder (what 'slipway sync --check' finds): one finding per group, with the count of its files." }
    /// A note by default: most projects never aligned folders with groups (830 findings over the corpus).
    public var defaultSeverity: LintSeverity { .note }
    public var examples: [LintExample] {
        // In the app's folder: a file at the top that no target builds never moves (a tool finds it there).
        [LintExample("a file whose group is 'Model' lying in the folder above",
                     objects: ["P = {isa = PBXGroup; children = (G); path = App; sourceTree = \"<group>\"; };",
                               "G = {isa = PBXGroup; children = (A); path = Model; sourceTree = \"<group>\"; };",
                               "A = {isa = PBXFileReference; path = ../User.swift; sourceTree = \"<group>\"; };"],
                     mainChildren: ["P"], files: ["App/User.swift", "App/Model/.keep"],
                     expected: ["10: 'App/User.swift' is not in its group's folder; 'slipway sync' moves it to 'App/Model/User.swift'"]),
         LintExample("three files of group 'Model' lying in the folder above: one finding for the group",
                     objects: ["P = {isa = PBXGroup; children = (G); path = App; sourceTree = \"<group>\"; };",
                               "G = {isa = PBXGroup; children = (A, B, C); path = Model; sourceTree = \"<group>\"; };",
                               "A = {isa = PBXFileReference; path = ../User.swift; sourceTree = \"<group>\"; };",
                               "B = {isa = PBXFileReference; path = ../Team.swift; sourceTree = \"<group>\"; };",
                               "C = {isa = PBXFileReference; path = ../Role.swift; sourceTree = \"<group>\"; };"],
                     mainChildren: ["P"], files: ["App/User.swift", "App/Team.swift", "App/Role.swift", "App/Model/.keep"],
                     expected: ["9: 3 files of group 'Model' are not in its folder 'App/Model'; 'slipway sync' moves them there "
                                + "(first: 'App/User.swift' to 'App/Model/User.swift')"])]
    }

    public func check(_ context: LintContext) -> [LintFinding] {
        guard let plan = SyncPlanFindings.plan(context) else { return [] }
        let elements = SyncPlanFindings.elements(context)
        let groups = SyncPlanFindings.groups(context)
        // One finding per group: a group whose folder holds none of its files is one problem,
        // however many files it has.
        var order: [String] = []
        var byGroup: [String: [SyncMove]] = [:]
        for move in plan.moves where move.reason == .reference {
            let key = groups[move.source].map { $0.id.rawValue } ?? ProjectPath.parent(move.destination)
            if byGroup[key] == nil { order.append(key) }
            byGroup[key, default: []].append(move)
        }
        return order.compactMap { key -> LintFinding? in
            guard let moves = byGroup[key], let move = moves.first else { return nil }
            guard moves.count > 1 else {
                return finding("'\(move.source)' is not in its group's folder; 'slipway sync' moves it to '\(move.destination)'",
                               at: elements[move.source], in: context, subject: move.source)
            }
            let folder = ProjectPath.parent(move.destination)
            let group = groups[move.source].map { "group '\($0.name)'" } ?? "a group"
            return finding("\(moves.count) files of \(group) are not in its folder '\(folder.isEmpty ? "." : folder)'; 'slipway sync' moves them "
                           + "there (first: '\(move.source)' to '\(move.destination)')",
                           at: groups[move.source]?.id ?? elements[move.source], in: context, subject: folder)
        }
    }
}

/// Sources and images in a group's folder that no reference covers.
public struct UnreferencedFileRule: LintRule {
    public init() {}
    public var id: String { "unreferenced-file" }
    public var summary: String {
        "A source or image file in a group's folder is not in the project (what 'slipway sync --prune' would delete); "
            + "a file inside a synchronized folder (Xcode 16), at any depth, is in the project through the folder."
    }
    public var defaultSeverity: LintSeverity { .warning }
    public var examples: [LintExample] {
        [LintExample("a Swift file next to the referenced ones",
                     objects: ["G = {isa = PBXGroup; children = (A); path = App; sourceTree = \"<group>\"; };",
                               "A = {isa = PBXFileReference; path = App.swift; sourceTree = \"<group>\"; };"],
                     mainChildren: ["G"], files: ["App/App.swift", "App/Forgotten.swift", "App/README.md"],
                     expected: ["-: 'App/Forgotten.swift' is in the folder of a group but not in the project; add it or delete it"]),
         LintExample("files of a synchronized folder, under a group whose folder lies inside it, are in the project",
                     objects: ["S = {isa = PBXFileSystemSynchronizedRootGroup; path = App; sourceTree = \"<group>\"; };",
                               "G = {isa = PBXGroup; children = (A); path = App/Legacy; sourceTree = \"<group>\"; };",
                               "A = {isa = PBXFileReference; path = Old.swift; sourceTree = \"<group>\"; };",
                               "O = {isa = PBXGroup; children = (B); path = Other; sourceTree = \"<group>\"; };",
                               "B = {isa = PBXFileReference; path = Kept.swift; sourceTree = \"<group>\"; };"],
                     mainChildren: ["S", "G", "O"],
                     files: ["App/Main.swift", "App/Legacy/Old.swift", "App/Legacy/New.swift", "App/Legacy/Icons/icon.png",
                             "Other/Kept.swift", "Other/Forgotten.swift"],
                     expected: ["-: 'Other/Forgotten.swift' is in the folder of a group but not in the project; add it or delete it"])]
    }

    public func check(_ context: LintContext) -> [LintFinding] {
        guard let plan = SyncPlanFindings.plan(context) else { return [] }
        // A file inside a synchronized folder is in the project through the folder, though no
        // reference names it (a group's folder may lie inside or on one).
        let synchronized = context.synchronizedFolders
        return plan.pruned.filter { !synchronized.contains($0) }.sorted().map { path in
            finding("'\(path)' is in the folder of a group but not in the project; add it or delete it", at: nil, in: context, subject: path)
        }
    }
}
