import PBXProj

extension PlanBuilder {
    /// Works out the order the tree will have after the sync (preorder, the children of every
    /// sorted group sorted by name, folders first) and, in that order, each element's first
    /// occurrence: the one that decides where a file listed by several groups goes. Using the
    /// sorted order makes that choice the same in the next sync.
    mutating func computeOrder() {
        var excludedBelow = [Bool](repeating: false, count: tree.nodes.count)
        order.reserveCapacity(tree.nodes.count)
        var stack = [0]
        while let index = stack.popLast() {
            order.append(index)
            let node = tree.nodes[index]
            if let parent = node.parent { excludedBelow[index] = excludedBelow[parent] || excludedRoots.contains(index) }
            var children = node.children
            if options.sortByName, index != 0, !excludedBelow[index], node.element.kind == .group,
                let sorted = sortedChildren(of: index) {
                children = sorted
                sortedOrder[node.element.id] = sorted.map { tree.nodes[$0].element.id }
            }
            stack.append(contentsOf: children.reversed())
        }
        for index in order where firstNode[tree.nodes[index].element.id] == nil {
            firstNode[tree.nodes[index].element.id] = index
        }
    }

    /// A group's child nodes sorted by name, folders (groups, synchronized folders) first; nil
    /// when some child object is missing (such a group keeps its order).
    private func sortedChildren(of index: Int) -> [Int]? {
        let node = tree.nodes[index]
        guard node.children.count == node.element.children.count, node.children.count > 1 else { return nil }
        let decorated = node.children.enumerated().map { offset, child -> (folder: Int, name: String, folded: String, offset: Int, node: Int) in
            let element = tree.nodes[child].element
            let folder = element.kind == .group || element.kind == .synchronizedRootGroup ? 0 : 1
            let name = displayName(element)
            return (folder, name, name.lowercased(), offset, child)
        }
        return decorated.sorted { a, b in
            if a.folder != b.folder { return a.folder < b.folder }
            if a.folded != b.folded { return a.folded.utf8.lexicographicallyPrecedes(b.folded.utf8) }
            if a.name != b.name { return a.name.utf8.lexicographicallyPrecedes(b.name.utf8) }
            return a.offset < b.offset
        }.map(\.node)
    }
}
