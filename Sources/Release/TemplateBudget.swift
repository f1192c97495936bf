/// Limits on a Mustache template read from the checkout, checked before the template is parsed.
///
/// swift-mustache parses and renders nested sections by recursion, so a template of a few
/// hundred thousand nested `{{#a}}` sections (1.2 MB) overflowed the stack and killed the
/// process, skipping `finally:` steps. A changelog template needs a few levels; these limits are
/// far above any real one.
///
/// swift-mustache's parser also measures the rest of the template (`String.distance`, linear)
/// each time it meets the first character of the opening delimiter, so its time is the number of
/// such characters times what follows them: 261 KB of `{{\n` took 42 s. The third limit is that
/// product, computed in one pass before parsing: a few thousand tags in a template of a few tens
/// of kilobytes pass, and the worst template within it parses in a fraction of a second.
enum TemplateBudget {
    /// The largest template read, in bytes.
    static let maximumBytes = 256 * 1024
    /// The deepest nesting of sections (`{{#…}}`, `{{^…}}`).
    static let maximumDepth = 32
    /// The parser's work: for each byte that starts the opening delimiter in force, twice the
    /// bytes from it to the end (the opening and the closing delimiter are each matched by
    /// measuring the rest). 128 Mi: 244 tags at the head of a 256 KiB template, or 2,000 tags
    /// anywhere in a 32 KiB one.
    static let maximumParseWork = 128 * 1024 * 1024

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
        var depth = 0, index = 0, work = 0, openings = 0
        /// Charges the parser's work for the bytes in `range`, read with the delimiters in force.
        func charge(_ range: Range<Int>) throws {
            guard let first = open.first else { return }
            for position in range where bytes[position] == first {
                openings += 1
                work += 2 * (bytes.count - position)
            }
            guard work <= maximumParseWork else {
                throw ReleaseError.invalidTemplate(
                    name, reason: "Mustache's parser reads the rest of the template at each '\(String(decoding: [first], as: UTF8.self))', "
                        + "and its first \(openings) would have it read \(work) bytes; templates may cost at most "
                        + "\(maximumParseWork): use fewer tags or a shorter template")
            }
        }
        while let start = find(open, in: bytes, from: index) {
            let contentStart = start + open.count
            guard let end = find(close, in: bytes, from: contentStart) else {
                // The parser reports an unclosed tag, or reads on as text: charge the rest.
                return try charge(index..<bytes.count)
            }
            var content = Array(bytes[contentStart..<end])
            try charge(index..<(end + close.count))
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
        try charge(index..<bytes.count)
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
