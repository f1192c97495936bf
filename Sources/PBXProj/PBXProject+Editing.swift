extension PBXProject {
    /// Replaces the object that has `object.id` with `object`.
    ///
    /// Setting an object back to exactly what was read drops the edit, so a no-op edit leaves
    /// the file byte for byte as it was.
    /// - Throws: `PBXProjError.missingObject` when no object has that id.
    public mutating func update(_ object: PBXObject) throws {
        guard contains(object.id) else { throw PBXProjError.missingObject(id: object.id.rawValue, at: nil) }
        if !changes.added.contains(object.id), let index = table.find(object.id.rawValue, in: tree),
            decodedObject(index) == object {
            changes.objects[object.id] = nil
            return
        }
        changes.objects[object.id] = object
    }

    /// Edits the object with `id` in place.
    /// - Throws: `PBXProjError.missingObject`, or whatever `body` throws.
    public mutating func modify(_ id: ObjectID, _ body: (inout PBXObject) throws -> Void) throws {
        guard var object = object(id) else { throw PBXProjError.missingObject(id: id.rawValue, at: nil) }
        try body(&object)
        guard object.id == id else {
            throw PBXProjError.invalidArgument(message: "an edit cannot change an object's id ('\(id)')")
        }
        try update(object)
    }

    /// Adds a new object.
    /// - Throws: `PBXProjError.invalidArgument` when the id is empty or already taken, or the
    ///   object has no isa.
    public mutating func add(_ object: PBXObject) throws {
        guard !object.id.rawValue.isEmpty, !object.isa.isEmpty else {
            throw PBXProjError.invalidArgument(message: "a new object needs an id and an isa")
        }
        if changes.removed.contains(object.id), let index = table.find(object.id.rawValue, in: tree) {
            changes.removed.remove(object.id)
            if decodedObject(index) != object { changes.objects[object.id] = object }
            return
        }
        guard !contains(object.id) else {
            throw PBXProjError.invalidArgument(message: "object id '\(object.id)' is already in use; pick another with makeObjectID(seed:)")
        }
        changes.objects[object.id] = object
        changes.added.append(object.id)
    }

    /// Removes the object with `id` (references to it elsewhere stay; see
    /// `removeFileReference(_:)` and `removeGroup(_:)` for removals that clean up).
    /// - Throws: `PBXProjError.missingObject` when no object has that id.
    public mutating func removeObject(_ id: ObjectID) throws {
        guard contains(id) else { throw PBXProjError.missingObject(id: id.rawValue, at: nil) }
        changes.objects[id] = nil
        if let index = changes.added.firstIndex(of: id) {
            changes.added.remove(at: index)
        } else {
            changes.removed.insert(id)
        }
    }

    /// A new object id in Xcode's form (24 uppercase hex digits), derived from `seed` so that the
    /// same edits give the same file, and unused in this project.
    public func makeObjectID(seed: String) -> ObjectID {
        var state: UInt64 = 0xcbf2_9ce4_8422_2325
        for byte in seed.utf8 { state = (state ^ UInt64(byte)) &* 0x100_0000_01b3 }
        while true {
            var text = ""
            for _ in 0..<2 {
                state = state &+ 0x9E37_79B9_7F4A_7C15
                var mixed = state
                mixed = (mixed ^ (mixed >> 30)) &* 0xBF58_476D_1CE4_E5B9
                mixed = (mixed ^ (mixed >> 27)) &* 0x94D0_49BB_1331_11EB
                mixed ^= mixed >> 31
                let hex = String(mixed, radix: 16, uppercase: true)
                text += String(repeating: "0", count: 16 - hex.count) + hex
            }
            let id = ObjectID(String(text.prefix(24)))
            if !contains(id) { return id }
        }
    }

    // MARK: - Files and groups

    /// Sets the `path` of a file reference or group (nil removes it).
    /// - Throws: `PBXProjError.missingObject` when no object has that id.
    public mutating func setPath(of id: ObjectID, to path: String?) throws {
        try modify(id) { $0["path"] = path.map { .string($0) } }
    }

    /// Sets the `name` of a file reference or group (nil removes it).
    /// - Throws: `PBXProjError.missingObject` when no object has that id.
    public mutating func setName(of id: ObjectID, to name: String?) throws {
        try modify(id) { $0["name"] = name.map { .string($0) } }
    }

    /// Removes the `name` of a file reference or group (so Xcode shows its path).
    /// - Throws: `PBXProjError.missingObject` when no object has that id.
    public mutating func removeName(of id: ObjectID) throws {
        try setName(of: id, to: nil)
    }

    /// Sets the `sourceTree` of a file reference or group.
    /// - Throws: `PBXProjError.missingObject` when no object has that id.
    public mutating func setSourceTree(of id: ObjectID, to sourceTree: String) throws {
        try modify(id) { $0["sourceTree"] = .string(sourceTree) }
    }

    /// Replaces a group's children (to reorder them, or to move references between groups).
    /// - Throws: `PBXProjError.missingObject` for an unknown group or child,
    ///   `PBXProjError.wrongObjectKind` when `group` has no children list.
    public mutating func setChildren(of group: ObjectID, to children: [ObjectID]) throws {
        // Children the group lists already may dangle (real projects have such leftovers);
        // only newly listed ones must exist.
        let current = Set(object(group)?.references("children") ?? [])
        for child in children where !current.contains(child) && !contains(child) {
            throw PBXProjError.missingObject(id: child.rawValue, at: nil)
        }
        try modify(group) { object in
            guard object["children"] != nil else {
                throw PBXProjError.wrongObjectKind(id: group.rawValue, isa: object.isa, expected: "a group with children")
            }
            object["children"] = .array(children.map { .string($0.rawValue) })
        }
    }

    /// Adds a file reference to `group` and returns its id.
    /// - Throws: `PBXProjError.missingObject` / `.wrongObjectKind` for a bad group.
    @discardableResult
    public mutating func addFileReference(
        path: String, name: String? = nil, sourceTree: String = "<group>", lastKnownFileType: String? = nil,
        to group: ObjectID
    ) throws -> ObjectID {
        var properties = PBXDictionary()
        if let lastKnownFileType { properties["lastKnownFileType"] = .string(lastKnownFileType) }
        if let name { properties["name"] = .string(name) }
        properties["path"] = .string(path)
        properties["sourceTree"] = .string(sourceTree)
        return try addChild(isa: "PBXFileReference", properties: properties, seed: "\(group)/\(path)", to: group)
    }

    /// Adds a group under `parent` and returns its id.
    /// - Throws: `PBXProjError.missingObject` / `.wrongObjectKind` for a bad parent.
    @discardableResult
    public mutating func addGroup(
        path: String?, name: String? = nil, sourceTree: String = "<group>", to parent: ObjectID
    ) throws -> ObjectID {
        var properties: PBXDictionary = ["children": .array([])]
        if let name { properties["name"] = .string(name) }
        if let path { properties["path"] = .string(path) }
        properties["sourceTree"] = .string(sourceTree)
        return try addChild(isa: "PBXGroup", properties: properties, seed: "\(parent)/\(path ?? name ?? "")/", to: parent)
    }

    private mutating func addChild(isa: String, properties: PBXDictionary, seed: String, to group: ObjectID) throws -> ObjectID {
        guard let parent = object(group) else { throw PBXProjError.missingObject(id: group.rawValue, at: nil) }
        guard parent["children"] != nil else {
            throw PBXProjError.wrongObjectKind(id: group.rawValue, isa: parent.isa, expected: "a group with children")
        }
        let id = makeObjectID(seed: seed)
        try add(PBXObject(id: id, isa: isa, properties: properties))
        try setChildren(of: group, to: parent.references("children") + [id])
        return id
    }

    /// Removes a file reference, the group entries listing it, the build files that build it and
    /// their entries in build phases.
    /// - Throws: `PBXProjError.missingObject` when no object has that id.
    public mutating func removeFileReference(_ id: ObjectID) throws {
        guard contains(id) else { throw PBXProjError.missingObject(id: id.rawValue, at: nil) }
        try removeReferences(to: [id], fromKey: "children", in: PBXIsa.isGroupLike)
        try removeElements([id])
    }

    /// Removes a group with everything under it (file references and nested groups, with the
    /// build files building any of them) and the entry listing it in its parent.
    /// - Throws: `PBXProjError.missingObject`, or `.groupCycle` when the group contains itself.
    public mutating func removeGroup(_ id: ObjectID) throws {
        guard let group = object(id) else { throw PBXProjError.missingObject(id: id.rawValue, at: nil) }
        var removed: [ObjectID] = [id]
        var pending = Array(group.references("children").reversed())
        var seen: Set<ObjectID> = [id]
        while let child = pending.popLast() {
            guard seen.insert(child).inserted else { throw PBXProjError.groupCycle(id: child.rawValue, at: location(of: child)) }
            guard let object = object(child) else { continue }
            removed.append(child)
            pending.append(contentsOf: object.references("children").reversed())
        }
        try removeReferences(to: [id], fromKey: "children", in: PBXIsa.isGroupLike)
        try removeElements(removed)
    }

    /// Removes tree elements and the build files that build them (with their phase entries).
    private mutating func removeElements(_ ids: [ObjectID]) throws {
        let targets = Set(ids)
        let buildFiles = Set(objectIDs(isa: PBXIsa.buildFile).filter { object($0)?.reference("fileRef").map(targets.contains) ?? false })
        if !buildFiles.isEmpty {
            try removeReferences(to: buildFiles, fromKey: "files", in: PBXIsa.isBuildPhase)
            for buildFile in buildFiles.sorted() { try removeObject(buildFile) }
        }
        for id in ids where contains(id) { try removeObject(id) }
    }

    /// Removes `ids` from the `key` lists of every object (of an isa `holders` accepts) listing
    /// them.
    private mutating func removeReferences(
        to ids: Set<ObjectID>, fromKey key: String, in holders: (String) -> Bool
    ) throws {
        for holder in objectIDs where isa(of: holder).map(holders) ?? false {
            guard let object = object(holder), let list = object[key]?.array else { continue }
            let kept = list.filter { $0.string.map { !ids.contains(ObjectID($0)) } ?? true }
            if kept.count != list.count {
                try modify(holder) { $0[key] = .array(kept) }
            }
        }
    }
}
