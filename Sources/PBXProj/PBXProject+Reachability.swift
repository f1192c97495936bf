extension PBXProject {
    /// The objects not reachable from the root object (`rootObject`) through values that name
    /// objects (strings in the objects' values, arrays and nested dictionaries; keys and `isa`
    /// aside), in `objectIDs` order; empty when there is no root object.
    ///
    /// On a project as read this walks the syntax tree and names only the unreachable objects;
    /// after edits it decodes the objects.
    public func unreachableObjectIDs() -> [ObjectID] {
        guard let root = rootObjectID, contains(root) else { return [] }
        guard changes.isEmpty, let start = table.find(root.rawValue, in: tree) else {
            let reached = decodedReachableIDs(from: root)
            return objectIDs.filter { !reached.contains($0) }
        }
        var reached = [Bool](repeating: false, count: table.entries.count)
        reached[start] = true
        var objects = [start]
        var values: [Int] = []
        while let index = objects.popLast() {
            let dictionary = Int(table.entries[index].value)
            for (key, value) in tree.entries(dictionary) where !tree.contentEquals(key, "isa") { values.append(value) }
            while let node = values.popLast() {
                switch tree.nodes[node].kind {
                case .unquoted, .quoted:
                    guard let found = table.find(node: node, in: tree), !reached[found] else { continue }
                    reached[found] = true
                    objects.append(found)
                case .array:
                    values.append(contentsOf: tree.children(node))
                case .dictionary:
                    for (_, value) in tree.entries(node) { values.append(value) }
                case .data:
                    continue
                }
            }
        }
        return table.entries.indices.filter { !reached[$0] }.map { ObjectID(tree.string(Int(table.entries[$0].key))) }
    }

    /// Every object reachable from `root`, read from the decoded (possibly edited) objects.
    private func decodedReachableIDs(from root: ObjectID) -> Set<ObjectID> {
        var reached: Set<ObjectID> = [root]
        var stack = [root]
        while let id = stack.popLast() {
            guard let object = object(id) else { continue }
            var values: [PBXValue] = object.properties.entries.filter { $0.key != "isa" }.map(\.value)
            while let value = values.popLast() {
                switch value {
                case .string(let text):
                    let candidate = ObjectID(text)
                    if !reached.contains(candidate), contains(candidate) {
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
