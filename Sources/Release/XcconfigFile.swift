/// One `.xcconfig` file as far as version stamping needs it: its `#include` lines and its
/// assignments (`NAME = value`, `NAME[sdk=iphoneos*] = value`), each with its line and the byte
/// range of its value, so that a value can be replaced keeping every other byte.
struct XcconfigFile: Sendable {
    /// `#include "path"` or `#include? "path"` (optional: a missing file is fine).
    struct Include: Sendable {
        let line: Int
        let path: String
        let optional: Bool
    }

    /// `NAME[conditions] = value // comment`.
    struct Assignment: Sendable {
        let line: Int
        let key: String
        /// `""`, or the conditions as written (`[sdk=iphoneos*]`, `[sdk=*][arch=arm64]`).
        let conditions: String
        /// The value without surrounding blanks, a trailing `;` and the comment.
        let value: String
        /// The value's byte range in the file.
        let start: Int
        let end: Int
    }

    /// A line in file order.
    enum Entry: Sendable {
        case include(Include)
        case assignment(Assignment)
    }

    /// A line that is neither blank, a comment, an include nor an assignment.
    struct Malformed: Error, Sendable {
        let line: Int
        let text: String
    }

    let entries: [Entry]
    let bytes: [UInt8]

    /// Parses the file's bytes.
    /// - Throws: `Malformed` for an `#include` line without a quoted path.
    init(bytes: [UInt8]) throws {
        self.bytes = bytes
        var entries: [Entry] = []
        var lineStart = 0
        var lineNumber = 1
        while lineStart <= bytes.count {
            var lineEnd = lineStart
            while lineEnd < bytes.count && bytes[lineEnd] != UInt8(ascii: "\n") { lineEnd += 1 }
            if let entry = try Self.parse(bytes, from: lineStart, to: lineEnd, line: lineNumber) { entries.append(entry) }
            lineStart = lineEnd + 1
            lineNumber += 1
        }
        self.entries = entries
    }

    private static func isBlank(_ byte: UInt8) -> Bool {
        byte == UInt8(ascii: " ") || byte == UInt8(ascii: "\t") || byte == UInt8(ascii: "\r")
    }

    private static func isNameByte(_ byte: UInt8) -> Bool {
        (byte >= UInt8(ascii: "A") && byte <= UInt8(ascii: "Z")) || (byte >= UInt8(ascii: "a") && byte <= UInt8(ascii: "z"))
            || (byte >= UInt8(ascii: "0") && byte <= UInt8(ascii: "9")) || byte == UInt8(ascii: "_")
    }

    private static func text(_ bytes: [UInt8], _ start: Int, _ end: Int) -> String {
        String(decoding: bytes[start..<end], as: UTF8.self)
    }

    private static func parse(_ bytes: [UInt8], from lineStart: Int, to lineEnd: Int, line: Int) throws -> Entry? {
        var start = lineStart
        while start < lineEnd && isBlank(bytes[start]) { start += 1 }
        // A comment runs from `//` to the end of the line, wherever it starts (as in Xcode).
        var end = start
        while end < lineEnd && !(bytes[end] == UInt8(ascii: "/") && end + 1 < lineEnd && bytes[end + 1] == UInt8(ascii: "/")) { end += 1 }
        while end > start && isBlank(bytes[end - 1]) { end -= 1 }
        guard start < end else { return nil }
        if bytes[start] == UInt8(ascii: "#") {
            let directive = text(bytes, start, end)
            let optional = directive.hasPrefix("#include?")
            guard directive.hasPrefix("#include") else { return nil }
            let rest = directive.dropFirst(optional ? 9 : 8).drop { $0 == " " || $0 == "\t" }
            guard rest.hasPrefix("\""), rest.count >= 2, rest.hasSuffix("\"") else {
                throw Malformed(line: line, text: directive)
            }
            return .include(Include(line: line, path: String(rest.dropFirst().dropLast()), optional: optional))
        }
        var cursor = start
        while cursor < end && isNameByte(bytes[cursor]) { cursor += 1 }
        guard cursor > start else { return nil }
        let key = text(bytes, start, cursor)
        let conditionsStart = cursor
        while cursor < end && bytes[cursor] == UInt8(ascii: "[") {
            while cursor < end && bytes[cursor] != UInt8(ascii: "]") { cursor += 1 }
            guard cursor < end else { return nil }
            cursor += 1
        }
        let conditions = text(bytes, conditionsStart, cursor)
        while cursor < end && isBlank(bytes[cursor]) { cursor += 1 }
        guard cursor < end, bytes[cursor] == UInt8(ascii: "=") else { return nil }
        cursor += 1
        while cursor < end && isBlank(bytes[cursor]) { cursor += 1 }
        var valueEnd = end
        if valueEnd > cursor && bytes[valueEnd - 1] == UInt8(ascii: ";") {
            valueEnd -= 1
            while valueEnd > cursor && isBlank(bytes[valueEnd - 1]) { valueEnd -= 1 }
        }
        // A quoted value keeps its quotes: only what is inside them is the value to replace.
        if valueEnd - cursor >= 2 && bytes[cursor] == UInt8(ascii: "\"") && bytes[valueEnd - 1] == UInt8(ascii: "\"") {
            cursor += 1
            valueEnd -= 1
        }
        return .assignment(Assignment(line: line, key: key, conditions: conditions, value: text(bytes, cursor, valueEnd), start: cursor, end: valueEnd))
    }
}
