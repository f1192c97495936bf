import Basics
import PBXProj

extension PlanBuilder {
    /// Finds the excluded groups: synx's defaults (unless turned off), the products group, and
    /// the user's, each of which must name a group.
    mutating func markExclusions() throws {
        var byPath: [String: Int] = [:]
        for index in tree.nodes.indices.dropFirst() where isGroupKind(tree.nodes[index].element.kind) {
            let path = treePath(index)
            if byPath[path] == nil { byPath[path] = index }
        }
        var unknown: [String] = []
        for exclusion in options.exclusions {
            let path = Self.normalizedGroupPath(exclusion)
            if let index = byPath[path] { excludedRoots.insert(index) } else { unknown.append(exclusion) }
        }
        if !unknown.isEmpty {
            let candidates = byPath.keys.sorted()
            var suggestions: [String: String] = [:]
            for name in unknown {
                suggestions[name] = Suggestions.nearest(to: Self.normalizedGroupPath(name), in: candidates)
            }
            throw SyncError.unknownGroups(names: unknown, suggestions: suggestions)
        }
        // Xcode's "Recovered References" gets no folder and its files stay, whatever the options.
        for index in tree.nodes.indices.dropFirst() where Self.isRecoveredReferences(tree.nodes[index].element) {
            recoveredRoots.insert(index)
            excludedRoots.insert(index)
        }
        guard options.defaultExclusions else { return }
        for path in SyncOptions.defaultExcludedGroups { if let index = byPath[path] { excludedRoots.insert(index) } }
        if let products = project.productRefGroupID {
            for index in tree.nodes.indices.dropFirst() where tree.nodes[index].element.id == products { excludedRoots.insert(index) }
        }
    }

    /// `/App/Models` from `App/Models/` or `/App/Models`.
    static func normalizedGroupPath(_ text: String) -> String {
        "/" + text.split(separator: "/", omittingEmptySubsequences: true).joined(separator: "/")
    }

    func isGroupKind(_ kind: FileElement.Kind) -> Bool {
        kind == .group || kind == .variantGroup
    }

    /// Decides every node's role and, for groups, the folder its children live in after the
    /// sync (the tree is in preorder, so a parent is always decided before its children).
    mutating func assignGroupFolders() {
        roles[0] = .main
        for index in order.dropFirst() {
            let node = tree.nodes[index]
            guard let parent = node.parent else { continue }
            let element = node.element
            if firstNode[element.id] != index {
                roles[index] = .alias
                continue
            }
            if roles[parent] == .excluded || excludedRoots.contains(index) {
                roles[index] = .excluded
            } else if roles[parent] == .unit || roles[parent] == .insideUnit {
                roles[index] = .insideUnit
            } else {
                switch element.kind {
                case .group: assignGroup(index, parent: parent)
                case .variantGroup: assignVariant(index, parent: parent)
                default: roles[index] = .unit
                }
            }
        }
    }

    private mutating func assignGroup(_ index: Int, parent: Int) {
        let element = tree.nodes[index].element
        let original = tree.nodes[index].resolvedPath
        guard (element.sourceTree ?? "<group>") == "<group>", case .relative(let originalPath) = original,
            !ProjectPath.isOutside(originalPath), case .relative(let parentFolder) = folders[parent], !ProjectPath.isOutside(parentFolder)
        else {
            roles[index] = .anchored
            return
        }
        let path = element.path.map(ProjectPath.normalize) ?? ""
        if options.foldersFrom == .paths, element.path != nil {
            assignByPath(index, parent: parent, path: path)
            return
        }
        if element.name == nil && path.isEmpty
            || options.foldersFrom == .paths && options.groupsWithoutPath == .virtual && element.path == nil {
            roles[index] = .passThrough
            folders[index] = folders[parent]
            return
        }
        let name = element.name ?? ProjectPath.lastComponent(path)
        if let problem = Self.folderNameProblem(name, fromName: element.name != nil) {
            if element.name == nil {
                // A path such as `..` or `.`: keep the folder it points at.
                roles[index] = .anchored
            } else {
                plan.conflicts.append(SyncConflict(kind: problem, path: treePath(index), message: problem == .groupNameWithSlash
                    ? "the group's name has a '/', which cannot be a folder name; rename the group (or exclude it with --exclude)"
                    : "the group's name '\(name)' cannot be a folder name; rename the group (or exclude it with --exclude)"))
                roles[index] = .anchored
            }
            return
        }
        roles[index] = .folderGroup
        folders[index] = .relative(ProjectPath.join(parentFolder, name))
    }

    private mutating func assignVariant(_ index: Int, parent: Int) {
        let element = tree.nodes[index].element
        guard (element.sourceTree ?? "<group>") == "<group>", case .relative(let parentFolder) = folders[parent],
            !ProjectPath.isOutside(parentFolder)
        else {
            roles[index] = .anchored
            return
        }
        roles[index] = .passThrough
        folders[index] = folders[parent]
    }

    /// Why `name` cannot name a folder, or nil.
    static func folderNameProblem(_ name: String, fromName: Bool) -> SyncConflict.Kind? {
        if name.isEmpty || name == "." || name == ".." { return .invalidGroupName }
        if fromName && name.contains("/") { return .groupNameWithSlash }
        return nil
    }

    /// Records every path the project refers to (with its ancestors), the groups' own folders,
    /// the units' paths and the pinned items.
    mutating func collectClaims() {
        pinned.append(key(projectBundle))
        for reference in project.swiftPackageReferences {
            if case .local(let relativePath) = reference.location {
                let path = ProjectPath.join(base, relativePath)
                if !ProjectPath.isOutside(path) { pinned.append(key(path)); claim(path) }
            }
        }
        for (index, node) in tree.nodes.enumerated() {
            guard case .relative(let path) = node.resolvedPath, !ProjectPath.isOutside(path) else { continue }
            claim(path)
            let element = node.element
            if element.kind == .variantGroup { continue }
            if element.kind == .group {
                if let parent = node.parent, case .relative(let parentPath) = tree.nodes[parent].resolvedPath,
                    key(parentPath) != key(path) {
                    groupFolders.insert(key(path))
                }
            } else if roles[index] != .insideUnit && !path.isEmpty {
                unitPaths.insert(key(listing.entry(path)?.path ?? path))
            }
        }
    }

    /// Marks `path` and its ancestors as referred to.
    mutating func claim(_ path: String) {
        var current = listing.entry(path)?.path ?? path
        while !current.isEmpty && current != "/" {
            guard claimed.insert(key(current)).inserted else { return }
            current = ProjectPath.parent(current)
        }
    }
}
