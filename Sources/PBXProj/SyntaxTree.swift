/// The kind of one node of the syntax tree.
enum NodeKind: UInt8 {
    /// A bare word: `PBXGroup`, `Sources/main.swift`, `1`.
    case unquoted
    /// A string in double or single quotes; escapes are decoded on demand.
    case quoted
    /// `<0fbd 771c>` hex data.
    case data
    /// `{ key = value; ... }`; its children alternate key, value.
    case dictionary
    /// `( value, ... )`.
    case array
}

/// One token or container of an OpenStep property list, as byte offsets into the source.
///
/// Nodes are stored in preorder in one flat array; a container is followed by its children and
/// `link` points past its whole subtree, so skipping a value is one step. 16 bytes per node keeps
/// a 50 MB project's tree well under the file's own size times two.
struct SyntaxNode: Sendable {
    /// Offset of the first byte (the opening quote or bracket included).
    var start: UInt32
    /// Offset one past the last byte (the closing quote or bracket included).
    var end: UInt32
    /// Index of the first node after this node's subtree.
    var link: UInt32
    /// What the node is.
    var kind: NodeKind
    /// For quoted strings: 1 when the text contains a backslash escape.
    var flags: UInt8

    static let hasEscapes: UInt8 = 1
}

/// A parsed OpenStep (ASCII) property list: the source bytes and the flat node array over them.
/// Node 0 is the root dictionary. The tree never changes once parsed.
struct SyntaxTree: Sendable {
    /// The source text, exactly as read.
    let bytes: [UInt8]
    /// Every value and key in preorder.
    let nodes: [SyntaxNode]

    /// The node's source text, quotes and all.
    func rawBytes(_ index: Int) -> ArraySlice<UInt8> {
        let node = nodes[index]
        return bytes[Int(node.start)..<Int(node.end)]
    }

    /// The index of the node after `index`'s subtree.
    @inline(__always)
    func next(_ index: Int) -> Int { Int(nodes[index].link) }

    /// Whether the node is a string (quoted or not).
    @inline(__always)
    func isString(_ index: Int) -> Bool {
        let kind = nodes[index].kind
        return kind == .unquoted || kind == .quoted
    }

    /// The children of a container: for a dictionary they alternate key, value.
    func children(_ index: Int) -> ChildSequence {
        ChildSequence(tree: self, current: index + 1, end: next(index))
    }

    /// Iterates the direct children of a container node.
    struct ChildSequence: Sequence, IteratorProtocol {
        let tree: SyntaxTree
        var current: Int
        let end: Int

        mutating func next() -> Int? {
            guard current < end else { return nil }
            defer { current = tree.next(current) }
            return current
        }
    }

    /// The (key, value) node pairs of a dictionary node.
    func entries(_ index: Int) -> [(key: Int, value: Int)] {
        var result: [(key: Int, value: Int)] = []
        var cursor = index + 1
        let end = next(index)
        while cursor < end {
            let value = cursor + 1
            result.append((cursor, value))
            cursor = next(value)
        }
        return result
    }

    /// The value node for `key` in a dictionary node, comparing decoded key text.
    func lookup(_ key: String, in dictionary: Int) -> Int? {
        var key = key
        return key.withUTF8 { lookup(bytes: $0, in: dictionary) }
    }

    /// `lookup(_:in:)` for a literal key (no String made per call).
    func lookup(_ key: StaticString, in dictionary: Int) -> Int? {
        key.withUTF8Buffer { lookup(bytes: $0, in: dictionary) }
    }

    private func lookup(bytes wanted: UnsafeBufferPointer<UInt8>, in dictionary: Int) -> Int? {
        var cursor = dictionary + 1
        let end = next(dictionary)
        while cursor < end {
            if contentEquals(cursor, wanted) { return cursor + 1 }
            cursor = next(cursor + 1)
        }
        return nil
    }

    /// Runs `body` over the decoded content of a string node (no quotes, escapes resolved),
    /// without copying when the text has no escapes.
    func withContent<R>(_ index: Int, _ body: (UnsafeBufferPointer<UInt8>) throws -> R) rethrows -> R {
        let node = nodes[index]
        switch node.kind {
        case .quoted where node.flags & SyntaxNode.hasEscapes != 0:
            let decoded = StringEscapes.decode(bytes[Int(node.start) + 1..<Int(node.end) - 1])
            return try decoded.withUnsafeBufferPointer(body)
        case .quoted:
            return try bytes.withUnsafeBufferPointer { all in
                try body(UnsafeBufferPointer(rebasing: all[Int(node.start) + 1..<Int(node.end) - 1]))
            }
        default:
            return try bytes.withUnsafeBufferPointer { all in
                try body(UnsafeBufferPointer(rebasing: all[Int(node.start)..<Int(node.end)]))
            }
        }
    }

    /// The decoded content of a string node as bytes.
    func contentBytes(_ index: Int) -> [UInt8] {
        withContent(index) { Array($0) }
    }

    /// The decoded content of a string node as a String (data nodes give their hex text).
    func string(_ index: Int) -> String {
        if nodes[index].kind == .data { return String(decoding: rawBytes(index), as: UTF8.self) }
        return withContent(index) { String(decoding: $0, as: UTF8.self) }
    }

    /// Whether a string node's decoded content equals `other`.
    func contentEquals(_ index: Int, _ other: UnsafeBufferPointer<UInt8>) -> Bool {
        let node = nodes[index]
        if node.kind == .unquoted || (node.kind == .quoted && node.flags == 0) {
            let offset = node.kind == .quoted ? 1 : 0
            let start = Int(node.start) + offset, end = Int(node.end) - offset
            guard end - start == other.count else { return false }
            return bytes.withUnsafeBufferPointer { all in
                ByteCompare.equal(UnsafeBufferPointer(rebasing: all[start..<end]), other)
            }
        }
        guard node.kind == .quoted else { return false }
        return withContent(index) { $0.elementsEqual(other) }
    }

    /// Whether a string node's decoded content equals the ASCII literal.
    func contentEquals(_ index: Int, _ literal: StaticString) -> Bool {
        literal.withUTF8Buffer { contentEquals(index, $0) }
    }

    /// The 1-based line and column of a byte offset.
    func location(of offset: Int) -> SourceLocation {
        SourceText.location(of: offset, in: bytes)
    }

    /// The location of a node's first byte.
    func location(ofNode index: Int) -> SourceLocation {
        location(of: Int(nodes[index].start))
    }
}

/// Line and column arithmetic over raw bytes.
enum SourceText {
    /// The 1-based line and column of `offset`; columns count Unicode scalars.
    static func location(of offset: Int, in bytes: [UInt8]) -> SourceLocation {
        let limit = min(max(offset, 0), bytes.count)
        var line = 1
        var lineStart = 0
        for i in 0..<limit where bytes[i] == 0x0A {
            line += 1
            lineStart = i + 1
        }
        var column = 1
        for i in lineStart..<limit where bytes[i] & 0xC0 != 0x80 {
            column += 1
        }
        return SourceLocation(line: line, column: column)
    }
}

/// Line starts of a text, for turning many offsets into locations without rescanning.
struct LineIndex {
    private let bytes: [UInt8]
    private let starts: [Int]

    init(_ bytes: [UInt8]) {
        self.bytes = bytes
        var starts = [0]
        for (offset, byte) in bytes.enumerated() where byte == 0x0A { starts.append(offset + 1) }
        self.starts = starts
    }

    /// The 1-based line and column of `offset` (columns count Unicode scalars).
    func location(of offset: Int) -> SourceLocation {
        let offset = min(max(offset, 0), bytes.count)
        var low = 0, high = starts.count - 1
        while low < high {
            let middle = (low + high + 1) / 2
            if starts[middle] <= offset { low = middle } else { high = middle - 1 }
        }
        var column = 1
        for i in starts[low]..<offset where bytes[i] & 0xC0 != 0x80 { column += 1 }
        return SourceLocation(line: low + 1, column: column)
    }
}

/// Word-at-a-time byte comparison.
enum ByteCompare {
    /// Whether two buffers hold the same bytes.
    @inline(__always)
    static func equal(_ a: UnsafeBufferPointer<UInt8>, _ b: UnsafeBufferPointer<UInt8>) -> Bool {
        guard a.count == b.count else { return false }
        guard let left = a.baseAddress, let right = b.baseAddress else { return a.count == 0 }
        var i = 0
        while i + 8 <= a.count {
            let x = UnsafeRawPointer(left + i).loadUnaligned(as: UInt64.self)
            let y = UnsafeRawPointer(right + i).loadUnaligned(as: UInt64.self)
            if x != y { return false }
            i += 8
        }
        while i < a.count {
            if left[i] != right[i] { return false }
            i += 1
        }
        return true
    }
}
