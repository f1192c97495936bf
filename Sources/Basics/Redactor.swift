/// Replaces every occurrence of a secret with `***`. One redactor sits between every producer of
/// text (child processes, steps, errors) and every consumer (terminal, events file, JUnit report,
/// run journal, summaries), so a secret cannot reach any of them.
///
/// Besides the raw value, these forms of each secret are masked (docs/events.md lists them too):
/// - each line of a multi-line secret, because output arrives in lines;
/// - base64 of the value and of the value followed by a newline (`echo $X | base64`), in the
///   standard and URL-safe (`-_`) alphabets, with and without `=` padding; the whole encoding,
///   each 76-column line of it (`base64` without `-w0`), and, since a value inside a longer
///   encoded text can start at any of the three positions of a 3-byte group, for each of those
///   positions the run of characters made of the value's bits only. The one partial character at
///   either end of such a run (at most 4 of the value's bits) stays visible. Base64 runs shorter
///   than 8 characters (6 bytes of the secret) are not masked: such short runs of letters and
///   digits would mask ordinary text. Every base64 form also matches with a line break (`\n`,
///   `\r\n`) between any two of its characters (wrapped at 76 or 64 columns), when the text
///   holds both lines (`RedactingLineBuffer` makes step output arrive so);
/// - the shell-quoted value, as `set -x`, `printf %q` and `ShellQuoting` print it: `'` as `'\''`
///   or `'"'"'`, any byte but a letter or digit with a `\` before it, and the `$'…'` escapes
///   (`\n`-style, `\ooo`, `\xHH`), when the value has a byte a shell quoter changes;
/// - the percent-encoded value (any byte raw or `%XX`, upper- or lower-case hex, a space also
///   `+`), when the value has a byte a URL encoder would change;
/// - the JSON-escaped value (`\"`, `\\`, `\/`, `\n`-style and `\uXXXX` escapes, surrogate pairs),
///   any character (letters and digits too) raw or escaped;
/// - the HTML-escaped value: any character raw, as `&#N;` or `&#xH;` (either case), or, for ASCII
///   punctuation, as its HTML5 name (`&amp;`, `&quot;`, `&sol;`, ...), as error pages print it;
/// - the value's UTF-16 bytes (little- and big-endian), which the terminal filter would otherwise
///   turn back into the value by dropping the zero bytes.
///
/// Values shorter than 3 characters are not masked (they would mask ordinary text everywhere);
/// the lane validator warns about those. Overlapping matches are masked as one `***`.
public struct Redactor: Sendable {
    /// What a secret is replaced with.
    public static let mask = "***"
    private static let maskBytes = Array(mask.utf8)
    private let matcher: RedactionMatcher

    /// A redactor for these secret values and their encoded forms.
    public init(secrets: [String]) {
        var patterns = Set<RedactionPattern>()
        for secret in secrets where secret.count >= 3 {
            let bytes = Array(secret.utf8)
            for form in RedactionForms.base64(of: bytes) { patterns.insert(.wrapped(form)) }
            var values = [secret]
            for line in secret.split(whereSeparator: \.isNewline) where line.count >= 3 { values.append(String(line)) }
            for value in values {
                patterns.insert(.literal(Array(value.utf8)))
                if let percent = RedactionForms.percentEncoded(Array(value.utf8)) { patterns.insert(percent) }
                patterns.insert(RedactionForms.jsonEscaped(value))
                patterns.insert(RedactionForms.htmlEscaped(value))
                for form in RedactionForms.utf16(value) { patterns.insert(.literal(form)) }
                if let quoted = RedactionForms.shellQuoted(Array(value.utf8)) { patterns.insert(quoted) }
            }
        }
        matcher = RedactionMatcher(patterns: patterns)
    }

    /// A redactor that masks nothing.
    public static let none = Redactor(secrets: [])

    /// True when there is nothing to mask.
    public var isEmpty: Bool { matcher.isEmpty }

    /// The most bytes one match can span: a stream cut into pieces is safe to redact piece by
    /// piece when no cut falls inside a match, which holding back this many bytes ensures.
    public var maximumMatchLength: Int { matcher.maximumMatchLength }

    /// The ranges of `bytes` that `redact` masks, in order, overlapping matches merged.
    func maskedRanges(in bytes: [UInt8]) -> [Range<Int>] {
        guard !matcher.isEmpty else { return [] }
        return bytes.withUnsafeBufferPointer { matcher.ranges(in: $0) }
    }

    /// `text` with every secret masked; `text` itself (nothing copied) when it holds none.
    public func redact(_ text: String) -> String {
        guard !matcher.isEmpty else { return text }
        if let redacted = text.utf8.withContiguousStorageIfAvailable({ redact(bytes: $0) }) {
            return redacted ?? text
        }
        return Array(text.utf8).withUnsafeBufferPointer { redact(bytes: $0) } ?? text
    }

    /// The bytes with every match masked, or nil when there is none.
    private func redact(bytes: UnsafeBufferPointer<UInt8>) -> String? {
        let ranges = matcher.ranges(in: bytes)
        guard !ranges.isEmpty else { return nil }
        var output: [UInt8] = []
        output.reserveCapacity(bytes.count)
        var copied = 0
        for range in ranges {
            output.append(contentsOf: UnsafeBufferPointer(rebasing: bytes[copied..<range.lowerBound]))
            output.append(contentsOf: Self.maskBytes)
            copied = range.upperBound
        }
        output.append(contentsOf: UnsafeBufferPointer(rebasing: bytes[copied...]))
        return String(decoding: output, as: UTF8.self)
    }

    /// Every string in a dictionary masked.
    public func redact(_ values: [String: String]) -> [String: String] {
        values.mapValues(redact)
    }
}

/// Cuts a byte stream into lines, so that a secret split across two reads is still seen whole.
public struct LineBuffer: Sendable {
    private var pending: [UInt8] = []
    /// Lines longer than this are emitted in pieces.
    public var maximumLineLength = 1 << 16

    /// An empty buffer.
    public init() {}

    /// Appends bytes; returns the complete lines now available, without their newline.
    public mutating func append(_ bytes: [UInt8]) -> [String] {
        pending.append(contentsOf: bytes)
        var lines: [String] = []
        var start = 0
        for index in pending.indices where pending[index] == 0x0A {
            var end = index
            if end > start && pending[end - 1] == 0x0D { end -= 1 }
            lines.append(String(decoding: pending[start..<end], as: UTF8.self))
            start = index + 1
        }
        pending.removeFirst(start)
        if pending.count > maximumLineLength {
            lines.append(String(decoding: pending, as: UTF8.self))
            pending.removeAll()
        }
        return lines
    }

    /// Whatever is left after the stream ended (a last line without a newline), or nil.
    public mutating func finish() -> String? {
        defer { pending.removeAll() }
        return pending.isEmpty ? nil : String(decoding: pending, as: UTF8.self)
    }
}
