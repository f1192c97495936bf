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
        guard let project = context.project, let root = project.rootObjectID, project.contains(root) else { return [] }
        let reached = Self.reachable(from: root, in: project)
        var findings: [LintFinding] = []
        for id in project.objectIDs where !reached.contains(id) {
            guard let object = project.object(id) else { continue }
            let name = object.string("name") ?? object.string("path")
            let label = name.map { " (\($0))" } ?? ""
            findings.append(finding("\(object.isa) '\(id)'\(label) is referred to by no object; remove it", at: id, in: context,
                                    fix: .removeObject(id)))
        }
        return findings
    }

    /// Every object reachable from `root` through string values that name objects.
    static func reachable(from root: ObjectID, in project: PBXProject) -> Set<ObjectID> {
        var reached: Set<ObjectID> = [root]
        var stack = [root]
        while let id = stack.popLast() {
            guard let object = project.object(id) else { continue }
            var values: [PBXValue] = object.properties.entries.filter { $0.key != "isa" }.map(\.value)
            while let value = values.popLast() {
                switch value {
                case .string(let text):
                    let candidate = ObjectID(text)
                    if !reached.contains(candidate), project.contains(candidate) {
                        reached.insert(candidate)
                        stack.append(candidate)
                    }
                case .array(let items): values += items
                case .dictionary(let dictionary): values += dictionary.entries.map(\.value)
                default: break
                }
            }
        }
        return reached
    }
}
