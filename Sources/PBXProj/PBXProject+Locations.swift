extension PBXProject {
    /// Where each object's id is in the file that was read (added objects are left out), found
    /// with one line index: for callers that locate many objects (`location(of:)` scans from the
    /// start of the file on every call).
    public func locations(of ids: some Sequence<ObjectID>) -> [ObjectID: SourceLocation] {
        var lines: LineIndex?
        var result: [ObjectID: SourceLocation] = [:]
        for id in ids where result[id] == nil {
            guard let index = table.find(id.rawValue, in: tree) else { continue }
            if lines == nil { lines = LineIndex(tree.bytes) }
            result[id] = lines?.location(of: Int(tree.nodes[Int(table.entries[index].key)].start))
        }
        return result
    }

    /// A locator for the objects of the file as read, for callers that place objects at several
    /// times: the line index is built once, here.
    public func objectLocator() -> ObjectLocator {
        ObjectLocator(tree: tree, table: table)
    }
}

/// Where objects' ids are in a project file as read (see `PBXProject.objectLocator()`).
public struct ObjectLocator: Sendable {
    private let tree: SyntaxTree
    private let table: ObjectTable
    private let lines: LineIndex

    init(tree: SyntaxTree, table: ObjectTable) {
        self.tree = tree
        self.table = table
        lines = LineIndex(tree.bytes)
    }

    /// Where the object's id is, or nil when the file that was read has no such object.
    public func location(of id: ObjectID) -> SourceLocation? {
        guard let index = table.find(id.rawValue, in: tree) else { return nil }
        return lines.location(of: Int(tree.nodes[Int(table.entries[index].key)].start))
    }
}
