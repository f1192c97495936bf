import PBXProj

/// Groups without children.
public struct EmptyGroupRule: LintRule {
    public init() {}
    public var id: String { "empty-group" }
    public var summary: String { "A group has no children." }
    public var defaultSeverity: LintSeverity { .warning }
    public var examples: [LintExample] {
        [LintExample("an empty group",
                     objects: ["G = {isa = PBXGroup; children = (); name = Leftovers; sourceTree = \"<group>\"; };"],
                     mainChildren: ["G"],
                     expected: ["8: group 'Leftovers' is empty; remove it"])]
    }

    public func check(_ context: LintContext) -> [LintFinding] {
        guard let project = context.project else { return [] }
        let main = project.mainGroupID
        return project.objectIDs(isa: PBXIsa.group).compactMap { id in
            guard id != main, let group = project.fileElement(id), group.children.isEmpty else { return nil }
            return finding("group '\(group.displayName ?? id.rawValue)' is empty; remove it", at: id, in: context)
        }
    }
}
