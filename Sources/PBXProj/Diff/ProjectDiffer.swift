extension ProjectDiff {
    /// The semantic difference between two projects.
    ///
    /// - Throws: what `ProjectSnapshot.init` throws for either project.
    public init(from old: PBXProject, to new: PBXProject) throws {
        self.init(from: try ProjectSnapshot(old), to: try ProjectSnapshot(new))
    }

    /// The semantic difference between two snapshots.
    ///
    /// Group-tree members are paired by id, then files by the path they point at, groups by
    /// their place in the tree, and files by name when that name is unique on both sides; a
    /// paired member under another parent is a move, not a removal and an addition.
    public init(from old: ProjectSnapshot, to new: ProjectSnapshot) {
        self.init()
        let matching = ElementMatching(old: old, new: new)
        compareElements(old, new, matching)
        let pairs = compareTargets(old, new)
        let targetMatching = TargetMatching(old: old, new: new, pairs: pairs)
        for (before, after) in pairs {
            let order = comparePhases(before, after, old, new, matching)
            compareTarget(before, after, phaseOrder: order, old, new, matching, targetMatching)
        }
        compareExceptions(old, new, matching, targetMatching)
        compareSettings(target: nil, old.projectConfigurations, new.projectConfigurations)
        for (before, after) in pairs { compareSettings(target: after.name, before.configurations, after.configurations) }
        comparePackages(old.packages, new.packages)
        sortLists()
    }

    private mutating func compareElements(_ old: ProjectSnapshot, _ new: ProjectSnapshot, _ matching: ElementMatching) {
        for element in new.elements {
            guard let oldID = matching.newToOld[element.id], let before = old.element(oldID) else {
                if element.isGroup { groups.added.append(element.treePath) } else { files.added.append(element.treePath) }
                continue
            }
            let parent = element.parent.map { matching.newToOld[$0] ?? $0 }
            let renamed = before.name != element.name || before.ownPath != element.ownPath || before.sourceTree != element.sourceTree
            guard parent != before.parent || renamed else { continue }
            // What a user sees is the place in the tree and the path on disk: another object, or
            // another `name`/`path`/`sourceTree` spelling, with both equal is no change.
            guard before.treePath != element.treePath || before.location != element.location else { continue }
            let move = before.treePath == element.treePath
                ? Move(from: before.location, to: element.location) : Move(from: before.treePath, to: element.treePath)
            switch (element.isGroup, parent != before.parent) {
            case (true, true): groups.moved.append(move)
            case (true, false): groups.renamed.append(move)
            case (false, true): files.moved.append(move)
            case (false, false): files.renamed.append(move)
            }
        }
        for element in old.elements where matching.oldToNew[element.id] == nil {
            if element.isGroup { groups.removed.append(element.treePath) } else { files.removed.append(element.treePath) }
        }
    }

    /// Pairs targets by id, then by name; records added, removed and renamed ones.
    private mutating func compareTargets(
        _ old: ProjectSnapshot, _ new: ProjectSnapshot
    ) -> [(ProjectSnapshot.Target, ProjectSnapshot.Target)] {
        var remaining = old.targets
        var pairs: [(ProjectSnapshot.Target, ProjectSnapshot.Target)] = []
        var unpaired: [ProjectSnapshot.Target] = []
        for target in new.targets {
            if let index = remaining.firstIndex(where: { $0.id == target.id }) {
                pairs.append((remaining.remove(at: index), target))
            } else {
                unpaired.append(target)
            }
        }
        for target in unpaired {
            if let index = remaining.firstIndex(where: { $0.name == target.name }) {
                pairs.append((remaining.remove(at: index), target))
            } else {
                targets.added.append("\(target.name) (\(target.kind))")
            }
        }
        targets.removed = remaining.map { "\($0.name) (\($0.kind))" }
        targets.renamed = pairs.filter { $0.0.name != $0.1.name }.map { Move(from: $0.0.name, to: $0.1.name) }
        let order = Dictionary(new.targets.enumerated().map { ($0.element.id, $0.offset) }, uniquingKeysWith: { first, _ in first })
        return pairs.sorted { (order[$0.1.id] ?? 0) < (order[$1.1.id] ?? 0) }
    }

    /// Records each phase's changes; returns the order change of the phases both sides have.
    private mutating func comparePhases(
        _ before: ProjectSnapshot.Target, _ after: ProjectSnapshot.Target,
        _ old: ProjectSnapshot, _ new: ProjectSnapshot, _ matching: ElementMatching
    ) -> ValueChange? {
        func display(_ item: ProjectSnapshot.PhaseItem, in snapshot: ProjectSnapshot) -> String {
            switch item {
            case .file(let id): return snapshot.element(id)?.treePath ?? id.rawValue
            case .product(let name): return "package product " + name
            }
        }
        func identity(_ item: ProjectSnapshot.PhaseItem) -> ProjectSnapshot.PhaseItem {
            if case .file(let id) = item, let oldID = matching.newToOld[id] { return .file(oldID) }
            return item
        }
        var remaining = before.phases
        var paired: [(old: ProjectSnapshot.Phase, new: ProjectSnapshot.Phase)] = []
        for phase in after.phases {
            let index = remaining.firstIndex(where: { $0.id == phase.id }) ?? remaining.firstIndex(where: { $0.label == phase.label })
            let previous = index.map { remaining.remove(at: $0) }
            if let previous { paired.append((previous, phase)) }
            let oldItems = Set(previous?.items ?? [])
            let newItems = Set(phase.items.map(identity))
            let added = phase.items.filter { !oldItems.contains(identity($0)) }.map { display($0, in: new) }
            let removed = (previous?.items ?? []).filter { !newItems.contains($0) }.map { display($0, in: old) }
            var details = previous.map { ProjectDiff.valueChanges($0.details, phase.details) } ?? [:]
            if let previous {
                details.merge(ProjectDiff.fileSettingChanges(previous, phase, matching) { display(.file($0), in: new) }) { first, _ in first }
            }
            guard previous == nil || !added.isEmpty || !removed.isEmpty || !details.isEmpty else { continue }
            buildPhases.append(PhaseChange(
                target: after.name, phase: phase.label, change: previous == nil ? "added" : "changed",
                filesAdded: added, filesRemoved: removed, details: details))
        }
        for phase in remaining {
            buildPhases.append(PhaseChange(
                target: after.name, phase: phase.label, change: "removed", filesAdded: [],
                filesRemoved: phase.items.map { display($0, in: old) }))
        }
        return ProjectDiff.orderChange(paired, in: before.phases)
    }

    private mutating func compareSettings(
        target: String?, _ before: [ProjectSnapshot.Configuration], _ after: [ProjectSnapshot.Configuration]
    ) {
        var remaining = before
        var changes: [SettingsChange] = []
        for configuration in after {
            let previous = remaining.firstIndex(where: { $0.name == configuration.name }).map { remaining.remove(at: $0) }
            let old = previous?.settings ?? [:]
            var change = SettingsChange(
                target: target, configuration: configuration.name, change: previous == nil ? "added" : "changed",
                added: [:], removed: [:], changed: [:])
            if let previous, previous.baseConfiguration != configuration.baseConfiguration {
                change.baseConfiguration = ValueChange(old: previous.baseConfiguration ?? "none", new: configuration.baseConfiguration ?? "none")
            }
            for (key, value) in configuration.settings {
                if let was = old[key] {
                    if was != value { change.changed[key] = ValueChange(old: was, new: value) }
                } else {
                    change.added[key] = value
                }
            }
            for (key, value) in old where configuration.settings[key] == nil { change.removed[key] = value }
            if previous == nil || !change.added.isEmpty || !change.removed.isEmpty || !change.changed.isEmpty
                || change.baseConfiguration != nil {
                changes.append(change)
            }
        }
        for configuration in remaining {
            changes.append(SettingsChange(
                target: target, configuration: configuration.name, change: "removed", added: [:],
                removed: configuration.settings, changed: [:]))
        }
        buildSettings += changes.sorted { $0.configuration < $1.configuration }
    }

    private mutating func comparePackages(_ before: [ProjectSnapshot.Package], _ after: [ProjectSnapshot.Package]) {
        func key(_ location: String) -> String {
            var text = location.lowercased()
            while text.hasSuffix("/") { text.removeLast() }
            if text.hasSuffix(".git") { text.removeLast(4) }
            return text
        }
        let old = Dictionary(before.map { (key($0.location), $0) }, uniquingKeysWith: { first, _ in first })
        let new = Dictionary(after.map { (key($0.location), $0) }, uniquingKeysWith: { first, _ in first })
        for (location, package) in new {
            guard let previous = old[location] else {
                packages.added.append(Package(location: package.location, requirement: package.requirement))
                continue
            }
            if previous.requirement != package.requirement {
                packages.changed[package.location] = ValueChange(old: previous.requirement, new: package.requirement)
            }
        }
        for (location, package) in old where new[location] == nil {
            packages.removed.append(Package(location: package.location, requirement: package.requirement))
        }
    }

    private mutating func sortLists() {
        synchronizedFolders.sort { ($0.folder, $0.target, $0.phase ?? "") < ($1.folder, $1.target, $1.phase ?? "") }
        targets.added.sort()
        targets.removed.sort()
        targets.renamed.sort()
        for keyPath in [\ProjectDiff.groups, \ProjectDiff.files] {
            self[keyPath: keyPath].added.sort()
            self[keyPath: keyPath].removed.sort()
            self[keyPath: keyPath].renamed.sort()
            self[keyPath: keyPath].moved.sort()
        }
        packages.added.sort { $0.location < $1.location }
        packages.removed.sort { $0.location < $1.location }
    }
}

/// Which group-tree member of the old project each member of the new one is.
struct ElementMatching {
    private(set) var newToOld: [ObjectID: ObjectID] = [:]
    private(set) var oldToNew: [ObjectID: ObjectID] = [:]

    init(old: ProjectSnapshot, new: ProjectSnapshot) {
        for element in new.elements where old.element(element.id)?.isGroup == element.isGroup {
            pair(element.id, element.id)
        }
        // The same file on disk under a new id; the same group at the same place; a file whose
        // name is unique on both sides (deleted and added again elsewhere).
        pairUnique(old, new) { $0.isGroup ? nil : $0.location }
        pairUnique(old, new) { $0.isGroup ? $0.treePath : nil }
        pairUnique(old, new) { $0.isGroup || $0.name.isEmpty ? nil : $0.name }
    }

    private mutating func pair(_ old: ObjectID, _ new: ObjectID) {
        newToOld[new] = old
        oldToNew[old] = new
    }

    private mutating func pairUnique(
        _ old: ProjectSnapshot, _ new: ProjectSnapshot, key: (ProjectSnapshot.Element) -> String?
    ) {
        func unique(_ elements: [ProjectSnapshot.Element], skip: [ObjectID: ObjectID]) -> [String: ObjectID] {
            var found: [String: ObjectID] = [:]
            var repeated: Set<String> = []
            for element in elements where skip[element.id] == nil {
                guard let value = key(element) else { continue }
                if found.updateValue(element.id, forKey: value) != nil { repeated.insert(value) }
            }
            for value in repeated { found[value] = nil }
            return found
        }
        let before = unique(old.elements, skip: oldToNew)
        let after = unique(new.elements, skip: newToOld)
        for (value, newID) in after {
            if let oldID = before[value] { pair(oldID, newID) }
        }
    }
}
