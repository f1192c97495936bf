import PBXProj

/// What `slipway sync` never moves, whatever group lists it: places other tools, git or people
/// find by their path (issue 38). Each rule names the reason the plan reports.
extension PlanBuilder {
    /// Names at the top of the project folder that stay, besides dotfiles and dot-folders:
    /// fastlane's folder (its `Fastfile` is found there).
    static let rootToolFolders: Set<String> = ["fastlane"]

    /// The name prefixes of files people and hosting services find at the top (`README.md`,
    /// `LICENSE`, `CHANGELOG.md`, `LICENCE.txt`), compared case-insensitively.
    static let documentPrefixes = ["readme", "license", "licence", "changelog"]

    /// Whether `name` is a README, LICENSE or CHANGELOG file.
    static func isDocument(_ name: String) -> Bool {
        let lower = name.lowercased()
        return documentPrefixes.contains { lower.hasPrefix($0) }
    }

    /// Finds the areas nothing moves into, out of or within: the top of the project folder's
    /// dotfiles and dot-folders, `fastlane/`, README/LICENSE/CHANGELOG there; every folder that
    /// holds a `Package.swift` (found in the listing); every git submodule (`submodules`, from
    /// `.gitmodules`) and nested repository (a folder with a `.git` of its own).
    mutating func collectProtectedAreas(submodules: [String]) {
        for name in listing.children(of: "") {
            if name.hasPrefix(".") && name != ".git" {
                protect(name, .repositoryFile)
            } else if Self.rootToolFolders.contains(name) || Self.isDocument(name) {
                protect(name, .repositoryFile)
            }
        }
        for path in submodules {
            let normalized = ProjectPath.normalize(path)
            if !normalized.isEmpty, !ProjectPath.isOutside(normalized) { protect(normalized, .insideSubmodule) }
        }
        for entry in listing.allEntries {
            let name = ProjectPath.lastComponent(entry.path)
            if name == "Package.swift", entry.kind == .file {
                protect(ProjectPath.parent(entry.path), .insideSwiftPackage)
            } else if name == ".git", entry.path != ".git" {
                protect(ProjectPath.parent(entry.path), .insideSubmodule)
            }
        }
        builtElements = Set(project.objects(isa: PBXIsa.buildFile).compactMap { $0.reference("fileRef") })
        // The top-level folders groups have after the sync: the same in the next sync, so
        // that what stays because no group's folder is there stays then too.
        for (index, node) in tree.nodes.enumerated() where isGroupKind(node.element.kind) {
            guard case .relative(let folder) = folders[index], !folder.isEmpty, !ProjectPath.isOutside(folder) else { continue }
            let top = folder.split(separator: "/", maxSplits: 1).first.map(String.init) ?? folder
            groupTopFolders.insert(key(top))
        }
    }

    private mutating func protect(_ path: String, _ reason: UnmovedReference.Reason) {
        let pathKey = key(path)
        if protectedAreas[pathKey] == nil { protectedAreas[pathKey] = (path, reason) }
        if pathKey.isEmpty { protectsEverything = true }
    }

    /// The protected area `path` is in (the path itself or a folder above it), with its reason.
    func protectedArea(of path: String) -> (path: String, reason: UnmovedReference.Reason)? {
        if protectedAreas.isEmpty { return nil }
        if let area = protectedAreas[key(path)] { return area }
        for ancestor in ProjectPath.Ancestors(path) {
            if let area = protectedAreas[key(String(ancestor))] { return area }
        }
        return protectsEverything ? protectedAreas[""] : nil
    }

    /// Whether a protected area lies inside `folder` (so the folder cannot move whole).
    func holdsProtectedArea(_ folder: String) -> Bool {
        if protectsEverything { return true }
        let folderKey = key(folder)
        return protectedAreas.keys.contains { ProjectPath.isWithin($0, folderKey) }
    }

    /// Why the unit at `index`, which would move from `source` to `target`, stays; nil when it
    /// may move.
    func neverMoves(_ index: Int, source: String, target: String) -> (reason: UnmovedReference.Reason, area: String?)? {
        let element = tree.nodes[index].element
        if element.kind == .synchronizedRootGroup { return (.synchronizedFolder, nil) }
        if let type = element.fileType, type == "folder" || type.hasPrefix("folder.") { return (.folderReference, nil) }
        if let area = protectedArea(of: source) ?? protectedArea(of: target) { return (area.reason, area.path) }
        if Self.isDocument(ProjectPath.lastComponent(source)) { return (.documentation, nil) }
        if isAtTopAndNotBuilt(index, source: source) { return (.notBuiltAtTop, nil) }
        return nil
    }

    /// A file (or folder) no target builds that sits at the top of the project folder, or in a
    /// top-level folder that is no group's folder, nor holds one, after the sync (`Makefile`,
    /// `swiftgen.yml`, `scripts/x.sh`): tools, scripts and people find it there, so it stays.
    private func isAtTopAndNotBuilt(_ index: Int, source: String) -> Bool {
        let node = tree.nodes[index]
        if builtElements.contains(node.element.id) { return false }
        if let parent = node.parent, tree.nodes[parent].element.kind == .variantGroup,
            builtElements.contains(tree.nodes[parent].element.id) { return false }
        guard let slash = source.firstIndex(of: "/") else { return true }
        return !groupTopFolders.contains(key(String(source[..<slash])))
    }

    /// Lists every file of Xcode's "Recovered References" groups as not moved.
    mutating func reportRecoveredReferences() {
        for index in order where roles[index] == .excluded && isUnderRecoveredReferences(index) {
            let node = tree.nodes[index]
            guard node.element.kind != .group, case .relative(let path) = node.resolvedPath, !path.isEmpty else { continue }
            plan.unmoved.append(UnmovedReference(path: path, reason: .recoveredReferences))
        }
    }

    private func isUnderRecoveredReferences(_ index: Int) -> Bool {
        var current = tree.nodes[index].parent
        while let node = current {
            if recoveredRoots.contains(node) { return true }
            current = tree.nodes[node].parent
        }
        return false
    }

    /// Xcode's own group for references whose group was lost: a group named
    /// "Recovered References" without a path.
    static func isRecoveredReferences(_ element: FileElement) -> Bool {
        element.kind == .group && element.name == "Recovered References" && (element.path ?? "").isEmpty
    }
}
