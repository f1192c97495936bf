import PBXProj

/// Groups whose children are not in name order (opt-in).
public struct UnsortedChildrenRule: LintRule {
    public init() {}
    public var id: String { "unsorted-children" }
    public var summary: String { "A group's children are not sorted by name, folders first (opt-in)." }
    public var defaultSeverity: LintSeverity { .warning }
    public var isOptIn: Bool { true }
    public var isFixable: Bool { true }
    public var examples: [LintExample] {
        [LintExample("two files out of order",
                     objects: ["A = {isa = PBXFileReference; path = b.swift; sourceTree = \"<group>\"; };",
                               "B = {isa = PBXFileReference; path = A.swift; sourceTree = \"<group>\"; };"],
                     mainChildren: ["A", "B"],
                     expected: ["11: the children of group 'MAIN' are not sorted ('A.swift' should come before 'b.swift'); sort them (--fix)"])]
    }

    public func check(_ context: LintContext) -> [LintFinding] {
        guard let project = context.project else { return [] }
        var findings: [LintFinding] = []
        for group in project.groups where group.kind == .group {
            let children = group.children.compactMap { project.fileElement($0) }
            let sorted = Self.sorted(children)
            guard let index = children.indices.first(where: { children[$0].id != sorted[$0].id }) else { continue }
            let name = group.displayName ?? group.id.rawValue
            let wanted = sorted[index].displayName ?? "", found = children[index].displayName ?? ""
            findings.append(finding("the children of group '\(name)' are not sorted ('\(wanted)' should come before '\(found)'); sort them (--fix)",
                                    at: group.id, in: context, fix: .sortChildren(group: group.id)))
        }
        return findings
    }

    /// Folders first, then by name ignoring case.
    static func sorted(_ children: [FileElement]) -> [FileElement] {
        children.enumerated().sorted { left, right in
            let (a, b) = (left.element, right.element)
            let aFolder = a.kind != .fileReference, bFolder = b.kind != .fileReference
            if aFolder != bFolder { return aFolder }
            let x = (a.displayName ?? "").lowercased(), y = (b.displayName ?? "").lowercased()
            return x == y ? left.offset < right.offset : x < y
        }.map(\.element)
    }
}
