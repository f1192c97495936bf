/// Reads XML property lists (the form CocoaPods and some old tools wrote `project.pbxproj` in).
///
/// A small byte-level reader for the plist subset: `dict`, `key`, `array`, `string`, `integer`,
/// `real`, `true`, `false`, `date`, `data`, entities and CDATA. Numbers and dates become strings
/// (an ASCII plist has no other scalar), booleans become `YES`/`NO`. No recursion: containers
/// are tracked on an explicit stack with the same depth cap as the ASCII reader.
enum XMLPropertyList {
    /// Whether the bytes start (after whitespace or a byte-order mark) like an XML document.
    static func looksLikeXML(_ bytes: [UInt8]) -> Bool {
        var i = 0
        if bytes.count >= 3, bytes[0] == 0xEF, bytes[1] == 0xBB, bytes[2] == 0xBF { i = 3 }
        while i < bytes.count, bytes[i] == 0x20 || bytes[i] == 0x09 || bytes[i] == 0x0A || bytes[i] == 0x0D { i += 1 }
        return i + 1 < bytes.count && bytes[i] == UInt8(ascii: "<") && (bytes[i + 1] == UInt8(ascii: "?")
            || bytes[i + 1] == UInt8(ascii: "!") || bytes[i + 1] == UInt8(ascii: "p"))
    }

    /// Parses the document into its root value.
    static func parse(_ bytes: [UInt8]) throws -> PBXValue {
        if let invalid = UTF8Validation.firstInvalidOffset(in: bytes) {
            throw PBXProjError.invalidUTF8(at: SourceText.location(of: invalid, in: bytes))
        }
        var reader = XMLReader(bytes: bytes)
        return try reader.document()
    }
}

private struct XMLReader {
    private enum Container {
        case dictionary(entries: [PBXDictionary.Entry], pendingKey: String?, start: Int)
        case array(elements: [PBXValue], start: Int)
    }

    let bytes: [UInt8]
    var position = 0
    private var stack: [Container] = []

    init(bytes: [UInt8]) { self.bytes = bytes }

    mutating func document() throws -> PBXValue {
        var root: PBXValue?
        while true {
            try skipMisc()
            guard position < bytes.count else { break }
            let tag = try readTag()
            if tag.name == "plist" { continue }
            if tag.isClosing {
                if let value = try close(tag.name) { root = value }
                continue
            }
            guard let value = try open(tag) else { continue }
            if !stack.isEmpty {
                try add(value)
            } else if root == nil {
                root = value
            } else {
                throw PBXProjError.invalidXML(message: "more than one root value", at: location(tag.start))
            }
        }
        guard stack.isEmpty else { throw PBXProjError.invalidXML(message: "the document ends inside a container; the file looks truncated", at: location(position)) }
        guard let root else { throw PBXProjError.invalidXML(message: "no property list value found", at: location(position)) }
        return root
    }

    private struct Tag {
        var name: String
        var isClosing: Bool
        var isEmpty: Bool
        var start: Int
    }

    /// Opens a container (returns nil) or reads a scalar element to its end.
    private mutating func open(_ tag: Tag) throws -> PBXValue? {
        switch tag.name {
        case "dict", "array":
            if tag.isEmpty { return tag.name == "dict" ? .dictionary(PBXDictionary()) : .array([]) }
            guard stack.count < PropertyListParser.maximumDepth else {
                throw PBXProjError.nestingTooDeep(limit: PropertyListParser.maximumDepth, at: location(tag.start))
            }
            stack.append(tag.name == "dict" ? .dictionary(entries: [], pendingKey: nil, start: tag.start) : .array(elements: [], start: tag.start))
            return nil
        case "true": return .string("YES")
        case "false": return .string("NO")
        case "key":
            let text = tag.isEmpty ? "" : try readText(until: "key")
            guard case .dictionary(let entries, nil, let start) = stack.last else {
                throw PBXProjError.invalidXML(message: "'<key>' outside a dictionary or after another key", at: location(tag.start))
            }
            stack[stack.count - 1] = .dictionary(entries: entries, pendingKey: text, start: start)
            return nil
        case "string", "integer", "real", "date":
            return .string(tag.isEmpty ? "" : try readText(until: tag.name))
        case "data":
            let text = tag.isEmpty ? "" : try readText(until: "data")
            return .data(Base64.decode(text))
        default:
            throw PBXProjError.invalidXML(message: "unknown element '<\(tag.name)>'", at: location(tag.start))
        }
    }

    private mutating func add(_ value: PBXValue) throws {
        switch stack.last {
        case .dictionary(var entries, let key?, let start):
            entries.append(PBXDictionary.Entry(key: key, value: value))
            stack[stack.count - 1] = .dictionary(entries: entries, pendingKey: nil, start: start)
        case .dictionary:
            throw PBXProjError.invalidXML(message: "a value in a dictionary without its '<key>'", at: location(position))
        case .array(var elements, let start):
            elements.append(value)
            stack[stack.count - 1] = .array(elements: elements, start: start)
        case nil:
            throw PBXProjError.invalidXML(message: "more than one root value", at: location(position))
        }
    }

    private mutating func close(_ name: String) throws -> PBXValue? {
        guard let top = stack.popLast() else { throw error("unexpected '</\(name)>'") }
        let value: PBXValue
        switch (top, name) {
        case (.dictionary(let entries, nil, _), "dict"): value = .dictionary(PBXDictionary(entries))
        case (.array(let elements, _), "array"): value = .array(elements)
        case (.dictionary(_, let key?, _), "dict"):
            throw error("key '\(key)' has no value")
        default:
            throw error("'</\(name)>' does not close the open element")
        }
        if stack.isEmpty { return value }
        try add(value)
        return nil
    }

    private mutating func skipMisc() throws {
        while position < bytes.count {
            let byte = bytes[position]
            if byte == 0x20 || byte == 0x09 || byte == 0x0A || byte == 0x0D || (position == 0 && byte == 0xEF) {
                position += byte == 0xEF ? 3 : 1
            } else if starts(with: "<?") {
                try skip(past: "?>")
            } else if starts(with: "<!--") {
                try skip(past: "-->")
            } else if starts(with: "<!") {
                try skip(past: ">")
            } else if byte == UInt8(ascii: "<") {
                return
            } else {
                throw error("text outside an element")
            }
        }
    }

    private mutating func readTag() throws -> Tag {
        let start = position
        guard bytes[position] == UInt8(ascii: "<") else { throw error("expected '<'") }
        guard let close = bytes[position...].firstIndex(of: UInt8(ascii: ">")) else {
            throw PBXProjError.invalidXML(message: "an element never closes; the file looks truncated", at: location(start))
        }
        var inner = Array(bytes[(position + 1)..<close])
        position = close + 1
        var isClosing = false, isEmpty = false
        if inner.first == UInt8(ascii: "/") { isClosing = true; inner.removeFirst() }
        if inner.last == UInt8(ascii: "/") { isEmpty = true; inner.removeLast() }
        let nameEnd = inner.firstIndex { $0 == 0x20 || $0 == 0x09 || $0 == 0x0A || $0 == 0x0D } ?? inner.count
        return Tag(name: String(decoding: inner[..<nameEnd], as: UTF8.self), isClosing: isClosing, isEmpty: isEmpty, start: start)
    }

    /// Reads character data up to `</name>`, resolving entities and CDATA.
    private mutating func readText(until name: String) throws -> String {
        var text: [UInt8] = []
        let closing = Array("</\(name)>".utf8)
        while position < bytes.count {
            if bytes[position] == UInt8(ascii: "<") {
                if starts(with: "<![CDATA[") {
                    position += 9
                    let start = position
                    try skip(past: "]]>")
                    text.append(contentsOf: bytes[start..<(position - 3)])
                    continue
                }
                guard bytes[position...].starts(with: closing) else { throw error("unexpected element inside '<\(name)>'") }
                position += closing.count
                return String(decoding: text, as: UTF8.self)
            }
            if bytes[position] == UInt8(ascii: "&") {
                try readEntity(into: &text)
                continue
            }
            text.append(bytes[position])
            position += 1
        }
        throw PBXProjError.invalidXML(message: "'<\(name)>' never closes; the file looks truncated", at: location(position))
    }

    private mutating func readEntity(into text: inout [UInt8]) throws {
        guard let semicolon = bytes[position...].prefix(12).firstIndex(of: UInt8(ascii: ";")) else {
            throw error("'&' must start an entity such as '&amp;'")
        }
        let name = String(decoding: bytes[(position + 1)..<semicolon], as: UTF8.self)
        let named: [String: String] = ["lt": "<", "gt": ">", "amp": "&", "quot": "\"", "apos": "'"]
        if let value = named[name] {
            text.append(contentsOf: value.utf8)
        } else if name.hasPrefix("#"), let code = name.hasPrefix("#x") ? UInt32(name.dropFirst(2), radix: 16) : UInt32(name.dropFirst(), radix: 10),
            let scalar = Unicode.Scalar(code) {
            text.append(contentsOf: String(Character(scalar)).utf8)
        } else {
            throw error("unknown entity '&\(name);'")
        }
        position = semicolon + 1
    }

    private func starts(with literal: String) -> Bool {
        bytes[position...].starts(with: literal.utf8)
    }

    private mutating func skip(past literal: String) throws {
        let pattern = Array(literal.utf8)
        let start = position
        while position + pattern.count <= bytes.count {
            if bytes[position..<(position + pattern.count)].elementsEqual(pattern) {
                position += pattern.count
                return
            }
            position += 1
        }
        throw PBXProjError.invalidXML(message: "'\(literal)' is missing; the file looks truncated", at: location(start))
    }

    private func location(_ offset: Int) -> SourceLocation { SourceText.location(of: offset, in: bytes) }

    private func error(_ message: String) -> PBXProjError {
        PBXProjError.invalidXML(message: message, at: location(position))
    }
}

/// Base64 decoding for `<data>` elements (whitespace ignored, invalid characters skipped).
enum Base64 {
    static func decode(_ text: String) -> [UInt8] {
        var result: [UInt8] = []
        var buffer: UInt32 = 0
        var bits = 0
        for byte in text.utf8 {
            let value: UInt32
            switch byte {
            case UInt8(ascii: "A")...UInt8(ascii: "Z"): value = UInt32(byte - 65)
            case UInt8(ascii: "a")...UInt8(ascii: "z"): value = UInt32(byte - 71)
            case UInt8(ascii: "0")...UInt8(ascii: "9"): value = UInt32(byte + 4)
            case UInt8(ascii: "+"): value = 62
            case UInt8(ascii: "/"): value = 63
            default: continue
            }
            buffer = buffer << 6 | value
            bits += 6
            if bits >= 8 {
                bits -= 8
                result.append(UInt8(truncatingIfNeeded: buffer >> UInt32(bits)))
            }
        }
        return result
    }
}

extension SyntaxTree {
    /// Renders a value tree as plain ASCII plist text and parses it (how XML input joins the
    /// ASCII path).
    static func parseRendered(_ root: PBXValue) throws -> SyntaxTree {
        guard case .dictionary = root else {
            throw PBXProjError.invalidStructure(message: "the property list's root is not a dictionary", at: nil)
        }
        var text = Array("// !$*UTF8*$!\n".utf8)
        ValueRenderer(style: DocumentStyle()).append(root, indent: [], oneLine: false, to: &text)
        text.append(0x0A)
        return try PropertyListParser.parse(text)
    }
}
