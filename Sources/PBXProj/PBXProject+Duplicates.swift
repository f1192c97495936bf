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
        guard let tree = try? PropertyListParser.parse(bytes), let objects = tree.lookup("objects", in: 0),
            tree.nodes[objects].kind == .dictionary
        else { return [] }
        var firstKey: [[UInt8]: Int] = [:]
        var repeated: [(key: Int, first: Int)] = []
        for (key, _) in tree.entries(objects) {
            let id = tree.contentBytes(key)
            if let first = firstKey[id] { repeated.append((key, first)) } else { firstKey[id] = key }
        }
        guard !repeated.isEmpty else { return [] }
        let lines = LineIndex(tree.bytes)
        return repeated.map { key, first in
            DuplicateObjectID(id: tree.string(key), location: lines.location(of: Int(tree.nodes[key].start)),
                              first: lines.location(of: Int(tree.nodes[first].start)))
        }
    }
}
