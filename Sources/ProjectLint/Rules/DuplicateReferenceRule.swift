import PBXProj

/// Two file references to the same file.
public struct DuplicateReferenceRule: LintRule {
    public init() {}
    public var id: String { "duplicate-reference" }
    public var summary: String { "Two file references point at the same file." }
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
                     mainChildren: ["A", "B"], expected: [])]
    }

    public func check(_ context: LintContext) -> [LintFinding] {
        guard let tree = context.groupTree else { return [] }
        var first: [ResolvedPath: ObjectID] = [:]
        var findings: [LintFinding] = []
        var duplicates: [(node: GroupTree.Node, original: ObjectID)] = []
        for node in tree.nodes where node.element.kind == .fileReference {
            // Products ($(BUILT_PRODUCTS_DIR)/App.app) of targets for several platforms share a path.
            if case .buildSetting = node.resolvedPath { continue }
            let id = node.element.id
            guard let original = first[node.resolvedPath] else {
                first[node.resolvedPath] = id
                continue
            }
            if original != id { duplicates.append((node, original)) }
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
