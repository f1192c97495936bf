import PBXProj

extension PlanBuilder {
    func sameLocation(_ left: ResolvedPath, _ right: ResolvedPath) -> Bool {
        switch (left, right) {
        case (.relative(let a), .relative(let b)), (.absolute(let a), .absolute(let b)): return key(a) == key(b)
        default: return left == right
        }
    }

    /// Sets every path and name that must change so that each element resolves to where it is
    /// after the moves; elements listed by several groups are reported (and made
    /// `SOURCE_ROOT`-relative when a `<group>` path cannot serve every group any more).
    mutating func computeEdits() {
        var locations = tree.nodes.map(\.resolvedPath)
        var aliases: [ObjectID: [Int]] = [:]
        for index in order.dropFirst() {
            let node = tree.nodes[index]
            guard let parent = node.parent else { continue }
            let element = node.element
            switch roles[index] {
            case .alias:
                aliases[element.id, default: []].append(index)
                placeAlias(index, parent: parent, locations: &locations)
                continue
            case .folderGroup, .passThrough:
                locations[index] = folders[index]
            default:
                locations[index] = mapped(node.resolvedPath)
                folders[index] = locations[index]
            }
            let changed = updatePath(index, parentFolder: folders[parent], desired: locations[index])
            if roles[index] == .folderGroup || changed, let name = element.name, name == (finalPath[element.id] ?? element.path) {
                setName(element, nil)
            }
        }
        for (_, nodes) in sharedFiles.sorted(by: { $0.key < $1.key }) {
            let groups = nodes.compactMap { tree.nodes[$0].parent }.map { treePath($0) }
            plan.multiReferenced.append(MultiReference(path: locations[nodes[0]].description, groups: groups, madeProjectRelative: false))
        }
        for (id, occurrences) in aliases.sorted(by: { $0.key < $1.key }) {
            guard let first = firstNode[id], let firstParent = tree.nodes[first].parent else { continue }
            let groups = ([firstParent] + occurrences.compactMap { tree.nodes[$0].parent }).map { treePath($0) }
            plan.multiReferenced.append(MultiReference(
                path: locations[first].description, groups: groups, madeProjectRelative: madeProjectRelative.contains(id)))
        }
    }

    /// A later occurrence of an element: it must still resolve where the first one does.
    private mutating func placeAlias(_ index: Int, parent: Int, locations: inout [ResolvedPath]) {
        let element = tree.nodes[index].element
        guard let first = firstNode[element.id] else { return }
        let sourceTree = finalSourceTree[element.id] ?? element.sourceTree ?? "<group>"
        let path = finalPath[element.id] ?? element.path
        var after = sourceTree == "<group>" ? folders[parent].appending(path ?? "") : locations[first]
        let before = sameLocation(tree.nodes[index].resolvedPath, tree.nodes[first].resolvedPath)
        if sourceTree == "<group>", before, !sameLocation(after, locations[first]),
            case .relative(let target) = locations[first], let relative = ProjectPath.relative(from: base, to: target) {
            edit(element, .sourceTree, old: element.sourceTree, new: "SOURCE_ROOT")
            finalSourceTree[element.id] = "SOURCE_ROOT"
            let shown = displayName(element)
            setPath(element, relative.isEmpty ? nil : relative)
            // Keep what Xcode shows: a SOURCE_ROOT path would show its folders too.
            if (finalName[element.id] ?? element.name) == nil && !shown.isEmpty { setName(element, shown) }
            madeProjectRelative.insert(element.id)
            after = locations[first]
        }
        folders[index] = after
        locations[index] = after
    }

    /// Rewrites an element's `path` when it no longer resolves to `desired`; true when it did.
    @discardableResult
    private mutating func updatePath(_ index: Int, parentFolder: ResolvedPath, desired: ResolvedPath) -> Bool {
        let node = tree.nodes[index]
        let element = node.element
        switch element.sourceTree ?? "<group>" {
        case "<group>":
            guard case .relative(let folder) = parentFolder, case .relative(let target) = desired else { return false }
            if sameLocation(parentFolder.appending(element.path ?? ""), desired) { return false }
            guard let relative = ProjectPath.relative(from: folder, to: target) else { return false }
            setPath(element, relative.isEmpty ? nil : relative)
            return true
        case "SOURCE_ROOT":
            guard case .relative(let target) = desired, !sameLocation(desired, node.resolvedPath),
                let relative = ProjectPath.relative(from: base, to: target)
            else { return false }
            setPath(element, relative.isEmpty ? nil : relative)
            return true
        case "<absolute>":
            guard case .absolute(let target) = desired, !sameLocation(desired, node.resolvedPath) else { return false }
            setPath(element, target)
            return true
        default:
            return false
        }
    }

    private mutating func setPath(_ element: FileElement, _ path: String?) {
        guard (finalPath[element.id] ?? element.path) != path else { return }
        edit(element, .path, old: finalPath[element.id] ?? element.path, new: path)
        finalPath[element.id] = .some(path)
    }

    private mutating func setName(_ element: FileElement, _ name: String?) {
        guard (finalName[element.id] ?? element.name) != name else { return }
        edit(element, .name, old: finalName[element.id] ?? element.name, new: name)
        finalName[element.id] = .some(name)
    }

    private mutating func edit(_ element: FileElement, _ key: PBXProjEdit.Key, old: String?, new: String?) {
        plan.edits.append(PBXProjEdit(
            object: element.id.rawValue, subject: element.name ?? element.path.map { ProjectPath.lastComponent($0) } ?? element.id.rawValue,
            key: key, oldValue: old, newValue: new))
    }

    /// Build settings naming files that move (`INFOPLIST_FILE`, `GCC_PREFIX_HEADER`, ...) follow
    /// them; a `$(SRCROOT)/`-style prefix is kept.
    mutating func rewriteBuildSettings() {
        guard !moveBySource.isEmpty else { return }
        var owners: [ObjectID: String] = [:]
        for target in project.targets {
            for configuration in project.buildConfigurations(of: target.id) { owners[configuration.id] = "target '\(target.name)'" }
        }
        for id in project.objectIDs(isa: PBXIsa.buildConfiguration) {
            guard let configuration = project.buildConfiguration(id) else { continue }
            for entry in configuration.buildSettings {
                let name = entry.key.split(separator: "[", maxSplits: 1).first.map(String.init) ?? entry.key
                guard Self.pathSettings.contains(name), case .string(let value) = entry.value,
                    let rewritten = rewrittenSetting(value)
                else { continue }
                plan.edits.append(PBXProjEdit(
                    object: id.rawValue, subject: "'\(configuration.name)' of \(owners[id] ?? "the project")",
                    key: .buildSetting, setting: entry.key, oldValue: value, newValue: rewritten))
            }
        }
    }

    /// The settings that name one file of the project.
    static let pathSettings: Set<String> = [
        "INFOPLIST_FILE", "GCC_PREFIX_HEADER", "CODE_SIGN_ENTITLEMENTS", "SWIFT_OBJC_BRIDGING_HEADER", "MODULEMAP_FILE",
    ]

    static let settingPrefixes = [
        "$(SRCROOT)/", "${SRCROOT}/", "$(PROJECT_DIR)/", "${PROJECT_DIR}/", "$(SOURCE_ROOT)/", "${SOURCE_ROOT}/",
    ]

    private func rewrittenSetting(_ value: String) -> String? {
        let prefix = Self.settingPrefixes.first { value.hasPrefix($0) } ?? ""
        let rest = String(value.dropFirst(prefix.count))
        guard !rest.isEmpty, !rest.hasPrefix("/"), !rest.contains("$") else { return nil }
        let path = ProjectPath.join(base, rest)
        guard !ProjectPath.isOutside(path) else { return nil }
        let moved = mapped(path)
        guard key(moved) != key(path), let relative = ProjectPath.relative(from: base, to: moved) else { return nil }
        return prefix + relative
    }

    /// Sorts the children of every synced group by name, folders first (the order
    /// `computeOrder` found); only groups whose order changes are edited.
    mutating func sortGroups() {
        for index in order.dropFirst() where [.folderGroup, .passThrough, .anchored].contains(roles[index]) {
            let element = tree.nodes[index].element
            guard let sorted = sortedOrder[element.id], sorted != element.children else { continue }
            let names = sorted.map { id in firstNode[id].map { displayName(tree.nodes[$0].element) } ?? id.rawValue }
            plan.edits.append(PBXProjEdit(
                object: element.id.rawValue, subject: displayName(element), key: .children, oldValue: nil,
                newValue: names.joined(separator: ", "), children: sorted.map(\.rawValue)))
        }
    }
}
