/// The grammar of names a lane declares (step ids and kinds, inputs, secrets) and the check
/// for text that must stay on one line. These names end up in shell commands, environment
/// variables, YAML keys and CI expressions of exported pipelines (docs/ci.md), and a lane file
/// may come from an untrusted branch: what they may contain is decided here, once.
public enum LaneNames {
    /// A step id or kind: ASCII letters, digits, `_`, `-` and `.`, starting with a letter, a
    /// digit or `_` (so it is never read as an option or a hidden CI job).
    public static func isStepID(_ text: String) -> Bool {
        guard let first = text.unicodeScalars.first, isLetter(first) || isDigit(first) || first == "_" else { return false }
        return text.unicodeScalars.allSatisfy { isLetter($0) || isDigit($0) || "_-.".unicodeScalars.contains($0) }
    }

    /// An input name: ASCII letters, digits, `_` and `-`, starting with a letter or `_` (GitHub's
    /// rule for `workflow_dispatch` inputs; it becomes `SLIPWAY_INPUT_<NAME>`).
    public static func isInputName(_ text: String) -> Bool {
        guard let first = text.unicodeScalars.first, isLetter(first) || first == "_" else { return false }
        return text.unicodeScalars.allSatisfy { isLetter($0) || isDigit($0) || $0 == "_" || $0 == "-" }
    }

    /// A secret name: an environment variable name (ASCII letters, digits and `_`, not starting
    /// with a digit), since the value is read from the variable of that name.
    public static func isSecretName(_ text: String) -> Bool {
        guard let first = text.unicodeScalars.first, isLetter(first) || first == "_" else { return false }
        return text.unicodeScalars.allSatisfy { isLetter($0) || isDigit($0) || $0 == "_" }
    }

    /// The first character of `text` that would break a line or a YAML scalar: C0 controls
    /// (tab, CR and LF included), DEL, C1 controls, the Unicode line and paragraph separators
    /// and the byte-order mark; nil when there is none.
    public static func controlCharacter(in text: String) -> Unicode.Scalar? {
        text.unicodeScalars.first(where: isControl)
    }

    /// `scalar` as `U+000A`, for messages.
    public static func describe(_ scalar: Unicode.Scalar) -> String {
        let hex = String(scalar.value, radix: 16, uppercase: true)
        return "U+" + String(repeating: "0", count: max(0, 4 - hex.count)) + hex
    }

    /// `text` with each control character written `\u{A}`, so that a message quoting it stays
    /// on one line.
    public static func escaped(_ text: String) -> String {
        var result = ""
        for scalar in text.unicodeScalars {
            if isControl(scalar) {
                result += "\\u{" + String(scalar.value, radix: 16, uppercase: true) + "}"
            } else {
                result.unicodeScalars.append(scalar)
            }
        }
        return result
    }

    /// The environment variable a CI job passes input `name` through: `SLIPWAY_INPUT_` and the
    /// name upper-cased, with characters outside `A-Z0-9_` as `_`.
    public static func environmentVariable(forInput name: String) -> String {
        let upper = name.uppercased().unicodeScalars.map { scalar -> Character in
            (("A"..."Z").contains(scalar) || isDigit(scalar) || scalar == "_") ? Character(scalar) : "_"
        }
        return "SLIPWAY_INPUT_" + String(upper)
    }

    static func isControl(_ scalar: Unicode.Scalar) -> Bool {
        scalar.value < 0x20 || (0x7F...0x9F).contains(scalar.value) || scalar.value == 0x2028 || scalar.value == 0x2029
            || scalar.value == 0xFEFF
    }

    private static func isLetter(_ scalar: Unicode.Scalar) -> Bool {
        ("a"..."z").contains(scalar) || ("A"..."Z").contains(scalar)
    }

    private static func isDigit(_ scalar: Unicode.Scalar) -> Bool {
        ("0"..."9").contains(scalar)
    }
}
