import PBXProj

/// Two objects with one id.
public struct DuplicateObjectIDRule: LintRule {
    public init() {}
    public var id: String { "duplicate-object-id" }
    public var summary: String { "Two objects share an id (a bad merge); Xcode keeps only one of them." }
    public var defaultSeverity: LintSeverity { .error }
    public var examples: [LintExample] {
        [LintExample("one id twice",
                     objects: ["A = {isa = PBXFileReference; path = One.swift; sourceTree = \"<group>\"; };",
                               "A = {isa = PBXFileReference; path = Two.swift; sourceTree = \"<group>\"; };"],
                     mainChildren: ["A"],
                     expected: ["9: object id 'A' is used again (first on line 8); give one of the objects a new id"])]
    }

    public func check(_ context: LintContext) -> [LintFinding] {
        guard case .duplicateObjectID(let id, let at, let first) = context.readError else { return [] }
        return [LintFinding(ruleID: self.id, severity: defaultSeverity,
                            message: "object id '\(id)' is used again (first on line \(first.line)); give one of the objects a new id",
                            path: context.pbxprojPath, line: at.line, column: at.column, objectID: ObjectID(id))]
    }
}
