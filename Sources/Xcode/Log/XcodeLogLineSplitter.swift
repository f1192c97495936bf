#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Splits a byte stream read in chunks into lines, keeping only the unfinished last line between
/// chunks (capped at `maxLineBytes`: a longer "line" is handed over in pieces), so that memory
/// stays flat however long the log is. Invalid UTF-8 is repaired, not refused.
public struct XcodeLogLineSplitter: Sendable {
    /// The longest line kept whole.
    public static let maxLineBytes = 1 << 20

    private var carry: [UInt8] = []

    public init() {}

    /// Calls `body` with every line `chunk` completes (without its `\n`).
    public mutating func append(_ chunk: UnsafeRawBufferPointer, _ body: (Substring) -> Void) {
        guard let lastBreak = chunk.lastIndex(of: UInt8(ascii: "\n")) else {
            carry.append(contentsOf: chunk)
            if carry.count >= Self.maxLineBytes { flush(body) }
            return
        }
        var text: String
        if carry.isEmpty {
            text = String(decoding: UnsafeRawBufferPointer(rebasing: chunk[..<lastBreak]), as: UTF8.self)
        } else {
            carry.append(contentsOf: chunk[..<lastBreak])
            text = String(decoding: carry, as: UTF8.self)
            carry.removeAll(keepingCapacity: carry.capacity <= 1 << 16)
        }
        carry.append(contentsOf: chunk[(lastBreak + 1)...])
        Self.split(&text, body)
    }

    /// Calls `body` with the last line when the stream did not end with a line break.
    public mutating func finish(_ body: (Substring) -> Void) {
        if !carry.isEmpty { flush(body) }
    }

    private mutating func flush(_ body: (Substring) -> Void) {
        var text = String(decoding: carry, as: UTF8.self)
        carry.removeAll()
        Self.split(&text, body)
    }

    /// Every `\n`-separated line of `text`, the last one included even when empty. The line
    /// breaks are found with `memchr` over the contiguous UTF-8 (the generic `firstIndex(of:)` on
    /// a substring's UTF-8 view walked byte by byte and was a fifth of the formatter's time).
    static func split(_ text: inout String, _ body: (Substring) -> Void) {
        text.makeContiguousUTF8()
        var breaks: [Int] = []
        text.withUTF8 { bytes in
            guard let base = bytes.baseAddress else { return }
            var offset = 0
            while offset < bytes.count, let found = memchr(base + offset, 0x0A, bytes.count - offset) {
                let position = UnsafeRawPointer(found) - UnsafeRawPointer(base)
                breaks.append(position)
                offset = position + 1
            }
        }
        // Slices of the UTF-8 view: a substring made by subscripting the string would round each
        // bound to a character boundary (grapheme-break checks on every line).
        let utf8 = text.utf8
        var start = utf8.startIndex
        for position in breaks {
            let newline = utf8.index(utf8.startIndex, offsetBy: position)
            body(Substring(utf8[start..<newline]))
            start = utf8.index(after: newline)
        }
        body(Substring(utf8[start...]))
    }
}
