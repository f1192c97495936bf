extension GraphMerger {
    /// Both sides added the same thing under different ids: the same file reference to the same
    /// group, the same file's build file to the same build phase (two branches that each added
    /// a file by hand, or a change copied onto both). Keeping both, as for any two additions,
    /// would leave the project with a duplicate reference that Xcode warns about and builds
    /// twice, so their object is dropped and every reference to it points at ours.
    ///
    /// Two added objects are twins when they sit in the same list of the same object in the
    /// merge (a group's `children`, a phase's `files`, ...) and their properties are equal once
    /// the twins already found are mapped onto ours (so a build file's `fileRef` to their twin
    /// reference matches ours); for file references, their location is compared (see
    /// `signature`), and ours is kept with its attributes. Objects only equal in different lists
    /// are different things and both are kept.
    mutating func mergeTwinAdditions() throws {
        let ourAdditions = Self.ids(of: ours, outside: [base])
        guard !ourAdditions.isEmpty else { return }
        let theirAdditions = Self.ids(of: theirs, outside: [base, ours])
        guard !theirAdditions.isEmpty else { return }
        var ourBySignature: [PBXDictionary: [ObjectID]] = [:]
        for id in ourAdditions { if let object = ours.object(id) { ourBySignature[Self.signature(object.properties), default: []].append(id) } }
        // Most merges have no candidate at all: check that before looking for lists.
        guard theirAdditions.contains(where: { id in theirs.object(id).map { ourBySignature[Self.signature($0.properties)] != nil } ?? false })
        else { return }
        // Only objects their side changed or added can hold a reference to their additions.
        let holders = theirs.objectIDs.filter { !(base.contains($0) && sameText($0, base, theirs)) }
        var twins: [String: String] = [:]
        var found = true
        while found {
            found = false
            for id in theirAdditions where twins[id.rawValue] == nil {
                guard let object = theirs.object(id),
                    let candidates = ourBySignature[Self.signature(Self.remap(object.properties, twins))]
                else { continue }
                if let twin = candidates.first(where: { shareList(id, $0, holders: holders) }) {
                    twins[id.rawValue] = twin.rawValue
                    found = true
                }
            }
        }
        guard !twins.isEmpty else { return }
        for project in [\GraphMerger.resolvedOurs, \GraphMerger.resolvedTheirs] {
            try Self.replace(twins, holders: holders, in: &self[keyPath: project])
        }
    }

    /// What makes two added objects the same thing: a file reference is its location (path,
    /// name, source tree), whatever its other attributes (`includeInIndex`, `fileEncoding`, a
    /// file type, which tools write differently); anything else is all its properties.
    /// The ids of `side`'s objects that none of `others` contains, in `side.objectIDs`' order
    /// (`side.objectIDs.filter { id in !others.contains { $0.contains(id) } }`). When none of the
    /// projects was edited, the tables are searched with each id's bytes, and a String is made
    /// only for the ids kept.
    static func ids(of side: PBXProject, outside others: [PBXProject]) -> [ObjectID] {
        guard !side.hasChanges, !others.contains(where: \.hasChanges) else {
            return side.objectIDs.filter { id in !others.contains { $0.contains(id) } }
        }
        var result: [ObjectID] = []
        var finders = others.map(SequentialFinder.init)
        for entry in side.table.entries {
            let key = Int(entry.key)
            let inOthers = side.tree.withContent(key) { id in
                finders.indices.contains { finders[$0].find(id) != nil }
            }
            if !inOthers { result.append(ObjectID(side.tree.string(key))) }
        }
        return result
    }

    static func signature(_ properties: PBXDictionary) -> PBXDictionary {
        guard properties["isa"]?.string == "PBXFileReference" else { return properties }
        return PBXDictionary(properties.entries.filter { ["isa", "path", "name", "sourceTree"].contains($0.key) })
    }

    /// Whether some list of one object holds their `theirs` (on their side) and, in the merge,
    /// our `ours` too.
    private func shareList(_ theirs: ObjectID, _ ours: ObjectID, holders: [ObjectID]) -> Bool {
        for holder in holders {
            guard let theirObject = self.theirs.object(holder), let merged = resolvedOurs.object(holder) else { continue }
            for entry in theirObject.properties {
                guard let list = entry.value.strings, list.contains(theirs.rawValue) else { continue }
                if merged.properties[entry.key]?.strings?.contains(ours.rawValue) == true { return true }
            }
        }
        return false
    }

    /// Points every reference to a twin at ours (a list that then names ours twice keeps the
    /// first), and removes their twins.
    private static func replace(_ twins: [String: String], holders: [ObjectID], in project: inout PBXProject) throws {
        for holder in holders where project.contains(holder) && twins[holder.rawValue] == nil {
            guard let object = project.object(holder) else { continue }
            let mapped = remap(object.properties, twins)
            if mapped != object.properties { try project.update(PBXObject(id: holder, properties: mapped)) }
        }
        for id in twins.keys.sorted() where project.contains(ObjectID(id)) { try project.removeObject(ObjectID(id)) }
    }

    /// The properties with every string that names a twin replaced by ours; in lists, a
    /// replacement already present is dropped.
    static func remap(_ properties: PBXDictionary, _ twins: [String: String]) -> PBXDictionary {
        guard !twins.isEmpty else { return properties }
        return PBXDictionary(properties.entries.map { PBXDictionary.Entry(key: $0.key, value: remap($0.value, twins)) })
    }

    private static func remap(_ value: PBXValue, _ twins: [String: String]) -> PBXValue {
        switch value {
        case .string(let text): return twins[text].map { .string($0) } ?? value
        case .data: return value
        case .dictionary(let dictionary): return .dictionary(remap(dictionary, twins))
        case .array(let elements):
            var result: [PBXValue] = []
            for element in elements {
                if case .string(let text) = element, let twin = twins[text] {
                    if !elements.contains(.string(twin)) && !result.contains(.string(twin)) { result.append(.string(twin)) }
                } else {
                    result.append(remap(element, twins))
                }
            }
            return .array(result)
        }
    }
}
