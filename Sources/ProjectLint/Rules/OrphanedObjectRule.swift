import PBXProj

/// Objects nothing refers to.
public struct OrphanedObjectRule: LintRule {
    public init() {}
    public var id: String { "orphaned-object" }
    public var summary: String { "An object is not reachable from the project object (a leftover of an edit or merge)." }
    public var defaultSeverity: LintSeverity { .warning }
    public var isFixable: Bool { true }
    public var examples: [LintExample] {
        [LintExample("a build file and a file reference no one lists",
                     objects: ["A = {isa = PBXFileReference; path = Kept.swift; sourceTree = \"<group>\"; };",
                               "B = {isa = PBXBuildFile; fileRef = C; };",
                               "C = {isa = PBXFileReference; path = Lost.swift; sourceTree = \"<group>\"; };"],
                     mainChildren: ["A"],
                     expected: ["9: PBXBuildFile 'B' is referred to by no object; remove it",
                                "10: PBXFileReference 'C' (Lost.swift) is referred to by no object; remove it"])]
    }

    public func check(_ context: LintContext) -> [LintFinding] {
        guard let project = context.project else { return [] }
        return project.unreachableObjectIDs().compactMap { id in
            guard let object = project.object(id) else { return nil }
            let name = object.string("name") ?? object.string("path")
            let label = name.map { " (\($0))" } ?? ""
            return finding("\(object.isa) '\(id)'\(label) is referred to by no object; remove it", at: id, in: context,
                           fix: .removeObject(id))
        }
    }
}
