/// Where a file reference or group points on disk, resolved through its group chain.
public enum ResolvedPath: Hashable, Sendable, CustomStringConvertible {
    /// Relative to the folder that holds the `.xcodeproj` (the project's `projectDirPath` applied).
    /// May start with `../` for files outside that folder; empty for the folder itself.
    case relative(String)
    /// An absolute path (`sourceTree = "<absolute>"`).
    case absolute(String)
    /// Relative to a build setting left symbolic: `BUILT_PRODUCTS_DIR`, `SDKROOT`,
    /// `DEVELOPER_DIR` or any other variable.
    case buildSetting(name: String, path: String)

    /// `path`, `/abs/path` or `$(NAME)/path`.
    public var description: String {
        switch self {
        case .relative(let path): return path
        case .absolute(let path): return path
        case .buildSetting(let name, let path): return path.isEmpty ? "$(\(name))" : "$(\(name))/\(path)"
        }
    }

    /// The path on disk, given the folder holding the `.xcodeproj`; nil for build-setting paths.
    public func absolutePath(projectDirectory: String) -> String? {
        switch self {
        case .relative(let path):
            return ProjectPath.normalize(path.isEmpty ? projectDirectory : projectDirectory + "/" + path)
        case .absolute(let path):
            return path
        case .buildSetting:
            return nil
        }
    }

    /// This path with `component` appended (an absolute component replaces it), normalized.
    public func appending(_ component: String) -> ResolvedPath {
        if component.hasPrefix("/") { return .absolute(ProjectPath.normalize(component)) }
        switch self {
        case .relative(let base): return .relative(ProjectPath.join(base, component))
        case .absolute(let base): return .absolute(ProjectPath.normalize(base + "/" + component))
        case .buildSetting(let name, let base): return .buildSetting(name: name, path: ProjectPath.join(base, component))
        }
    }
}

/// The group tree from the main group down, flattened in preorder so that a deep tree costs no
/// call stack: each node knows its parent, depth, children and resolved path.
public struct GroupTree: Sendable {
    /// One occurrence of an element in the tree (an element listed by two groups occurs twice).
    public struct Node: Sendable {
        /// The element.
        public let element: FileElement
        /// The parent node's index in `nodes` (nil for the main group).
        public let parent: Int?
        /// 0 for the main group.
        public let depth: Int
        /// Where the element points, resolved through its parents.
        public let resolvedPath: ResolvedPath
        /// Indexes of the children in `nodes`, in the group's order.
        public internal(set) var children: [Int]
    }

    /// Every node in preorder; `nodes[0]` is the main group.
    public let nodes: [Node]

    /// The first occurrence of each element's resolved path.
    public func resolvedPaths() -> [ObjectID: ResolvedPath] {
        var result: [ObjectID: ResolvedPath] = [:]
        for node in nodes where result[node.element.id] == nil { result[node.element.id] = node.resolvedPath }
        return result
    }
}

extension PBXProject {
    /// The group tree with every element's resolved path.
    ///
    /// - Throws: `PBXProjError.invalidStructure` when there is no main group,
    ///   `PBXProjError.groupCycle` when a group contains itself.
    public func groupTree() throws -> GroupTree {
        guard let main = mainGroupID, let root = fileElement(main) else {
            throw PBXProjError.invalidStructure(message: "the project has no main group ('mainGroup'); the file is damaged", at: nil)
        }
        let projectDirPath = projectObject?.string("projectDirPath") ?? ""
        let base = ResolvedPath.relative(ProjectPath.normalize(projectDirPath))
        var nodes = [GroupTree.Node(element: root, parent: nil, depth: 0, resolvedPath: resolve(root, parent: base), children: [])]
        enum Step { case enter(ObjectID, parent: Int), exit(ObjectID) }
        var stack: [Step] = [.exit(main)] + root.children.reversed().map { .enter($0, parent: 0) }
        var onPath: Set<ObjectID> = [main]
        let limit = max(table.entries.count, 1) * 8 + changes.added.count * 8
        while let step = stack.popLast() {
            switch step {
            case .exit(let id):
                onPath.remove(id)
            case .enter(let id, let parent):
                if onPath.contains(id) {
                    throw PBXProjError.groupCycle(id: id.rawValue, at: location(of: nodes[parent].element.id))
                }
                guard let element = fileElement(id) else { continue }
                guard nodes.count < limit else {
                    throw PBXProjError.invalidStructure(message: "the group tree is too large: groups list the same children many times over", at: location(of: id))
                }
                let index = nodes.count
                let resolved = resolve(element, parent: nodes[parent].resolvedPath)
                nodes.append(GroupTree.Node(element: element, parent: parent, depth: nodes[parent].depth + 1, resolvedPath: resolved, children: []))
                nodes[parent].children.append(index)
                if !element.children.isEmpty {
                    onPath.insert(id)
                    stack.append(.exit(id))
                    stack.append(contentsOf: element.children.reversed().map { .enter($0, parent: index) })
                }
            }
        }
        return GroupTree(nodes: nodes)
    }

    /// Where a file reference or group points, through its group chain and source tree; nil when
    /// it is not in the group tree and is relative to a group.
    ///
    /// - Throws: what `groupTree()` throws.
    public func resolvedPath(of id: ObjectID) throws -> ResolvedPath? {
        if let node = try groupTree().nodes.first(where: { $0.element.id == id }) { return node.resolvedPath }
        guard let element = fileElement(id), element.sourceTree != "<group>", element.sourceTree != nil else { return nil }
        let projectDirPath = projectObject?.string("projectDirPath") ?? ""
        return resolve(element, parent: .relative(ProjectPath.normalize(projectDirPath)))
    }

    private func resolve(_ element: FileElement, parent: ResolvedPath) -> ResolvedPath {
        let path = element.path ?? ""
        switch element.sourceTree ?? "<group>" {
        case "<group>":
            return parent.appending(path)
        case "SOURCE_ROOT":
            let projectDirPath = projectObject?.string("projectDirPath") ?? ""
            return ResolvedPath.relative(ProjectPath.normalize(projectDirPath)).appending(path)
        case "<absolute>":
            return .absolute(ProjectPath.normalize(path))
        case let variable:
            return .buildSetting(name: variable, path: ProjectPath.normalize(path))
        }
    }
}
