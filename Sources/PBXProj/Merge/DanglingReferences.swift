/// A reference to an object that the project does not define.
struct DanglingReference: Hashable, Sendable {
    /// The object holding the reference (nil: a top-level key such as `rootObject`).
    let holder: ObjectID?
    /// The keys leading to the reference (`["children"]`, `["fileRef"]`).
    let keyPath: [String]
    /// The missing object.
    let target: ObjectID
}

extension PBXProject {
    /// Every reference to an id in `known` that this project does not define, in file order.
    /// Only ids some version defines count as references, so that a value that merely looks like
    /// an id (a hash in a setting, a remote project's id) is never taken for one.
    func danglingReferences(known: Set<String>) -> [DanglingReference] {
        let defined = DefinedIDs(self)
        return danglingReferences(missing: Set(known.filter { id in
            var id = id
            return id.withUTF8 { !defined.contains($0) }
        }))
    }

    /// Every reference to an id in `missing` (ids this project does not define), in file order.
    /// Only the objects whose text mentions one of them are decoded: objects read and not
    /// edited are searched in the source text, so that a merge of a large project without
    /// deletions costs no decoding at all.
    /// `mentioning`: the entries of the table, in order, whose text may mention an id in
    /// `missing` (found for a superset of it, `entries(mentioningAnyOf:)`); nil: every entry
    /// is searched.
    func danglingReferences(missing: Set<String>, mentioning: [Int]? = nil) -> [DanglingReference] {
        guard !missing.isEmpty else { return [] }
        var found: [DanglingReference] = []
        let search = TextSearch(missing)
        // The key path is one stack, copied only into a reference found.
        var path: [String] = []
        func visit(_ value: PBXValue, holder: ObjectID?) {
            switch value {
            case .string(let text):
                if search.contains(text) { found.append(DanglingReference(holder: holder, keyPath: path, target: ObjectID(text))) }
            case .data: return
            case .array(let elements): for element in elements { visit(element, holder: holder) }
            case .dictionary(let dictionary):
                for entry in dictionary where entry.key != "isa" {
                    path.append(entry.key)
                    visit(entry.value, holder: holder)
                    path.removeLast()
                }
            }
        }
        func visit(_ value: PBXValue, holder: ObjectID?, path start: [String]) {
            path = start
            visit(value, holder: holder)
        }
        if let root = rootValue("rootObject") { visit(root, holder: nil, path: ["rootObject"]) }
        // Table entries whose object was edited or removed: their text is not what the project holds.
        var edited = Set<Int>()
        for id in Array(changes.objects.keys) + Array(changes.removed) {
            if let index = table.find(id.rawValue, in: tree) { edited.insert(index) }
        }
        // Edited objects are looked at whatever their text as read mentions.
        let indices = mentioning.map { Set($0).union(edited).sorted() } ?? Array(table.entries.indices)
        for index in indices {
            let entry = table.entries[index]
            let holder: ObjectID
            let object: PBXObject
            if edited.contains(index) {
                holder = ObjectID(tree.string(Int(entry.key)))
                guard let changed = changes.objects[holder] else { continue }
                object = changed
            } else {
                guard search.mentions(tree, in: Int(entry.value)) else { continue }
                holder = ObjectID(tree.string(Int(entry.key)))
                object = decodedObject(index)
            }
            visit(.dictionary(object.properties), holder: holder, path: [])
        }
        for id in changes.added {
            guard let object = changes.objects[id] else { continue }
            visit(.dictionary(object.properties), holder: id, path: [])
        }
        return found
    }

    /// The entries of the table, in order, whose text as read mentions one of `ids`.
    func entries(mentioningAnyOf ids: Set<String>) -> [Int] {
        guard !ids.isEmpty else { return [] }
        let search = TextSearch(ids)
        return table.entries.indices.filter { search.mentions(tree, in: Int(table.entries[$0].value)) }
    }
}

extension PBXProject {
    /// Whether this project was read from the same text as `other` (a copy of it, edited or
    /// not): both share one syntax tree and object table.
    func sharesText(with other: PBXProject) -> Bool {
        tree.bytes.withUnsafeBufferPointer { mine in other.tree.bytes.withUnsafeBufferPointer { $0.baseAddress == mine.baseAddress } }
            && tree.bytes.count == other.tree.bytes.count
    }

    /// Whether the project defines `id`, as `DefinedIDs.missing(from:)` counts a source's ids:
    /// an object of its table it did not remove, or one it added.
    func defines(_ id: ObjectID) -> Bool {
        (table.find(id.rawValue, in: tree) != nil && !changes.removed.contains(id)) || changes.added.contains(id)
    }
}

extension String {
    /// Calls `body` with the string's UTF-8 bytes (no copy when the string is native).
    func withUTF8String<Result>(_ body: (UnsafeBufferPointer<UInt8>) -> Result) -> Result {
        var text = self
        return text.withUTF8(body)
    }
}

/// Which ids a project defines, asked with the bytes of an id (no String made for an id the
/// project read and did not remove).
struct DefinedIDs {
    let project: PBXProject
    /// Table entries of removed objects.
    private let removed: Set<Int>
    /// Ids of objects the project added (not in its table).
    private let added: Set<String>

    init(_ project: PBXProject) {
        self.project = project
        var removed = Set<Int>()
        for id in project.changes.removed {
            if let index = project.table.find(id.rawValue, in: project.tree) { removed.insert(index) }
        }
        self.removed = removed
        self.added = Set(project.changes.added.map(\.rawValue))
    }

    func contains(_ id: UnsafeBufferPointer<UInt8>) -> Bool {
        if let index = project.table.find(id, in: project.tree) { return !removed.contains(index) }
        return !added.isEmpty && added.contains(String(decoding: id, as: UTF8.self))
    }

    /// The ids `source` defines that the project does not.
    func missing(from source: PBXProject) -> [String] {
        var result: [String] = []
        let sourceRemoved = !source.changes.removed.isEmpty
        for entry in source.table.entries where source.tree.withContent(Int(entry.key), { !contains($0) }) {
            let id = source.tree.string(Int(entry.key))
            if sourceRemoved && source.changes.removed.contains(ObjectID(id)) { continue }
            result.append(id)
        }
        for id in source.changes.added {
            var text = id.rawValue
            if !text.withUTF8({ contains($0) }) { result.append(id.rawValue) }
        }
        return result
    }
}

/// Finds whether a value's source text mentions one of a set of strings, comparing each
/// string node's decoded bytes by hash and length (no String made per node).
struct TextSearch {
    private let wanted: [Int: [[UInt8]]]
    /// A first look that rules out nearly every string without a dictionary look-up.
    private let filter: HashedStrings

    init(_ strings: Set<String>) {
        var wanted: [Int: [[UInt8]]] = [:]
        var filter = HashedStrings()
        for string in strings {
            let bytes = Array(string.utf8)
            bytes.withUnsafeBufferPointer { buffer in
                wanted[ObjectTable.hash(buffer), default: []].append(bytes)
                filter.insert(buffer)
            }
        }
        self.wanted = wanted
        self.filter = filter
    }

    /// Whether `string` is one of the strings (most strings are ruled out by the filter
    /// without hashing them as Strings).
    func contains(_ string: String) -> Bool {
        var string = string
        return string.withUTF8 { contains(bytes: $0) }
    }

    private func contains(bytes content: UnsafeBufferPointer<UInt8>) -> Bool {
        guard filter.mayContain(content), let candidates = wanted[ObjectTable.hash(content)] else { return false }
        return candidates.contains { candidate in candidate.withUnsafeBufferPointer { ByteCompare.equal($0, content) } }
    }

    /// Whether a string node inside `node` (itself included) has one of the strings as content.
    func mentions(_ tree: SyntaxTree, in node: Int) -> Bool {
        var index = node
        let end = tree.next(node)
        while index < end {
            if tree.isString(index) {
                if tree.withContent(index, { contains(bytes: $0) }) { return true }
            }
            index += 1
        }
        return false
    }
}

extension GraphMerger {
    /// Every id one of the three versions defines.
    var knownIDs: Set<String> {
        var ids = Set(base.objectIDs.map(\.rawValue))
        for id in ours.objectIDs { ids.insert(id.rawValue) }
        for id in theirs.objectIDs { ids.insert(id.rawValue) }
        return ids
    }

    /// The ids one of the three versions defines that `project` does not: the only ones a
    /// reference in it can miss. Found through the object tables, so that a merge that
    /// removed nothing costs no String per id. For a project read from our text (the two
    /// resolutions and ours itself), only the ids outside our table (`idsOutsideOurTable`,
    /// found once per merge) and the objects of our table it removed are looked at.
    func missingIDs(in project: PBXProject) -> Set<String> {
        let defined = DefinedIDs(project)
        guard let outside = idsOutsideOurTable, project.sharesText(with: ours) else {
            return Set([base, ours, theirs].flatMap { defined.missing(from: $0) })
        }
        // An id of our table is defined unless the project removed its object; any other id
        // only when the project added it.
        var result = Set<String>()
        for id in outside where !id.withUTF8String({ defined.contains($0) }) { result.insert(id) }
        for id in project.changes.removed where !id.rawValue.withUTF8String({ defined.contains($0) }) {
            if base.defines(id) || ours.defines(id) || theirs.defines(id) { result.insert(id.rawValue) }
        }
        return result
    }

    /// The ids base, theirs or ours' additions define that our object table does not hold.
    static func idsOutsideOurTable(base: PBXProject, ours: PBXProject, theirs: PBXProject) -> [String] {
        var result = Set<String>()
        func inOurTable(_ id: UnsafeBufferPointer<UInt8>) -> Bool { ours.table.find(id, in: ours.tree) != nil }
        for source in [base, theirs] {
            let sourceRemoved = !source.changes.removed.isEmpty
            // The versions hold mostly the same objects in the same order: looked up in step.
            var inOurs = SequentialFinder(ours)
            for entry in source.table.entries where source.tree.withContent(Int(entry.key), { inOurs.find($0) == nil }) {
                let id = source.tree.string(Int(entry.key))
                if sourceRemoved && source.changes.removed.contains(ObjectID(id)) { continue }
                result.insert(id)
            }
        }
        for source in [base, ours, theirs] {
            for id in source.changes.added where !id.rawValue.withUTF8String({ inOurTable($0) }) { result.insert(id.rawValue) }
        }
        return Array(result)
    }

    /// The merge's references to objects it does not define, leaving out those that our or their
    /// version already had (a damage the merge did not make).
    mutating func newDanglingReferences(in project: PBXProject) -> [DanglingReference] {
        let missing = missingIDs(in: project)
        guard !missing.isEmpty else { return [] }
        let found = project.danglingReferences(missing: missing, mentioning: ourEntries(mentioning: missing, in: project))
        guard !found.isEmpty else { return [] }
        // Our and their own dangling references are found once per merge (the two versions and
        // the ids outside our table do not change while it runs).
        let inherited = inheritedDangling ?? {
            let oursMissing = missingIDs(in: ours)
            return Set((ours.danglingReferences(missing: oursMissing, mentioning: ourEntries(mentioning: oursMissing, in: ours))
                + theirs.danglingReferences(missing: missingIDs(in: theirs))).map(\.target))
        }()
        inheritedDangling = inherited
        return found.filter { !inherited.contains($0.target) }
    }

    /// For a project read from our text (ours, a resolution): the entries of our table whose
    /// text mentions an id in `missing`, from one search of our text per merge for the ids
    /// missing in ours and in both resolutions as they are when first asked; nil (search every
    /// entry) for another project, or ids beyond those (a resolution that removed more since).
    mutating func ourEntries(mentioning missing: Set<String>, in project: PBXProject) -> [Int]? {
        guard project.sharesText(with: ours) else { return nil }
        if ourMentions == nil {
            let ids = missing.union(missingIDs(in: ours)).union(missingIDs(in: resolvedOurs)).union(missingIDs(in: resolvedTheirs))
            ourMentions = (ids, ours.entries(mentioningAnyOf: ids))
        }
        guard let (ids, entries) = ourMentions, missing.isSubset(of: ids) else { return nil }
        return entries
    }

    /// One side deleted an object that the other side newly refers to (adds it to a group's
    /// `children`, gives a new build file its `fileRef`): taking both changes would leave a
    /// dangling reference, and a target would silently lose the file. That is a conflict: the
    /// resolution of the side that refers to it keeps the object (as that side has it), the
    /// resolution of the side that deleted it drops the references too (and what holds them
    /// by a single value, such as the build file).
    mutating func resolveDeletedButReferenced() throws {
        let dangling = newDanglingReferences(in: resolvedOurs) + newDanglingReferences(in: resolvedTheirs)
        guard !dangling.isEmpty else { return }
        let known = knownIDs
        var seen = Set<ObjectID>()
        for reference in dangling where seen.insert(reference.target).inserted {
            let target = reference.target
            let oursHasIt = ours.contains(target), theirsHasIt = theirs.contains(target)
            guard oursHasIt != theirsHasIt else {
                conflicts.append(danglingConflict(reference, deleter: nil))
                continue
            }
            let keeper = oursHasIt ? ours : theirs
            if oursHasIt {
                try Self.restore(target, from: keeper, into: &resolvedOurs, known: known)
                try Self.dropReferences(to: target, in: &resolvedTheirs)
            } else {
                try Self.restore(target, from: keeper, into: &resolvedTheirs, known: known)
                try Self.dropReferences(to: target, in: &resolvedOurs)
            }
            conflicts.append(danglingConflict(reference, deleter: oursHasIt ? "theirs" : "ours"))
        }
    }

    /// The last check before the result is written: a reference to an object the result does
    /// not define, which neither parent had, is reported as a conflict (so exit 0 always means
    /// a project without dangling references).
    mutating func checkNoNewDanglingReferences() {
        var seen = Set(conflicts.filter { $0.kind == "delete/reference" }.compactMap(\.objectID))
        for reference in newDanglingReferences(in: resolvedOurs) where seen.insert(reference.target).inserted {
            conflicts.append(danglingConflict(reference, deleter: nil))
        }
    }

    private func danglingConflict(_ reference: DanglingReference, deleter: String?) -> PBXProjMergeConflict {
        let object = base.object(reference.target) ?? ours.object(reference.target) ?? theirs.object(reference.target)
        let name = object.flatMap { $0.string("name") ?? $0.string("path") ?? $0.isa }
        let subject = "\(reference.target)" + (name.map { " /* \($0) */" } ?? "")
        let holderObject = reference.holder.flatMap { ours.object($0) ?? theirs.object($0) }
        let holderName = holderObject.flatMap { $0.string("name") ?? $0.string("path") ?? $0.isa }
        let holder = reference.holder.map { "\($0)" + (holderName.map { " /* \($0) */" } ?? "") } ?? "the top level"
        let key = reference.keyPath.joined(separator: ".")
        let explanation: String
        if let deleter {
            let referrer = deleter == "ours" ? "theirs" : "ours"
            explanation = "\(subject) was deleted by \(deleter), but \(referrer) refers to it in \(holder) \(key); "
                + "keep the object (take \(referrer)) or drop the references to it (take \(deleter))"
        } else {
            explanation = "\(subject) is referred to in \(holder) \(key) but the merged project does not define it; "
                + "neither version had this dangling reference: restore the object or remove the reference"
        }
        return PBXProjMergeConflict(
            objectID: reference.target, comment: name, keyPath: reference.keyPath, ours: nil, theirs: nil,
            kind: "delete/reference", explanation: explanation)
    }

    /// Adds `id` from `source` to `project`, and whatever it refers to that `project` lacks.
    private static func restore(_ id: ObjectID, from source: PBXProject, into project: inout PBXProject, known: Set<String>) throws {
        var pending = [id]
        while let next = pending.popLast() {
            guard !project.contains(next), let object = source.object(next) else { continue }
            try project.add(object)
            for reference in object.properties.allStrings() where known.contains(reference) && !project.contains(ObjectID(reference)) {
                pending.append(ObjectID(reference))
            }
        }
    }

    /// Removes `id` and every reference to it: from lists, the id; an object that holds it as a
    /// single value (a build file's `fileRef`) goes too, and so on. The project object stays.
    private static func dropReferences(to id: ObjectID, in project: inout PBXProject) throws {
        var pending = [id]
        var removed = Set<ObjectID>()
        let root = project.rootObjectID
        while let next = pending.popLast() {
            guard removed.insert(next).inserted else { continue }
            for holder in project.objectIDs where holder != next {
                guard let object = project.object(holder) else { continue }
                var changed = false
                var properties = object.properties
                for entry in object.properties {
                    if entry.value == .string(next.rawValue) {
                        if holder != root { pending.append(holder) }
                    } else if let list = entry.value.array, list.contains(.string(next.rawValue)) {
                        properties[entry.key] = .array(list.filter { $0 != .string(next.rawValue) })
                        changed = true
                    }
                }
                if changed { try project.update(PBXObject(id: holder, properties: properties)) }
            }
            if project.contains(next) { try project.removeObject(next) }
        }
    }
}

extension PBXDictionary {
    /// Every string value, however deeply nested (keys and `isa` left out).
    func allStrings() -> [String] {
        var result: [String] = []
        func visit(_ value: PBXValue) {
            switch value {
            case .string(let text): result.append(text)
            case .data: return
            case .array(let elements): elements.forEach(visit)
            case .dictionary(let dictionary): for entry in dictionary where entry.key != "isa" { visit(entry.value) }
            }
        }
        for entry in self where entry.key != "isa" { visit(entry.value) }
        return result
    }
}
