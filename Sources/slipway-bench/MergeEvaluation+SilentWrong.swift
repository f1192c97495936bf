import PBXProj

/// Finds clean merges that are silently wrong, independently of the driver's own checks: a
/// reference to an object the result does not define that neither parent had, or a file the
/// merge added that resolves to a path no parent version has.
struct SilentWrongDetector {
    let base: PBXProject
    let ours: PBXProject
    let theirs: PBXProject

    /// One sentence per problem found in `merged` (empty: nothing wrong found).
    func problems(in merged: PBXProject) -> [String] {
        danglingReferences(in: merged) + misplacedAdditions(in: merged)
    }

    /// Ids any version defines, referenced in `merged` but not defined there, leaving out ids
    /// that a parent already referred to without defining.
    private func danglingReferences(in merged: PBXProject) -> [String] {
        var known = Set<String>()
        for project in [base, ours, theirs] { for id in project.objectIDs { known.insert(id.rawValue) } }
        let inherited = Self.missing(in: ours, known: known).union(Self.missing(in: theirs, known: known))
        return Self.missing(in: merged, known: known).subtracting(inherited).sorted().map { "dangling reference to \($0)" }
    }

    private static func missing(in project: PBXProject, known: Set<String>) -> Set<String> {
        let defined = Set(project.objectIDs.map(\.rawValue))
        var result = Set<String>()
        func visit(_ value: PBXValue) {
            switch value {
            case .string(let text): if known.contains(text), !defined.contains(text) { result.insert(text) }
            case .data: break
            case .array(let elements): elements.forEach(visit)
            case .dictionary(let dictionary): for entry in dictionary where entry.key != "isa" { visit(entry.value) }
            }
        }
        for id in project.objectIDs {
            guard let object = project.object(id) else { continue }
            visit(.dictionary(object.properties))
        }
        return result
    }

    /// File references that are in neither base nor both sides, whose resolved path in the merge
    /// is not a path either side resolves any file reference to.
    private func misplacedAdditions(in merged: PBXProject) -> [String] {
        guard let tree = try? merged.groupTree(), let ourTree = try? ours.groupTree(), let theirTree = try? theirs.groupTree() else { return [] }
        var parentPaths = Set<ResolvedPath>()
        for node in ourTree.nodes + theirTree.nodes { parentPaths.insert(node.resolvedPath) }
        var result: [String] = []
        for node in tree.nodes where node.element.isa == PBXIsa.fileReference && !base.contains(node.element.id) {
            if !parentPaths.contains(node.resolvedPath) {
                result.append("added \(node.element.id) resolves to \(node.resolvedPath), a path no parent has")
            }
        }
        return result
    }
}
