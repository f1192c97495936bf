/// Makes untrusted text (a commit subject, a pbxproj name, an Info.plist value, a name a server
/// gave, a lane file's or a step's name) safe to embed in Slipway's human output, where it is
/// embedded.
///
/// `TerminalSafeText` filters every write at the stream, but it must let `\r ESC [ K` through
/// (Slipway's own progress line uses it), and it cannot tell Slipway's line breaks from a
/// value's. So a value that carries `\r ESC[K✓ upload succeeded` would erase the line it sits on
/// and print a forged one. Here every control character is written as a visible escape instead:
/// `\r`, `\n`, `\t`, and `\u{1B}`-style for the others (C0, DEL, C1), along with the Unicode
/// characters that reorder or hide text (bidirectional controls, U+2028/2029 line and paragraph
/// separators, the BOM and other zero-width format characters). Everything else is kept, a
/// backslash included.
///
/// JSON output does not use this: a JSON encoder escapes control characters itself, and JSON
/// carries the data as it is.
public enum DisplayText {
    /// `text` as one line: every character described above escaped, line breaks included.
    public static func untrusted(_ text: String) -> String {
        escaped(text, keepingLineBreaks: false)
    }

    /// `text` (a document made of untrusted lines, such as a changelog section or an error that
    /// quotes a file's lines) with its line breaks kept (`\n`, and `\r\n` written as `\n`) and its
    /// tabs kept, everything else escaped as `untrusted` does, a lone `\r` included.
    public static func untrustedLines(_ text: String) -> String {
        escaped(text, keepingLineBreaks: true)
    }

    /// A line of a child process's output as shown under a step: colours and other escape
    /// sequences are left to `TerminalSafeText` (tools colour their output), but a carriage return
    /// is shown as `\r`, so that `\r ESC[K` (which the stream filter lets through for Slipway's
    /// own progress) cannot erase the line and print another in its place (`git log` printing a
    /// hostile commit subject, a test printing a name).
    public static func processOutput(_ line: String) -> String {
        guard line.utf8.contains(0x0D) else { return line }
        return line.replacingOccurrences(of: "\r", with: "\\r")
    }

    private static func escaped(_ text: String, keepingLineBreaks: Bool) -> String {
        guard text.unicodeScalars.contains(where: needsEscape) else { return text }
        var output = String.UnicodeScalarView()
        let scalars = Array(text.unicodeScalars)
        var index = 0
        while index < scalars.count {
            let scalar = scalars[index]
            index += 1
            if keepingLineBreaks {
                if scalar == "\n" || scalar == "\t" { output.append(scalar); continue }
                if scalar == "\r" && index < scalars.count && scalars[index] == "\n" { continue }
            }
            guard needsEscape(scalar) else { output.append(scalar); continue }
            output.append(contentsOf: escape(scalar).unicodeScalars)
        }
        return String(output)
    }

    private static func escape(_ scalar: Unicode.Scalar) -> String {
        switch scalar {
        case "\r": return "\\r"
        case "\n": return "\\n"
        case "\t": return "\\t"
        default: return "\\u{" + String(scalar.value, radix: 16, uppercase: true) + "}"
        }
    }

    /// Controls (C0, DEL, C1) and the format characters that change how text is laid out:
    /// bidirectional embeddings, overrides, isolates and marks, line/paragraph separators, the
    /// zero-width characters and the BOM.
    static func needsEscape(_ scalar: Unicode.Scalar) -> Bool {
        switch scalar.value {
        case 0x00..<0x20, 0x7F..<0xA0: return true
        case 0x200B...0x200F, 0x2028...0x202E, 0x2060...0x2069, 0xFEFF, 0x061C: return true
        default: return false
        }
    }
}

extension String {
    /// This text made safe to embed in human output: `DisplayText.untrusted(self)`.
    public var displaySafe: String { DisplayText.untrusted(self) }
}
