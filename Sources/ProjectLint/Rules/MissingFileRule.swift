import PBXProj

/// File references whose file is not on disk.
public struct MissingFileRule: LintRule {
    public init() {}
    public var id: String { "missing-file" }
    public var summary: String { "A file reference points at a file that does not exist." }
    public var defaultSeverity: LintSeverity { .error }
    public var examples: [LintExample] {
        [LintExample("a reference to a deleted file",
                     objects: ["A = {isa = PBXFileReference; path = App.swift; sourceTree = \"<group>\"; };",
                               "B = {isa = PBXFileReference; path = Gone.swift; sourceTree = \"<group>\"; };"],
                     mainChildren: ["A", "B"], files: ["App.swift"],
                     expected: ["9: 'Gone.swift' does not exist (file reference 'Gone.swift'); restore the file or remove the reference"])]
    }

    public func check(_ context: LintContext) -> [LintFinding] {
        guard let tree = context.groupTree else { return [] }
        var seen = Set<ObjectID>()
        var findings: [LintFinding] = []
        for node in tree.nodes where node.element.kind == .fileReference {
            guard case .relative(let path) = node.resolvedPath, seen.insert(node.element.id).inserted,
                !context.files.exists(path)
            else { continue }
            let name = node.element.displayName ?? node.element.id.rawValue
            findings.append(finding("'\(path)' does not exist (file reference '\(name)'); restore the file or remove the reference",
                                    at: node.element.id, in: context, subject: path))
        }
        return findings
    }
}
