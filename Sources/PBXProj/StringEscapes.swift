/// Escapes and quoting of OpenStep property-list strings, the way Xcode reads and writes them.
///
/// Xcode writes a string bare only when it is non-empty, every byte is one of
/// `A-Z a-z 0-9 _ $ . /`, and it contains neither `//` (it would start a comment) nor `___`
/// (Xcode's template placeholder marker). Everything else is written in double quotes with
/// `\\`, `\"`, `\n` and `\t` escaped; the UTF-8 text is written as is.
enum StringEscapes {
    /// Bytes Xcode writes bare, as a 128-bit set (low: 0-63, high: 64-127):
    /// `A-Z a-z 0-9 _ $ . /`.
    static let bareLow: UInt64 = 0x03FF_C010_0000_0000
    static let bareHigh: UInt64 = 0x07FF_FFFE_87FF_FFFE

    @inline(__always)
    static func isBare(_ byte: UInt8) -> Bool {
        if byte < 64 { return (bareLow >> UInt64(byte)) & 1 != 0 }
        if byte < 128 { return (bareHigh >> UInt64(byte - 64)) & 1 != 0 }
        return false
    }

    /// Per byte: 0 written bare, 1 `/` or `_` (bare, but not two `/` or three `_` in a row),
    /// 2 written in quotes.
    private static let byteClasses: [UInt8] = (0..<256).map { value in
        let byte = UInt8(value)
        if byte == UInt8(ascii: "/") || byte == UInt8(ascii: "_") { return 1 }
        return isBare(byte) ? 0 : 2
    }

    /// Whether Xcode writes `content` in quotes.
    static func needsQuotes(_ content: UnsafeBufferPointer<UInt8>) -> Bool {
        if content.isEmpty { return true }
        // One look-up per byte (asked of nearly every string a check or a write meets).
        var seen: UInt8 = 0
        byteClasses.withUnsafeBufferPointer { classes in
            for byte in content {
                seen |= classes[Int(byte)]
                if seen >= 2 { return }
            }
        }
        if seen >= 2 { return true }
        guard seen == 1, content.count >= 2 else { return false }
        var previous: UInt8 = 0
        var underscores = 0
        for byte in content {
            if byte == UInt8(ascii: "/") && previous == UInt8(ascii: "/") { return true }
            underscores = byte == UInt8(ascii: "_") ? underscores + 1 : 0
            if underscores == 3 { return true }
            previous = byte
        }
        return false
    }

    /// Whether `content`, placed between quotes as is, is already Xcode's escaped form: it has no
    /// byte that Xcode would escape.
    static func isCanonicalQuotedBody(_ content: UnsafeBufferPointer<UInt8>) -> Bool {
        for byte in content where byte < 0x20 || byte == UInt8(ascii: "\"") || byte == UInt8(ascii: "\\") {
            return false
        }
        return true
    }

    /// Appends `content` as Xcode writes it: bare or quoted and escaped.
    static func appendCanonical(_ content: UnsafeBufferPointer<UInt8>, to out: inout [UInt8], forceQuotes: Bool = false) {
        guard forceQuotes || needsQuotes(content) else {
            out.append(contentsOf: content)
            return
        }
        out.append(UInt8(ascii: "\""))
        appendEscaped(content, to: &out)
        out.append(UInt8(ascii: "\""))
    }

    /// Appends `content` with quotes, backslashes and control characters escaped.
    static func appendEscaped(_ content: UnsafeBufferPointer<UInt8>, to out: inout [UInt8]) {
        for byte in content {
            switch byte {
            case UInt8(ascii: "\\"): out.append(contentsOf: [0x5C, 0x5C])
            case UInt8(ascii: "\""): out.append(contentsOf: [0x5C, 0x22])
            case 0x0A: out.append(contentsOf: [0x5C, UInt8(ascii: "n")])
            case 0x09: out.append(contentsOf: [0x5C, UInt8(ascii: "t")])
            case 0..<0x20:
                // Xcode never writes other control characters; \U keeps the text on one line
                // and is read back by every OpenStep reader.
                let hex: [UInt8] = Array("0123456789abcdef".utf8)
                out.append(contentsOf: [0x5C, UInt8(ascii: "U"), 0x30, 0x30])
                out.append(hex[Int(byte >> 4)])
                out.append(hex[Int(byte & 0xF)])
            default: out.append(byte)
            }
        }
    }

    /// Appends a Swift string as Xcode writes it.
    static func appendCanonical(_ string: String, to out: inout [UInt8], forceQuotes: Bool = false) {
        var string = string
        string.withUTF8 { appendCanonical($0, to: &out, forceQuotes: forceQuotes) }
    }

    /// The length of the escape sequence starting at the backslash `bytes[at]`, or nil when it
    /// is not one the format defines.
    static func escapeLength(_ bytes: UnsafeBufferPointer<UInt8>, at: Int) -> Int? {
        guard at + 1 < bytes.count else { return nil }
        let next = bytes[at + 1]
        switch next {
        case UInt8(ascii: "\\"), UInt8(ascii: "\""), UInt8(ascii: "'"), UInt8(ascii: "n"),
            UInt8(ascii: "t"), UInt8(ascii: "r"), UInt8(ascii: "a"), UInt8(ascii: "b"),
            UInt8(ascii: "f"), UInt8(ascii: "v"), 0x0A:
            return 2
        case UInt8(ascii: "0")...UInt8(ascii: "7"):
            var length = 2
            while length < 4, at + length < bytes.count, isOctal(bytes[at + length]) { length += 1 }
            return length
        case UInt8(ascii: "U"), UInt8(ascii: "u"):
            var length = 2
            while length < 6, at + length < bytes.count, hexValue(bytes[at + length]) != nil { length += 1 }
            return length > 2 ? length : nil
        default:
            return nil
        }
    }

    /// Decodes the text between the quotes of a quoted string.
    static func decode(_ body: ArraySlice<UInt8>) -> [UInt8] {
        var out: [UInt8] = []
        out.reserveCapacity(body.count)
        var pendingHighSurrogate: UInt32?
        var i = body.startIndex
        while i < body.endIndex {
            let byte = body[i]
            guard byte == UInt8(ascii: "\\"), i + 1 < body.endIndex else {
                flush(&pendingHighSurrogate, into: &out)
                out.append(byte)
                i += 1
                continue
            }
            let next = body[i + 1]
            i += 2
            if next == UInt8(ascii: "U") || next == UInt8(ascii: "u") {
                var value: UInt32 = 0
                var digits = 0
                while digits < 4, i < body.endIndex, let digit = hexValue(body[i]) {
                    value = value << 4 | UInt32(digit)
                    digits += 1
                    i += 1
                }
                appendScalar(value, pending: &pendingHighSurrogate, into: &out)
                continue
            }
            flush(&pendingHighSurrogate, into: &out)
            if isOctal(next) {
                var value = UInt32(next - 0x30)
                var digits = 1
                while digits < 3, i < body.endIndex, isOctal(body[i]) {
                    value = value << 3 | UInt32(body[i] - 0x30)
                    digits += 1
                    i += 1
                }
                appendScalar(value, pending: &pendingHighSurrogate, into: &out)
                continue
            }
            out.append(simpleEscape(next))
        }
        flush(&pendingHighSurrogate, into: &out)
        return out
    }

    private static func simpleEscape(_ byte: UInt8) -> UInt8 {
        switch byte {
        case UInt8(ascii: "n"): return 0x0A
        case UInt8(ascii: "t"): return 0x09
        case UInt8(ascii: "r"): return 0x0D
        case UInt8(ascii: "a"): return 0x07
        case UInt8(ascii: "b"): return 0x08
        case UInt8(ascii: "f"): return 0x0C
        case UInt8(ascii: "v"): return 0x0B
        default: return byte
        }
    }

    private static func appendScalar(_ value: UInt32, pending: inout UInt32?, into out: inout [UInt8]) {
        if (0xD800...0xDBFF).contains(value) {
            flush(&pending, into: &out)
            pending = value
            return
        }
        if (0xDC00...0xDFFF).contains(value), let high = pending {
            pending = nil
            let combined = 0x10000 + ((high - 0xD800) << 10) + (value - 0xDC00)
            appendUTF8(combined, into: &out)
            return
        }
        flush(&pending, into: &out)
        appendUTF8(value, into: &out)
    }

    private static func flush(_ pending: inout UInt32?, into out: inout [UInt8]) {
        guard pending != nil else { return }
        pending = nil
        appendUTF8(0xFFFD, into: &out)
    }

    private static func appendUTF8(_ value: UInt32, into out: inout [UInt8]) {
        let scalar = Unicode.Scalar(value)?.value ?? 0xFFFD
        switch scalar {
        case 0..<0x80:
            out.append(UInt8(scalar))
        case 0x80..<0x800:
            out.append(UInt8(0xC0 | scalar >> 6))
            out.append(UInt8(0x80 | scalar & 0x3F))
        case 0x800..<0x10000:
            out.append(UInt8(0xE0 | scalar >> 12))
            out.append(UInt8(0x80 | scalar >> 6 & 0x3F))
            out.append(UInt8(0x80 | scalar & 0x3F))
        default:
            out.append(UInt8(0xF0 | scalar >> 18))
            out.append(UInt8(0x80 | scalar >> 12 & 0x3F))
            out.append(UInt8(0x80 | scalar >> 6 & 0x3F))
            out.append(UInt8(0x80 | scalar & 0x3F))
        }
    }

    @inline(__always)
    static func isOctal(_ byte: UInt8) -> Bool { byte >= 0x30 && byte <= 0x37 }

    @inline(__always)
    static func hexValue(_ byte: UInt8) -> UInt8? {
        switch byte {
        case UInt8(ascii: "0")...UInt8(ascii: "9"): return byte - 0x30
        case UInt8(ascii: "a")...UInt8(ascii: "f"): return byte - 0x57
        case UInt8(ascii: "A")...UInt8(ascii: "F"): return byte - 0x37
        default: return nil
        }
    }
}
