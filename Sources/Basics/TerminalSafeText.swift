/// Makes text from untrusted sources (an Info.plist string, a commit subject, a server's answer,
/// a process's output) safe to show on a terminal or in a CI log viewer.
///
/// A terminal acts on control sequences: an OSC 52 sequence writes the clipboard, OSC 8 makes
/// a link, cursor movements and `\r` overwrite what was printed, "conceal" hides text, and
/// bidirectional overrides reorder what a reader sees. Slipway prints only colours, and erases
/// its own progress line with `\r` followed by erase-line; everything else is removed:
/// - every escape sequence except SGR colours with the parameters Slipway uses (0, 1, 2, 22,
///   30–39, 90–97), and the erase-line `ESC [ K` when it directly follows `\r`;
/// - C0 controls other than tab and line feed, DEL, and `\r` unless it ends a line (`\r\n`) or
///   starts Slipway's erase-line (`\r ESC [ K`);
/// - C1 controls (U+0080–U+009F, including the one-byte CSI U+009B).
///
/// Printable characters are left alone, Unicode's bidirectional controls included: JSON and
/// other machine output go through the same streams and must keep their data.
///
/// The check works on whole writes and keeps no state between them: a sequence split across two
/// writes loses its `ESC` in the first and prints the rest as plain characters.
public enum TerminalSafeText {
    /// SGR parameters that only colour or weight text (never conceal, blink or reverse it).
    static let allowedSGR: Set<Int> = Set([0, 1, 2, 22, 39] + Array(30...37) + Array(90...97))

    /// `text` without the sequences and characters described above.
    public static func sanitized(_ text: String) -> String {
        let bytes = Array(text.utf8)
        guard needsWork(bytes) else { return text }
        var output: [UInt8] = []
        output.reserveCapacity(bytes.count)
        var index = 0
        while index < bytes.count {
            let byte = bytes[index]
            switch byte {
            case 0x1B:
                index = escapeSequence(bytes, at: index, into: &output)
            case UInt8(ascii: "\r"):
                let next = index + 1 < bytes.count ? bytes[index + 1] : nil
                if next == UInt8(ascii: "\n") || startsEraseLine(bytes, at: index + 1) { output.append(byte) }
                index += 1
            case UInt8(ascii: "\t"), UInt8(ascii: "\n"):
                output.append(byte)
                index += 1
            case 0x00..<0x20, 0x7F:
                index += 1
            case 0xC2 where index + 1 < bytes.count && (0x80...0x9F).contains(bytes[index + 1]):
                index += 2
            default:
                output.append(byte)
                index += 1
            }
        }
        return String(decoding: output, as: UTF8.self)
    }

    /// True when `bytes` holds anything `sanitized` would change.
    static func needsWork(_ bytes: [UInt8]) -> Bool {
        for (index, byte) in bytes.enumerated() {
            switch byte {
            case UInt8(ascii: "\t"), UInt8(ascii: "\n"): continue
            case 0x00..<0x20, 0x7F: return true
            case 0xC2 where index + 1 < bytes.count && (0x80...0x9F).contains(bytes[index + 1]): return true
            default: continue
            }
        }
        return false
    }

    private static func startsEraseLine(_ bytes: [UInt8], at index: Int) -> Bool {
        index + 2 < bytes.count && bytes[index] == 0x1B && bytes[index + 1] == UInt8(ascii: "[") && bytes[index + 2] == UInt8(ascii: "K")
    }

    /// Reads the escape sequence starting at `start` (an ESC), copies it to `output` when it is
    /// allowed, and returns the index after it.
    private static func escapeSequence(_ bytes: [UInt8], at start: Int, into output: inout [UInt8]) -> Int {
        var index = start + 1
        guard index < bytes.count else { return index }
        let introducer = bytes[index]
        index += 1
        switch introducer {
        case UInt8(ascii: "["):
            // CSI: parameter bytes 0x30–0x3F, intermediate bytes 0x20–0x2F, one final byte 0x40–0x7E.
            let parametersStart = index
            while index < bytes.count, (0x30...0x3F).contains(bytes[index]) { index += 1 }
            let parametersEnd = index
            while index < bytes.count, (0x20...0x2F).contains(bytes[index]) { index += 1 }
            guard index < bytes.count, (0x40...0x7E).contains(bytes[index]) else { return index }
            let final = bytes[index]
            index += 1
            let parameters = bytes[parametersStart..<parametersEnd]
            let allowed: Bool
            if final == UInt8(ascii: "m") && parametersEnd == index - 1 {
                allowed = isAllowedSGR(parameters)
            } else {
                allowed = final == UInt8(ascii: "K") && parameters.isEmpty && start > 0 && bytes[start - 1] == UInt8(ascii: "\r")
            }
            if allowed { output.append(contentsOf: bytes[start..<index]) }
            return index
        case UInt8(ascii: "]"), UInt8(ascii: "P"), UInt8(ascii: "X"), UInt8(ascii: "^"), UInt8(ascii: "_"):
            // OSC, DCS, SOS, PM, APC: a string up to BEL or ST (ESC \), all removed.
            while index < bytes.count {
                if bytes[index] == 0x07 { return index + 1 }
                if bytes[index] == 0x1B {
                    return index + 1 < bytes.count && bytes[index + 1] == UInt8(ascii: "\\") ? index + 2 : index + 1
                }
                index += 1
            }
            return index
        default:
            // A two-character sequence (ESC c, ESC 7, ...), or ESC with intermediates: removed.
            var end = index - 1
            while end < bytes.count, (0x20...0x2F).contains(bytes[end]) { end += 1 }
            return min(end + 1, bytes.count)
        }
    }

    private static func isAllowedSGR(_ parameters: ArraySlice<UInt8>) -> Bool {
        if parameters.isEmpty { return true }
        for part in parameters.split(separator: UInt8(ascii: ";"), omittingEmptySubsequences: false) {
            guard !part.isEmpty, part.count <= 3, part.allSatisfy({ (0x30...0x39).contains($0) }) else { return false }
            let value = part.reduce(0) { $0 * 10 + Int($1 - 0x30) }
            guard allowedSGR.contains(value) else { return false }
        }
        return true
    }
}

/// A `TextOutput` that passes everything written through `TerminalSafeText.sanitized` first:
/// the CLI's standard output and error, so that no untrusted text reaches a terminal raw.
public struct TerminalSafeOutput: TextOutput {
    /// Where the sanitized text goes.
    public let base: any TextOutput

    /// Wraps `base`.
    public init(_ base: any TextOutput) { self.base = base }

    public func write(_ text: String) { base.write(TerminalSafeText.sanitized(text)) }
}
