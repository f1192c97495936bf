extension GraphMerger {
    /// Files and groups that one side added are placed by paths relative to their group's folder
    /// as that side had it. When the other side changed that folder (renamed the group's folder,
    /// gave a pass-through group a `path`, changed an ancestor's path), the merge would resolve
    /// them to paths that exist in no version. Each added element's resolved path in the merge
    /// is compared with its side's:
    ///
    /// - the group it was added to had its own folder renamed on the other side: a
    ///   `CONFLICT (file location)`, as git reports a file added to a renamed directory (the
    ///   renaming side's resolution leaves the reference in the new folder, where the file has to
    ///   be moved; the adding side's points it back where its file is);
    /// - otherwise, when the file still lies inside its group's new folder (the usual case: a
    ///   group that was pass-through gains the folder its files were already in), its path is
    ///   rewritten relative to that folder, so it resolves where its side had it, with a note;
    /// - otherwise, a `CONFLICT (file location)` as well.
    mutating func checkAddedLocations() throws {
        // Four group trees with every path resolved are most of a merge's cost on a large
        // project: build them only when a side changed where existing elements resolve.
        guard changesLocations(ours) || changesLocations(theirs), let merged = try? resolvedOurs.groupTree() else { return }
        let added = merged.nodes.contains { !base.contains($0.element.id) }
        guard added, let ourPaths = try? ours.groupTree().resolvedPaths(), let theirPaths = try? theirs.groupTree().resolvedPaths(),
            let basePaths = try? base.groupTree().resolvedPaths()
        else { return }
        var handled = Set<Int>()
        var seen = Set<ObjectID>()
        for (index, node) in merged.nodes.enumerated() {
            let id = node.element.id
            guard let parent = node.parent, seen.insert(id).inserted else { continue }
            if handled.contains(parent) { handled.insert(index); continue }
            guard !base.contains(id), ours.contains(id) != theirs.contains(id) else { continue }
            let oursAdded = ours.contains(id)
            guard let expected = (oursAdded ? ourPaths : theirPaths)[id], expected != node.resolvedPath else { continue }
            handled.insert(index)
            let group = merged.nodes[parent].element
            let adder = oursAdded ? "ours" : "theirs", other = oursAdded ? "theirs" : "ours"
            let otherSide = oursAdded ? theirs : ours
            let baseFolder = basePaths[group.id], otherFolder = (try? otherSide.groupTree())?.resolvedPaths()[group.id]
            let renamedOwnFolder = base.object(group.id)?.string("path") != nil
                && base.object(group.id)?.string("path") != otherSide.object(group.id)?.string("path")
            let name = node.element.displayName ?? "\(id)"
            let groupLabel = "\(group.id)" + (group.displayName.map { " /* \($0) */" } ?? "")
            if !renamedOwnFolder, case .relative(let target) = expected, case .relative(let folder) = merged.nodes[parent].resolvedPath,
                let rewritten = ProjectPath.removingPrefix(folder, from: target), !rewritten.isEmpty,
                (node.element.sourceTree ?? "<group>") == "<group>" {
                for keyPath in [\GraphMerger.resolvedOurs, \GraphMerger.resolvedTheirs] {
                    try self[keyPath: keyPath].setPath(of: id, to: rewritten)
                }
                notes.append("\(adder) added \(target) to group \(groupLabel), whose folder \(other) changed to \(folder): "
                    + "its path was rewritten from \(node.element.path ?? "") to \(rewritten), so that it still resolves to \(target)")
                continue
            }
            var explanation = "\(expected) added by \(adder) in group \(groupLabel), whose folder \(other) \(renamedOwnFolder ? "renamed" : "changed")"
            if let baseFolder, let otherFolder, baseFolder != otherFolder { explanation += " from \(Self.folderName(baseFolder)) to \(Self.folderName(otherFolder))" }
            explanation += ": the merge would resolve it to \(node.resolvedPath), where \(adder) has no such file; "
                + "move the file there (take \(other)) or point the reference at \(expected) (take \(adder))"
            // The adding side's resolution points the reference back where its file is.
            if case .relative(let target) = expected, case .relative(let folder) = merged.nodes[parent].resolvedPath,
                (node.element.sourceTree ?? "<group>") == "<group>", let back = ProjectPath.relative(from: folder, to: target) {
                if oursAdded { try resolvedOurs.setPath(of: id, to: back) } else { try resolvedTheirs.setPath(of: id, to: back) }
            }
            conflicts.append(PBXProjMergeConflict(
                objectID: id, comment: name, keyPath: ["path"], ours: nil, theirs: nil, kind: "file location", explanation: explanation))
        }
    }

    /// Whether `side` changed where an element of the base resolves: a group's `path` or
    /// `sourceTree`, a group of the base moved (added to or removed from an existing group's
    /// children while it still exists), or the project's `projectDirPath`, `projectRoot` or
    /// `mainGroup`. When neither side did, every added element sits in the merge under the same
    /// chain of folders as on its side, so it resolves where its side has it; groups a side
    /// deleted are left to the delete/reference checks.
    func changesLocations(_ side: PBXProject) -> Bool {
        if let root = base.rootObjectID, !sameText(root, base, side) {
            let before = base.object(root), after = side.object(root)
            if ["projectDirPath", "projectRoot", "mainGroup"].contains(where: { before?.properties[$0] != after?.properties[$0] }) {
                return true
            }
        }
        for isa in Self.groupClasses {
            for id in base.objectIDs(isa: isa) where !sameText(id, base, side) {
                guard let before = base.object(id), let after = side.object(id) else { continue }
                if before.properties["path"] != after.properties["path"] || before.properties["sourceTree"] != after.properties["sourceTree"]
                    || before.isa != after.isa {
                    return true
                }
                let old = before.references("children"), new = after.references("children")
                for child in Set(old).symmetricDifference(new) where base.contains(child) && side.contains(child) {
                    if let kind = base.isa(of: child), Self.groupClasses.contains(kind) { return true }
                }
            }
        }
        return false
    }

    /// A folder for a message: its path, or "the project's folder" for the empty path.
    static func folderName(_ path: ResolvedPath) -> String {
        path.description.isEmpty ? "the project's folder" : path.description
    }
}
