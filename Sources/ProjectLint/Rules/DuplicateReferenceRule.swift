import PBXProj

/// Two file references to the same file.
public struct DuplicateReferenceRule: LintRule {
    public init() {}
    public var id: String { "duplicate-reference" }
    public var summary: String {
        "Two file references point at the same file, in one group or built by one target (a reference per module group, each built by another target, is deliberate and not reported)."
    }
    public var defaultSeverity: LintSeverity { .warning }
    public var isFixable: Bool { true }
    public var examples: [LintExample] {
        [LintExample("the same file referenced twice",
                     objects: ["A = {isa = PBXFileReference; path = App.swift; sourceTree = \"<group>\"; };",
                               "B = {isa = PBXFileReference; path = App.swift; sourceTree = \"<group>\"; };"],
                     mainChildren: ["A", "B"], files: ["App.swift"],
                     expected: ["9: file reference 'B' points at 'App.swift' like 'A' (line 8); keep one (--fix points build files at the first)"]),
         LintExample("the products of an iOS and a macOS target share a name: not a duplicate",
                     objects: ["A = {isa = PBXFileReference; path = Kit.framework; sourceTree = BUILT_PRODUCTS_DIR; };",
                               "B = {isa = PBXFileReference; path = Kit.framework; sourceTree = BUILT_PRODUCTS_DIR; };"],
                     mainChildren: ["A", "B"], expected: []),
         LintExample("one shared file shown in two module groups, each built by its own target: deliberate",
                     objects: ["G = {isa = PBXGroup; children = (A); name = Core; sourceTree = \"<group>\"; };",
                               "H = {isa = PBXGroup; children = (B); name = UI; sourceTree = \"<group>\"; };",
                               "A = {isa = PBXFileReference; path = Shared.swift; sourceTree = \"<group>\"; };",
                               "B = {isa = PBXFileReference; path = Shared.swift; sourceTree = \"<group>\"; };",
                               "C = {isa = PBXBuildFile; fileRef = A; };", "D = {isa = PBXBuildFile; fileRef = B; };",
                               "P = {isa = PBXSourcesBuildPhase; files = (C); };", "Q = {isa = PBXSourcesBuildPhase; files = (D); };",
                               "T = {isa = PBXNativeTarget; buildPhases = (P); name = Core; };",
                               "U = {isa = PBXNativeTarget; buildPhases = (Q); name = UI; };"],
                     mainChildren: ["G", "H"], targets: ["T", "U"], files: ["Shared.swift"], expected: [])]
    }

    /// The targets that build each file reference (through any phase).
    static func builders(_ project: PBXProject) -> [ObjectID: Set<ObjectID>] {
        var result: [ObjectID: Set<ObjectID>] = [:]
        for target in project.targets {
            for phase in project.object(target.id)?.references("buildPhases") ?? [] {
                for buildFile in project.object(phase)?.references("files") ?? [] {
                    if let reference = project.object(buildFile)?.reference("fileRef") { result[reference, default: []].insert(target.id) }
                }
            }
        }
        return result
    }

    public func check(_ context: LintContext) -> [LintFinding] {
        guard let tree = context.groupTree else { return [] }
        var first: [ResolvedPath: ObjectID] = [:]
        var findings: [LintFinding] = []
        var duplicates: [(node: GroupTree.Node, original: ObjectID)] = []
        var parents: [ObjectID: Int?] = [:]
        let builders = context.project.map(Self.builders) ?? [:]
        for node in tree.nodes where node.element.kind == .fileReference {
            if parents[node.element.id] == nil { parents[node.element.id] = node.parent }
            // Products ($(BUILT_PRODUCTS_DIR)/App.app) of targets for several platforms share a path.
            if case .buildSetting = node.resolvedPath { continue }
            let id = node.element.id
            guard let original = first[node.resolvedPath] else {
                first[node.resolvedPath] = id
                continue
            }
            guard original != id else { continue }
            // In other groups and built by no common target: a reference per module group.
            let sameGroup = parents[original].flatMap { $0 } == node.parent
            let sharedTarget = !(builders[original] ?? []).isDisjoint(with: builders[id] ?? [])
            if sameGroup || sharedTarget { duplicates.append((node, original)) }
        }
        let locations = context.locations(of: duplicates.map(\.original))
        for (node, original) in duplicates {
            let id = node.element.id
            let line = locations[original].map { " (line \($0.line))" } ?? ""
            findings.append(finding(
                "file reference '\(id)' points at '\(node.resolvedPath)' like '\(original)'\(line); keep one (--fix points build files at the first)",
                at: id, in: context, fix: .mergeReference(duplicate: id, into: original), subject: node.resolvedPath.description))
        }
        return findings
    }
}
