extension GraphMerger {
    /// The group-like classes whose `children` lists place an element in the tree.
    static let groupClasses = ["PBXGroup", "PBXVariantGroup", "XCVersionGroup"]

    /// An element that each side put into a different group (both moved the same group or file,
    /// to different places) would otherwise end up in both groups: that is a conflict. Our
    /// resolution keeps our placement, theirs keeps theirs.
    mutating func resolveDoublePlacements() throws {
        let ourPlacements = placements(ours), theirPlacements = placements(theirs)
        guard !ourPlacements.isEmpty, !theirPlacements.isEmpty else { return }
        for (element, ourGroup) in ourPlacements.sorted(by: { $0.key < $1.key }) {
            guard let theirGroup = theirPlacements[element], theirGroup != ourGroup else { continue }
            try removeChild(element, from: theirGroup, in: &resolvedOurs)
            try removeChild(element, from: ourGroup, in: &resolvedTheirs)
            let object = ours.object(element) ?? theirs.object(element)
            conflicts.append(PBXProjMergeConflict(
                objectID: element, comment: object.flatMap { $0.string("name") ?? $0.string("path") ?? $0.isa },
                keyPath: ["(group)"], ours: .string(groupLabel(ourGroup, in: ours)), theirs: .string(groupLabel(theirGroup, in: theirs))))
        }
    }

    /// Each element one side added to a group's children, with the group (elements it added to
    /// several groups are left out: nothing to compare).
    private func placements(_ side: PBXProject) -> [ObjectID: ObjectID] {
        var result: [ObjectID: ObjectID] = [:]
        var repeated = Set<ObjectID>()
        for isa in Self.groupClasses {
            for group in side.objectIDs(isa: isa) {
                if let text = side.rawText(group), let original = base.rawText(group), text.elementsEqual(original) { continue }
                let children = side.object(group)?.references("children") ?? []
                let before = Set(base.object(group)?.references("children") ?? [])
                for child in children where !before.contains(child) {
                    if result.updateValue(group, forKey: child) != nil { repeated.insert(child) }
                }
            }
        }
        for child in repeated { result[child] = nil }
        return result
    }

    private func removeChild(_ element: ObjectID, from group: ObjectID, in project: inout PBXProject) throws {
        guard let children = project.object(group)?.references("children"), children.contains(element) else { return }
        try project.modify(group) { $0["children"] = .array(children.filter { $0 != element }.map { .string($0.rawValue) }) }
    }

    private func groupLabel(_ group: ObjectID, in project: PBXProject) -> String {
        let object = project.object(group)
        return "\(group)" + (object.flatMap { $0.string("name") ?? $0.string("path") }.map { " (\($0))" } ?? "")
    }
}
