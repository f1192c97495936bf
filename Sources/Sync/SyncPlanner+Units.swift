import PBXProj

extension PlanBuilder {
    /// Sends every movable unit to its group's folder; references that cannot move are reported.
    mutating func placeUnits() {
        var placed: [String: Int] = [:]
        for index in order where roles[index] == .unit {
            let node = tree.nodes[index]
            guard let parent = node.parent, (node.element.sourceTree ?? "<group>") == "<group>" else { continue }
            switch node.element.kind {
            case .fileReference, .versionGroup, .synchronizedRootGroup: break
            default: continue
            }
            guard case .relative(let original) = node.resolvedPath, !original.isEmpty else { continue }
            if ProjectPath.isOutside(original) {
                plan.unmoved.append(UnmovedReference(path: original, reason: .outsideProject))
                continue
            }
            guard let entry = listing.entry(original) else {
                plan.unmoved.append(unlisted(original))
                continue
            }
            let source = entry.path
            if let first = placed[key(source)] {
                // Another reference to the same file decided first; this one follows it.
                sharedFiles[key(source), default: [first]].append(index)
                continue
            }
            placed[key(source)] = index
            if isPinnedPath(source) || isInsideUnit(source) {
                plan.unmoved.append(UnmovedReference(path: original, reason: .insideAnotherItem))
                continue
            }
            if ToolManifests.contains(ProjectPath.lastComponent(source)) {
                plan.unmoved.append(UnmovedReference(path: original, reason: .toolManifest))
                continue
            }
            guard case .relative(var target) = folders[parent], !ProjectPath.isOutside(target) else { continue }
            if options.foldersFrom == .paths && isInsideFolder(source, target) { continue }
            // A localized file keeps its language folder (`Base.lproj/Main.storyboard`), whether
            // or not it is in a variant group: moving it out would change its localization.
            let language = ProjectPath.lastComponent(ProjectPath.parent(source))
            if language.hasSuffix(".lproj"), !ProjectPath.lastComponent(target).hasSuffix(".lproj") {
                target = ProjectPath.join(target, language)
            }
            target = ProjectPath.join(target, ProjectPath.lastComponent(source))
            guard key(target) != key(source), !isPinnedPath(target) else { continue }
            if let never = neverMoves(index, source: source, target: target) {
                plan.unmoved.append(UnmovedReference(path: original, reason: never.reason, area: never.area))
                continue
            }
            addMove(SyncMove(source: source, destination: target, reason: .reference))
        }
    }

    /// Why a reference the listing does not hold cannot be found: it lies behind a symbolic link
    /// (the listing never follows one), inside or leading outside the project folder, or it is
    /// missing. Only the nearest ancestor on disk counts: below a real folder the file is missing.
    func unlisted(_ path: String) -> UnmovedReference {
        for ancestor in ProjectPath.Ancestors(path) {
            guard let entry = listing.entry(String(ancestor)) else { continue }
            guard entry.kind == .symbolicLink else { break }
            let reason: UnmovedReference.Reason = linkLeavesProject(entry) ? .behindLinkOutsideProject : .behindSymbolicLink
            return UnmovedReference(path: path, reason: reason, link: entry.path, linkDestination: entry.linkDestination)
        }
        return UnmovedReference(path: path, reason: .missing)
    }

    /// Whether a link's destination lies outside the project folder (an unreadable link counts
    /// as inside: nothing is known about it).
    func linkLeavesProject(_ link: DirectoryListing.Entry) -> Bool {
        guard let destination = link.linkDestination, !destination.isEmpty else { return false }
        let target = ProjectPath.join(ProjectPath.parent(link.path), destination)
        guard target.hasPrefix("/") else { return ProjectPath.isOutside(target) }
        return !ProjectPath.isWithin(target, ProjectPath.normalize(listing.root))
    }

    /// Whether a folder above `path` is itself a reference (a folder reference, bundle, ...).
    func isInsideUnit(_ path: String) -> Bool {
        for ancestor in ProjectPath.Ancestors(path) where unitPaths.contains(key(String(ancestor))) { return true }
        return false
    }

    mutating func addMove(_ move: SyncMove) {
        moveBySource[key(move.source)] = plan.moves.count
        plan.moves.append(move)
    }

    /// Carries what nothing refers to along with its group's folder, and (with `--prune`) moves
    /// unreferenced source and image files aside for deletion. A folder is carried from only
    /// when every group that owns it moves it to the same place; an excluded owner keeps it.
    mutating func carryAndPrune() {
        var owners: [String: (folder: String, targets: Set<String>, stays: Bool, excluded: Bool)] = [:]
        var ownedInOrder: [String] = []
        for index in order.dropFirst() where [.folderGroup, .anchored, .excluded].contains(roles[index]) {
            let node = tree.nodes[index]
            guard node.element.kind == .group, case .relative(let original) = node.resolvedPath, !original.isEmpty,
                !ProjectPath.isOutside(original), groupFolders.contains(key(original)),
                let entry = listing.entry(original), entry.kind == .directory, listing.isListed(original), !isPinnedPath(entry.path),
                protectedArea(of: entry.path) == nil
            else { continue }
            let folderKey = key(entry.path)
            if owners[folderKey] == nil {
                owners[folderKey] = (entry.path, [], false, false)
                ownedInOrder.append(folderKey)
            }
            if roles[index] == .excluded {
                owners[folderKey]?.excluded = true
            } else if roles[index] == .folderGroup, case .relative(let folder) = folders[index], key(folder) != folderKey {
                owners[folderKey]?.targets.insert(folder)
            } else {
                owners[folderKey]?.stays = true
            }
        }
        for folderKey in ownedInOrder {
            guard let owner = owners[folderKey], !owner.excluded else { continue }
            let destination = !owner.stays && owner.targets.count == 1 ? owner.targets.first : nil
            guard destination != nil || options.prune else { continue }
            walk(owner.folder, to: destination)
        }
    }

    /// One folder of a group: unreferenced entries go to `destination` (when the folder moves)
    /// or, if prunable, aside; referenced subfolders that no group owns are walked in turn.
    ///
    /// `--prune` deletes only in folders the project accounts for: a group's folder and the
    /// subfolders that hold referenced files. A subfolder nothing in the project refers to
    /// (snapshot images, a README's pictures, a tool's sources) is carried whole or left alone,
    /// never emptied; and nothing is pruned in or under a folder that another build owns (a
    /// `Package.swift`, another `.xcodeproj` or `.xcworkspace`).
    private mutating func walk(_ folder: String, to destination: String?, foreign: Bool = false) {
        let children = listing.children(of: folder)
        let foreign = foreign || children.contains { name in
            name == "Package.swift" || ((name.hasSuffix(".xcodeproj") || name.hasSuffix(".xcworkspace"))
                && key(folder.isEmpty ? name : folder + "/" + name) != key(projectBundle))
        }
        for name in children {
            let path = folder.isEmpty ? name : folder + "/" + name
            let pathKey = key(path)
            guard name != ".git", !isPinnedPath(path), protectedArea(of: path) == nil, let entry = listing.entry(path) else { continue }
            if claimed.contains(pathKey) {
                if entry.kind == .directory, !groupFolders.contains(pathKey), !unitPaths.contains(pathKey) {
                    walk(path, to: destination.map { ProjectPath.join($0, name) }, foreign: foreign)
                }
                continue
            }
            if options.prune && !foreign && entry.kind == .file && PrunableExtensions.contains(name) {
                let trash = projectBundle + "/" + SyncJournal.trashFolderName + "/\(plan.moves.count)-" + name
                addMove(SyncMove(source: path, destination: trash, reason: .pruned))
                continue
            }
            if let destination {
                let target = ProjectPath.join(destination, name)
                // Nothing is carried into a place that never moves, nor a folder holding one.
                guard protectedArea(of: target) == nil, entry.kind != .directory || !holdsProtectedArea(path) else { continue }
                addMove(SyncMove(source: path, destination: target, reason: .carried))
            }
        }
    }
}
