/// An object id used by more than one object of a project file.
public struct DuplicateObjectID: Hashable, Sendable {
    /// The id.
    public let id: String
    /// Where this occurrence is.
    public let location: SourceLocation
    /// Where the first object with the id is.
    public let first: SourceLocation

    /// Creates a record of a repeated id.
    public init(id: String, location: SourceLocation, first: SourceLocation) {
        self.id = id
        self.location = location
        self.first = first
    }
}

extension PBXProject {
    /// Every occurrence of an object id after its first in the `objects` of an OpenStep
    /// project file, in file order (a project cannot be read with any of them: the reader stops
    /// at the first). Empty when the text is not an OpenStep property list with `objects`.
    public static func duplicateObjectIDs(in bytes: [UInt8]) -> [DuplicateObjectID] {
        guard let tree = try? PropertyListParser.parse(bytes) else { return [] }
        let repeated = repeatedObjectEntries(in: tree)
        guard !repeated.isEmpty else { return [] }
        let lines = LineIndex(tree.bytes)
        return repeated.map { entry in
            DuplicateObjectID(id: tree.string(entry.key), location: lines.location(of: Int(tree.nodes[entry.key].start)),
                              first: lines.location(of: Int(tree.nodes[entry.first.key].start)))
        }
    }

    /// The entries of `objects` whose id an earlier entry already has, each with that first
    /// entry, in file order (key and value nodes); empty without an `objects` dictionary.
    static func repeatedObjectEntries(in tree: SyntaxTree) -> [(key: Int, value: Int, first: (key: Int, value: Int))] {
        guard let objects = tree.lookup("objects", in: 0), tree.nodes[objects].kind == .dictionary else { return [] }
        var firstEntry: [[UInt8]: (key: Int, value: Int)] = [:]
        var repeated: [(key: Int, value: Int, first: (key: Int, value: Int))] = []
        for (key, value) in tree.entries(objects) {
            let id = tree.contentBytes(key)
            if let first = firstEntry[id] { repeated.append((key, value, first)) } else { firstEntry[id] = (key, value) }
        }
        return repeated
    }
}
