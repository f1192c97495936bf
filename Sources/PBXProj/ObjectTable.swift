/// The `objects` dictionary of a parsed project, indexed by object id without allocating a
/// String per id: an open-addressing hash table over the id bytes in the source.
///
/// An id in Xcode's form (24 upper-case hex digits) is kept in its slot, packed into 96 bits
/// next to the entry index, so that a lookup, hit or miss, reads nothing but the slot array: one
/// cache miss in a table that does not fit in the processor's caches (a 1.5 MB project has
/// 15,000 objects), where a look at the entry and then at the id's bytes in the text cost two
/// more. Any other id keeps 64 bits of its hash in the slot, and a hit is compared in the text
/// (through the entry's byte range).
struct ObjectTable: Sendable {
    /// One object: its id node, its dictionary node, its interned isa and its id's text.
    struct Entry: Sendable {
        var key: Int32
        var value: Int32
        var isa: Int32
        /// The id's text without quotes (`keyStart == keyEnd == 0` when it has escapes).
        var keyStart: UInt32
        var keyEnd: UInt32
    }

    /// The node of the root dictionary's `objects` value.
    let objectsNode: Int
    /// Objects in file order.
    let entries: [Entry]
    /// Distinct isa names; `Entry.isa` indexes this.
    let isaNames: [String]
    /// One slot of the hash table. For an id in Xcode's form: `id` holds its first 16 hex digits
    /// and `info` its last 8 (high half) over `entry index + 1`. For any other id: `id` holds
    /// its hash and `info` has `otherID` set over `entry index + 1`. `info == 0`: empty.
    struct Slot: Sendable {
        var id: UInt64
        var info: UInt64
    }
    /// Set in `Slot.info` for an id not in Xcode's form.
    private static let otherID: UInt64 = 0x8000_0000
    private let slots: [Slot]
    private let mask: Int
    /// The shortest and longest id, to reject most strings before hashing them.
    private let idLengths: ClosedRange<Int>
    /// For a table over an edited tree (`EditedTree`): the table that was read, whose slots find
    /// the ids it holds, and where each of its entries is in this table (-1: removed). This
    /// table's own slots then hold the added objects only, so that an edit costs no new index of
    /// every object.
    private let overlay: Overlay?

    private struct Overlay: Sendable {
        let slots: [Slot]
        let mask: Int
        let idLengths: ClosedRange<Int>
        let entries: [Entry]
        let moved: [Int32]
    }

    /// Indexes the objects of `tree`, rejecting duplicate ids and objects without an isa.
    init(tree: SyntaxTree) throws {
        let objects = try ObjectTable.objectsNode(of: tree)
        let (entries, names) = try ObjectTable.readEntries(tree: tree, objects: objects)
        try self.init(tree: tree, objectsNode: objects, entries: entries, isaNames: names)
    }

    /// An object whose nodes a parse took from another version's text
    /// (`PropertyListParser.parseTakingFrom`): its id's node, and its entry in that version's table.
    struct Taken: Sendable {
        var key: Int32
        var from: Int32
    }

    /// `init(tree:)`, a table that finds the same entries and fails the same way, for a tree
    /// whose objects `taken` were taken from `reference`'s text: their slots are `reference`'s
    /// with the entry index rewritten, so that only the other objects' ids are read and hashed.
    /// Any case the rewrite does not cover (another table size, an object taken twice, a
    /// duplicate id) is indexed whole.
    init(tree: SyntaxTree, like reference: ObjectTable, taken: [Taken]) throws {
        let objects = try ObjectTable.objectsNode(of: tree)
        let (entries, names) = try ObjectTable.readEntries(tree: tree, objects: objects)
        let index = try ObjectTable.derivedIndex(of: entries, in: tree, like: reference, taken: taken)
            ?? ObjectTable.index(entries.indices, of: entries, in: tree)
        self.init(objectsNode: objects, entries: entries, isaNames: names, index: index)
    }

    private init(objectsNode: Int, entries: [Entry], isaNames: [String], index: ([Slot], Int, ClosedRange<Int>)) {
        self.objectsNode = objectsNode
        (slots, mask, idLengths) = index
        self.entries = entries
        self.isaNames = isaNames
        overlay = nil
    }

    private static func objectsNode(of tree: SyntaxTree) throws -> Int {
        guard let objects = tree.lookup("objects", in: 0) else {
            throw PBXProjError.invalidStructure(
                message: "the project has no 'objects' dictionary; this is not a project.pbxproj file",
                at: tree.location(ofNode: 0))
        }
        guard tree.nodes[objects].kind == .dictionary else {
            throw PBXProjError.invalidStructure(message: "'objects' must be a dictionary", at: tree.location(ofNode: objects))
        }
        return objects
    }

    /// The slots of `entries` made from `reference`'s (see `init(tree:like:taken:)`), or nil.
    private static func derivedIndex(
        of entries: [Entry], in tree: SyntaxTree, like reference: ObjectTable, taken: [Taken]
    ) -> ([Slot], Int, ClosedRange<Int>)? {
        let capacity = slotCount(for: entries.count)
        guard reference.overlay == nil, capacity == reference.slots.count else { return nil }
        let mask = capacity - 1
        // Where each of the reference's entries is now (-1: not taken), both lists in node order.
        var now = [Int32](repeating: -1, count: reference.entries.count)
        var isTaken = [Bool](repeating: false, count: entries.count)
        var next = 0
        for (index, entry) in entries.enumerated() where next < taken.count {
            guard taken[next].key >= entry.key else { return nil }
            guard taken[next].key == entry.key else { continue }
            let from = Int(taken[next].from)
            guard from >= 0, from < now.count, now[from] < 0 else { return nil }
            now[from] = Int32(index)
            isTaken[index] = true
            next += 1
        }
        guard next == taken.count else { return nil }
        var slots = reference.slots
        var stale: [Slot] = []
        slots.withUnsafeMutableBufferPointer { slots in
            for position in slots.indices where slots[position].info != 0 {
                let now = now[Int(slots[position].info & indexBits) - 1]
                if now >= 0 {
                    slots[position].info = (slots[position].info & ~indexBits) | UInt64(now + 1)
                } else {
                    stale.append(slots[position])
                }
            }
            // The reference's objects not taken leave, each closing its gap (backward shift).
            for gone in stale {
                var hole = home(gone) & mask
                while slots[hole].id != gone.id || slots[hole].info != gone.info { hole = (hole + 1) & mask }
                var probe = hole
                while true {
                    probe = (probe + 1) & mask
                    if slots[probe].info == 0 { break }
                    let start = home(slots[probe]) & mask
                    let stays = hole <= probe ? (start > hole && start <= probe) : (start > hole || start <= probe)
                    if !stays {
                        slots[hole] = slots[probe]
                        hole = probe
                    }
                }
                slots[hole] = Slot(id: 0, info: 0)
            }
        }
        var (shortest, longest) = (reference.idLengths.lowerBound, reference.idLengths.upperBound)
        if reference.entries.isEmpty { (shortest, longest) = (Int.max, 0) }
        for index in entries.indices where !isTaken[index] {
            // A duplicate id is left to the whole index, which reports it.
            guard insert(index, of: entries, in: tree, into: &slots, mask: mask, shortest: &shortest, longest: &longest) == nil else { return nil }
        }
        return (slots, mask, shortest <= longest ? shortest...longest : 0...0)
    }

    /// The slots for `count` ids: a power of two, at least twice as many.
    private static func slotCount(for count: Int) -> Int {
        var capacity = 16
        while capacity < count * 2 { capacity <<= 1 }
        return capacity
    }

    /// Puts entry `index`'s id in its slot and widens the range of id lengths; or, when an entry
    /// already there has the same id, leaves the slots as they are and returns that entry.
    private static func insert(
        _ index: Int, of entries: [Entry], in tree: SyntaxTree, into slots: inout [Slot], mask: Int,
        shortest: inout Int, longest: inout Int
    ) -> Int? {
        let key = Int(entries[index].key)
        let (wanted, length) = tree.withContent(key) { (ObjectTable.slotKey($0), $0.count) }
        var slot = wanted.hash & mask
        while slots[slot].info != 0 {
            if slots[slot].id == wanted.id, slots[slot].info & ObjectTable.keyBits == wanted.info {
                let other = Int(slots[slot].info & ObjectTable.indexBits) - 1
                if wanted.info & ObjectTable.otherID == 0
                    || tree.withContent(key, { tree.contentEquals(Int(entries[other].key), $0) }) {
                    return other
                }
            }
            slot = (slot + 1) & mask
        }
        shortest = min(shortest, length)
        longest = max(longest, length)
        slots[slot] = Slot(id: wanted.id, info: wanted.info | UInt64(index + 1))
        return nil
    }

    /// Where a slot's probe starts (`slotKey`'s hash), from what the slot holds.
    @inline(__always)
    private static func home(_ slot: Slot) -> Int {
        if slot.info & otherID != 0 { return Int(truncatingIfNeeded: slot.id) }
        return mixPacked(slot.id, slot.info >> 32)
    }

    /// A table over entries found otherwise, rejecting duplicate ids.
    init(tree: SyntaxTree, objectsNode: Int, entries: [Entry], isaNames names: [String]) throws {
        self.objectsNode = objectsNode
        (slots, mask, idLengths) = try ObjectTable.index(entries.indices, of: entries, in: tree)
        self.entries = entries
        self.isaNames = names
        overlay = nil
    }

    /// The table of an edited tree whose entries are `base`'s that stay (entry `i` of `base` is
    /// now entry `moved[i]`, -1 when removed; edited ones may have new nodes, with the same id)
    /// and the objects added, at `added`. Only the added ids are indexed anew.
    init(editing base: ObjectTable, moved: [Int32], tree: SyntaxTree, entries: [Entry], isaNames names: [String], added: Range<Int>) throws {
        precondition(base.overlay == nil && moved.count == base.entries.count)
        objectsNode = base.objectsNode
        (slots, mask, idLengths) = try ObjectTable.index(added, of: entries, in: tree)
        self.entries = entries
        isaNames = names
        overlay = Overlay(slots: base.slots, mask: base.mask, idLengths: base.idLengths, entries: base.entries, moved: moved)
    }

    /// An index of `entries` at `indices`: the slots, their mask and the range of id lengths.
    private static func index<Indices: Collection<Int>>(
        _ indices: Indices, of entries: [Entry], in tree: SyntaxTree
    ) throws -> ([Slot], Int, ClosedRange<Int>) {
        let capacity = slotCount(for: indices.count)
        var slots = [Slot](repeating: Slot(id: 0, info: 0), count: capacity)
        let mask = capacity - 1
        var shortest = Int.max, longest = 0
        for index in indices {
            if let other = insert(index, of: entries, in: tree, into: &slots, mask: mask, shortest: &shortest, longest: &longest) {
                let key = Int(entries[index].key)
                throw PBXProjError.duplicateObjectID(
                    id: tree.string(key), at: tree.location(ofNode: key), first: tree.location(ofNode: Int(entries[other].key)))
            }
        }
        return (slots, mask, shortest <= longest ? shortest...longest : 0...0)
    }

    /// The entry of the object whose id is string node `key` and whose dictionary is `value`
    /// (`isa` already interned).
    static func entry(key: Int, value: Int, isa: Int32, in tree: SyntaxTree) -> Entry {
        let node = tree.nodes[key]
        var start: UInt32 = 0, end: UInt32 = 0
        if node.kind == .unquoted {
            (start, end) = (node.start, node.end)
        } else if node.flags == 0 {
            (start, end) = (node.start + 1, node.end - 1)
        }
        return Entry(key: Int32(key), value: Int32(value), isa: isa, keyStart: start, keyEnd: end)
    }

    private static func readEntries(tree: SyntaxTree, objects: Int) throws -> ([Entry], [String]) {
        var entries: [Entry] = []
        var names: [String] = []
        var nameBytes: [[UInt8]] = []
        var lastIsa: Int32 = -1
        for (key, value) in tree.entries(objects) {
            guard tree.nodes[value].kind == .dictionary else {
                throw PBXProjError.invalidStructure(
                    message: "object '\(tree.string(key))' is not a dictionary", at: tree.location(ofNode: value))
            }
            guard let isaNode = tree.lookup("isa", in: value), tree.isString(isaNode) else {
                throw PBXProjError.invalidStructure(
                    message: "object '\(tree.string(key))' has no 'isa'; every object needs its class name",
                    at: tree.location(ofNode: key))
            }
            let isa = intern(isaNode, tree: tree, last: &lastIsa, names: &names, bytes: &nameBytes)
            entries.append(entry(key: key, value: value, isa: isa, in: tree))
        }
        return (entries, names)
    }

    private static func intern(
        _ node: Int, tree: SyntaxTree, last: inout Int32, names: inout [String], bytes: inout [[UInt8]]
    ) -> Int32 {
        if last >= 0, tree.withContent(node, { $0.elementsEqual(bytes[Int(last)]) }) { return last }
        let content = tree.contentBytes(node)
        if let found = bytes.firstIndex(of: content) {
            last = Int32(found)
            return last
        }
        bytes.append(content)
        names.append(String(decoding: content, as: UTF8.self))
        last = Int32(names.count - 1)
        return last
    }

    /// A hash over the id's 8-byte words, finished with MurmurHash3's 64-bit mixer so that ids
    /// differing only in a few characters (sequential ids) spread over the whole table.
    @inline(__always)
    static func hash(_ bytes: UnsafeBufferPointer<UInt8>) -> Int {
        var value: UInt64 = 0x9E37_79B9_7F4A_7C15 ^ UInt64(bytes.count)
        guard let base = bytes.baseAddress else { return Int(truncatingIfNeeded: value) }
        var i = 0
        while i + 8 <= bytes.count {
            value = (value ^ UnsafeRawPointer(base + i).loadUnaligned(as: UInt64.self)) &* 0x87C3_7B91_1142_53D5
            value ^= value >> 32
            i += 8
        }
        var tail: UInt64 = 0
        var shift: UInt64 = 0
        while i < bytes.count {
            tail |= UInt64(base[i]) << shift
            shift += 8
            i += 1
        }
        return finish(value ^ tail)
    }

    /// MurmurHash3's 64-bit finalizer, as an Int.
    @inline(__always)
    private static func finish(_ value: UInt64) -> Int {
        var value = value
        value ^= value >> 33
        value = value &* 0xFF51_AFD7_ED55_8CCD
        value ^= value >> 33
        value = value &* 0xC4CE_B9FE_1A85_EC53
        value ^= value >> 33
        return Int(truncatingIfNeeded: value)
    }

    /// The bits of `Slot.info` that identify the id (all but the entry index).
    private static let keyBits: UInt64 = 0xFFFF_FFFF_8000_0000
    /// The bits of `Slot.info` that hold the entry index + 1.
    private static let indexBits: UInt64 = 0x7FFF_FFFF

    /// What a slot holds for an id (its `info` without the entry index), and where its probe starts.
    @inline(__always)
    static func slotKey(_ id: UnsafeBufferPointer<UInt8>) -> (id: UInt64, info: UInt64, hash: Int) {
        if id.count == 24, let (high, low) = packedHex(id) {
            return (high, low << 32, mixPacked(high, low))
        }
        let hash = ObjectTable.hash(id)
        return (UInt64(bitPattern: Int64(hash)), otherID, hash)
    }

    /// The hash of an id in Xcode's form, from its packed digits.
    @inline(__always)
    private static func mixPacked(_ high: UInt64, _ low: UInt64) -> Int {
        finish(high ^ (low &* 0x9E37_79B9_7F4A_7C15))
    }

    /// The 24 upper-case hex digits of an id in Xcode's form as 64 + 32 bits, or nil for any
    /// other text (lower-case digits included, so that two different ids never pack alike).
    @inline(__always)
    static func packedHex(_ id: UnsafeBufferPointer<UInt8>) -> (UInt64, UInt64)? {
        var high: UInt64 = 0, low: UInt64 = 0
        for i in 0..<24 {
            let byte = id[i]
            let digit: UInt8
            if byte &- 0x30 < 10 {
                digit = byte &- 0x30
            } else if byte &- 0x41 < 6 {
                digit = byte &- 0x41 &+ 10
            } else {
                return nil
            }
            if i < 16 { high = high << 4 | UInt64(digit) } else { low = low << 4 | UInt64(digit) }
        }
        return (high, low)
    }

    /// The entry index of the object whose id is `id`.
    func find(_ id: UnsafeBufferPointer<UInt8>, in tree: SyntaxTree) -> Int? {
        if let overlay, let old = ObjectTable.probe(id, overlay.slots, overlay.mask, overlay.idLengths, overlay.entries, in: tree) {
            let now = Int(overlay.moved[old])
            if now >= 0 { return now }
        }
        return ObjectTable.probe(id, slots, mask, idLengths, entries, in: tree)
    }

    @inline(__always)
    private static func probe(
        _ id: UnsafeBufferPointer<UInt8>, _ slots: [Slot], _ mask: Int, _ idLengths: ClosedRange<Int>, _ entries: [Entry], in tree: SyntaxTree
    ) -> Int? {
        guard idLengths.contains(id.count) else { return nil }
        let wanted = ObjectTable.slotKey(id)
        return slots.withUnsafeBufferPointer { slots in
            var slot = wanted.hash & mask
            while true {
                let value = slots[slot]
                if value.info == 0 { return nil }
                if value.id == wanted.id, value.info & ObjectTable.keyBits == wanted.info {
                    let index = Int(value.info & ObjectTable.indexBits) - 1
                    if wanted.info & ObjectTable.otherID == 0 || keyEquals(entries[index], id, in: tree) { return index }
                }
                slot = (slot + 1) & mask
            }
        }
    }

    /// Whether entry `index`'s id is `id`.
    @inline(__always)
    func keyEquals(_ index: Int, _ id: UnsafeBufferPointer<UInt8>, in tree: SyntaxTree) -> Bool {
        ObjectTable.keyEquals(entries[index], id, in: tree)
    }

    @inline(__always)
    private static func keyEquals(_ entry: Entry, _ id: UnsafeBufferPointer<UInt8>, in tree: SyntaxTree) -> Bool {
        guard entry.keyEnd > entry.keyStart || tree.nodes[Int(entry.key)].kind == .unquoted else {
            return tree.contentEquals(Int(entry.key), id)
        }
        guard Int(entry.keyEnd - entry.keyStart) == id.count else { return false }
        return tree.bytes.withUnsafeBufferPointer { text in
            ByteCompare.equal(UnsafeBufferPointer(rebasing: text[Int(entry.keyStart)..<Int(entry.keyEnd)]), id)
        }
    }

    /// The entry index of the object whose id is `id`.
    func find(_ id: String, in tree: SyntaxTree) -> Int? {
        var id = id
        return id.withUTF8 { find($0, in: tree) }
    }

    /// The entry index of the object whose id is the content of string node `node`.
    func find(node: Int, in tree: SyntaxTree) -> Int? {
        guard tree.isString(node) else { return nil }
        let info = tree.nodes[node]
        // Read in place unless escaped (a closure over the table would copy it per call).
        guard info.kind == .unquoted || info.flags & SyntaxNode.hasEscapes == 0 else {
            return tree.withContent(node) { find($0, in: tree) }
        }
        let (start, end) = info.kind == .unquoted ? (Int(info.start), Int(info.end)) : (Int(info.start) + 1, Int(info.end) - 1)
        return tree.bytes.withUnsafeBufferPointer { find(UnsafeBufferPointer(rebasing: $0[start..<end]), in: tree) }
    }

    /// The isa name of entry `index`.
    func isa(_ index: Int) -> String { isaNames[Int(entries[index].isa)] }

    /// The interned index of an isa name, or nil when no object has it.
    func isaIndex(_ name: String) -> Int32? {
        isaNames.firstIndex(of: name).map { Int32($0) }
    }
}

/// Looks ids up in a table that holds mostly the same objects in the same order as the table
/// they come from (another version of the project, walked in file order): the entry after the
/// last one found is tried first, so a walk over two versions reads both in order instead of
/// visiting the hash table at random. Gives `ObjectTable.find`'s answer: ids are unique in a
/// table, so an entry whose id is the one asked for is the one `find` finds.
struct SequentialFinder {
    let project: PBXProject
    private var next = 0

    init(_ project: PBXProject) {
        self.project = project
    }

    mutating func find(_ id: UnsafeBufferPointer<UInt8>) -> Int? {
        let table = project.table
        if next < table.entries.count, table.keyEquals(next, id, in: project.tree) {
            next += 1
            return next - 1
        }
        guard let found = table.find(id, in: project.tree) else { return nil }
        next = found + 1
        return found
    }
}
