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
                     expected: ["9: object id 'A' is used again (first on line 8); give one of the objects a new id"]),
         LintExample("three ids repeated, one of them twice: every repetition",
                     objects: ["A = {isa = PBXFileReference; path = One.swift; sourceTree = \"<group>\"; };",
                               "B = {isa = PBXFileReference; path = Two.swift; sourceTree = \"<group>\"; };",
                               "A = {isa = PBXFileReference; path = Three.swift; sourceTree = \"<group>\"; };",
                               "C = {isa = PBXFileReference; path = Four.swift; sourceTree = \"<group>\"; };",
                               "B = {isa = PBXFileReference; path = Five.swift; sourceTree = \"<group>\"; };",
                               "C = {isa = PBXFileReference; path = Six.swift; sourceTree = \"<group>\"; };",
                               "A = {isa = PBXFileReference; path = Seven.swift; sourceTree = \"<group>\"; };"],
                     mainChildren: ["A", "B", "C"],
                     expected: ["10: object id 'A' is used again (first on line 8); give one of the objects a new id",
                                "12: object id 'B' is used again (first on line 9); give one of the objects a new id",
                                "13: object id 'C' is used again (first on line 11); give one of the objects a new id",
                                "14: object id 'A' is used again (first on line 8); give one of the objects a new id"])]
    }

    public func check(_ context: LintContext) -> [LintFinding] {
        guard case .duplicateObjectID(let id, let at, let first) = context.readError else { return [] }
        // The reader stops at the first; the others come from a scan of the objects' ids.
        var duplicates = PBXProject.duplicateObjectIDs(in: context.bytes)
        if duplicates.isEmpty { duplicates = [DuplicateObjectID(id: id, location: at, first: first)] }
        return duplicates.map { duplicate in
            LintFinding(ruleID: self.id, severity: defaultSeverity,
                        message: "object id '\(duplicate.id)' is used again (first on line \(duplicate.first.line)); give one of the objects a new id",
                        path: context.pbxprojPath, line: duplicate.location.line, column: duplicate.location.column,
                        objectID: ObjectID(duplicate.id))
        }
    }
}
