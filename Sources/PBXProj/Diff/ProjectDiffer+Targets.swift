/// The parts of a diff about targets beyond their phases' files and settings: product,
/// dependencies, package products, synchronized folders, phase order, build rules; and the
/// exception sets of synchronized folders.
extension ProjectDiff {
    /// Records what changed in a target both projects have.
    mutating func compareTarget(
        _ before: ProjectSnapshot.Target, _ after: ProjectSnapshot.Target, phaseOrder: ValueChange?,
        _ old: ProjectSnapshot, _ new: ProjectSnapshot, _ matching: ElementMatching, _ targetMatching: TargetMatching
    ) {
        var change = TargetChange(target: after.name)
        if before.kind != after.kind { change.productType = ValueChange(old: before.kind, new: after.kind) }
        if before.productName != after.productName {
            change.productName = ValueChange(old: before.productName ?? "none", new: after.productName ?? "none")
        }
        change.phaseOrder = phaseOrder
        change.dependencies = ProjectDiff.listChange(
            before.dependencies.map(targetMatching.identity), after.dependencies, display: targetMatching.describe)
        change.packageProducts = ProjectDiff.listChange(before.packageProducts, after.packageProducts) { $0 }
        change.synchronizedFolders = ProjectDiff.listChange(
            before.synchronizedFolders.map { matching.oldToNew[$0] ?? $0 }, after.synchronizedFolders
        ) { id in (new.element(id) ?? old.element(id))?.treePath ?? id.rawValue }
        change.buildRules = ProjectDiff.listChange(before.buildRules, after.buildRules) { $0 }
        if change != TargetChange(target: after.name) { targets.changed.append(change) }
    }

    /// Records the entries that appear in or go from each synchronized folder's exception sets.
    mutating func compareExceptions(
        _ old: ProjectSnapshot, _ new: ProjectSnapshot, _ matching: ElementMatching, _ targetMatching: TargetMatching
    ) {
        struct Key: Hashable {
            let folder: ObjectID, target: ObjectID?, phase: String?
        }
        var before: [Key: Set<String>] = [:]
        var after: [Key: Set<String>] = [:]
        for set in old.exceptionSets {
            let target = set.target.map { targetMatching.oldToNew[$0] ?? $0 }
            before[Key(folder: matching.oldToNew[set.folder] ?? set.folder, target: target, phase: set.phase), default: []]
                .formUnion(set.entries)
        }
        for set in new.exceptionSets {
            after[Key(folder: set.folder, target: set.target, phase: set.phase), default: []].formUnion(set.entries)
        }
        for key in Set(before.keys).union(after.keys) {
            let was = before[key] ?? [], now = after[key] ?? []
            guard was != now else { continue }
            synchronizedFolders.append(FolderExceptions(
                folder: (new.element(key.folder) ?? old.element(key.folder))?.treePath ?? key.folder.rawValue,
                target: key.target.map(targetMatching.name) ?? "no target", phase: key.phase,
                added: now.subtracting(was).sorted(), removed: was.subtracting(now).sorted()))
        }
    }

    /// Entries of `after` not in `before` and the reverse, displayed and sorted.
    static func listChange<Item: Hashable>(_ before: [Item], _ after: [Item], display: (Item) -> String) -> ListChange {
        let was = Set(before), now = Set(after)
        return ListChange(
            added: after.filter { !was.contains($0) }.map(display).sorted(),
            removed: before.filter { !now.contains($0) }.map(display).sorted())
    }

    /// Values that differ between two dictionaries (`none` for an absent one).
    static func valueChanges(_ before: [String: String], _ after: [String: String]) -> [String: ValueChange] {
        var changes: [String: ValueChange] = [:]
        for key in Set(before.keys).union(after.keys) where before[key] != after[key] {
            changes[key] = ValueChange(old: before[key] ?? "none", new: after[key] ?? "none")
        }
        return changes
    }

    /// Per-file settings changed for files in both phases, keyed `settings of PATH`.
    static func fileSettingChanges(
        _ before: ProjectSnapshot.Phase, _ after: ProjectSnapshot.Phase, _ matching: ElementMatching, display: (ObjectID) -> String
    ) -> [String: ValueChange] {
        guard !before.fileSettings.isEmpty || !after.fileSettings.isEmpty else { return [:] }
        let oldFiles = Set(before.items)
        var changes: [String: ValueChange] = [:]
        for case .file(let id) in after.items {
            let oldID = matching.newToOld[id] ?? id
            let was = before.fileSettings[oldID], now = after.fileSettings[id]
            guard was != now, oldFiles.contains(.file(oldID)) else { continue }
            changes["settings of " + display(id)] = ValueChange(old: was ?? "none", new: now ?? "none")
        }
        return changes
    }

    /// The order change of the phases both sides have (paired in the new order), if any.
    static func orderChange(
        _ paired: [(old: ProjectSnapshot.Phase, new: ProjectSnapshot.Phase)], in oldPhases: [ProjectSnapshot.Phase]
    ) -> ValueChange? {
        let position = Dictionary(oldPhases.enumerated().map { ($0.element.id, $0.offset) }, uniquingKeysWith: { first, _ in first })
        let oldOrder = paired.map { position[$0.old.id] ?? 0 }
        guard oldOrder != oldOrder.sorted() else { return nil }
        let oldLabels = paired.sorted { (position[$0.old.id] ?? 0) < (position[$1.old.id] ?? 0) }.map(\.old.label)
        return ValueChange(old: oldLabels.joined(separator: ", "), new: paired.map(\.new.label).joined(separator: ", "))
    }
}

/// Which target of the new project each paired target of the old one is, and target names.
struct TargetMatching {
    private(set) var oldToNew: [ObjectID: ObjectID] = [:]
    private var names: [ObjectID: String] = [:]

    init(old: ProjectSnapshot, new: ProjectSnapshot, pairs: [(ProjectSnapshot.Target, ProjectSnapshot.Target)]) {
        for target in old.targets { names[target.id] = target.name }
        for target in new.targets { names[target.id] = target.name }
        for (before, after) in pairs { oldToNew[before.id] = after.id }
    }

    /// A target's name (the new one when both projects have it).
    func name(_ id: ObjectID) -> String { names[id] ?? id.rawValue }

    /// An old project's dependency in the new project's terms.
    func identity(_ dependency: ProjectSnapshot.Dependency) -> ProjectSnapshot.Dependency {
        if case .target(let id) = dependency, let newID = oldToNew[id] { return .target(newID) }
        return dependency
    }

    /// A dependency for people: `target NAME`, `target NAME in PROJECT`, `package product NAME`.
    func describe(_ dependency: ProjectSnapshot.Dependency) -> String {
        switch dependency {
        case .target(let id): return "target " + name(id)
        case .remote(let project, let target): return "target \(target) in \(project)"
        case .product(let product): return "package product " + product
        }
    }
}
