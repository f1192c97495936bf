/// One entry that both sides changed to different values: a merge cannot choose, so the entry is
/// written between conflict markers.
public struct PBXProjMergeConflict: Hashable, Sendable, CustomStringConvertible {
    /// The object holding the entry; nil for a top-level key (`objectVersion`, ...).
    public var objectID: ObjectID?
    /// The object's comment (its display name or isa), when there is an object.
    public var comment: String?
    /// The keys leading to the entry (`["buildSettings", "SWIFT_VERSION"]`); empty when the whole
    /// object was removed on one side and changed on the other.
    public var keyPath: [String]
    /// Our value; nil when our side removed it.
    public var ours: PBXValue?
    /// Their value; nil when their side removed it.
    public var theirs: PBXValue?
    /// A conflict between the sides' changes to different entries, named like git's
    /// (`"file location"`, `"delete/reference"`); nil for an entry both sides changed.
    public var kind: String?
    /// What happened and what to do, for a conflict with a `kind`.
    public var explanation: String?

    /// Creates a conflict.
    public init(
        objectID: ObjectID?, comment: String?, keyPath: [String], ours: PBXValue?, theirs: PBXValue?,
        kind: String? = nil, explanation: String? = nil
    ) {
        self.objectID = objectID
        self.comment = comment
        self.keyPath = keyPath
        self.ours = ours
        self.theirs = theirs
        self.kind = kind
        self.explanation = explanation
    }

    /// One line for humans: `0F00... /* App */ buildSettings.SWIFT_VERSION: ours "5.0", theirs "6.0"`;
    /// for a conflict with a `kind`, its explanation.
    public var description: String {
        if let explanation { return explanation }
        let subject = objectID.map { id in "\(id)" + (comment.map { " /* \($0) */" } ?? "") } ?? "(top level)"
        let key = keyPath.isEmpty ? "the whole object" : keyPath.joined(separator: ".")
        return "\(subject) \(key): " + Self.showBoth(ours, theirs)
    }

    static func show(_ value: PBXValue?) -> String {
        guard let value else { return "(removed)" }
        return "\"" + text(value) + "\""
    }

    /// Both values; two long lists are shown by what only one of them has, so that a summary
    /// line stays readable.
    static func showBoth(_ ours: PBXValue?, _ theirs: PBXValue?) -> String {
        let full = "ours \(show(ours)), theirs \(show(theirs))"
        guard full.count > 240, let o = ours?.array, let t = theirs?.array else { return full }
        let onlyOurs = o.filter { !t.contains($0) }, onlyTheirs = t.filter { !o.contains($0) }
        if onlyOurs.isEmpty && onlyTheirs.isEmpty {
            return o.count == t.count
                ? "the same \(o.count) elements in another order"
                : "the same elements, repeated a different number of times (ours \(o.count), theirs \(t.count))"
        }
        func list(_ values: [PBXValue]) -> String {
            values.isEmpty ? "nothing" : "\"" + values.map(text).joined(separator: ", ") + "\""
        }
        return "only ours has \(list(onlyOurs)), only theirs has \(list(onlyTheirs)) (lists of \(o.count) and \(t.count))"
    }

    private static func text(_ value: PBXValue) -> String {
        switch value {
        case .string(let string): return string
        case .data(let bytes): return "<" + bytes.map { String($0, radix: 16) }.joined() + ">"
        case .array(let elements): return "(" + elements.map(text).joined(separator: ", ") + ")"
        case .dictionary(let dictionary):
            return "{" + dictionary.map { "\($0.key) = \(text($0.value));" }.joined(separator: " ") + "}"
        }
    }
}

/// A three-way merge of property-list values. Each merge gives two results, one resolving
/// conflicts our way and one their way; they are equal when nothing conflicts.
struct ValueMerge {
    /// Conflicts found so far, as key paths with both values.
    var conflicts: [(path: [String], ours: PBXValue?, theirs: PBXValue?)] = []
    /// Which key paths hold a version number that the merge may raise to the higher side's
    /// (`VersionNumbers`); nil: none.
    var versionPaths: (([String]) -> Bool)?
    /// Version numbers both sides raised, with the value kept.
    var versionChoices: [(path: [String], base: String, ours: String, theirs: String, kept: String)] = []
    /// Which key paths hold a value that only makes sense whole (a Swift package's requirement
    /// whose `kind` changed): changed on both sides differently, the whole value is one
    /// conflict instead of a merge key by key; nil: none.
    var wholeValues: (([String]) -> Bool)?

    /// Merges one value. `orderedSets`: arrays of distinct strings merge as ordered sets (lists
    /// of object ids); off inside build settings, whose lists are values.
    mutating func merge(
        base: PBXValue?, ours: PBXValue?, theirs: PBXValue?, path: [String], orderedSets: Bool
    ) -> (ours: PBXValue?, theirs: PBXValue?) {
        if ours == theirs || base == theirs { return (ours, ours) }
        if base == ours { return (theirs, theirs) }
        if let wholeValues, wholeValues(path) {
            conflicts.append((path, ours, theirs))
            return (ours, theirs)
        }
        if case .dictionary(let o)? = ours, case .dictionary(let t)? = theirs {
            let b = base?.dictionary ?? (base == nil ? PBXDictionary() : nil)
            if let b {
                let (mo, mt) = mergeDictionaries(base: b, ours: o, theirs: t, path: path, orderedSets: orderedSets)
                return (.dictionary(mo), .dictionary(mt))
            }
        }
        if orderedSets, let o = Self.occurrences(ours), let t = Self.occurrences(theirs),
            let b = base == nil ? [] : Self.occurrences(base) {
            let merged = OrderedSetMerge.merge(base: b, ours: o, theirs: t)
            let value = PBXValue.array(merged.map { .string(Self.element(of: $0)) })
            return (value, value)
        }
        if let versionPaths, let b = base?.string, let o = ours?.string, let t = theirs?.string, versionPaths(path),
            let kept = VersionNumbers.higherOfBothRaised(base: b, ours: o, theirs: t) {
            versionChoices.append((path, b, o, t, kept))
            return (.string(kept), .string(kept))
        }
        conflicts.append((path, ours, theirs))
        return (ours, theirs)
    }

    /// Merges two dictionaries key by key, in our key order with their new keys where Xcode
    /// puts them.
    mutating func mergeDictionaries(
        base: PBXDictionary, ours: PBXDictionary, theirs: PBXDictionary, path: [String], orderedSets: Bool
    ) -> (PBXDictionary, PBXDictionary) {
        var resultOurs = ours
        var resultTheirs = ours
        var keys = ours.keys
        let known = Set(keys)
        keys += theirs.keys.filter { !known.contains($0) }
        let ourKeys = Set(keys)
        keys += base.keys.filter { !ourKeys.contains($0) }
        for key in keys {
            let nested = orderedSets && key != "buildSettings"
            let (o, t) = merge(base: base[key], ours: ours[key], theirs: theirs[key], path: path + [key], orderedSets: nested)
            if resultOurs[key] != o { resultOurs[key] = o }
            if resultTheirs[key] != t { resultTheirs[key] = t }
        }
        return (resultOurs, resultTheirs)
    }

    /// The strings of an array of strings, each made distinct by its occurrence: the second
    /// `X` is `X`, NUL, `1`, and so on. A list that already repeats an id (an earlier bad merge
    /// can leave one) then still merges as an ordered set, its repeats kept or removed like any
    /// other element. Nil when an element is not a string.
    static func occurrences(_ value: PBXValue?) -> [String]? {
        guard let array = value?.array else { return nil }
        var seen: [String: Int] = [:]
        var result: [String] = []
        result.reserveCapacity(array.count)
        for element in array {
            guard let string = element.string else { return nil }
            let count = seen[string, default: 0]
            seen[string] = count + 1
            result.append(count == 0 ? string : string + "\u{0}" + String(count))
        }
        return result
    }

    /// The list element an `occurrences` key stands for.
    static func element(of key: String) -> String {
        guard let end = key.utf8.firstIndex(of: 0) else { return key }
        return String(key[..<end])
    }
}

/// A three-way merge of lists whose elements are distinct (children, build-phase files, targets;
/// repeated ones are made distinct by `ValueMerge.occurrences`):
/// what either side removed is gone, what either side added is kept next to the neighbours it
/// has on its side, and our order wins where both reordered.
enum OrderedSetMerge {
    static func merge(base: [String], ours: [String], theirs: [String]) -> [String] {
        if ours == base { return theirs }
        if theirs == base || ours == theirs { return ours }
        let baseSet = Set(base), ourSet = Set(ours), theirSet = Set(theirs)
        // Their reordering of elements both sides kept, when we kept the base order.
        var result = ours.filter { !baseSet.contains($0) || theirSet.contains($0) }
        var present = Set(result)
        for (index, element) in theirs.enumerated() where !baseSet.contains(element) && !ourSet.contains(element) {
            var position = insertionPoint(for: index, in: theirs, result: result, present: present)
            // Where both sides added at the same place, ours come first.
            while position < result.count, !baseSet.contains(result[position]), !theirSet.contains(result[position]) {
                position += 1
            }
            result.insert(element, at: position)
            present.insert(element)
        }
        return result
    }

    /// After the nearest element before `index` (on their side) that the result has; else before
    /// the nearest one after it; else at the end.
    private static func insertionPoint(for index: Int, in theirs: [String], result: [String], present: Set<String>) -> Int {
        var before = index - 1
        while before >= 0 {
            if present.contains(theirs[before]), let found = result.firstIndex(of: theirs[before]) { return found + 1 }
            before -= 1
        }
        var after = index + 1
        while after < theirs.count {
            if present.contains(theirs[after]), let found = result.firstIndex(of: theirs[after]) { return found }
            after += 1
        }
        return result.count
    }
}
