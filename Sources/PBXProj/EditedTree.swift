/// An edited project as a syntax tree, made without writing the whole file and reading it back:
/// the text that was read, followed by the text of the edited and added objects alone (each
/// written and parsed on its own), with a node array that is the original one followed by the
/// new objects' nodes, and an object table whose entries are the original entries that stay,
/// the edited ones' new nodes in their place, and the added ones after them.
///
/// The canonical writer works on entries and nodes only, so this tree writes the same bytes as
/// the spliced text read back (`LosslessWriter.edited()`), which costs a copy of the file with
/// its patches and a whole parse; `EditedTreeTests` checks that the two agree on random edits
/// of the corpus projects.
struct EditedTree {
    let tree: SyntaxTree
    let table: ObjectTable
    /// Per entry of `table`: the entry of the project's own table it is unchanged from, or -1
    /// for an edited or added object.
    let unchangedFrom: [Int32]
    /// Per entry of `table`: the entry of the project's own table an edited object was, or -1
    /// (unchanged or added).
    let editedFrom: [Int32]
    /// The project's own entries that were removed.
    let removed: [Int]
    /// The project's own table. Its nodes are the first ones of `tree`, so an edited or removed
    /// object's nodes as read are found through it (`editedFrom`, `removed`).
    let original: ObjectTable

    /// The edited project's tree, or nil when it cannot be made this way: a top-level value
    /// other than `objects` was edited, or the text would pass 4 GB.
    init?(_ project: PBXProject) throws {
        let changes = project.changes
        guard changes.root.isEmpty else { return nil }
        let (tree, table) = (project.tree, project.table)
        // The project's own entries that go or change, found by id once (no String per entry).
        var removed: [Int] = []
        for id in changes.removed {
            if let index = table.find(id.rawValue, in: tree) { removed.append(index) }
        }
        var edited: [(index: Int, object: PBXObject)] = []
        var added: [PBXObject] = []
        let addedIDs = Set(changes.added)
        for (id, object) in changes.objects {
            if !addedIDs.contains(id), let index = table.find(id.rawValue, in: tree) {
                edited.append((index, object))
            } else {
                added.append(object)
            }
        }
        edited.sort { $0.index < $1.index }
        // In the order they were added (any other after them, by id): each one's place looked up
        // once, not per comparison.
        let order = Dictionary(uniqueKeysWithValues: changes.added.enumerated().map { ($1, $0) })
        added = added.map { (order[$0.id] ?? Int.max, $0) }.sorted { ($0.0, $0.1.id) < ($1.0, $1.1.id) }.map(\.1)

        // The new objects' text, read on its own as one dictionary: entry i is edited[i], then
        // the added ones.
        var text: [UInt8] = Array("{\n".utf8)
        let renderer = ValueRenderer(style: DocumentStyle())
        for object in edited.map(\.object) + added {
            renderer.appendObject(object, indent: [], to: &text)
            text.append(0x0A)
        }
        text.append(contentsOf: Array("}\n".utf8))
        let snippet = try PropertyListParser.parse(text)
        guard tree.bytes.count + text.count < Int(UInt32.max) else { return nil }

        let (byteBase, nodeBase) = (UInt32(tree.bytes.count), UInt32(tree.nodes.count))
        var nodes = tree.nodes
        nodes.reserveCapacity(tree.nodes.count + snippet.nodes.count)
        for var node in snippet.nodes {
            node.start += byteBase
            node.end += byteBase
            node.link += nodeBase
            nodes.append(node)
        }
        // One buffer of the exact size (`+` would grow a copy of the text to twice its size).
        var bytes: [UInt8] = []
        bytes.reserveCapacity(tree.bytes.count + text.count)
        bytes.append(contentsOf: tree.bytes)
        bytes.append(contentsOf: text)
        let combined = SyntaxTree(bytes: bytes, nodes: nodes)
        var isaNames = table.isaNames
        var newEntries: [ObjectTable.Entry] = []
        for (key, value) in snippet.entries(0) {
            let (key, value) = (key + Int(nodeBase), value + Int(nodeBase))
            // An object without an isa is left to the general path, which reports it.
            guard let isaNode = combined.lookup("isa", in: value), combined.isString(isaNode) else { return nil }
            let isa = combined.string(isaNode)
            let code: Int
            if let known = isaNames.firstIndex(of: isa) {
                code = known
            } else {
                isaNames.append(isa)
                code = isaNames.count - 1
            }
            newEntries.append(ObjectTable.entry(key: key, value: value, isa: Int32(code), in: combined))
        }

        var entries: [ObjectTable.Entry] = []
        entries.reserveCapacity(table.entries.count + added.count)
        var unchangedFrom: [Int32] = [], editedFrom: [Int32] = []
        unchangedFrom.reserveCapacity(table.entries.count + added.count)
        editedFrom.reserveCapacity(table.entries.count + added.count)
        let removedSet = Set(removed)
        var nextEdited = 0
        for (index, entry) in table.entries.enumerated() {
            if nextEdited < edited.count, edited[nextEdited].index == index {
                entries.append(newEntries[nextEdited])
                unchangedFrom.append(-1)
                editedFrom.append(Int32(index))
                nextEdited += 1
            } else if removedSet.isEmpty || !removedSet.contains(index) {
                entries.append(entry)
                unchangedFrom.append(Int32(index))
                editedFrom.append(-1)
            }
        }
        for entry in newEntries[edited.count...] {
            entries.append(entry)
            unchangedFrom.append(-1)
            editedFrom.append(-1)
        }
        self.tree = combined
        var moved = [Int32](repeating: -1, count: table.entries.count)
        for (now, from) in unchangedFrom.enumerated() where from >= 0 { moved[Int(from)] = Int32(now) }
        for (now, from) in editedFrom.enumerated() where from >= 0 { moved[Int(from)] = Int32(now) }
        self.table = try ObjectTable(
            editing: table, moved: moved, tree: combined, entries: entries, isaNames: isaNames,
            added: (entries.count - added.count)..<entries.count)
        self.unchangedFrom = unchangedFrom
        self.editedFrom = editedFrom
        self.removed = removed
        self.original = table
    }
}

extension EditedTree {
    /// The entry of the project's own table that entry `index` was, unchanged or edited; -1
    /// for an added object.
    @inline(__always)
    func source(of index: Int) -> Int {
        Int(max(unchangedFrom[index], editedFrom[index]))
    }

    /// The edited project's tree, or nil when it cannot be made this way (the general path,
    /// splicing and reading back, then writes the project or reports what is wrong with it).
    static func of(_ project: PBXProject) -> EditedTree? {
        (try? EditedTree(project)) ?? nil
    }
}

/// What finding out whether a project's text is in Xcode's form leaves behind: the answer, and
/// the comment derived for each object, with which an edited copy of a text in Xcode's form is
/// written by copying the objects no edit touched (`PBXProject.canonicalSerialized(knowing:)`).
struct CanonicalCheck: Sendable {
    /// Whether the text as read is in Xcode's form.
    let isCanonical: Bool
    /// Per entry of the project's table, the comment Xcode writes after its id.
    let comments: [String?]
    /// What the comments were derived with.
    let projectName: String
    let dialect: CommentDialect
    /// The text checked, to make sure the check is used with that text only.
    let text: [UInt8]
    /// The reverse maps the comments were derived with, from which an edited copy's are made.
    let maps: ReverseMaps
}

extension PBXProject {
    /// Whether the text as read is in Xcode's form, and the comments that found it out.
    func canonicalCheck() -> CanonicalCheck {
        let (canonical, comments, maps) = CanonicalWriter.check(tree: tree, table: table, projectName: projectName, dialect: commentDialect)
        return CanonicalCheck(
            isCanonical: canonical, comments: comments, projectName: projectName, dialect: commentDialect, text: tree.bytes, maps: maps)
    }

    /// `canonicalSerialized()`, the same bytes, written with what `check` found of the text
    /// read: when that text is in Xcode's form, each object no edit touched is copied from it,
    /// unless its comment, or the comment of an id it names, is no longer the same (an object
    /// renamed, moved to another phase, added or removed), and only the others are written.
    func canonicalSerialized(knowing check: CanonicalCheck) throws -> [UInt8] {
        let sameText = check.text.withUnsafeBufferPointer { checked in
            tree.bytes.withUnsafeBufferPointer { $0.baseAddress == checked.baseAddress && $0.count == checked.count }
        }
        guard check.isCanonical, sameText, check.projectName == projectName, check.dialect == commentDialect else {
            return try canonicalSerialized()
        }
        guard hasChanges else { return tree.bytes }
        guard let edited = EditedTree.of(self) else { return try canonicalSerialized() }
        let comments = CanonicalSplice.comments(of: edited, check: check)
        let reuse = CanonicalSplice.reuse(edited: edited, comments: comments, check: check)
        return CanonicalWriter.write(tree: edited.tree, table: edited.table, comments: comments, reuse: reuse)
    }
}

/// Which objects of an edited copy of a text in Xcode's form keep their text byte for byte.
///
/// The canonical writer writes an object from its nodes, its own comment, and, for each string
/// that is an object id, that object's comment (none for an id no object has). An object that
/// no edit touched has the same nodes, so its text is the same but for its own comment, if that
/// changed, and the comments after the ids it names whose comment changed, appeared or went (an
/// object renamed, moved to another phase, added or removed). Those ids are collected; an
/// untouched object that names none of them (no string with the same bytes: a false match only
/// costs a look-up) and keeps its comment is copied, and any other untouched object is copied
/// with those comments written anew. Edited and added objects are written.
enum CanonicalSplice {
    static func reuse(edited: EditedTree, comments: [String?], check: CanonicalCheck) -> TextReuse {
        let tree = edited.tree, table = edited.table
        var changedIDs = HashedStrings()
        for (index, entry) in table.entries.enumerated() {
            // An added object's id had no object, so no comment.
            let from = edited.source(of: index)
            let before = from >= 0 ? check.comments[from] : nil
            if before != comments[index] { tree.withContent(Int(entry.key)) { changedIDs.insert($0) } }
        }
        for index in edited.removed where check.comments[index] != nil {
            tree.withContent(Int(edited.original.entries[index].key)) { changedIDs.insert($0) }
        }
        var kinds = [TextReuse.Kind](repeating: .write, count: table.entries.count)
        tree.bytes.withUnsafeBufferPointer { text in
            tree.nodes.withUnsafeBufferPointer { nodes in
                for (index, entry) in table.entries.enumerated() where edited.unchangedFrom[index] >= 0 {
                    let from = Int(edited.unchangedFrom[index])
                    let (key, value) = (Int(entry.key), Int(entry.value))
                    let start = Int(nodes[key].start) - 2, end = Int(nodes[value].end) + 2
                    // The layout the check found (a text in Xcode's form has it): checked again,
                    // since a copy of the wrong bytes would be silent.
                    guard start >= 0, end <= text.count, text[start] == 0x09, text[start + 1] == 0x09,
                        text[end - 2] == UInt8(ascii: ";"), text[end - 1] == 0x0A
                    else { continue }
                    if check.comments[from] != comments[index]
                        || (!changedIDs.isEmpty && namesAny(value, of: changedIDs, text: text, nodes: nodes)) {
                        kinds[index] = .patch
                    } else {
                        kinds[index] = .copy
                    }
                }
            }
        }
        return TextReuse(kinds: kinds, changedIDs: changedIDs)
    }

    /// The comments of the edited project's objects, `CommentDeriver.deriveAll()`'s, taking
    /// the check's for the objects whose comment cannot have changed.
    ///
    /// An untouched object whose comment comes from its own values (files, groups, targets,
    /// ...) keeps it. An untouched build file, configuration list or (Xcode 26) build
    /// configuration keeps it when the objects that list it are the same (no removed or added
    /// object names it, and no edited one names it a different number of times under a key, or
    /// changed its isa) and the objects its comment names (its file or product and phase; the
    /// list's owner; the configuration's list and that list's owner) are untouched or edited
    /// with the same isa and display name. Exception sets and edited or added objects are
    /// derived anew.
    static func comments(of edited: EditedTree, check: CanonicalCheck) -> [String?] {
        let tree = edited.tree, table = edited.table
        let deriver = CommentDeriver(tree: tree, table: table, projectName: check.projectName, dialect: check.dialect)
        let touched = touchedIDs(of: edited)
        func isTouched(_ entry: Int) -> Bool {
            !touched.isEmpty && tree.withContent(Int(table.entries[entry].key)) { touched.mayContain($0) }
        }
        var sameNames: [Int: Bool] = [:]
        func sameName(_ entry: Int) -> Bool {
            if edited.unchangedFrom[entry] >= 0 { return true }
            let from = Int(edited.editedFrom[entry])
            guard from >= 0 else { return false }  // added
            let before = edited.original.entries[from]
            if let known = sameNames[entry] { return known }
            let isa = table.entries[entry].isa
            let same = isa == before.isa
                && deriver.displayName(ofDictionary: Int(table.entries[entry].value), isa: table.isaNames[Int(isa)])
                    == deriver.displayName(ofDictionary: Int(before.value), isa: table.isaNames[Int(before.isa)])
            sameNames[entry] = same
            return same
        }
        let dependent = table.isaNames.map { CommentDeriver.dependsOnOthers(isa: $0, dialect: check.dialect) }
        // The reverse maps, from the check's: anew only for the objects whose listing may have
        // changed (touched) and the added ones. And the ids of the objects edited, added or
        // removed: an id not among them names an untouched object, or none in ours and in the
        // edited project alike.
        var recompute = touched, changedObjects = HashedStrings()
        for (index, entry) in table.entries.enumerated() where edited.unchangedFrom[index] < 0 {
            tree.withContent(Int(entry.key)) { id in
                changedObjects.insert(id)
                if edited.editedFrom[index] < 0 { recompute.insert(id) }
            }
        }
        for index in edited.removed { tree.withContent(Int(edited.original.entries[index].key)) { changedObjects.insert($0) } }
        let maps = ReverseMaps(edited: edited, original: check.maps, recompute: recompute, dialect: check.dialect)
            ?? ReverseMaps(tree: tree, table: table, dialect: check.dialect)
        return deriver.deriveAll(maps: maps) { index, maps in
            let from = Int(edited.unchangedFrom[index])
            guard from >= 0 else { return nil }
            let entry = table.entries[index]
            guard dependent[Int(entry.isa)] else { return .some(check.comments[from]) }
            switch table.isaNames[Int(entry.isa)] {
            case "PBXBuildFile":
                guard !isTouched(index) else { return nil }
                let object = Int(entry.value)
                guard let reference = tree.lookup("fileRef", in: object) ?? tree.lookup("productRef", in: object) else { return nil }
                if !tree.isString(reference) || mayName(reference, of: changedObjects, in: tree) {
                    guard let file = table.find(node: reference, in: tree), sameName(file) else { return nil }
                }
                let phase = Int(maps.phaseOfBuildFile[index])
                return phase < 0 || sameName(phase) ? .some(check.comments[from]) : nil
            case "XCConfigurationList":
                guard !isTouched(index) else { return nil }
                let owner = Int(maps.ownerOfList[index])
                return owner < 0 || sameName(owner) ? .some(check.comments[from]) : nil
            case "XCBuildConfiguration":
                guard !isTouched(index) else { return nil }
                let list = Int(maps.listOfConfiguration[index])
                guard list >= 0 else { return .some(check.comments[from]) }
                guard !isTouched(list) else { return nil }
                let owner = Int(maps.ownerOfList[list])
                return owner < 0 || sameName(owner) ? .some(check.comments[from]) : nil
            default:
                return nil
            }
        }
    }

    /// Whether string node `node` may have the bytes of one of `ids` (escaped strings: yes).
    private static func mayName(_ node: Int, of ids: HashedStrings, in tree: SyntaxTree) -> Bool {
        tree.bytes.withUnsafeBufferPointer { text in
            tree.nodes.withUnsafeBufferPointer { nodes in
                guard let content = span(node, text: text, nodes: nodes) else { return true }
                return ids.mayContain(content)
            }
        }
    }

    /// The ids whose listing may have changed: every string of an added or removed object, of
    /// an edited object whose isa changed, and of an edited object the strings that it holds a
    /// different number of times under one of its keys than before.
    private static func touchedIDs(of edited: EditedTree) -> HashedStrings {
        let tree = edited.tree, table = edited.table
        var touched = HashedStrings()
        tree.bytes.withUnsafeBufferPointer { text in
            tree.nodes.withUnsafeBufferPointer { nodes in
                func strings(of node: Int, _ body: (UnsafeBufferPointer<UInt8>) -> Void) {
                    var index = node
                    let end = Int(nodes[node].link)
                    while index < end {
                        if let content = span(index, text: text, nodes: nodes) { body(content) }
                        index += 1
                    }
                }
                for (index, entry) in table.entries.enumerated() where edited.unchangedFrom[index] < 0 {
                    let value = Int(entry.value)
                    let from = Int(edited.editedFrom[index])
                    // Added, or given another isa: every string, before and after.
                    guard from >= 0, edited.original.entries[from].isa == entry.isa else {
                        strings(of: value) { touched.insert($0) }
                        if from >= 0 { strings(of: Int(edited.original.entries[from].value)) { touched.insert($0) } }
                        continue
                    }
                    let before = edited.original.entries[from]
                    // Counted per key: (key, string) pairs before minus after. Pairs are
                    // grouped by hash and compared byte for byte, so that two pairs with the
                    // same hash never cancel out: then every string of the object counts.
                    var counts: [UInt64: (key: Int, string: Int, count: Int)] = [:]
                    var collided = false
                    func count(_ key: Int, _ strings: ArraySlice<Int>, _ step: Int) {
                        let keyHash = tree.withContent(key) { hash($0) }
                        for index in strings {
                            guard let content = span(index, text: text, nodes: nodes) else { continue }
                            let pair = (keyHash &* 0x9E37_79B9_7F4A_7C15) ^ hash(content)
                            if let seen = counts[pair] {
                                if !(sameBytes(seen.key, key, nodes: nodes, text: text) && sameBytes(seen.string, index, nodes: nodes, text: text)) {
                                    collided = true
                                }
                                counts[pair]?.count += step
                            } else {
                                counts[pair] = (key, index, step)
                            }
                        }
                    }
                    // The strings under each key, before and after. Under a key both have (the
                    // same bytes), the strings both start and end with cancel out and are not
                    // counted (a list with a few ids added or removed costs only those).
                    func stringNodes(under value: Int) -> [Int] {
                        (value..<Int(nodes[value].link)).filter { span($0, text: text, nodes: nodes) != nil }
                    }
                    let beforeEntries = tree.entries(Int(before.value)), afterEntries = tree.entries(value)
                    var paired = [Bool](repeating: false, count: afterEntries.count)
                    for (key, keyValue) in beforeEntries {
                        let match = afterEntries.indices.first { !paired[$0] && sameBytes(afterEntries[$0].key, key, nodes: nodes, text: text) }
                        let old = stringNodes(under: keyValue)
                        guard let match else {
                            count(key, old[...], 1)
                            continue
                        }
                        paired[match] = true
                        let new = stringNodes(under: afterEntries[match].value)
                        var (head, tail) = (0, 0)
                        while head < min(old.count, new.count), sameBytes(old[head], new[head], nodes: nodes, text: text) { head += 1 }
                        while tail < min(old.count, new.count) - head,
                            sameBytes(old[old.count - 1 - tail], new[new.count - 1 - tail], nodes: nodes, text: text) { tail += 1 }
                        count(key, old[head..<(old.count - tail)], 1)
                        count(afterEntries[match].key, new[head..<(new.count - tail)], -1)
                    }
                    for (index, entry) in afterEntries.enumerated() where !paired[index] {
                        count(entry.key, stringNodes(under: entry.value)[...], -1)
                    }
                    if collided {
                        strings(of: value) { touched.insert($0) }
                        strings(of: Int(before.value)) { touched.insert($0) }
                        continue
                    }
                    for (_, tally) in counts where tally.count != 0 {
                        if let content = span(tally.string, text: text, nodes: nodes) { touched.insert(content) }
                    }
                }
                for index in edited.removed { strings(of: Int(edited.original.entries[index].value)) { touched.insert($0) } }
            }
        }
        return touched
    }

    /// Whether two string nodes are written the same (quotes and escapes included: the same
    /// content written two ways counts as a collision, which only costs derivations).
    private static func sameBytes(_ a: Int, _ b: Int, nodes: UnsafeBufferPointer<SyntaxNode>, text: UnsafeBufferPointer<UInt8>) -> Bool {
        ByteCompare.equal(
            UnsafeBufferPointer(rebasing: text[Int(nodes[a].start)..<Int(nodes[a].end)]),
            UnsafeBufferPointer(rebasing: text[Int(nodes[b].start)..<Int(nodes[b].end)]))
    }

    /// The text of a string node without quotes, when it has no escapes.
    @inline(__always)
    private static func span(_ index: Int, text: UnsafeBufferPointer<UInt8>, nodes: UnsafeBufferPointer<SyntaxNode>) -> UnsafeBufferPointer<UInt8>? {
        let info = nodes[index]
        switch info.kind {
        case .unquoted: return UnsafeBufferPointer(rebasing: text[Int(info.start)..<Int(info.end)])
        case .quoted where info.flags == 0: return UnsafeBufferPointer(rebasing: text[Int(info.start) + 1..<Int(info.end) - 1])
        default: return nil
        }
    }

    /// Whether a string in the subtree of `node` may have the bytes of one of the ids. A string
    /// with escapes is never looked up as an id by the writer, so it is passed over.
    private static func namesAny(
        _ node: Int, of ids: HashedStrings, text: UnsafeBufferPointer<UInt8>, nodes: UnsafeBufferPointer<SyntaxNode>
    ) -> Bool {
        var index = node
        let end = Int(nodes[node].link)
        while index < end {
            if let content = span(index, text: text, nodes: nodes), ids.mayContain(content) { return true }
            index += 1
        }
        return false
    }

    /// The object table's hash (8 bytes at a time, well mixed), as 64 bits.
    @inline(__always)
    static func hash(_ bytes: UnsafeBufferPointer<UInt8>) -> UInt64 {
        UInt64(bitPattern: Int64(ObjectTable.hash(bytes)))
    }
}

/// Strings known by their length and 64-bit hash (`CanonicalSplice.hash`), asked of nearly every string of a
/// project: "may this be one of them" answers no for certain and yes possibly (a false yes only
/// costs work, as its callers say). Open addressing over the hashes, no hashing of the hash.
struct HashedStrings {
    private var slots = [UInt64](repeating: 0, count: 16)
    private var count = 0
    /// Bit n: a string of n bytes was inserted (bit 63: one of 63 bytes or more).
    private var lengths: UInt64 = 0

    var isEmpty: Bool { count == 0 }

    mutating func insert(_ content: UnsafeBufferPointer<UInt8>) {
        lengths |= 1 << UInt64(min(content.count, 63))
        let value = Self.stored(CanonicalSplice.hash(content))
        if (count + 1) * 2 > slots.count { grow() }
        if place(value, in: &slots) { count += 1 }
    }

    @inline(__always)
    func mayContain(_ content: UnsafeBufferPointer<UInt8>) -> Bool {
        guard lengths & (1 << UInt64(min(content.count, 63))) != 0 else { return false }
        let value = Self.stored(CanonicalSplice.hash(content))
        let mask = slots.count - 1
        var slot = Int(truncatingIfNeeded: value) & mask
        while true {
            let found = slots[slot]
            if found == value { return true }
            if found == 0 { return false }
            slot = (slot + 1) & mask
        }
    }

    /// 0 marks an empty slot, so a hash of 0 is kept as 1.
    @inline(__always)
    private static func stored(_ hash: UInt64) -> UInt64 { hash == 0 ? 1 : hash }

    /// Puts `value` in its slot; false when it was there already.
    private func place(_ value: UInt64, in slots: inout [UInt64]) -> Bool {
        let mask = slots.count - 1
        var slot = Int(truncatingIfNeeded: value) & mask
        while slots[slot] != 0 {
            if slots[slot] == value { return false }
            slot = (slot + 1) & mask
        }
        slots[slot] = value
        return true
    }

    private mutating func grow() {
        var larger = [UInt64](repeating: 0, count: slots.count * 2)
        for value in slots where value != 0 { _ = place(value, in: &larger) }
        slots = larger
    }
}
