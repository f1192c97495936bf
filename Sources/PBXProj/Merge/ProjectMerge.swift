#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// Why three versions of a project could not be merged on the object graph.
public enum PBXProjMergeError: Error, Hashable, Sendable {
    /// One version (`"base"`, `"ours"` or `"theirs"`) does not read as a project.
    case unreadable(side: String, error: PBXProjError)
    /// A file given to the merge driver cannot be read (nothing was written).
    case unreadableFile(path: String)

    /// What went wrong and what happens instead.
    public var message: String {
        switch self {
        case .unreadable(let side, let error):
            let place = error.location.map { " at line \($0.line), column \($0.column)" } ?? ""
            return "the \(side) version does not read as a project\(place): \(error.message)"
        case .unreadableFile:
            return "cannot read the file; git passes the three versions as temporary files (%O %A %B)"
        }
    }
}

/// What a merge produced.
public struct PBXProjMergeResult: Sendable {
    /// The merged file; when there are conflicts, with conflict markers around the conflicting
    /// entries (so it no longer reads as a project until they are resolved).
    public var bytes: [UInt8]
    /// The entries both sides changed differently, in the order met.
    public var conflicts: [PBXProjMergeConflict]
    /// Whether the result is in Xcode's canonical form (false: the sides' own shared style).
    public var isCanonical: Bool {
        get {
            switch canonicalForm {
            case .known(let value): value
            case .asRead(let project): project.isCanonical
            }
        }
        set { canonicalForm = .known(newValue) }
    }
    /// Whether the result is canonical, or the project whose text it is when that is worked out
    /// only if asked: the driver writes the same bytes either way, so it does not pay for a
    /// canonical write to find out.
    private var canonicalForm: CanonicalForm
    /// What was repaired in the inputs to merge them (an object a version defines twice with
    /// the same text), one sentence each; the version choices are among them too.
    public var notes: [String] = []
    /// Version numbers both sides raised, and the higher one the merge kept (`.higher`).
    public var versionChoices: [PBXProjVersionChoice] = []

    private enum CanonicalForm: Sendable {
        case known(Bool)
        /// The result is this project's text as read, canonical when that is.
        case asRead(PBXProject)
    }

    /// A result; `isCanonical` says whether `bytes` are in Xcode's canonical form.
    public init(
        bytes: [UInt8], conflicts: [PBXProjMergeConflict], isCanonical: Bool, notes: [String] = [],
        versionChoices: [PBXProjVersionChoice] = []
    ) {
        self.bytes = bytes
        self.conflicts = conflicts
        self.canonicalForm = .known(isCanonical)
        self.notes = notes
        self.versionChoices = versionChoices
    }

    /// A clean result that is `project`'s text as read; whether it is canonical is worked out
    /// when asked.
    init(unchanged project: PBXProject, notes: [String]) {
        bytes = project.originalBytes
        conflicts = []
        canonicalForm = .asRead(project)
        self.notes = notes
    }
}

/// A three-way merge of `project.pbxproj` files on their object graph (a git merge driver's
/// engine).
///
/// Objects added on either side are kept, objects removed on one side and unchanged on the
/// other are removed, lists of object ids (`children`, a phase's `files`, ...) merge as ordered
/// sets, and any other value changed on one side is taken. A value both sides changed to
/// different values is a conflict: it is written between `<<<<<<< ours`, `=======` and
/// `>>>>>>> theirs` lines, around just that entry.
///
/// The result is in Xcode's canonical form, unless neither side is, in which case our side's
/// text is kept and only the merged changes are spliced into it.
public enum PBXProjMerge {
    /// Merges `ours` and `theirs`, both descended from `base`. `versions`: what to do with a
    /// version number both sides raised (keep the higher, with a note, or conflict).
    /// - Throws: `PBXProjMergeError.unreadable` when a version does not read as a project (a
    ///   side with conflict markers among them).
    public static func merge(
        base: consuming [UInt8], ours: [UInt8], theirs: consuming [UInt8], projectName: String? = nil,
        versions: PBXProjVersionBumps = .higher
    ) throws -> PBXProjMergeResult {
        let projectName = projectName ?? detectProjectName(ours) ?? "Project"
        // Base and theirs are read and merged in a function of their own and freed when it
        // returns, before the resolutions are written: the heap they held is reused for them,
        // instead of pages touched anew.
        let merged: GraphMerge
        switch try mergeGraphs(base: base, ours: ours, theirs: theirs, projectName: projectName, versions: versions) {
        case .done(let result): return result
        case .merged(let graphs): merged = graphs
        }
        let (canonical, oursCheck) = (merged.canonical, merged.oursCheck)
        let oursText = try write(merged.resolvedOurs, canonical: canonical, knowing: oursCheck)
        guard !merged.conflicts.isEmpty else {
            return PBXProjMergeResult(
                bytes: oursText, conflicts: [], isCanonical: canonical, notes: merged.notes, versionChoices: merged.versionChoices)
        }
        let theirsText = try write(merged.resolvedTheirs, canonical: canonical, knowing: oursCheck)
        let wholeEntries = Set(merged.conflicts.compactMap { conflict in
            conflict.kind == nil && (conflict.ours?.dictionary != nil || conflict.theirs?.dictionary != nil) ? conflict.keyPath.last : nil
        })
        let marked = ConflictMarkers.combine(ours: oursText, theirs: theirsText, wholeEntries: wholeEntries)
        return PBXProjMergeResult(
            bytes: marked, conflicts: merged.conflicts, isCanonical: canonical, notes: merged.notes,
            versionChoices: merged.versionChoices)
    }

    /// What the graph merge leaves for the writing: the two resolutions (edits of ours), what
    /// they are written in, and what the merge found.
    private struct GraphMerge {
        var resolvedOurs: PBXProject
        var resolvedTheirs: PBXProject
        var conflicts: [PBXProjMergeConflict]
        var notes: [String]
        var versionChoices: [PBXProjVersionChoice]
        /// Whether the result is written in Xcode's form (ours or theirs is in it).
        var canonical: Bool
        /// What checking ours derived, with which the resolutions are written.
        var oursCheck: CanonicalCheck
    }

    private enum GraphOutcome {
        /// The merge's result, found without a graph merge.
        case done(PBXProjMergeResult)
        case merged(GraphMerge)
    }

    /// Reads the three versions and merges them on the object graph.
    private static func mergeGraphs(
        base: consuming [UInt8], ours: [UInt8], theirs: consuming [UInt8], projectName: String, versions: PBXProjVersionBumps
    ) throws -> GraphOutcome {
        var notes: [String] = []
        // A version byte for byte equal to one read before reads the same (or fails the same
        // way, and then the earlier one has already failed): it is read once, and its note is
        // repeated under its own name.
        let (oursIsBase, theirsIsOurs, theirsIsBase) = (same(ours, base), same(theirs, ours), same(theirs, base))
        // Ours and theirs take the nodes of objects whose text is unchanged from the version read
        // before them (the same tree as a read of their own, error for error).
        let baseRead = try read(base, side: "base", projectName: projectName, like: nil)
        let ourRead = oursIsBase ? baseRead : try read(ours, side: "ours", projectName: projectName, like: baseRead.project)
        let theirRead = theirsIsOurs ? ourRead : theirsIsBase ? baseRead
            : try read(theirs, side: "theirs", projectName: projectName, like: baseRead.project)
        for (side, version) in [("base", baseRead), ("ours", ourRead), ("theirs", theirRead)] where !version.repeated.isEmpty {
            notes.append(repeatedNote(side: side, repeated: version.repeated))
        }
        let (baseProject, ourProject, theirProject) = (baseRead.project, ourRead.project, theirRead.project)
        if theirsIsOurs {
            // Nothing of theirs to take: the merge is our version as read (the form the merge
            // writes it in is ours, whichever that is). All three are still read, so that a
            // version that does not read is merged line by line as always.
            return .done(PBXProjMergeResult(unchanged: ourProject, notes: notes))
        }
        if theirsIsBase {
            // Nothing of theirs to take either (each check below would find nothing): our
            // version, in Xcode's form when theirs is, as a merge writes it.
            // Ours in Xcode's form is its own canonical text; else it is written so when theirs is.
            let oursCanonical = ourProject.isCanonical
            let canonical = oursCanonical || theirProject.isCanonical
            let bytes = canonical && !oursCanonical
                ? CanonicalWriter.write(
                    tree: ourProject.tree, table: ourProject.table, projectName: ourProject.projectName, dialect: ourProject.commentDialect)
                : ourProject.originalBytes
            return .done(PBXProjMergeResult(bytes: bytes, conflicts: [], isCanonical: canonical, notes: notes))
        }
        var merger = GraphMerger(base: baseProject, ours: ourProject, theirs: theirProject, versions: versions)
        try merger.run()
        notes += merger.notes
        // What finding out whether ours is in Xcode's form derives (every object's comment) writes
        // both resolutions, which are ours edited, by copying the objects no edit touched.
        let oursCheck = ourProject.canonicalCheck()
        let canonical = oursCheck.isCanonical || theirProject.isCanonical
        return .merged(GraphMerge(
            resolvedOurs: merger.resolvedOurs, resolvedTheirs: merger.resolvedTheirs, conflicts: merger.conflicts, notes: notes,
            versionChoices: merger.versionChoices, canonical: canonical, oursCheck: oursCheck))
    }

    /// Writes `bytes` to `path` through a temporary file renamed over it, so that a reader never
    /// sees a partial file. `durable`: flushed to the disk before the rename (false for git's
    /// temporary %A file, which git reads back at once and does not flush either).
    /// - Throws: `PBXProjError.unwritable` naming the path.
    public static func writeAtomically(_ bytes: [UInt8], to path: String, durable: Bool = true) throws {
        try FileIO.writeAtomically(bytes, to: path, durable: durable)
    }

    /// The project's name as its configuration list's comment gives it
    /// (`Build configuration list for PBXProject "App"`), which git's temporary files lack.
    static func detectProjectName(_ bytes: [UInt8]) -> String? {
        let marker = Array("Build configuration list for PBXProject \"".utf8)
        guard bytes.count > marker.count else { return nil }
        // The first occurrence ending before the last byte, found through its 'j' (rare in a
        // project's text, unlike its first letter) with memchr.
        let anchor = marker.firstIndex(of: UInt8(ascii: "j"))!
        let found: Int? = bytes.withUnsafeBufferPointer { text in
            guard let base = text.baseAddress else { return nil }
            var index = anchor
            let last = text.count - 1 - (marker.count - anchor)
            while index <= last {
                guard let hit = memchr(base + index, Int32(marker[anchor]), last + 1 - index) else { return nil }
                index = base.distance(to: hit.assumingMemoryBound(to: UInt8.self))
                let start = index - anchor
                if UnsafeBufferPointer(rebasing: text[start..<(start + marker.count)]).elementsEqual(marker) { return start }
                index += 1
            }
            return nil
        }
        guard let index = found else { return nil }
        let start = index + marker.count
        guard let end = bytes[start...].prefix(512).firstIndex(of: 0x22) else { return nil }
        return String(decoding: bytes[start..<end], as: UTF8.self)
    }

    private static func read(
        _ bytes: [UInt8], side: String, projectName: String, like other: PBXProject?
    ) throws -> (project: PBXProject, repeated: [String]) {
        do {
            return try RepeatedDefinitions.removeIdentical(bytes, projectName: projectName, like: other)
        } catch let error as PBXProjError {
            throw PBXProjMergeError.unreadable(side: side, error: error)
        }
    }

    private static func same(_ a: [UInt8], _ b: [UInt8]) -> Bool {
        a.withUnsafeBufferPointer { a in b.withUnsafeBufferPointer { b in ByteCompare.equal(a, b) } }
    }

    private static func repeatedNote(side: String, repeated: [String]) -> String {
        let ids = repeated.prefix(3).joined(separator: ", ") + (repeated.count > 3 ? " and \(repeated.count - 3) more" : "")
        return "the \(side) version defines \(ids) twice with the same value (left by a line merge); merged with one definition, as Xcode reads it"
    }

    private static func write(_ project: PBXProject, canonical: Bool, knowing check: CanonicalCheck) throws -> [UInt8] {
        canonical ? try project.canonicalSerialized(knowing: check) : try project.serialized()
    }
}

/// Walks the objects of the three versions and builds the two resolutions (conflicts our way,
/// conflicts their way) as edits of our version.
struct GraphMerger {
    let base: PBXProject
    let ours: PBXProject
    let theirs: PBXProject
    var resolvedOurs: PBXProject
    var resolvedTheirs: PBXProject
    var conflicts: [PBXProjMergeConflict] = []
    /// What the merge changed to keep both sides' intent (a rewritten path, ...), one sentence each.
    var notes: [String] = []
    /// What to do with a version number both sides raised.
    let versions: PBXProjVersionBumps
    /// The version numbers both sides raised, and the value kept.
    var versionChoices: [PBXProjVersionChoice] = []
    /// The ids base, theirs or ours' additions define outside our object table, found once per
    /// merge for the dangling-reference checks (nil until then).
    var idsOutsideOurTable: [String]?
    /// The targets of our and their own dangling references, found once per merge (nil until then).
    var inheritedDangling: Set<ObjectID>?
    /// The ids searched for in our text, and the entries of our table whose text mentions one
    /// (`ourEntries(mentioning:in:)`), found once per merge (nil until then).
    var ourMentions: (ids: Set<String>, entries: [Int])?

    init(base: PBXProject, ours: PBXProject, theirs: PBXProject, versions: PBXProjVersionBumps = .higher) {
        self.base = base
        self.ours = ours
        self.theirs = theirs
        self.versions = versions
        resolvedOurs = ours
        resolvedTheirs = ours
    }

    mutating func run() throws {
        try mergeRoot()
        if base.hasChanges || ours.hasChanges || theirs.hasChanges {
            try mergeObjectsByID()
        } else {
            try mergeObjectsByEntry()
        }
        try resolveDoublePlacements()
        try mergeTwinAdditions()
        try checkAddedLocations()
        idsOutsideOurTable = Self.idsOutsideOurTable(base: base, ours: ours, theirs: theirs)
        try resolveDeletedButReferenced()
        noteBuildPhaseOrder()
        checkNoNewDanglingReferences()
    }

    /// Every object of ours, in file order, then those only theirs has: the general walk.
    mutating func mergeObjectsByID() throws {
        let ourIDs = ours.objectIDs
        let ourSet = Set(ourIDs)
        for id in ourIDs { try mergeObject(id, inOurs: true) }
        for id in theirs.objectIDs where !ourSet.contains(id) { try mergeObject(id, inOurs: false) }
    }

    /// The same walk over the three object tables when no version was edited since it was read
    /// (as the merge reads them): each id is looked up by its bytes, and the objects that
    /// `mergeObject` would leave alone (the same text on both sides, or on theirs and base; an
    /// object we added; one we removed that theirs did not change) are passed over without
    /// making a String for the id or decoding anything. The others go through `mergeObject`,
    /// in the same order as `mergeObjectsByID`, so the result is the same.
    mutating func mergeObjectsByEntry() throws {
        let (ourTree, theirTree) = (ours.tree, theirs.tree)
        var (inBaseFinder, inTheirsFinder) = (SequentialFinder(base), SequentialFinder(theirs))
        for (index, entry) in ours.table.entries.enumerated() {
            let key = Int(entry.key)
            let (inTheirs, inBase) = ourTree.withContent(key) { id in (inTheirsFinder.find(id), inBaseFinder.find(id)) }
            if let inTheirs {
                if Self.sameText(ours, index, theirs, inTheirs) { continue }
                if let inBase, Self.sameText(base, inBase, theirs, inTheirs) { continue }
            } else if inBase == nil {
                continue  // we added it
            }
            try mergeObject(ObjectID(ourTree.string(key)), inOurs: true)
        }
        var (fromTheirsInBase, fromTheirsInOurs) = (SequentialFinder(base), SequentialFinder(ours))
        // The general walk asks whether ours has an id as a String, which also matches another
        // spelling of the same Unicode text (a decomposed accent; U+212A for K): for ids that
        // are not all ASCII, that is asked too (ASCII strings are equal only byte for byte).
        let oursAllASCII = ours.table.entries.allSatisfy { entry in ourTree.withContent(Int(entry.key)) { $0.allSatisfy { $0 < 0x80 } } }
        var ourStrings: Set<ObjectID>?
        for (index, entry) in theirs.table.entries.enumerated() {
            let key = Int(entry.key)
            let (inOurs, inBase, ascii) = theirTree.withContent(key) { id in
                (fromTheirsInOurs.find(id), fromTheirsInBase.find(id), id.allSatisfy { $0 < 0x80 })
            }
            if inOurs != nil { continue }
            if !(ascii && oursAllASCII) {
                if ourStrings == nil { ourStrings = Set(ours.objectIDs) }
                if ourStrings?.contains(ObjectID(theirTree.string(key))) == true { continue }
            }
            if let inBase, Self.sameText(base, inBase, theirs, index) { continue }  // we removed it, theirs did not change it
            try mergeObject(ObjectID(theirTree.string(key)), inOurs: false)
        }
    }

    /// Whether entry `i` of `a` and entry `j` of `b` have the same text as read.
    private static func sameText(_ a: PBXProject, _ i: Int, _ b: PBXProject, _ j: Int) -> Bool {
        let first = a.tree.nodes[Int(a.table.entries[i].value)], second = b.tree.nodes[Int(b.table.entries[j].value)]
        guard first.end - first.start == second.end - second.start else { return false }
        return a.tree.bytes.withUnsafeBufferPointer { x in
            b.tree.bytes.withUnsafeBufferPointer { y in
                ByteCompare.equal(
                    UnsafeBufferPointer(rebasing: x[Int(first.start)..<Int(first.end)]),
                    UnsafeBufferPointer(rebasing: y[Int(second.start)..<Int(second.end)]))
            }
        }
    }

    private mutating func mergeRoot() throws {
        var keys: [String] = []
        for project in [ours, theirs, base] {
            for key in project.tree.entries(0).map({ project.tree.string($0.key) }) where key != "objects" && !keys.contains(key) {
                keys.append(key)
            }
        }
        var values = ValueMerge()
        for key in keys {
            let o = ours.rootValue(key)
            let (mo, mt) = values.merge(base: base.rootValue(key), ours: o, theirs: theirs.rootValue(key), path: [key], orderedSets: false)
            if mo != o { try resolvedOurs.setRootValue(key, mo) }
            if mt != o { try resolvedTheirs.setRootValue(key, mt) }
        }
        for conflict in values.conflicts {
            conflicts.append(PBXProjMergeConflict(objectID: nil, comment: nil, keyPath: conflict.path, ours: conflict.ours, theirs: conflict.theirs))
        }
    }

    private mutating func mergeObject(_ id: ObjectID, inOurs: Bool) throws {
        let inTheirs = inOurs ? theirs.contains(id) : true
        let inBase = base.contains(id)
        switch (inOurs, inTheirs) {
        case (true, true):
            if sameText(id, ours, theirs) || (inBase && sameText(id, base, theirs)) { return }
            if inBase && sameText(id, base, ours) {
                try take(theirs.object(id), for: id)
                return
            }
            try mergeProperties(id, base: inBase ? base.object(id) : nil)
        case (true, false):
            guard inBase else { return }  // we added it
            if sameText(id, base, ours) || base.object(id) == ours.object(id) {
                try resolvedOurs.removeObject(id)
                try resolvedTheirs.removeObject(id)
            } else if let baseObject = base.object(id), let ourObject = ours.object(id), Self.onlyRemovesFromLists(base: baseObject, changed: ourObject) {
                try resolvedOurs.removeObject(id)
                try resolvedTheirs.removeObject(id)
                notes.append(removalNote(id, ourObject, deletedBy: "theirs", shrunkBy: "ours"))
            } else {
                try resolvedTheirs.removeObject(id)
                recordObjectConflict(id, ours: ours.object(id), theirs: nil)
            }
        case (false, true):
            let object = theirs.object(id)
            if !inBase {
                if let object { try resolvedOurs.add(object); try resolvedTheirs.add(object) }
            } else if !(sameText(id, base, theirs) || base.object(id) == object) {
                if let object, let baseObject = base.object(id), Self.onlyRemovesFromLists(base: baseObject, changed: object) {
                    notes.append(removalNote(id, object, deletedBy: "ours", shrunkBy: "theirs"))
                    return
                }
                if let object { try resolvedTheirs.add(object) }
                recordObjectConflict(id, ours: nil, theirs: object)
            }
        case (false, false):
            return
        }
    }

    /// Replaces our object with theirs in both resolutions.
    private mutating func take(_ object: PBXObject?, for id: ObjectID) throws {
        guard let object else { return }
        try resolvedOurs.update(object)
        try resolvedTheirs.update(object)
    }

    private mutating func mergeProperties(_ id: ObjectID, base baseObject: PBXObject?) throws {
        guard let ourObject = ours.object(id), let theirObject = theirs.object(id) else { return }
        var values = ValueMerge()
        if versions == .higher, let baseObject { values.versionPaths = Self.versionPaths(base: baseObject, ours: ourObject, theirs: theirObject) }
        values.wholeValues = Self.wholeValues(base: baseObject, ours: ourObject, theirs: theirObject)
        let (mo, mt) = values.mergeDictionaries(
            base: baseObject?.properties ?? PBXDictionary(), ours: ourObject.properties, theirs: theirObject.properties,
            path: [], orderedSets: true)
        if mo != ourObject.properties { try resolvedOurs.update(PBXObject(id: id, properties: mo)) }
        if mt != ourObject.properties { try resolvedTheirs.update(PBXObject(id: id, properties: mt)) }
        for conflict in values.conflicts {
            conflicts.append(PBXProjMergeConflict(
                objectID: id, comment: comment(id, ourObject), keyPath: conflict.path, ours: conflict.ours, theirs: conflict.theirs))
        }
        for choice in values.versionChoices {
            let made = PBXProjVersionChoice(
                objectID: id, comment: comment(id, ourObject), keyPath: choice.path, base: choice.base, ours: choice.ours,
                theirs: choice.theirs, kept: choice.kept)
            versionChoices.append(made)
            notes.append(made.description)
        }
    }

    /// The entries of an object that hold a version number: a build configuration's version
    /// settings (`VersionNumbers.isVersionSetting`), the version bounds of a Swift package's
    /// requirement when its kind (`upToNextMajorVersion`, `exactVersion`, ...) is the same in all
    /// three versions, and the project's marks of the last Xcode that upgraded it
    /// (`LastUpgradeCheck`, `LastSwiftUpdateCheck`, a target's `LastSwiftMigration`). Nil for
    /// other objects.
    static func versionPaths(base: PBXObject, ours: PBXObject, theirs: PBXObject) -> (([String]) -> Bool)? {
        switch ours.isa {
        case "XCBuildConfiguration":
            return { path in path.count == 2 && path[0] == "buildSettings" && VersionNumbers.isVersionSetting(path[1]) }
        case "XCRemoteSwiftPackageReference":
            let kinds = [base, ours, theirs].map { $0.properties["requirement"]?.dictionary?["kind"]?.string }
            guard let kind = kinds[0], kinds.allSatisfy({ $0 == kind }) else { return nil }
            return { path in path.count == 2 && path[0] == "requirement" && VersionNumbers.requirementKeys.contains(path[1]) }
        case "PBXProject":
            return { path in
                guard path.first == "attributes", let last = path.last else { return false }
                return (path.count == 2 && (last == "LastUpgradeCheck" || last == "LastSwiftUpdateCheck"))
                    || (path.count == 4 && path[1] == "TargetAttributes" && last == "LastSwiftMigration")
            }
        default:
            return nil
        }
    }

    /// The entries of an object that merge as a whole: a Swift package's `requirement` when its
    /// `kind` is not the same in all three versions (one side pinned a branch or a revision, or
    /// moved from an exact version to a range, while the other moved the version). Its keys
    /// belong together (`kind = branch` with `branch`, `kind = exactVersion` with `version`), so
    /// a merge key by key would put only `version` between the markers, and taking either half
    /// would give a pin neither side wrote. Nil for other objects.
    static func wholeValues(base: PBXObject?, ours: PBXObject, theirs: PBXObject) -> (([String]) -> Bool)? {
        guard ours.isa == "XCRemoteSwiftPackageReference" else { return nil }
        let kinds = [base, ours, theirs].map { $0?.properties["requirement"]?.dictionary?["kind"]?.string }
        guard kinds.contains(where: { $0 != kinds[0] }) else { return nil }
        return { path in path == ["requirement"] }
    }

    /// Whether `changed` differs from `base` only by entries removed from its lists (a group
    /// whose children moved away): deleting the object then keeps both sides' intent.
    static func onlyRemovesFromLists(base: PBXObject, changed: PBXObject) -> Bool {
        guard Set(changed.properties.keys) == Set(base.properties.keys) else { return false }
        var shrunk = false
        for key in base.properties.keys {
            let before = base.properties[key], after = changed.properties[key]
            if before == after { continue }
            guard let old = before?.array, let new = after?.array, new.count < old.count else { return false }
            var index = old.startIndex
            for element in new {
                guard let found = old[index...].firstIndex(of: element) else { return false }
                index = found + 1
            }
            shrunk = true
        }
        return shrunk
    }

    private func removalNote(_ id: ObjectID, _ object: PBXObject, deletedBy: String, shrunkBy: String) -> String {
        let subject = "\(id)" + (comment(id, object).map { " /* \($0) */" } ?? "")
        return "\(subject) was deleted by \(deletedBy); \(shrunkBy) only removed entries from its lists, so it is deleted"
    }

    private mutating func recordObjectConflict(_ id: ObjectID, ours: PBXObject?, theirs: PBXObject?) {
        let subject = ours ?? theirs
        conflicts.append(PBXProjMergeConflict(
            objectID: id, comment: subject.map { comment(id, $0) } ?? nil, keyPath: [],
            ours: ours.map { .dictionary($0.properties) }, theirs: theirs.map { .dictionary($0.properties) }))
    }

    /// The object's comment in our file, else its name, path or isa.
    private func comment(_ id: ObjectID, _ object: PBXObject) -> String? {
        if let index = ours.table.find(id.rawValue, in: ours.tree),
            let range = TextScan.commentAfter(Int(ours.tree.nodes[Int(ours.table.entries[index].key)].end), in: ours.tree.bytes),
            range.count >= 6 {
            return String(decoding: ours.tree.bytes[(range.lowerBound + 3)..<(range.upperBound - 3)], as: UTF8.self)
        }
        return object.string("name") ?? object.string("path") ?? object.isa
    }

    /// Whether the object's text is the same in both files (a fast check before decoding).
    func sameText(_ id: ObjectID, _ a: PBXProject, _ b: PBXProject) -> Bool {
        guard let first = a.rawText(id), let second = b.rawText(id) else { return false }
        return first.elementsEqual(second)
    }
}

extension PBXProject {
    /// The text of an object's dictionary as read, or nil for objects edited or added since.
    func rawText(_ id: ObjectID) -> ArraySlice<UInt8>? {
        guard changes.isEmpty, let index = table.find(id.rawValue, in: tree) else { return nil }
        return tree.rawBytes(Int(table.entries[index].value))
    }
}
