extension GraphMerger {
    /// A target's build phases run in the order listed. When both sides reordered the phases
    /// they share, differently, the ordered-set merge picks one order without a conflict: that
    /// deserves a note naming the target and both orders.
    mutating func noteBuildPhaseOrder() {
        for id in resolvedOurs.objectIDs(whereIsa: PBXIsa.isTarget) {
            guard let baseList = base.object(id)?.references("buildPhases"),
                let ourList = ours.object(id)?.references("buildPhases"),
                let theirList = theirs.object(id)?.references("buildPhases")
            else { continue }
            let shared = Set(baseList).intersection(ourList).intersection(theirList)
            let b = baseList.filter(shared.contains), o = ourList.filter(shared.contains), t = theirList.filter(shared.contains)
            guard o != b, t != b, o != t else { continue }
            let merged = resolvedOurs.object(id)?.references("buildPhases").filter(shared.contains) ?? o
            let name = resolvedOurs.object(id)?.string("name") ?? "\(id)"
            notes.append("both sides reordered the build phases of target \(name) differently "
                + "(ours: \(phaseNames(o)); theirs: \(phaseNames(t))); the merge runs them as \(phaseNames(merged)): check that order")
        }
    }

    /// `Sources, Resources, Run Script`: each phase's name, or its kind.
    private func phaseNames(_ phases: [ObjectID]) -> String {
        phases.map { id in
            let object = ours.object(id) ?? theirs.object(id)
            if let name = object?.string("name") { return name }
            let isa = object?.isa ?? "\(id)"
            return String(isa.dropFirst(isa.hasPrefix("PBX") ? 3 : 0).dropLast(isa.hasSuffix("BuildPhase") ? 10 : 0))
        }.joined(separator: ", ")
    }
}

extension PBXProject {
    /// The ids of the objects whose isa passes `test`, in `objectIDs`' order
    /// (`objectIDs.filter { isa(of: $0).map(test) == true }`), with the isa test made once per
    /// class of the table and a String made only for the ids kept.
    func objectIDs(whereIsa test: (String) -> Bool) -> [ObjectID] {
        // Edits are kept by id as a String, which also matches another spelling of the same
        // Unicode text: with an id that is not all ASCII among them, the general way.
        let ascii = { (id: ObjectID) in id.rawValue.utf8.allSatisfy { $0 < 0x80 } }
        if !changes.isEmpty, !(changes.objects.keys.allSatisfy(ascii) && changes.removed.allSatisfy(ascii)
            && table.entries.allSatisfy({ entry in tree.withContent(Int(entry.key)) { $0.allSatisfy { $0 < 0x80 } } })) {
            return objectIDs.filter { isa(of: $0).map(test) == true }
        }
        let passes = table.isaNames.map(test)
        // Objects edited (their isa may have changed) and removed, by table entry.
        var changed: [Int: PBXObject] = [:]
        var removed = Set<Int>()
        if !changes.isEmpty {
            for (id, object) in changes.objects { if let index = table.find(id.rawValue, in: tree) { changed[index] = object } }
            for id in changes.removed { if let index = table.find(id.rawValue, in: tree) { removed.insert(index) } }
        }
        var ids: [ObjectID] = []
        for (index, entry) in table.entries.enumerated() where !removed.contains(index) {
            let kept = changed[index].map { test($0.isa) } ?? passes[Int(entry.isa)]
            if kept { ids.append(ObjectID(tree.string(Int(entry.key)))) }
        }
        for id in changes.added where changes.objects[id].map({ test($0.isa) }) == true { ids.append(id) }
        return ids
    }
}
