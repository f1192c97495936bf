/// An Xcode project file (`project.pbxproj`): read losslessly, queried and edited as values,
/// and written back changing only the bytes an edit must change.
///
/// ```swift
/// var project = try PBXProject(bytes: data, projectName: "App")
/// let file = project.fileReferences.first { $0.path == "Old.swift" }!.id
/// try project.setPath(of: file, to: "New.swift")
/// let bytes = try project.serialized()   // differs only in that file's lines and comments
/// ```
///
/// The original bytes and a syntax tree over them are kept; edits are recorded as replaced,
/// added and removed objects. `serialized()` copies the original text and splices in only the
/// edited entries, in the style of their surroundings; `canonicalSerialized()` writes the whole
/// file the way Xcode would.
public struct PBXProject: Sendable {
    /// The form of the file that was read.
    public enum SourceFormat: Sendable, Hashable {
        /// OpenStep ASCII, what Xcode writes.
        case openStep
        /// An XML property list (Xcode reads these and writes them back as ASCII).
        case xml
    }

    /// The form of the file that was read. XML input is kept in Xcode's ASCII form from the
    /// start, so writing it always gives ASCII.
    public let sourceFormat: SourceFormat
    /// The project's name (the `.xcodeproj` folder's name without the extension); Xcode uses it
    /// in the comment of the project's configuration list.
    public var projectName: String

    let tree: SyntaxTree
    let table: ObjectTable
    /// The comment wording of the file as read (Xcode 26 changed it).
    let commentDialect: CommentDialect
    var changes = ChangeSet()

    /// Reads a project from the bytes of a `project.pbxproj` (ASCII or XML property list).
    ///
    /// - Throws: `PBXProjError` naming line and column for syntax errors, invalid UTF-8, merge
    ///   conflict markers, duplicate object ids and files that are not projects.
    public init(bytes: [UInt8], projectName: String) throws {
        try self.init(bytes: bytes, projectName: projectName, like: nil)
    }

    /// Reads a project as `init(bytes:projectName:)` does (the same project, the same errors),
    /// taking the nodes of each object whose text is the same as in `other` (another version of
    /// it, read before: the merge's three versions) from `other` instead of scanning it again.
    init(bytes: [UInt8], projectName: String, like other: PBXProject?) throws {
        self.projectName = projectName
        // The objects taken from the other version, which are indexed through its table.
        var taken: (table: ObjectTable, objects: [ObjectTable.Taken])?
        if let other, other.sourceFormat == .openStep, !XMLPropertyList.looksLikeXML(bytes) {
            let read = try PropertyListParser.parseTakingFrom(bytes, like: (other.tree, other.table))
            tree = read.tree
            taken = (other.table, read.taken ?? [])
            sourceFormat = .openStep
        } else if XMLPropertyList.looksLikeXML(bytes) {
            let root = try XMLPropertyList.parse(bytes)
            let draft = try SyntaxTree.parseRendered(root)
            let draftTable = try ObjectTable(tree: draft)
            let canonical = CanonicalWriter.write(
                tree: draft, table: draftTable, projectName: projectName,
                dialect: CommentDialect.fallback(objectVersion: draft.objectVersion))
            tree = try PropertyListParser.parse(canonical)
            sourceFormat = .xml
        } else {
            tree = try PropertyListParser.parse(bytes)
            sourceFormat = .openStep
        }
        if let taken {
            table = try ObjectTable(tree: tree, like: taken.table, taken: taken.objects)
        } else {
            table = try ObjectTable(tree: tree)
        }
        commentDialect = CommentDialect.detect(tree: tree, table: table)
    }

    /// Whether anything was edited since the project was read.
    public var hasChanges: Bool { !changes.isEmpty }

    /// The bytes that were read (for XML input: their ASCII form).
    public var originalBytes: [UInt8] { tree.bytes }

    // MARK: - Top level

    /// A top-level value: `archiveVersion`, `objectVersion`, `rootObject`, `classes`.
    public func rootValue(_ key: String) -> PBXValue? {
        if let changed = changes.root[key] { return changed }
        guard key != "objects", let node = tree.lookup(key, in: 0) else { return nil }
        return tree.value(node)
    }

    /// Sets or (with nil) removes a top-level value other than `objects`.
    public mutating func setRootValue(_ key: String, _ value: PBXValue?) throws {
        guard key != "objects" else {
            throw PBXProjError.invalidArgument(message: "'objects' cannot be replaced as a whole; edit its objects instead")
        }
        changes.root[key] = .some(value)
    }

    /// The file format version (`objectVersion`), e.g. 77 for Xcode 16.
    public var objectVersion: Int? { rootValue("objectVersion")?.string.flatMap { Int($0) } }

    /// The id of the `PBXProject` object (`rootObject`).
    public var rootObjectID: ObjectID? { rootValue("rootObject")?.string.map { ObjectID($0) } }

    // MARK: - Objects

    /// The object with `id`, or nil.
    public func object(_ id: ObjectID) -> PBXObject? {
        if !changes.isEmpty {
            if let changed = changes.objects[id] { return changed }
            if changes.removed.contains(id) { return nil }
        }
        guard let index = table.find(id.rawValue, in: tree) else { return nil }
        return decodedObject(index)
    }

    /// Whether an object with `id` exists.
    public func contains(_ id: ObjectID) -> Bool {
        if changes.objects[id] != nil { return true }
        if changes.removed.contains(id) { return false }
        return table.find(id.rawValue, in: tree) != nil
    }

    /// The isa of the object with `id`, without decoding the object.
    public func isa(of id: ObjectID) -> String? {
        if let changed = changes.objects[id] { return changed.isa }
        if changes.removed.contains(id) { return nil }
        return table.find(id.rawValue, in: tree).map { table.isa($0) }
    }

    /// Every object id: those read, in file order, then those added.
    public var objectIDs: [ObjectID] {
        var ids: [ObjectID] = []
        ids.reserveCapacity(table.entries.count + changes.added.count)
        for entry in table.entries {
            let id = ObjectID(tree.string(Int(entry.key)))
            if changes.isEmpty || !changes.removed.contains(id) { ids.append(id) }
        }
        ids.append(contentsOf: changes.added)
        return ids
    }

    /// The ids of every object of class `isa`, in file order then those added.
    public func objectIDs(isa: String) -> [ObjectID] {
        var ids: [ObjectID] = []
        let code = table.isaIndex(isa)
        for entry in table.entries where entry.isa == code {
            let id = ObjectID(tree.string(Int(entry.key)))
            if !changes.isEmpty {
                if changes.removed.contains(id) { continue }
                if let changed = changes.objects[id], changed.isa != isa { continue }
            }
            ids.append(id)
        }
        guard !changes.isEmpty else { return ids }
        // Objects read with another isa and edited into this one, then added objects.
        let retyped = changes.objects.filter { id, object in
            object.isa == isa && !changes.added.contains(id)
                && table.find(id.rawValue, in: tree).map { table.entries[$0].isa != code } == true
        }
        ids += retyped.keys.sorted()
        ids += changes.added.filter { changes.objects[$0]?.isa == isa }
        return ids
    }

    /// Every object of class `isa`.
    public func objects(isa: String) -> [PBXObject] {
        objectIDs(isa: isa).compactMap { object($0) }
    }

    /// Where the object's id is in the file that was read (nil for added objects).
    public func location(of id: ObjectID) -> SourceLocation? {
        table.find(id.rawValue, in: tree).map { tree.location(ofNode: Int(table.entries[$0].key)) }
    }

    func decodedObject(_ index: Int) -> PBXObject {
        let entry = table.entries[index]
        return PBXObject(id: ObjectID(tree.string(Int(entry.key))), properties: tree.dictionary(Int(entry.value)))
    }
}

/// The edits made to a project since it was read.
struct ChangeSet: Sendable {
    /// Replaced and added objects.
    var objects: [ObjectID: PBXObject] = [:]
    /// Removed objects that were read from the file.
    var removed: Set<ObjectID> = []
    /// Added objects in the order they were added.
    var added: [ObjectID] = []
    /// Changed top-level values (nil: removed).
    var root: [String: PBXValue?] = [:]

    var isEmpty: Bool { objects.isEmpty && removed.isEmpty && root.isEmpty }
}

extension CommentDialect {
    /// The dialect for a file whose comments say nothing: Xcode 26's from objectVersion 90 on.
    static func fallback(objectVersion: Int) -> CommentDialect {
        objectVersion >= 90 ? .xcode26 : .classic
    }

    /// The dialect the file's own comments use: a build configuration's comment that goes on
    /// after its name ("Debug configuration for ...") or an exception set's "Exceptions for ..."
    /// shows Xcode 26 wrote it; any other such comment shows an older Xcode; with neither, the
    /// objectVersion decides.
    static func detect(tree: SyntaxTree, table: ObjectTable) -> CommentDialect {
        var sawClassic = false
        for entry in table.entries {
            let isa = table.isaNames[Int(entry.isa)]
            let isConfiguration = isa == "XCBuildConfiguration"
            guard isConfiguration || (isa.hasPrefix("PBXFileSystemSynchronized") && isa.hasSuffix("ExceptionSet")),
                let range = TextScan.commentAfter(Int(tree.nodes[Int(entry.key)].end), in: tree.bytes),
                range.count >= 6
            else { continue }
            let comment = Array(tree.bytes[(range.lowerBound + 3)..<(range.upperBound - 3)])
            if isConfiguration {
                let name = tree.lookup("name", in: Int(entry.value)).flatMap { tree.isString($0) ? tree.contentBytes($0) : nil } ?? []
                if comment != name, comment.starts(with: name + Array(" configuration for ".utf8)) { return .xcode26 }
            } else if comment.starts(with: Array("Exceptions for ".utf8)) {
                return .xcode26
            }
            sawClassic = true
        }
        return sawClassic ? .classic : fallback(objectVersion: tree.objectVersion)
    }
}

extension SyntaxTree {
    /// The top-level `objectVersion` as a number (0 when absent).
    var objectVersion: Int {
        lookup("objectVersion", in: 0).flatMap { Int(string($0)) } ?? 0
    }
}
