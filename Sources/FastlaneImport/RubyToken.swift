/// A token of the Ruby subset that fastlane's configuration files (Fastfile, Appfile, Matchfile)
/// are written in. Only what is needed to find lanes and action calls with literal arguments is
/// told apart; everything else is kept as `punctuation` so that its source text can be quoted.
struct RubyToken: Sendable, Hashable {
    enum Kind: Sendable, Hashable {
        /// A name: `lane`, `gym`, `options`, `do`, `end`, `ENV`, `@value`, `$global`, `ok?`.
        case identifier(String)
        /// `:beta`, `:"a b"`.
        case symbol(String)
        /// A hash key in the `key:` shorthand.
        case label(String)
        /// A string literal: its text parts and `#{…}` code parts.
        case string([StringPart])
        /// `%w[a b]` (words) or `%i[a b]` (symbols).
        case words([String], symbols: Bool)
        /// A number as written.
        case number(String)
        /// An operator or bracket: `(`, `)`, `[`, `]`, `{`, `}`, `,`, `=>`, `.`, `|`, `=`, `::`, ...
        case punctuation(String)
        /// The end of a line (a statement may end here).
        case newline
    }

    var kind: Kind
    /// 1-based line and column of the token's first character.
    var line: Int
    var column: Int
    /// UTF-8 offsets of the token's source text.
    var start: Int
    var end: Int

    var identifier: String? { if case .identifier(let name) = kind { return name } else { return nil } }
    func isPunctuation(_ text: String) -> Bool { kind == .punctuation(text) }
    var isNewline: Bool { kind == .newline }
}

/// A part of a string literal.
public enum StringPart: Sendable, Hashable {
    case text(String)
    /// The Ruby source inside `#{…}`.
    case code(String)
}
