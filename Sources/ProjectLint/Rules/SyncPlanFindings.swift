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

/// Files and folders not where their groups say (what `slipway sync --check` finds).
public struct GroupFolderMismatchRule: LintRule {
    public init() {}
    public var id: String { "group-folder-mismatch" }
    public var summary: String { "A file is not in its group's folder (what 'slipway sync --check' finds)." }
    /// A note by default: most projects never aligned folders with groups (830 findings over the corpus).
    public var defaultSeverity: LintSeverity { .note }
    public var examples: [LintExample] {
        [LintExample("a file whose group is 'Model' lying at the top",
                     objects: ["G = {isa = PBXGroup; children = (A); path = Model; sourceTree = \"<group>\"; };",
                               "A = {isa = PBXFileReference; path = ../User.swift; sourceTree = \"<group>\"; };"],
                     mainChildren: ["G"], files: ["User.swift", "Model/.keep"],
                     expected: ["9: 'User.swift' is not in its group's folder; 'slipway sync' moves it to 'Model/User.swift'"])]
    }

    public func check(_ context: LintContext) -> [LintFinding] {
        guard let plan = SyncPlanFindings.plan(context) else { return [] }
        let elements = SyncPlanFindings.elements(context)
        return plan.moves.filter { $0.reason == .reference }.map { move in
            finding("'\(move.source)' is not in its group's folder; 'slipway sync' moves it to '\(move.destination)'",
                    at: elements[move.source], in: context, subject: move.source)
        }
    }
}

/// Sources and images in a group's folder that no reference covers.
public struct UnreferencedFileRule: LintRule {
    public init() {}
    public var id: String { "unreferenced-file" }
    public var summary: String { "A source or image file in a group's folder is not in the project (what 'slipway sync --prune' would delete)." }
    public var defaultSeverity: LintSeverity { .warning }
    public var examples: [LintExample] {
        [LintExample("a Swift file next to the referenced ones",
                     objects: ["G = {isa = PBXGroup; children = (A); path = App; sourceTree = \"<group>\"; };",
                               "A = {isa = PBXFileReference; path = App.swift; sourceTree = \"<group>\"; };"],
                     mainChildren: ["G"], files: ["App/App.swift", "App/Forgotten.swift", "App/README.md"],
                     expected: ["-: 'App/Forgotten.swift' is in the folder of a group but not in the project; add it or delete it"])]
    }

    public func check(_ context: LintContext) -> [LintFinding] {
        guard let plan = SyncPlanFindings.plan(context) else { return [] }
        return plan.pruned.sorted().map { path in
            finding("'\(path)' is in the folder of a group but not in the project; add it or delete it", at: nil, in: context, subject: path)
        }
    }
}
