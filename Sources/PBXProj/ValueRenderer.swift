/// The layout conventions of one file, detected from its text so that edits look like their
/// surroundings: indentation, whether every value is quoted (SwiftPM's old generator), whether
/// ids carry comments, whether objects sit in `/* Begin ... section */` blocks.
struct DocumentStyle: Sendable {
    /// The whitespace before an object's id (`\t\t` in Xcode's files).
    var objectIndent: [UInt8] = [0x09, 0x09]
    /// One level of indentation (`\t`, or three spaces in SwiftPM-generated files).
    var indentUnit: [UInt8] = [0x09]
    /// Whether values are always quoted.
    var quoteAll = false
    /// Whether object ids carry `/* comments */`.
    var usesComments = true
    /// Whether objects are grouped in section comments.
    var usesSections = true
    /// The file's objectVersion.
    var objectVersion = 0

    /// Detects the style of a parsed file.
    static func detect(tree: SyntaxTree, table: ObjectTable) -> DocumentStyle {
        var style = DocumentStyle()
        style.objectVersion = tree.objectVersion
        let objects = tree.nodes[table.objectsNode]
        let region = tree.bytes[Int(objects.start)..<Int(objects.end)]
        style.usesComments = TextScan.contains(region, "/*")
        style.usesSections = TextScan.contains(region, "/* Begin ")
        guard let first = table.entries.first else { return style }
        style.objectIndent = TextScan.indentation(before: Int(tree.nodes[Int(first.key)].start), in: tree.bytes)
        if let isa = tree.lookup("isa", in: Int(first.value)) {
            style.quoteAll = tree.nodes[isa].kind == .quoted
        }
        for entry in table.entries.prefix(64) {
            let body = Int(entry.value)
            guard let firstKey = tree.entries(body).first?.key,
                TextScan.isFirstOnLine(Int(tree.nodes[firstKey].start), in: tree.bytes)
            else { continue }
            let inner = TextScan.indentation(before: Int(tree.nodes[firstKey].start), in: tree.bytes)
            if inner.count > style.objectIndent.count, inner.starts(with: style.objectIndent) {
                style.indentUnit = Array(inner.dropFirst(style.objectIndent.count))
            }
            break
        }
        return style
    }
}

/// Writes values that have no text yet, in a file's style. It writes no comments: the comment
/// pass adds them afterwards from the finished objects.
struct ValueRenderer {
    let style: DocumentStyle

    /// Appends an object entry `id = { ... };` (without trailing newline).
    func appendObject(_ object: PBXObject, indent: [UInt8], to out: inout [UInt8]) {
        StringEscapes.appendCanonical(object.id.rawValue, to: &out, forceQuotes: style.quoteAll)
        out.append(contentsOf: Array(" = ".utf8))
        let oneLine = XcodeLayout.isOneLine(isa: object.isa, objectVersion: style.objectVersion)
        appendDictionary(object.properties, indent: indent, oneLine: oneLine, to: &out)
        out.append(UInt8(ascii: ";"))
    }

    /// Appends `key = value;`.
    func appendEntry(key: String, value: PBXValue, indent: [UInt8], oneLine: Bool, to out: inout [UInt8]) {
        StringEscapes.appendCanonical(key, to: &out)
        out.append(contentsOf: Array(" = ".utf8))
        append(value, indent: indent, oneLine: oneLine, shellLines: key == "shellScript", to: &out)
        out.append(UInt8(ascii: ";"))
    }

    /// Appends a value; `indent` is the indentation of the line the value starts on.
    func append(_ value: PBXValue, indent: [UInt8], oneLine: Bool, shellLines: Bool = false, to out: inout [UInt8]) {
        switch value {
        case .string(let string):
            StringEscapes.appendCanonical(string, to: &out, forceQuotes: style.quoteAll || shellLines)
        case .data(let bytes):
            appendData(bytes, to: &out)
        case .array(let elements):
            out.append(UInt8(ascii: "("))
            let inner = indent + style.indentUnit
            for element in elements {
                if !oneLine {
                    out.append(0x0A)
                    out.append(contentsOf: inner)
                }
                append(element, indent: inner, oneLine: oneLine, shellLines: shellLines, to: &out)
                out.append(UInt8(ascii: ","))
                if oneLine { out.append(0x20) }
            }
            if !oneLine {
                out.append(0x0A)
                out.append(contentsOf: indent)
            }
            out.append(UInt8(ascii: ")"))
        case .dictionary(let dictionary):
            appendDictionary(dictionary, indent: indent, oneLine: oneLine, to: &out)
        }
    }

    private func appendDictionary(_ dictionary: PBXDictionary, indent: [UInt8], oneLine: Bool, to out: inout [UInt8]) {
        out.append(UInt8(ascii: "{"))
        let inner = indent + style.indentUnit
        for entry in dictionary {
            if !oneLine {
                out.append(0x0A)
                out.append(contentsOf: inner)
            }
            appendEntry(key: entry.key, value: entry.value, indent: inner, oneLine: oneLine, to: &out)
            if oneLine { out.append(0x20) }
        }
        if !oneLine {
            out.append(0x0A)
            out.append(contentsOf: indent)
        }
        out.append(UInt8(ascii: "}"))
    }

    private func appendData(_ bytes: [UInt8], to out: inout [UInt8]) {
        let hex = Array("0123456789abcdef".utf8)
        out.append(UInt8(ascii: "<"))
        for (index, byte) in bytes.enumerated() {
            if index > 0 && index % 4 == 0 { out.append(0x20) }
            out.append(hex[Int(byte >> 4)])
            out.append(hex[Int(byte & 0xF)])
        }
        out.append(UInt8(ascii: ">"))
    }
}

/// Small scans over raw text around nodes.
enum TextScan {
    /// Whether `needle` occurs in `haystack`.
    static func contains(_ haystack: ArraySlice<UInt8>, _ needle: String) -> Bool {
        let pattern = Array(needle.utf8)
        guard let first = pattern.first, haystack.count >= pattern.count else { return false }
        var i = haystack.startIndex
        let last = haystack.endIndex - pattern.count
        while i <= last {
            if haystack[i] == first && haystack[i..<i + pattern.count].elementsEqual(pattern) { return true }
            i += 1
        }
        return false
    }

    /// The offset of the first byte of the line holding `offset`.
    static func lineStart(_ offset: Int, in bytes: [UInt8]) -> Int {
        var i = offset
        while i > 0, bytes[i - 1] != 0x0A { i -= 1 }
        return i
    }

    /// The offset just past the newline ending the line holding `offset` (or the end).
    static func lineEnd(_ offset: Int, in bytes: [UInt8]) -> Int {
        var i = offset
        while i < bytes.count, bytes[i] != 0x0A { i += 1 }
        return min(i + 1, bytes.count)
    }

    /// Whether only spaces and tabs precede `offset` on its line.
    static func isFirstOnLine(_ offset: Int, in bytes: [UInt8]) -> Bool {
        let start = lineStart(offset, in: bytes)
        return bytes[start..<offset].allSatisfy { $0 == 0x20 || $0 == 0x09 }
    }

    /// The spaces and tabs at the start of the line holding `offset`.
    static func indentation(before offset: Int, in bytes: [UInt8]) -> [UInt8] {
        let start = lineStart(offset, in: bytes)
        var end = start
        while end < offset, bytes[end] == 0x20 || bytes[end] == 0x09 { end += 1 }
        return Array(bytes[start..<end])
    }

    /// The offset past a `/* comment */` that follows `offset` after spaces and tabs, or nil.
    static func commentAfter(_ offset: Int, in bytes: [UInt8]) -> Range<Int>? {
        var i = offset
        while i < bytes.count, bytes[i] == 0x20 || bytes[i] == 0x09 { i += 1 }
        guard i + 1 < bytes.count, bytes[i] == UInt8(ascii: "/"), bytes[i + 1] == UInt8(ascii: "*") else { return nil }
        var j = i + 2
        while j + 1 < bytes.count {
            if bytes[j] == UInt8(ascii: "*") && bytes[j + 1] == UInt8(ascii: "/") { return i..<(j + 2) }
            j += 1
        }
        return nil
    }

    /// The offset just past the next `terminator` byte after `offset`, skipping whitespace and
    /// comments (the `;` after a dictionary value, the `,` after an array element).
    static func terminatorEnd(after offset: Int, terminator: UInt8, in bytes: [UInt8]) -> Int? {
        var i = offset
        while i < bytes.count {
            let byte = bytes[i]
            if byte == terminator { return i + 1 }
            if byte == 0x20 || byte == 0x09 || byte == 0x0A || byte == 0x0D {
                i += 1
            } else if let comment = commentAfter(i, in: bytes) {
                i = comment.upperBound
            } else if byte == UInt8(ascii: "/"), i + 1 < bytes.count, bytes[i + 1] == UInt8(ascii: "/") {
                i = lineEnd(i, in: bytes)
            } else {
                return nil
            }
        }
        return nil
    }
}
