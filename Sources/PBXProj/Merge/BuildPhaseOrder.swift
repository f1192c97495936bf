extension GraphMerger {
    /// A target's build phases run in the order listed. When both sides reordered the phases
    /// they share, differently, the ordered-set merge picks one order without a conflict: that
    /// deserves a note naming the target and both orders.
    mutating func noteBuildPhaseOrder() {
        for id in resolvedOurs.objectIDs {
            guard let isa = resolvedOurs.isa(of: id), PBXIsa.isTarget(isa),
                let baseList = base.object(id)?.references("buildPhases"),
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
