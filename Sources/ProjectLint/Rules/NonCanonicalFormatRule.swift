import PBXProj

/// Files not in Xcode's canonical form (what `slipway xcodeproj format --check` finds).
public struct NonCanonicalFormatRule: LintRule {
    public init() {}
    public var id: String { "non-canonical-format" }
    public var summary: String { "The file is not written the way Xcode writes it (what 'xcodeproj format --check' finds)." }
    public var defaultSeverity: LintSeverity { .warning }
    public var isFixable: Bool { true }
    public var examples: [LintExample] {
        [LintExample("a hand-edited file",
                     objects: ["A = {isa = PBXFileReference; path = A.swift; sourceTree = \"<group>\"; };"],
                     mainChildren: ["A"],
                     expected: ["8: the file is not in Xcode's form from here on (about 44 lines differ); run 'slipway xcodeproj format' or lint --fix"])]
    }

    public func check(_ context: LintContext) -> [LintFinding] {
        guard let project = context.project, let canonical = try? project.canonicalSerialized(),
            let difference = LineDifference.first(project.originalBytes, canonical)
        else { return [] }
        let count = LineDifference.changedLineCount(project.originalBytes, canonical)
        return [LintFinding(
            ruleID: id, severity: defaultSeverity,
            message: "the file is not in Xcode's form from here on (about \(count) lines differ); run 'slipway xcodeproj format' or lint --fix",
            path: context.pbxprojPath, line: difference.line, column: 1, fix: .canonicalFormat)]
    }
}
