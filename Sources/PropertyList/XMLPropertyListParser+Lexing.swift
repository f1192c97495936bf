import Foundation

/// The XML layer under `XMLPropertyListParser`: tags, text with entities and CDATA, comments.
extension XMLPropertyListParser {
    /// An element's start or end tag.
    struct Tag {
        var name: String
        /// `</name>`.
        var isClosing: Bool
        /// `<name/>`.
        var isEmpty: Bool
    }

    /// Skips the XML declaration, processing instructions, comments and a DOCTYPE without an
    /// internal subset.
    mutating func skipProlog() throws {
        while true {
            skipWhitespace()
            if starts(with: "<?") {
                try skip(past: "?>", what: "a processing instruction")
            } else if starts(with: "<!--") {
                try skip(past: "-->", what: "a comment")
            } else if starts(with: "<!DOCTYPE") {
                while position < bytes.count, bytes[position] != UInt8(ascii: ">") {
                    if bytes[position] == UInt8(ascii: "[") {
                        throw budget.malformed("its DOCTYPE defines entities (an internal subset), which property lists never need")
                    }
                    position += 1
                }
                guard position < bytes.count else { throw budget.malformed("its DOCTYPE is not closed") }
                position += 1
            } else {
                return
            }
        }
    }

    /// Skips whitespace and comments between elements; any other text is an error.
    mutating func skipMisc() throws {
        while true {
            skipWhitespace()
            if starts(with: "<!--") {
                try skip(past: "-->", what: "a comment")
            } else if position < bytes.count, bytes[position] != UInt8(ascii: "<") {
                throw budget.malformed("it has text outside an element (at byte \(position))")
            } else {
                return
            }
        }
    }

    /// Reads `<name attributes...>`, `<name/>` or `</name>` at the current position.
    mutating func readTag() throws -> Tag {
        guard position < bytes.count else { throw budget.malformed("it ends before its elements are closed") }
        guard bytes[position] == UInt8(ascii: "<") else { throw budget.malformed("an element was expected at byte \(position)") }
        position += 1
        let isClosing = position < bytes.count && bytes[position] == UInt8(ascii: "/")
        if isClosing { position += 1 }
        let nameStart = position
        while position < bytes.count, !Self.isWhitespace(bytes[position]),
              bytes[position] != UInt8(ascii: ">"), bytes[position] != UInt8(ascii: "/") {
            position += 1
        }
        let name = String(decoding: bytes[nameStart..<position], as: UTF8.self)
        guard !name.isEmpty else { throw budget.malformed("an element at byte \(nameStart) has no name") }
        var quote: UInt8?
        while position < bytes.count {
            let byte = bytes[position]
            position += 1
            if let open = quote {
                if byte == open { quote = nil }
            } else if byte == UInt8(ascii: "\"") || byte == UInt8(ascii: "'") {
                quote = byte
            } else if byte == UInt8(ascii: ">") {
                return Tag(name: name, isClosing: isClosing, isEmpty: false)
            } else if byte == UInt8(ascii: "/"), position < bytes.count, bytes[position] == UInt8(ascii: ">"), !isClosing {
                position += 1
                return Tag(name: name, isClosing: false, isEmpty: true)
            } else if isClosing, !Self.isWhitespace(byte) {
                break
            }
        }
        throw budget.malformed("the tag '\(name)' is not closed")
    }

    /// The text up to `</name>`, entities and character references decoded, CDATA kept as is.
    mutating func readText(closing name: String) throws -> String {
        var text: [UInt8] = []
        while position < bytes.count {
            let byte = bytes[position]
            if byte == UInt8(ascii: "<") {
                if starts(with: "<![CDATA[") {
                    let start = position + 9
                    try skip(past: "]]>", what: "a CDATA section")
                    text += bytes[start..<(position - 3)]
                } else if starts(with: "<!--") {
                    try skip(past: "-->", what: "a comment")
                } else {
                    let tag = try readTag()
                    guard tag.isClosing, tag.name == name else { throw budget.malformed("'<\(tag.name)>' appears inside '<\(name)>'") }
                    guard let string = String(bytes: text, encoding: .utf8) else {
                        throw budget.malformed("a '<\(name)>' is not valid UTF-8")
                    }
                    return string
                }
            } else if byte == UInt8(ascii: "&") {
                text += try entity()
            } else {
                text.append(byte)
                position += 1
            }
        }
        throw budget.malformed("'<\(name)>' is not closed")
    }

    /// Decodes `&lt;`, `&gt;`, `&amp;`, `&quot;`, `&apos;`, `&#N;` or `&#xN;` at the position.
    private mutating func entity() throws -> [UInt8] {
        let start = position + 1
        var end = start
        while end < bytes.count, end - start <= 10, bytes[end] != UInt8(ascii: ";") { end += 1 }
        guard end < bytes.count, bytes[end] == UInt8(ascii: ";") else {
            throw budget.malformed("an '&' at byte \(position) does not start an entity")
        }
        let name = String(decoding: bytes[start..<end], as: UTF8.self)
        position = end + 1
        switch name {
        case "lt": return [UInt8(ascii: "<")]
        case "gt": return [UInt8(ascii: ">")]
        case "amp": return [UInt8(ascii: "&")]
        case "quot": return [UInt8(ascii: "\"")]
        case "apos": return [UInt8(ascii: "'")]
        default:
            var digits = Substring(name)
            guard digits.first == "#" else { throw budget.malformed("'&\(name);' is not an entity property lists know") }
            digits = digits.dropFirst()
            let hex = digits.first == "x" || digits.first == "X"
            if hex { digits = digits.dropFirst() }
            guard !digits.isEmpty, digits.allSatisfy({ $0.isASCII && $0.isHexDigit }),
                  let code = UInt32(digits, radix: hex ? 16 : 10), let scalar = Unicode.Scalar(code), code != 0 else {
                throw budget.malformed("'&\(name);' is not a valid character reference")
            }
            return Array(String(Character(scalar)).utf8)
        }
    }

    private mutating func skip(past terminator: String, what: String) throws {
        let pattern = Array(terminator.utf8)
        while position < bytes.count {
            if starts(with: pattern) {
                position += pattern.count
                return
            }
            position += 1
        }
        throw budget.malformed("\(what) is not closed")
    }

    private mutating func skipWhitespace() {
        while position < bytes.count, Self.isWhitespace(bytes[position]) { position += 1 }
    }

    private func starts(with text: String) -> Bool {
        starts(with: Array(text.utf8))
    }

    private func starts(with pattern: [UInt8]) -> Bool {
        guard bytes.count - position >= pattern.count else { return false }
        for (offset, byte) in pattern.enumerated() where bytes[position + offset] != byte { return false }
        return true
    }

    static func isWhitespace(_ byte: UInt8) -> Bool {
        byte == 0x20 || byte == 0x09 || byte == 0x0A || byte == 0x0D
    }
}
