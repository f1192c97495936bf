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
}
