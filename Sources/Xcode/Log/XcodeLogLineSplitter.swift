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

    /// Every `\n`-separated line of `text`, the last one included even when empty.
    static func split(_ text: inout String, _ body: (Substring) -> Void) {
        text.makeContiguousUTF8()
        let whole = text[...]
        let utf8 = whole.utf8
        var start = utf8.startIndex
        while let newline = utf8[start...].firstIndex(of: UInt8(ascii: "\n")) {
            body(whole[start..<newline])
            start = utf8.index(after: newline)
        }
        body(whole[start...])
    }
}
