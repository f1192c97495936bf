/// Cuts a child's byte stream into lines, as `LineBuffer` does, so cut that the redactor still
/// sees every secret whole, although each line is masked on its own further on (the event bus
/// redacts every event, and every output line is one event):
/// - a line longer than `maximumLineLength` is emitted in pieces, and no piece ends inside a
///   match: the last `Redactor.maximumMatchLength` bytes stay behind until more arrive, and a
///   cut that would fall inside a match moves before it;
/// - a line that may go on as wrapped base64 on the next line (it ends with a run of exactly 64
///   or 76 base64 characters, as `base64`, `openssl base64` and PEM wrap) is held back until a
///   line that does not go on arrives, or the stream ends; the held lines are redacted together,
///   joined by their line breaks, so an encoded secret that straddles a break is masked on both
///   lines (`AAAA***` / `***BBBB`). Long runs of such lines are released once nothing after them
///   can still change them.
///
/// Ordinary lines are passed on at once, unmasked: masking them is the consumer's job.
public struct RedactingLineBuffer: Sendable {
    private let redactor: Redactor
    /// False when there is nothing to mask: then lines are only cut, as `LineBuffer` does.
    private let active: Bool
    /// Lines longer than this are emitted in pieces.
    public var maximumLineLength = 1 << 16

    /// Bytes of the line not yet complete.
    private var pending: [UInt8] = []
    /// How much of `pending` is known to hold no newline.
    private var scanned = 0
    /// Held lines, raw, joined by `\n`, after up to `span` bytes of already released context.
    private var window: [UInt8] = []
    /// Where each held line lies in `window`.
    private var held: [Range<Int>] = []

    /// A buffer whose cuts never split a match of `redactor`.
    public init(redactor: Redactor) {
        self.redactor = redactor
        active = !redactor.isEmpty
    }

    private var span: Int { max(1, redactor.maximumMatchLength) }

    /// Appends bytes; returns the lines (and pieces of long lines) now ready, without newlines.
    public mutating func append(_ bytes: [UInt8]) -> [String] {
        pending.append(contentsOf: bytes)
        var out: [String] = []
        var start = 0
        for index in scanned..<pending.count where pending[index] == 0x0A {
            var end = index
            if end > start && pending[end - 1] == 0x0D { end -= 1 }
            if active {
                take(pending[start..<end], into: &out)
            } else {
                out.append(String(decoding: pending[start..<end], as: UTF8.self))
            }
            start = index + 1
        }
        pending.removeFirst(start)
        scanned = pending.count
        while pending.count > maximumLineLength {
            release(all: true, into: &out)
            out.append(cutPiece())
            scanned = pending.count
        }
        return out
    }

    /// Whatever is left after the stream ended: the held lines and a last line without a newline.
    public mutating func finish() -> [String] {
        var out: [String] = []
        if !pending.isEmpty { take(pending[...], into: &out) }
        pending.removeAll()
        scanned = 0
        release(all: true, into: &out)
        return out
    }

    // MARK: Lines

    private mutating func take(_ line: ArraySlice<UInt8>, into out: inout [String]) {
        let goesOn = active && Self.mayGoOn(line)
        guard goesOn || !held.isEmpty else {
            out.append(String(decoding: line, as: UTF8.self))
            return
        }
        if !window.isEmpty { window.append(0x0A) }
        let start = window.count
        window.append(contentsOf: line)
        held.append(start..<window.count)
        if !goesOn {
            release(all: true, into: &out)
        } else if let first = held.first, window.count - first.lowerBound > 2 * span {
            release(all: false, into: &out)
        }
    }

    /// Emits the held lines, masked over the whole window: all of them, or those no later byte
    /// can change (every match starting in them ends within the window).
    private mutating func release(all: Bool, into out: inout [String]) {
        guard !held.isEmpty else {
            window.removeAll()
            return
        }
        let ranges = redactor.maskedRanges(in: window)
        var released = 0
        for line in held where all || line.upperBound + span <= window.count {
            out.append(masked(line, ranges))
            released += 1
        }
        held.removeFirst(released)
        guard let first = held.first, !all else {
            held.removeAll()
            window.removeAll()
            return
        }
        let drop = first.lowerBound - min(first.lowerBound, span)
        guard drop > 0 else { return }
        window.removeFirst(drop)
        held = held.map { ($0.lowerBound - drop)..<($0.upperBound - drop) }
    }

    /// The window's bytes in `line` with the parts inside `ranges` replaced by the mask.
    private func masked(_ line: Range<Int>, _ ranges: [Range<Int>]) -> String {
        var bytes: [UInt8] = []
        bytes.reserveCapacity(line.count)
        var copied = line.lowerBound
        for range in ranges where range.upperBound > line.lowerBound && range.lowerBound < line.upperBound {
            let lower = max(range.lowerBound, line.lowerBound)
            bytes.append(contentsOf: window[copied..<lower])
            bytes.append(contentsOf: Redactor.mask.utf8)
            copied = min(range.upperBound, line.upperBound)
        }
        bytes.append(contentsOf: window[copied..<line.upperBound])
        return String(decoding: bytes, as: UTF8.self)
    }

    /// True when the line ends with a run of exactly 64 or 76 base64 characters (either
    /// alphabet): a wrapped encoding may go on on the next line.
    static func mayGoOn(_ line: ArraySlice<UInt8>) -> Bool {
        var index = line.endIndex
        while index > line.startIndex, line.endIndex - index <= 76, isBase64(line[index - 1]) { index -= 1 }
        let run = line.endIndex - index
        return run == 64 || run == 76
    }

    private static func isBase64(_ byte: UInt8) -> Bool {
        switch byte {
        case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"), UInt8(ascii: "0")...UInt8(ascii: "9"),
             UInt8(ascii: "+"), UInt8(ascii: "/"), UInt8(ascii: "-"), UInt8(ascii: "_"):
            return true
        default:
            return false
        }
    }

    // MARK: Long lines

    /// The first piece of an over-long `pending` line, cut where no match can straddle the cut:
    /// the last `span` bytes stay (a match starting there may go on in bytes still to come), and
    /// a known match across the cut stays whole in the next piece.
    private mutating func cutPiece() -> String {
        var cut = max(1, min(maximumLineLength, max(pending.count - span, maximumLineLength / 2)))
        // Not inside a UTF-8 character (at most 3 bytes back; invalid UTF-8 is cut anywhere).
        var start = cut
        while start > cut - 3, start > 1, start < pending.count, pending[start] & 0xC0 == 0x80 { start -= 1 }
        if start < pending.count, pending[start] & 0xC0 != 0x80 { cut = start }
        if active {
            for range in redactor.maskedRanges(in: pending) where range.lowerBound < cut && range.upperBound > cut {
                cut = range.lowerBound > 0 ? range.lowerBound : range.upperBound
            }
        }
        let piece = String(decoding: pending[..<cut], as: UTF8.self)
        pending.removeFirst(cut)
        return piece
    }
}
