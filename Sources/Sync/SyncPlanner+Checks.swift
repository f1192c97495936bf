import PBXProj

extension PlanBuilder {
    /// Whether `path`, or a folder above it, is moved away by the plan (so that it is free once
    /// that move ran).
    func isVacated(_ path: String) -> Bool {
        if moveBySource[key(path)] != nil { return true }
        for ancestor in ProjectPath.Ancestors(path) where moveBySource[key(String(ancestor))] != nil { return true }
        return false
    }

    /// Finds every conflict among the moves at once: two moves to one path, a path taken by
    /// something that stays, a folder to create that is a file, case-only clashes, and relative
    /// symbolic links that would point elsewhere.
    mutating func checkTargets() {
        var byTarget: [String: Int] = [:]
        var fileTargets: Set<String> = []
        for move in plan.moves where move.reason != .pruned {
            if listing.entry(move.source)?.kind != .directory { fileTargets.insert(key(move.destination)) }
        }
        var spelling: [String: String] = [:]
        for (index, move) in plan.moves.enumerated() where move.reason != .pruned {
            let targetKey = key(move.destination)
            if let other = byTarget[targetKey] {
                let first = plan.moves[other]
                let caseOnly = first.destination != move.destination
                plan.conflicts.append(SyncConflict(
                    kind: caseOnly ? .caseOnlyClash : .sameTarget, path: move.destination,
                    message: caseOnly
                        ? "'\(first.source)' goes to '\(first.destination)' and '\(move.source)' to '\(move.destination)', which differ only in case on this file system; rename one of them"
                        : "both '\(first.source)' and '\(move.source)' would go here; rename one of them or put them in different groups"))
                continue
            }
            byTarget[targetKey] = index
            if listing.entry(move.destination) != nil, !isVacated(move.destination) {
                let taken = claimed.contains(targetKey)
                plan.conflicts.append(SyncConflict(
                    kind: taken ? .sameTarget : .targetOccupied, path: move.destination,
                    message: taken
                        ? "'\(move.source)' would go here, where another reference already is; rename one of them or put them in different groups"
                        : "'\(move.source)' would go here, but a file nothing in the project refers to is already there; move or delete it first (--prune deletes unreferenced source files)"))
            }
            for ancestor in ProjectPath.ancestors(move.destination) {
                let ancestorKey = key(ancestor)
                let onDisk = listing.entry(ancestor)
                let blockedOnDisk = onDisk != nil && onDisk?.kind != .directory && !isVacated(ancestor)
                if blockedOnDisk || fileTargets.contains(ancestorKey) {
                    plan.conflicts.append(SyncConflict(
                        kind: .folderIsFile, path: ancestor,
                        message: "'\(move.source)' would go into this folder, but it is a file or a symbolic link; rename it or the group"))
                    break
                }
                if !listing.isCaseSensitive && onDisk == nil {
                    if let known = spelling[ancestorKey], known != ancestor {
                        plan.conflicts.append(SyncConflict(
                            kind: .caseOnlyClash, path: ancestor,
                            message: "groups want both '\(known)' and '\(ancestor)', which are one folder on this case-insensitive file system; rename one of the groups"))
                    }
                    spelling[ancestorKey] = ancestor
                }
            }
            checkLink(move)
        }
        checkLinksToMovedItems()
    }

    /// A symbolic link that stays where it is must not lose what it points to: a link whose
    /// relative destination is moved by the plan would dangle afterwards (a source compiled in
    /// two places through a link, a shared header).
    private mutating func checkLinksToMovedItems() {
        let links = listing.allEntries.filter { $0.kind == .symbolicLink }.sorted { $0.path < $1.path }
        for link in links where moveBySource[key(link.path)] == nil && !isVacated(link.path) {
            guard let destination = link.linkDestination, !destination.hasPrefix("/") else { continue }
            let target = ProjectPath.join(ProjectPath.parent(link.path), destination)
            guard !ProjectPath.isOutside(target) else { continue }
            let moved = mapped(target)
            guard key(moved) != key(target) else { continue }
            plan.conflicts.append(SyncConflict(
                kind: .symbolicLinkWouldBreak, path: link.path,
                message: "this symbolic link points to '\(destination)', which the sync would move to '\(moved)'; the link would dangle. Move the file and update the link by hand, or exclude its group (--exclude)"))
        }
    }

    /// A symbolic link with a relative destination must still reach the same item after moving.
    private mutating func checkLink(_ move: SyncMove) {
        guard let entry = listing.entry(move.source), entry.kind == .symbolicLink,
            let destination = entry.linkDestination, !destination.hasPrefix("/")
        else { return }
        let before = ProjectPath.join(ProjectPath.parent(move.source), destination)
        let after = ProjectPath.join(ProjectPath.parent(move.destination), destination)
        guard key(mapped(before)) != key(after) else { return }
        plan.conflicts.append(SyncConflict(
            kind: .symbolicLinkWouldBreak, path: move.source,
            message: "this symbolic link points to '\(destination)'; moved to '\(move.destination)' it would point elsewhere. Make the link absolute, or move it by hand"))
    }

    /// Puts the moves in the order they can run: prunes first, then every move after the moves
    /// that free its path. A cycle is a conflict.
    mutating func orderMoves() {
        let moves = plan.moves
        var dependencies: [[Int]] = Array(repeating: [], count: moves.count)
        var any = false
        for (index, move) in moves.enumerated() where move.reason != .pruned {
            for path in [move.destination] + ProjectPath.ancestors(move.destination) {
                if let other = moveBySource[key(path)], other != index {
                    dependencies[index].append(other)
                    any = true
                }
            }
        }
        let prunes = moves.indices.filter { moves[$0].reason == .pruned }
        var order: [Int] = prunes
        var state = [UInt8](repeating: 0, count: moves.count)   // 0 new, 1 visiting, 2 done
        for index in prunes { state[index] = 2 }
        for start in moves.indices where state[start] == 0 {
            guard any else {
                order.append(start)
                continue
            }
            var stack: [(Int, Int)] = [(start, 0)]
            state[start] = 1
            while let (node, next) = stack.popLast() {
                if next < dependencies[node].count {
                    stack.append((node, next + 1))
                    let dependency = dependencies[node][next]
                    if state[dependency] == 0 {
                        state[dependency] = 1
                        stack.append((dependency, 0))
                    } else if state[dependency] == 1 {
                        plan.conflicts.append(SyncConflict(
                            kind: .moveCycle, path: moves[node].source,
                            message: "moving it to '\(moves[node].destination)' needs another move first that needs this one; rename one of the groups involved"))
                    }
                } else {
                    state[node] = 2
                    order.append(node)
                }
            }
        }
        plan.moves = order.map { moves[$0] }
        moveBySource = [:]
        for (index, move) in plan.moves.enumerated() { moveBySource[key(move.source)] = index }
    }
}
