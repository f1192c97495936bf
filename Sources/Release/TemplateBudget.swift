/// Limits on a Mustache template read from the checkout, checked before the template is parsed.
///
/// swift-mustache parses and renders nested sections by recursion, so a template of a few
/// hundred thousand nested `{{#a}}` sections (1.2 MB) overflowed the stack and killed the
/// process, skipping `finally:` steps. A changelog template needs a few levels; these limits are
/// far above any real one.
enum TemplateBudget {
    /// The largest template read, in bytes.
    static let maximumBytes = 256 * 1024
    /// The deepest nesting of sections (`{{#…}}`, `{{^…}}`).
    static let maximumDepth = 32

    /// Throws `ReleaseError.invalidTemplate` naming `name` when `text` is over either limit.
    ///
    /// Tags are found with the delimiters in force, following Mustache's set-delimiter tags
    /// (`{{=<% %>=}}`), so changing them does not hide a section from the count.
    static func check(_ text: String, name: String) throws {
        let bytes = Array(text.utf8)
        guard bytes.count <= maximumBytes else {
            throw ReleaseError.invalidTemplate(name, reason: "it is \(bytes.count) bytes; templates may have at most \(maximumBytes)")
        }
        var open = Array("{{".utf8), close = Array("}}".utf8)
        var depth = 0, index = 0
        while let start = find(open, in: bytes, from: index) {
            let contentStart = start + open.count
            guard let end = find(close, in: bytes, from: contentStart) else { return }  // the parser reports it
            var content = Array(bytes[contentStart..<end])
            index = end + close.count
            while content.first == UInt8(ascii: " ") { content.removeFirst() }
            switch content.first {
            case UInt8(ascii: "#"), UInt8(ascii: "^"):
                depth += 1
                if depth > maximumDepth {
                    throw ReleaseError.invalidTemplate(
                        name, reason: "its sections nest more than \(maximumDepth) deep; templates may nest at most \(maximumDepth)")
                }
            case UInt8(ascii: "/"):
                depth = max(0, depth - 1)
            case UInt8(ascii: "="):
                // {{=<% %>=}}: the new opening and closing delimiters, separated by white space.
                let inner = content.dropFirst().prefix { $0 != UInt8(ascii: "=") }
                let words = inner.split(whereSeparator: { $0 == UInt8(ascii: " ") || $0 == UInt8(ascii: "\t") })
                guard words.count == 2 else { return }  // the parser reports it
                open = Array(words[0])
                close = Array(words[1])
            default:
                break
            }
        }
    }

    private static func find(_ needle: [UInt8], in bytes: [UInt8], from start: Int) -> Int? {
        guard !needle.isEmpty, start <= bytes.count - needle.count else { return nil }
        var index = start
        while index <= bytes.count - needle.count {
            if bytes[index] == needle[0] && bytes[index..<(index + needle.count)].elementsEqual(needle) { return index }
            index += 1
        }
        return nil
    }
}
