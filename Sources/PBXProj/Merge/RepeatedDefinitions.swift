/// A version of a project that defines one object twice with the same value, as a line-based merge
/// leaves behind when both branches added the same lines. Xcode reads such a file (one definition
/// wins) and writes it back with one; Slipway's reader refuses it, since two definitions that
/// differ would lose one. For merging, a repeat whose value equals the first definition's (the
/// text but for comments and spacing) is dropped; a repeat that differs is still an error.
public enum RepeatedDefinitions {
    /// The project read from `bytes` without the repeats equal to their first definition, and
    /// the ids that were repeated; the file read as it is when it has none.
    /// - Throws: the reader's error for anything else; for a repeat that differs,
    ///   `PBXProjError.duplicateObjectID` with both places in `bytes`.
    public static func removeIdentical(_ bytes: [UInt8], projectName: String) throws -> (project: PBXProject, repeated: [String]) {
        try removeIdentical(bytes, projectName: projectName, like: nil)
    }

    /// The same, reading objects whose text is as in `other` (another version) from it.
    static func removeIdentical(_ bytes: [UInt8], projectName: String, like other: PBXProject?) throws -> (project: PBXProject, repeated: [String]) {
        do {
            return (try PBXProject(bytes: bytes, projectName: projectName, like: other), [])
        } catch PBXProjError.duplicateObjectID {
            // Read below from the syntax tree, which holds every definition.
        }
        let tree = try PropertyListParser.parse(bytes)
        let entries = PBXProject.repeatedObjectEntries(in: tree)
        var removals: [Range<Int>] = []
        for entry in entries {
            guard tree.value(entry.value) == tree.value(entry.first.value) else {
                let lines = LineIndex(bytes)
                throw PBXProjError.duplicateObjectID(
                    id: tree.string(entry.key), at: lines.location(of: Int(tree.nodes[entry.key].start)),
                    first: lines.location(of: Int(tree.nodes[entry.first.key].start)))
            }
            removals.append(tree.removalRange((entry.key, entry.value), oneLine: false))
        }
        var repaired = bytes
        for range in removals.reversed() { repaired.removeSubrange(range) }
        return (try PBXProject(bytes: repaired, projectName: projectName), entries.map { tree.string($0.key) })
    }
}
