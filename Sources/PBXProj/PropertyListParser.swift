#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// Reads OpenStep (ASCII) property-list text into a `SyntaxTree`.
///
/// One pass over the bytes with an explicit stack instead of recursion, so nesting depth costs
/// heap, not call stack; depth is capped at `maximumDepth` (Xcode's own files nest about 6 deep).
enum PropertyListParser {
    /// The deepest nesting accepted before reporting `PBXProjError.nestingTooDeep`.
    static let maximumDepth = 256

    /// Parses `bytes`, whose root value must be a dictionary.
    static func parse(_ bytes: [UInt8]) throws -> SyntaxTree {
        try parse(bytes, like: nil)
    }

    /// Parses `bytes` as `parse(_:)` does, giving the same tree, error for error, but taking the
    /// nodes of each object whose text, from its id to its `;`, is the same as an object's of
    /// `reference` (another version of the project: the object that comes next there, else the
    /// one with the id read) from `reference` instead of scanning it again.
    static func parse(_ bytes: [UInt8], like reference: (tree: SyntaxTree, table: ObjectTable)?) throws -> SyntaxTree {
        try parseTakingFrom(bytes, like: reference).tree
    }

    /// `parse(_:like:)`, and the objects whose nodes were taken from the reference, in order
    /// (nil without a reference).
    static func parseTakingFrom(
        _ bytes: [UInt8], like reference: (tree: SyntaxTree, table: ObjectTable)?
    ) throws -> (tree: SyntaxTree, taken: [ObjectTable.Taken]?) {
        guard !bytes.isEmpty else { throw PBXProjError.emptyFile }
        guard bytes.count < Int(UInt32.max) else { throw PBXProjError.fileTooLarge(bytes: bytes.count) }
        if let invalid = UTF8Validation.firstInvalidOffset(in: bytes) {
            throw PBXProjError.invalidUTF8(at: SourceText.location(of: invalid, in: bytes))
        }
        do {
            let (nodes, taken) = try bytes.withUnsafeBufferPointer { buffer -> ([SyntaxNode], [ObjectTable.Taken]?) in
                guard let reference else {
                    var scanner = Scanner(buffer)
                    try scanner.run()
                    return (scanner.nodes, nil)
                }
                return try reference.tree.bytes.withUnsafeBufferPointer { text in
                    try reference.tree.nodes.withUnsafeBufferPointer { nodes in
                        try reference.table.entries.withUnsafeBufferPointer { entries in
                            // Another version of the same project has about as many nodes per byte.
                            let expected = Int(Double(nodes.count) * Double(buffer.count) / Double(max(text.count, 1)))
                            var scanner = Scanner(buffer, expectedNodes: expected + expected / 64 + 256)
                            scanner.reference = Scanner.Reference(
                                tree: reference.tree, table: reference.table, text: text, nodes: nodes, entries: entries)
                            try scanner.run()
                            return (scanner.nodes, scanner.reference?.taken)
                        }
                    }
                }
            }
            return (SyntaxTree(bytes: bytes, nodes: nodes), taken)
        } catch let error as PBXProjError {
            // A conflict marker breaks the syntax somewhere after it; name the marker instead.
            if let conflict = MergeConflictMarkers.first(in: bytes) { throw conflict }
            throw error
        }
    }
}

/// The single-pass scanner behind `PropertyListParser`.
private struct Scanner {
    private struct Frame {
        var node: Int32
        var isDictionary: Bool
        /// Dictionary: 0 key or `}`, 1 `=`, 2 value, 3 `;`. Array: 0 value or `)`, 1 `,` or `)`.
        var state: UInt8
        /// The root's `objects` dictionary, whose entries may be taken from `reference`.
        var isObjects = false
    }

    /// Another version of the project whose objects' nodes are taken where the text is the same.
    /// A class, so that asking it for an object, once per object read, copies no arrays.
    final class Reference {
        let tree: SyntaxTree
        let table: ObjectTable
        let text: UnsafeBufferPointer<UInt8>
        let nodes: UnsafeBufferPointer<SyntaxNode>
        let entries: UnsafeBufferPointer<ObjectTable.Entry>
        /// The entry after the last one taken: tried first.
        var next = 0
        /// The objects taken, in order: the node of the id here, and the reference's entry.
        var taken: [ObjectTable.Taken] = []

        /// The buffers must outlive the reference (the parse that uses it).
        init(
            tree: SyntaxTree, table: ObjectTable, text: UnsafeBufferPointer<UInt8>, nodes: UnsafeBufferPointer<SyntaxNode>,
            entries: UnsafeBufferPointer<ObjectTable.Entry>
        ) {
            (self.tree, self.table, self.text, self.nodes, self.entries) = (tree, table, text, nodes, entries)
        }
    }

    var reference: Reference?

    let buffer: UnsafeBufferPointer<UInt8>
    var position = 0
    var nodes: [SyntaxNode] = []
    private var stack: [Frame] = []

    /// `expectedNodes`: how many nodes the text is expected to have (the capacity reserved);
    /// else one per 16 bytes (Xcode-written files have 21 to 29 bytes per node). Growth handles
    /// denser text.
    init(_ buffer: UnsafeBufferPointer<UInt8>, expectedNodes: Int? = nil) {
        self.buffer = buffer
        nodes.reserveCapacity(expectedNodes ?? buffer.count / 16 + 16)
    }

    // Bytes allowed in an unquoted string, as a 128-bit set: A-Z a-z 0-9 _ $ + / : . -
    private static let bareLow: UInt64 = {
        var bits: UInt64 = 0
        for byte in Array("0123456789$+/:.-".utf8) { bits |= 1 << UInt64(byte) }
        return bits
    }()
    private static let bareHigh: UInt64 = {
        var bits: UInt64 = 0
        for byte in Array("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz_".utf8) {
            bits |= 1 << UInt64(byte - 64)
        }
        return bits
    }()

    mutating func run() throws {
        try skipTrivia()
        guard position < buffer.count else {
            throw PBXProjError.unexpectedEnd(expected: "'{' starting the project", at: location(position))
        }
        guard buffer[position] == UInt8(ascii: "{") else {
            throw unexpected(expected: "'{' starting the project")
        }
        try openContainer(.dictionary)
        let low = Scanner.bareLow, high = Scanner.bareHigh
        while !stack.isEmpty {
            try skipTrivia()
            guard position < buffer.count else { throw unexpectedEnd() }
            if stack[stack.count - 1].isDictionary {
                try stepDictionary(low, high)
            } else {
                try stepArray(low, high)
            }
        }
        try skipTrivia()
        if position < buffer.count {
            throw unexpected(expected: "nothing after the project's closing '}'")
        }
    }

    private mutating func stepDictionary(_ low: UInt64, _ high: UInt64) throws {
        let top = stack.count - 1
        let byte = buffer[position]
        switch stack[top].state {
        case 0:
            if byte == UInt8(ascii: "}") { return closeContainer() }
            if stack[top].isObjects, reference != nil, takeObjectFromReference() { return }
            guard byte == UInt8(ascii: "\"") || byte == UInt8(ascii: "'") || isBare(byte, low, high) else {
                throw unexpected(expected: "a key or '}'")
            }
            stack[top].state = 1
            try scanScalar(low, high)
        case 1:
            guard byte == UInt8(ascii: "=") else { throw unexpected(expected: "'='") }
            position += 1
            stack[top].state = 2
        case 2:
            stack[top].state = 3
            try scanValue(low, high)
        default:
            guard byte == UInt8(ascii: ";") else { throw unexpected(expected: "';'") }
            position += 1
            stack[top].state = 0
        }
    }

    private mutating func stepArray(_ low: UInt64, _ high: UInt64) throws {
        let top = stack.count - 1
        let byte = buffer[position]
        if stack[top].state == 0 {
            if byte == UInt8(ascii: ")") { return closeContainer() }
            stack[top].state = 1
            try scanValue(low, high)
            return
        }
        if byte == UInt8(ascii: ",") {
            position += 1
            stack[top].state = 0
        } else if byte == UInt8(ascii: ")") {
            closeContainer()
        } else {
            throw unexpected(expected: "',' or ')'")
        }
    }

    @inline(__always)
    private func isBare(_ byte: UInt8, _ low: UInt64, _ high: UInt64) -> Bool {
        if byte < 64 { return (low >> UInt64(byte)) & 1 != 0 }
        if byte < 128 { return (high >> UInt64(byte - 64)) & 1 != 0 }
        return false
    }

    private mutating func scanValue(_ low: UInt64, _ high: UInt64) throws {
        switch buffer[position] {
        case UInt8(ascii: "{"): try openContainer(.dictionary)
        case UInt8(ascii: "("): try openContainer(.array)
        case UInt8(ascii: "<"): try scanData()
        default: try scanScalar(low, high)
        }
    }

    private mutating func scanScalar(_ low: UInt64, _ high: UInt64) throws {
        let start = position
        let byte = buffer[position]
        if byte == UInt8(ascii: "\"") || byte == UInt8(ascii: "'") {
            let escapes = try scanQuoted(quote: byte)
            append(.quoted, start, flags: escapes ? SyntaxNode.hasEscapes : 0)
            return
        }
        guard isBare(byte, low, high) else { throw unexpected(expected: "a value") }
        position += 1
        while position < buffer.count, isBare(buffer[position], low, high) { position += 1 }
        append(.unquoted, start, flags: 0)
    }

    /// Moves past a quoted string; returns whether it contains escapes.
    private mutating func scanQuoted(quote: UInt8) throws -> Bool {
        let start = position
        position += 1
        var escapes = false
        while position < buffer.count {
            let byte = buffer[position]
            if byte == quote {
                position += 1
                return escapes
            }
            if byte == UInt8(ascii: "\\") {
                guard let length = StringEscapes.escapeLength(buffer, at: position) else {
                    let end = min(position + 2, buffer.count)
                    let sequence = String(decoding: UnsafeBufferPointer(rebasing: buffer[position..<end]), as: UTF8.self)
                    if end == buffer.count { throw PBXProjError.unterminatedString(at: location(start)) }
                    throw PBXProjError.invalidEscape(sequence: sequence, at: location(position))
                }
                escapes = true
                position += length
            } else {
                position += 1
            }
        }
        throw PBXProjError.unterminatedString(at: location(start))
    }

    private mutating func scanData() throws {
        let start = position
        position += 1
        while position < buffer.count {
            let byte = buffer[position]
            if byte == UInt8(ascii: ">") {
                position += 1
                append(.data, start, flags: 0)
                return
            }
            guard StringEscapes.hexValue(byte) != nil || byte == 0x20 || byte == 0x09 || byte == 0x0A || byte == 0x0D
            else { throw unexpected(expected: "hex digits or '>' in <data>") }
            position += 1
        }
        throw PBXProjError.unexpectedEnd(expected: "'>' closing the data that opens at line \(location(start).line)", at: location(position))
    }

    private mutating func append(_ kind: NodeKind, _ start: Int, flags: UInt8) {
        let index = UInt32(nodes.count)
        nodes.append(SyntaxNode(start: UInt32(start), end: UInt32(position), link: index + 1, kind: kind, flags: flags))
    }

    private mutating func openContainer(_ kind: NodeKind) throws {
        guard stack.count < PropertyListParser.maximumDepth else {
            throw PBXProjError.nestingTooDeep(limit: PropertyListParser.maximumDepth, at: location(position))
        }
        // A dictionary that is the value of the root's `objects` (its key is the last node).
        let isObjects = reference != nil && kind == .dictionary && stack.count == 1 && stack[0].isDictionary
            && nodes.last.map { isObjectsKey($0) } == true
        stack.append(Frame(node: Int32(nodes.count), isDictionary: kind == .dictionary, state: 0, isObjects: isObjects))
        nodes.append(SyntaxNode(start: UInt32(position), end: 0, link: 0, kind: kind, flags: 0))
        position += 1
    }

    private func isObjectsKey(_ key: SyntaxNode) -> Bool {
        var (start, end) = (Int(key.start), Int(key.end))
        if key.kind == .quoted {
            guard key.flags == 0 else { return false }
            (start, end) = (start + 1, end - 1)
        } else if key.kind != .unquoted {
            return false
        }
        return UnsafeBufferPointer(rebasing: buffer[start..<end]).elementsEqual("objects".utf8)
    }

    /// At an entry of `objects`: when the text from here to the entry's `;` is the same as an
    /// object's of the reference (from its id to a `;` right after its value), appends that
    /// object's nodes, moved to this text, and moves past it. The nodes are the ones the scan
    /// would make: the same text read from the same state.
    private mutating func takeObjectFromReference() -> Bool {
        guard let reference else { return false }
        let entries = reference.entries
        // The node the object's id gets here.
        let key = nodes.count
        if reference.next < entries.count, take(entries[reference.next], from: reference) {
            reference.taken.append(ObjectTable.Taken(key: Int32(key), from: Int32(reference.next)))
            reference.next += 1
            return true
        }
        // Else the reference's object with the id here (bare, or quoted without escapes).
        let byte = buffer[position]
        let quoted = byte == UInt8(ascii: "\"") || byte == UInt8(ascii: "'")
        let start = quoted ? position + 1 : position
        var end = start
        if quoted {
            while end < buffer.count, buffer[end] != byte {
                if buffer[end] == UInt8(ascii: "\\") { return false }
                end += 1
            }
            guard end < buffer.count else { return false }
        } else {
            while end < buffer.count, isBare(buffer[end], Scanner.bareLow, Scanner.bareHigh) { end += 1 }
        }
        let content = UnsafeBufferPointer(rebasing: buffer[start..<end])
        guard !content.isEmpty, let found = reference.table.find(content, in: reference.tree), take(entries[found], from: reference) else {
            return false
        }
        reference.taken.append(ObjectTable.Taken(key: Int32(key), from: Int32(found)))
        reference.next = found + 1
        return true
    }

    /// Appends the nodes of the reference's `entry` when its text, from its id to a `;` right
    /// after its value, is the text here; moves past it.
    private mutating func take(_ entry: ObjectTable.Entry, from reference: Reference) -> Bool {
        let key = Int(entry.key), value = Int(entry.value)
        let keyStart = Int(reference.nodes[key].start), valueEnd = Int(reference.nodes[value].end)
        guard valueEnd < reference.text.count, reference.text[valueEnd] == UInt8(ascii: ";") else { return false }
        let length = valueEnd + 1 - keyStart
        guard position + length <= buffer.count,
            ByteCompare.equal(
                UnsafeBufferPointer(rebasing: buffer[position..<(position + length)]),
                UnsafeBufferPointer(rebasing: reference.text[keyStart..<(keyStart + length)]))
        else { return false }
        let last = Int(reference.nodes[value].link)
        let byteShift = position - keyStart, nodeShift = nodes.count - key
        for index in key..<last {
            let node = reference.nodes[index]
            nodes.append(SyntaxNode(
                start: UInt32(Int(node.start) + byteShift), end: UInt32(Int(node.end) + byteShift),
                link: UInt32(Int(node.link) + nodeShift), kind: node.kind, flags: node.flags))
        }
        position += length
        return true
    }

    private mutating func closeContainer() {
        let frame = stack.removeLast()
        position += 1
        nodes[Int(frame.node)].end = UInt32(position)
        nodes[Int(frame.node)].link = UInt32(nodes.count)
    }

    private mutating func skipTrivia() throws {
        while position < buffer.count {
            let byte = buffer[position]
            if byte == 0x20 || byte == 0x09 || byte == 0x0A || byte == 0x0D || byte == 0x0C || byte == 0x0B {
                position += 1
            } else if byte == UInt8(ascii: "/"), position + 1 < buffer.count, buffer[position + 1] == UInt8(ascii: "*") {
                try skipBlockComment()
            } else if byte == UInt8(ascii: "/"), position + 1 < buffer.count, buffer[position + 1] == UInt8(ascii: "/") {
                while position < buffer.count, buffer[position] != 0x0A { position += 1 }
            } else if byte == 0xEF, position == 0, buffer.count >= 3, buffer[1] == 0xBB, buffer[2] == 0xBF {
                position = 3  // a UTF-8 byte-order mark
            } else {
                return
            }
        }
    }

    private mutating func skipBlockComment() throws {
        let start = position
        position += 2
        guard let base = buffer.baseAddress else { throw PBXProjError.unterminatedComment(at: location(start)) }
        // Each `*` found with memchr (a comment is a quarter of an Xcode file's bytes).
        while position + 1 < buffer.count {
            guard let star = memchr(base + position, Int32(UInt8(ascii: "*")), buffer.count - 1 - position) else { break }
            position = base.distance(to: star.assumingMemoryBound(to: UInt8.self))
            if buffer[position + 1] == UInt8(ascii: "/") {
                position += 2
                return
            }
            position += 1
        }
        throw PBXProjError.unterminatedComment(at: location(start))
    }

    private func location(_ offset: Int) -> SourceLocation {
        var line = 1
        var lineStart = 0
        for i in 0..<min(offset, buffer.count) where buffer[i] == 0x0A {
            line += 1
            lineStart = i + 1
        }
        var column = 1
        for i in lineStart..<min(offset, buffer.count) where buffer[i] & 0xC0 != 0x80 { column += 1 }
        return SourceLocation(line: line, column: column)
    }

    private func unexpected(expected: String) -> PBXProjError {
        let byte = buffer[position]
        let found: String
        switch byte {
        case 0x0A: found = "\\n"
        case 0x20..<0x7F: found = String(UnicodeScalar(byte))
        default: found = "\\u{\(String(byte, radix: 16))}"
        }
        return PBXProjError.unexpectedCharacter(found: found, expected: expected, at: location(position))
    }

    private func unexpectedEnd() -> PBXProjError {
        guard let frame = stack.last else {
            return PBXProjError.unexpectedEnd(expected: "a value", at: location(position))
        }
        let opened = location(Int(nodes[Int(frame.node)].start))
        let what = frame.isDictionary ? "'}' closing the dictionary" : "')' closing the list"
        return PBXProjError.unexpectedEnd(expected: "\(what) that opens at line \(opened.line)", at: location(position))
    }
}

/// Finds git merge-conflict markers at line starts.
enum MergeConflictMarkers {
    /// The first marker line as an error, or nil when there is none.
    static func first(in bytes: [UInt8]) -> PBXProjError? {
        let markers: [UInt8] = [UInt8(ascii: "<"), UInt8(ascii: "="), UInt8(ascii: ">"), UInt8(ascii: "|")]
        var lineStart = 0
        var line = 1
        while lineStart < bytes.count {
            var lineEnd = lineStart
            while lineEnd < bytes.count, bytes[lineEnd] != 0x0A { lineEnd += 1 }
            let length = lineEnd - lineStart
            if length >= 7, markers.contains(bytes[lineStart]) {
                let first = bytes[lineStart]
                let run = (0..<7).allSatisfy { bytes[lineStart + $0] == first }
                let after = length == 7 ? UInt8(0x20) : bytes[lineStart + 7]
                if run, after == 0x20 || after == 0x0D, first != UInt8(ascii: "=") || length <= 8 {
                    let text = String(decoding: bytes[lineStart..<lineEnd], as: UTF8.self)
                    let marker = text.trimmingSuffix(while: { $0 == "\r" })
                    return .mergeConflict(marker: marker, at: SourceLocation(line: line, column: 1))
                }
            }
            lineStart = lineEnd + 1
            line += 1
        }
        return nil
    }
}

extension String {
    /// The string without trailing characters matching `predicate`.
    func trimmingSuffix(while predicate: (Character) -> Bool) -> String {
        var result = self
        while let last = result.last, predicate(last) { result.removeLast() }
        return result
    }
}
