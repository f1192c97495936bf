/// One thing the redactor looks for: a sequence of units, each matched by any one of its
/// alternatives (byte strings). A plain string is one unit with one alternative; an encoded
/// form lets each character appear raw or escaped (`%2F`, `\/`, `\u002f`, ...), and the first
/// alternative of each of its units is the raw text (so the units' first alternatives spell the
/// value, which is always a literal pattern of its own too).
struct RedactionPattern: Hashable, Sendable {
    var units: [[[UInt8]]]
    /// For a literal (one unit, one alternative): a line break (`\n` or `\r\n`) may stand
    /// between any two of its bytes, as in base64 wrapped at 76 (`base64`) or 64 (PEM) columns.
    var allowsLineBreaks = false

    /// A pattern matching exactly `bytes`.
    static func literal(_ bytes: [UInt8]) -> RedactionPattern {
        RedactionPattern(units: [[bytes]])
    }

    /// A pattern matching `bytes` with at most one line break (`\n` or `\r\n`) between any two
    /// of them.
    static func wrapped(_ bytes: [UInt8]) -> RedactionPattern {
        RedactionPattern(units: [[bytes]], allowsLineBreaks: true)
    }

    /// The most bytes a match can span.
    var maximumLength: Int {
        if allowsLineBreaks, let bytes = units.first?.first { return bytes.count + 2 * max(0, bytes.count - 1) }
        return units.reduce(0) { $0 + ($1.map(\.count).max() ?? 0) }
    }

    /// Every pair of bytes a match can start with.
    var startingPairs: Set<UInt16> {
        var pairs = Set<UInt16>()
        guard let first = units.first else { return pairs }
        if allowsLineBreaks, let bytes = first.first, bytes.count >= 2 {
            for second in [bytes[1], 0x0A, 0x0D] { pairs.insert(UInt16(bytes[0]) << 8 | UInt16(second)) }
            return pairs
        }
        for head in first {
            if head.count >= 2 {
                pairs.insert(UInt16(head[0]) << 8 | UInt16(head[1]))
            } else if let head = head.first, units.count > 1 {
                for next in units[1] { if let byte = next.first { pairs.insert(UInt16(head) << 8 | UInt16(byte)) } }
            }
        }
        return pairs
    }
}

/// The forms of a secret that are masked besides its raw value. See `Redactor` for the rules.
enum RedactionForms {
    /// Base64 fragments shorter than this (padding not counted) are not masked: a few base64
    /// characters occur in ordinary text (`YWJj` is also a word fragment), 8 characters stand for
    /// 6 bytes (48 bits) of the secret.
    static let minimumBase64Length = 8
    /// `base64` without `-w0` wraps its output at this column.
    static let base64LineLength = 76

    /// The base64 strings to mask for `value`: for the value and for the value followed by a
    /// newline (what `echo $X | base64` encodes), in the standard and URL-safe alphabets, the
    /// whole encoding with and without padding, its 76-column lines, and, for each of the three
    /// alignments the value can have inside a longer encoded stream, the characters that depend
    /// on the value's bytes only.
    static func base64(of value: [UInt8]) -> Set<[UInt8]> {
        var forms = Set<[UInt8]>()
        for bytes in [value, value + [0x0A]] {
            let whole = encode(bytes, padded: true)
            forms.insert(whole)
            forms.insert(Array(whole.prefix { $0 != UInt8(ascii: "=") }))
            var start = 0
            while start < whole.count {
                forms.insert(Array(whole[start..<min(start + base64LineLength, whole.count)]))
                start += base64LineLength
            }
            for offset in 0..<3 { forms.insert(stableMiddle(of: bytes, offset: offset)) }
        }
        let urlSafe = forms.map { form in
            form.map { $0 == UInt8(ascii: "+") ? UInt8(ascii: "-") : $0 == UInt8(ascii: "/") ? UInt8(ascii: "_") : $0 }
        }
        forms.formUnion(urlSafe)
        return forms.filter { form in form.lazy.filter { $0 != UInt8(ascii: "=") }.count >= minimumBase64Length }
    }

    /// The characters of the encoding of `bytes` placed `offset` bytes after a 3-byte boundary that
    /// are made of the value's bits only. Character `i` holds bits `6i..<6i+6` of the stream and
    /// the value's bits are `8·offset..<8·(offset+count)`, so the stable characters run from
    /// `⌈8·offset / 6⌉` to `⌊8·(offset+count) / 6⌋` (exclusive); the partial characters at either
    /// end (at most 4 of the value's bits each) mix in the neighbours' bits and cannot be known.
    static func stableMiddle(of bytes: [UInt8], offset: Int) -> [UInt8] {
        let encoded = encode([UInt8](repeating: 0, count: offset) + bytes, padded: false)
        let first = (8 * offset + 5) / 6, end = min(8 * (offset + bytes.count) / 6, encoded.count)
        return first < end ? Array(encoded[first..<end]) : []
    }

    private static let alphabet = Array("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/".utf8)

    /// Standard base64 of `bytes`.
    static func encode(_ bytes: [UInt8], padded: Bool) -> [UInt8] {
        var output: [UInt8] = []
        output.reserveCapacity((bytes.count + 2) / 3 * 4)
        var index = 0
        while index < bytes.count {
            let count = min(3, bytes.count - index)
            var group = UInt32(bytes[index]) << 16
            if count > 1 { group |= UInt32(bytes[index + 1]) << 8 }
            if count > 2 { group |= UInt32(bytes[index + 2]) }
            for position in 0..<4 {
                if position <= count {
                    output.append(alphabet[Int(group >> UInt32(18 - 6 * position)) & 63])
                } else if padded {
                    output.append(UInt8(ascii: "="))
                }
            }
            index += 3
        }
        return output
    }

    /// The percent-encoded form: every byte raw or `%XX` (either case), a space also `+`. Nil when
    /// no encoder would change the value (only letters, digits and `-._~`).
    static func percentEncoded(_ value: [UInt8]) -> RedactionPattern? {
        guard value.contains(where: { !isUnreserved($0) }) else { return nil }
        return RedactionPattern(units: value.map { byte in
            let raw = [byte]
            var alternatives: Set<[UInt8]> = [raw]
            for upper in [false, true] { alternatives.insert([UInt8(ascii: "%"), hex(byte >> 4, upper: upper), hex(byte & 15, upper: upper)]) }
            if byte == UInt8(ascii: " ") { alternatives.insert([UInt8(ascii: "+")]) }
            return rawFirst(raw, alternatives)
        })
    }

    /// The JSON string form: every character raw or escaped as encoders do (`\"`, `\\`, `\/`,
    /// `\n`-style short escapes, `\uXXXX` in either case, surrogate pairs above U+FFFF). Letters
    /// and digits too may be `\uXXXX`: some encoders escape every character (`\u0073\u0065…`),
    /// so this form is made for every value.
    static func jsonEscaped(_ value: String) -> RedactionPattern {
        var units: [[[UInt8]]] = []
        for scalar in value.unicodeScalars {
            let raw = Array(String(scalar).utf8)
            var alternatives: Set<[UInt8]> = [raw]
            if let short = shortEscapes[scalar] { alternatives.insert(Array("\\\(short)".utf8)) }
            for upper in [false, true] { alternatives.insert(unicodeEscape(scalar, upper: upper)) }
            units.append(rawFirst(raw, alternatives))
        }
        return RedactionPattern(units: units)
    }

    /// The HTML form, as a server's HTML error page or an HTML escaper prints text: every
    /// character raw, as a decimal (`&#47;`) or hexadecimal (`&#x2F;`, `&#X2f;`, either case)
    /// character reference, or, for ASCII punctuation, as its HTML5 named reference (`&amp;`,
    /// `&lt;`, `&gt;`, `&quot;`, `&apos;`, `&sol;`, `&equals;`, ...). Made for every value, since
    /// some escapers write every character as a reference; a space may also be `&nbsp;`. Not
    /// covered: references with leading zeros (`&#047;`) and names without their `;`.
    static func htmlEscaped(_ value: String) -> RedactionPattern {
        RedactionPattern(units: value.unicodeScalars.map { scalar in
            let raw = Array(String(scalar).utf8)
            var alternatives: Set<[UInt8]> = [raw]
            alternatives.insert(Array("&#\(scalar.value);".utf8))
            let hexDigits = String(scalar.value, radix: 16)
            for x in ["x", "X"] {
                alternatives.insert(Array("&#\(x)\(hexDigits);".utf8))
                alternatives.insert(Array("&#\(x)\(hexDigits.uppercased());".utf8))
            }
            for name in htmlNames[scalar] ?? [] { alternatives.insert(Array("&\(name);".utf8)) }
            return rawFirst(raw, alternatives)
        })
    }

    /// HTML5's named references for ASCII punctuation (the ones escapers write; `&apos;` and
    /// `&#39;` both for `'`).
    private static let htmlNames: [Unicode.Scalar: [String]] = [
        "&": ["amp", "AMP"], "<": ["lt", "LT"], ">": ["gt", "GT"], "\"": ["quot", "QUOT"], "'": ["apos"],
        "/": ["sol"], "=": ["equals"], "`": ["grave"], "+": ["plus"], ":": ["colon"], ",": ["comma"],
        ".": ["period"], "!": ["excl"], "#": ["num"], "$": ["dollar"], "%": ["percnt"], "(": ["lpar"],
        ")": ["rpar"], "*": ["ast"], ";": ["semi"], "?": ["quest"], "@": ["commat"], "[": ["lsqb", "lbrack"],
        "]": ["rsqb", "rbrack"], "\\": ["bsol"], "_": ["lowbar"], "{": ["lcub", "lbrace"], "}": ["rcub", "rbrace"],
        "|": ["verbar", "vert"], "^": ["Hat"], "~": ["tilde"], " ": ["nbsp"],
        "\n": ["NewLine"], "\t": ["Tab"],
    ]

    /// The value's UTF-16 bytes, little- and big-endian: what a Windows tool, PowerShell's
    /// `Out-File`, `iconv -t UTF-16` or a `.strings` file writes. Step output is read as bytes
    /// and the terminal filter drops the zero bytes between ASCII characters, so without this
    /// form the value would reach the terminal whole.
    static func utf16(_ value: String) -> [[UInt8]] {
        let units = Array(value.utf16)
        let little = units.flatMap { [UInt8(truncatingIfNeeded: $0), UInt8(truncatingIfNeeded: $0 >> 8)] }
        let big = units.flatMap { [UInt8(truncatingIfNeeded: $0 >> 8), UInt8(truncatingIfNeeded: $0)] }
        return [little, big]
    }

    /// Bytes that no shell quoter changes: `printf %q` and `set -x` print a value made only of
    /// these as it is (so the raw value is found).
    private static let shellSafe = Set("-_./:@%+=~#".utf8)

    /// The shell-quoted form, as `set -x`, `printf %q`, bash's `${X@Q}` and Slipway's own plans
    /// print a value: every byte raw or escaped the way one of the three quoting styles does it.
    /// Single quotes: `'` becomes `'\''` (or `'"'"'`). Backslashes: any byte other than a letter or
    /// digit may be preceded by `\` (`it\'s\ a`). ANSI-C (`$'…'`): `\'`, `\\`, `\n`-style short
    /// escapes, and `\ooo` octal or `\xHH` hex for control characters and bytes above 0x7F.
    /// Nil when no quoter changes the value.
    static func shellQuoted(_ value: [UInt8]) -> RedactionPattern? {
        guard value.contains(where: { !isAlphanumeric($0) && !shellSafe.contains($0) }) else { return nil }
        return RedactionPattern(units: value.map { byte in
            let raw = [byte]
            var alternatives: Set<[UInt8]> = [raw]
            guard !isAlphanumeric(byte) else { return [raw] }
            let backslash = UInt8(ascii: "\\")
            alternatives.insert([backslash, byte])
            if byte == UInt8(ascii: "'") {
                alternatives.insert(Array(#"'\''"#.utf8))
                alternatives.insert(Array(#"'"'"'"#.utf8))
            }
            if byte < 0x20 || byte >= 0x7F {
                if let short = ansiCEscapes[byte] { alternatives.insert([backslash, short]) }
                if byte == 0x1B { alternatives.insert([backslash, UInt8(ascii: "E")]) }
                alternatives.insert([backslash, UInt8(ascii: "0") + (byte >> 6), UInt8(ascii: "0") + (byte >> 3 & 7), UInt8(ascii: "0") + (byte & 7)])
                for upper in [false, true] { alternatives.insert([backslash, UInt8(ascii: "x"), hex(byte >> 4, upper: upper), hex(byte & 15, upper: upper)]) }
            }
            return rawFirst(raw, alternatives)
        })
    }

    /// A unit's alternatives with the raw text first (`RedactionPattern` relies on it).
    private static func rawFirst(_ raw: [UInt8], _ alternatives: Set<[UInt8]>) -> [[UInt8]] {
        [raw] + alternatives.subtracting([raw]).sorted { $0.lexicographicallyPrecedes($1) }
    }

    private static let ansiCEscapes: [UInt8: UInt8] = [
        0x07: UInt8(ascii: "a"), 0x08: UInt8(ascii: "b"), 0x09: UInt8(ascii: "t"), 0x0A: UInt8(ascii: "n"),
        0x0B: UInt8(ascii: "v"), 0x0C: UInt8(ascii: "f"), 0x0D: UInt8(ascii: "r"), 0x1B: UInt8(ascii: "e"),
    ]

    private static func isAlphanumeric(_ byte: UInt8) -> Bool {
        switch byte {
        case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"), UInt8(ascii: "0")...UInt8(ascii: "9"): return true
        default: return false
        }
    }

    private static let shortEscapes: [Unicode.Scalar: Character] = [
        "\"": "\"", "\\": "\\", "/": "/", "\n": "n", "\r": "r", "\t": "t", "\u{08}": "b", "\u{0C}": "f",
    ]

    private static func unicodeEscape(_ scalar: Unicode.Scalar, upper: Bool) -> [UInt8] {
        let units = Array(String(scalar).utf16)
        var bytes: [UInt8] = []
        for unit in units {
            bytes += [UInt8(ascii: "\\"), UInt8(ascii: "u")]
            for shift in [12, 8, 4, 0] { bytes.append(hex(UInt8((unit >> UInt16(shift)) & 15), upper: upper)) }
        }
        return bytes
    }

    private static func isUnreserved(_ byte: UInt8) -> Bool {
        switch byte {
        case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"), UInt8(ascii: "0")...UInt8(ascii: "9"):
            return true
        default:
            return byte == UInt8(ascii: "-") || byte == UInt8(ascii: ".") || byte == UInt8(ascii: "_") || byte == UInt8(ascii: "~")
        }
    }

    private static func hex(_ nibble: UInt8, upper: Bool) -> UInt8 {
        nibble < 10 ? UInt8(ascii: "0") + nibble : (upper ? UInt8(ascii: "A") : UInt8(ascii: "a")) + nibble - 10
    }
}
