/// Splits Ruby source into tokens. It understands comments (`#`, `=begin`/`=end`), single- and
/// double-quoted strings with escapes and `#{}` interpolation, `%w`/`%i`/`%q`/`%Q` literals,
/// heredocs (`<<~EOS`, `<<-EOS`, `<<EOS`), symbols, `key:` labels, numbers and operators.
struct RubyTokenizer {
    private let bytes: [UInt8]
    private let file: String
    private var index = 0
    private var line = 1
    private var lineStart = 0
    private var tokens: [RubyToken] = []
    /// Heredocs opened on the current line: their terminators, whether indented, and the index of
    /// the token whose text the body becomes.
    private var pendingHeredocs: [(terminator: String, squiggly: Bool, dash: Bool, token: Int)] = []

    init(source: String, file: String) {
        bytes = Array(source.utf8)
        self.file = file
    }

    /// The tokens of the source.
    ///
    /// - Throws: `FastlaneImportError.syntax` for an unterminated string, heredoc or comment.
    mutating func tokenize() throws -> [RubyToken] {
        if startsWith("=begin") { try skipBlockComment() }
        while index < bytes.count {
            let byte = bytes[index]
            switch byte {
            case UInt8(ascii: " "), UInt8(ascii: "\t"), UInt8(ascii: "\r"):
                index += 1
            case UInt8(ascii: "\\") where peek(1) == UInt8(ascii: "\n"):
                index += 2
                newLine()
            case UInt8(ascii: "\n"):
                add(.newline, from: index, to: index + 1)
                index += 1
                newLine()
                try readHeredocBodies()
                if index == lineStart, startsWith("=begin") { try skipBlockComment() }
            case UInt8(ascii: "#"):
                while index < bytes.count, bytes[index] != UInt8(ascii: "\n") { index += 1 }
            case UInt8(ascii: "'"), UInt8(ascii: "\""), UInt8(ascii: "`"):
                let start = index
                let parts = try readQuoted(close: byte, interpolates: byte != UInt8(ascii: "'"))
                add(.string(parts), from: start, to: index)
            case UInt8(ascii: "/") where isRegexStart():
                let start = index
                let parts = try readRegex()
                add(.string(parts), from: start, to: index)
            case UInt8(ascii: "%") where isPercentLiteralStart():
                try readPercentLiteral()
            case UInt8(ascii: "<") where isHeredocStart():
                readHeredocStart()
            case UInt8(ascii: ":") where peek(1) == UInt8(ascii: ":"):
                add(.punctuation("::"), from: index, to: index + 2)
                index += 2
            case UInt8(ascii: ":") where peek(1).map(isNameStart) ?? false:
                let start = index
                index += 1
                let name = readName()
                add(.symbol(name), from: start, to: index)
            case UInt8(ascii: ":") where peek(1) == UInt8(ascii: "\"") || peek(1) == UInt8(ascii: "'"):
                let start = index
                let quote = bytes[index + 1]
                index += 1
                let parts = try readQuoted(close: quote, interpolates: quote == UInt8(ascii: "\""))
                add(.symbol(Self.plainText(parts)), from: start, to: index)
            case _ where isDigit(byte):
                readNumber()
            case _ where isNameStart(byte) || byte == UInt8(ascii: "@") || byte == UInt8(ascii: "$"):
                readIdentifierOrLabel()
            default:
                readOperator()
            }
        }
        if let open = pendingHeredocs.first {
            throw FastlaneImportError.syntax(file: file, line: line, column: 1,
                                             problem: "the heredoc ending with '\(open.terminator)' is not closed")
        }
        return tokens
    }

    // MARK: - Pieces

    private mutating func readNumber() {
        let start = index
        while index < bytes.count, isDigit(bytes[index]) || bytes[index] == UInt8(ascii: "_")
                || (bytes[index] == UInt8(ascii: ".") && peek(1).map(isDigit) == true) {
            index += 1
        }
        add(.number(text(start, index)), from: start, to: index)
    }

    /// A name (`gym`, `@value`, `$global`), or a `key:` label — but not `a ? b : c` nor `Foo::Bar`.
    private mutating func readIdentifierOrLabel() {
        let start = index
        while index < bytes.count, bytes[index] == UInt8(ascii: "@") || bytes[index] == UInt8(ascii: "$") { index += 1 }
        let name = text(start, index) + readName()
        if peek(0) == UInt8(ascii: ":"), peek(1) != UInt8(ascii: ":"), !name.hasPrefix("@"), !name.hasPrefix("$") {
            index += 1
            add(.label(name), from: start, to: index)
        } else {
            add(.identifier(name), from: start, to: index)
        }
    }

    private mutating func newLine() {
        line += 1
        lineStart = index
    }

    private mutating func add(_ kind: RubyToken.Kind, from start: Int, to end: Int) {
        tokens.append(RubyToken(kind: kind, line: line, column: start - lineStart + 1, start: start, end: end))
    }

    private func peek(_ offset: Int) -> UInt8? {
        index + offset < bytes.count ? bytes[index + offset] : nil
    }

    private func text(_ start: Int, _ end: Int) -> String {
        String(decoding: bytes[start..<end], as: UTF8.self)
    }

    private func startsWith(_ prefix: String) -> Bool {
        let prefixBytes = Array(prefix.utf8)
        guard index + prefixBytes.count <= bytes.count else { return false }
        return Array(bytes[index..<index + prefixBytes.count]) == prefixBytes
    }

    private func isDigit(_ byte: UInt8) -> Bool { byte >= UInt8(ascii: "0") && byte <= UInt8(ascii: "9") }

    private func isNameStart(_ byte: UInt8) -> Bool {
        (byte >= UInt8(ascii: "a") && byte <= UInt8(ascii: "z")) || (byte >= UInt8(ascii: "A") && byte <= UInt8(ascii: "Z"))
            || byte == UInt8(ascii: "_") || byte >= 0x80
    }

    private mutating func readName() -> String {
        let start = index
        while index < bytes.count, isNameStart(bytes[index]) || isDigit(bytes[index]) { index += 1 }
        if index < bytes.count, bytes[index] == UInt8(ascii: "?") || bytes[index] == UInt8(ascii: "!"),
           peek(1) != UInt8(ascii: "=") {
            index += 1
        }
        return text(start, index)
    }

    private mutating func skipBlockComment() throws {
        let startLine = line
        while index < bytes.count {
            if index == lineStart, startsWith("=end") {
                while index < bytes.count, bytes[index] != UInt8(ascii: "\n") { index += 1 }
                return
            }
            if bytes[index] == UInt8(ascii: "\n") {
                index += 1
                newLine()
            } else {
                index += 1
            }
        }
        throw FastlaneImportError.syntax(file: file, line: startLine, column: 1, problem: "'=begin' has no '=end'")
    }

    /// Reads a quoted literal starting at the opening quote; `index` ends after the closing one.
    /// The code of `#{…}` (the index at `#`), up to its closing brace; nil when it is not closed.
    private mutating func readInterpolation() -> String? {
        index += 2
        let codeStart = index
        var braces = 1
        while index < bytes.count, braces > 0 {
            if bytes[index] == UInt8(ascii: "{") { braces += 1 }
            if bytes[index] == UInt8(ascii: "}") { braces -= 1 }
            if bytes[index] == UInt8(ascii: "\n") { index += 1; newLine(); continue }
            index += 1
        }
        guard braces == 0 else { return nil }
        return text(codeStart, index - 1)
    }

    private mutating func readQuoted(close: UInt8, open: UInt8? = nil, interpolates: Bool) throws -> [StringPart] {
        let startLine = line
        let startColumn = index - lineStart + 1
        index += 1
        var parts: [StringPart] = []
        var current: [UInt8] = []
        var depth = 0
        func flush() {
            if !current.isEmpty { parts.append(.text(String(decoding: current, as: UTF8.self))) }
            current = []
        }
        while index < bytes.count {
            let byte = bytes[index]
            if byte == UInt8(ascii: "\\"), index + 1 < bytes.count {
                let next = bytes[index + 1]
                if interpolates {
                    switch next {
                    case UInt8(ascii: "n"): current.append(UInt8(ascii: "\n"))
                    case UInt8(ascii: "t"): current.append(UInt8(ascii: "\t"))
                    case UInt8(ascii: "\n"): break
                    default: current.append(next)
                    }
                } else if next == close || next == UInt8(ascii: "\\") {
                    current.append(next)
                } else {
                    current.append(byte)
                    current.append(next)
                }
                if next == UInt8(ascii: "\n") { index += 2; newLine(); continue }
                index += 2
                continue
            }
            if let open, byte == open { depth += 1 }
            if byte == close {
                if depth == 0 {
                    index += 1
                    flush()
                    return parts
                }
                depth -= 1
            }
            if interpolates, byte == UInt8(ascii: "#"), peek(1) == UInt8(ascii: "{") {
                flush()
                guard let code = readInterpolation() else { break }
                parts.append(.code(code))
                continue
            }
            current.append(byte)
            index += 1
            if byte == UInt8(ascii: "\n") { newLine() }
        }
        throw FastlaneImportError.syntax(file: file, line: startLine, column: startColumn, problem: "this string is not closed")
    }

    /// `/` starts a regular expression where a value is expected: at the start, after an operator
    /// or an opening bracket, or after a method name followed by a space (`scan /x/`).
    private func isRegexStart() -> Bool {
        guard let previous = tokens.last else { return true }
        switch previous.kind {
        case .newline: return true
        case .punctuation(let text): return ![")", "]", "}"].contains(text)
        case .identifier(let name):
            let spaced = index > 0 && bytes[index - 1] == UInt8(ascii: " ")
            return ["if", "unless", "when", "and", "or", "not", "return"].contains(name)
                || (spaced && peek(1) != UInt8(ascii: " ") && peek(1) != UInt8(ascii: "="))
        default: return false
        }
    }

    /// Reads `/…/flags`; `[…]` classes may hold a `/`.
    private mutating func readRegex() throws -> [StringPart] {
        let startLine = line
        let startColumn = index - lineStart + 1
        index += 1
        var inClass = false
        var content: [UInt8] = []
        while index < bytes.count {
            let byte = bytes[index]
            if byte == UInt8(ascii: "\\"), index + 1 < bytes.count {
                content.append(contentsOf: [byte, bytes[index + 1]])
                index += 2
                continue
            }
            if byte == UInt8(ascii: "\n") { break }
            if byte == UInt8(ascii: "[") { inClass = true }
            if byte == UInt8(ascii: "]") { inClass = false }
            if byte == UInt8(ascii: "/"), !inClass {
                index += 1
                while index < bytes.count, isNameStart(bytes[index]) { index += 1 }
                return [.text(String(decoding: content, as: UTF8.self))]
            }
            content.append(byte)
            index += 1
        }
        throw FastlaneImportError.syntax(file: file, line: startLine, column: startColumn, problem: "this regular expression is not closed")
    }

    private func isPercentLiteralStart() -> Bool {
        guard let next = peek(1) else { return false }
        if "wWiIqQ".utf8.contains(next) { return peek(2).map(Self.closing) != nil }
        return next == UInt8(ascii: "(") || next == UInt8(ascii: "[") || next == UInt8(ascii: "{")
    }

    private static func closing(_ open: UInt8) -> UInt8? {
        switch open {
        case UInt8(ascii: "("): return UInt8(ascii: ")")
        case UInt8(ascii: "["): return UInt8(ascii: "]")
        case UInt8(ascii: "{"): return UInt8(ascii: "}")
        case UInt8(ascii: "<"): return UInt8(ascii: ">")
        case UInt8(ascii: "|"), UInt8(ascii: "!"), UInt8(ascii: "/"): return open
        default: return nil
        }
    }

    private mutating func readPercentLiteral() throws {
        let start = index
        var type = UInt8(ascii: "Q")
        if let next = peek(1), "wWiIqQ".utf8.contains(next) {
            type = next
            index += 1
        }
        let open = bytes[index + 1]
        guard let close = Self.closing(open) else { return readOperator() }
        index += 1
        let interpolates = type == UInt8(ascii: "Q") || type == UInt8(ascii: "W") || type == UInt8(ascii: "I")
        let parts = try readQuoted(close: close, open: close == open ? nil : open, interpolates: interpolates)
        switch type {
        case UInt8(ascii: "w"), UInt8(ascii: "W"), UInt8(ascii: "i"), UInt8(ascii: "I"):
            let words = Self.plainText(parts).split(whereSeparator: { $0 == " " || $0 == "\n" || $0 == "\t" }).map(String.init)
            add(.words(words, symbols: type == UInt8(ascii: "i") || type == UInt8(ascii: "I")), from: start, to: index)
        default:
            add(.string(parts), from: start, to: index)
        }
    }

    private func isHeredocStart() -> Bool {
        guard peek(1) == UInt8(ascii: "<") else { return false }
        var offset = 2
        if peek(offset) == UInt8(ascii: "~") || peek(offset) == UInt8(ascii: "-") { offset += 1 }
        if peek(offset) == UInt8(ascii: "'") || peek(offset) == UInt8(ascii: "\"") { offset += 1 }
        guard let first = peek(offset) else { return false }
        return first >= UInt8(ascii: "A") && first <= UInt8(ascii: "Z")
    }

    private mutating func readHeredocStart() {
        let start = index
        index += 2
        let squiggly = bytes[index] == UInt8(ascii: "~")
        let dash = bytes[index] == UInt8(ascii: "-")
        if squiggly || dash { index += 1 }
        let quoted = bytes[index] == UInt8(ascii: "'") || bytes[index] == UInt8(ascii: "\"")
        if quoted { index += 1 }
        let name = readName()
        if quoted, index < bytes.count { index += 1 }
        add(.string([]), from: start, to: index)
        pendingHeredocs.append((name, squiggly, dash, tokens.count - 1))
    }

    /// At the start of a line after heredocs were opened: reads each body up to its terminator.
    private mutating func readHeredocBodies() throws {
        while !pendingHeredocs.isEmpty {
            let heredoc = pendingHeredocs.removeFirst()
            var lines: [String] = []
            var closed = false
            while index < bytes.count {
                var end = index
                while end < bytes.count, bytes[end] != UInt8(ascii: "\n") { end += 1 }
                let content = text(index, end)
                index = min(end + 1, bytes.count)
                newLine()
                let trimmed = heredoc.squiggly || heredoc.dash ? content.trimmingLeadingSpaces() : content
                if trimmed == heredoc.terminator { closed = true; break }
                lines.append(content)
            }
            guard closed else {
                throw FastlaneImportError.syntax(file: file, line: tokens[heredoc.token].line, column: tokens[heredoc.token].column,
                                                 problem: "the heredoc ending with '\(heredoc.terminator)' is not closed")
            }
            if heredoc.squiggly {
                let indent = lines.filter { !$0.allSatisfy { $0 == " " } }
                    .map { $0.prefix(while: { $0 == " " || $0 == "\t" }).count }.min() ?? 0
                lines = lines.map { String($0.dropFirst(min(indent, $0.prefix(while: { $0 == " " || $0 == "\t" }).count))) }
            }
            tokens[heredoc.token].kind = .string([.text(lines.map { $0 + "\n" }.joined())])
        }
    }

    private mutating func readOperator() {
        let operators = ["**=", "<=>", "===", "||=", "&&=", "...", "=>", "==", "!=", ">=", "<=", "&&", "||", "+=", "-=",
                         "*=", "/=", "=~", "!~", "->", "..", "<<", ">>", "&."]
        for op in operators where startsWith(op) {
            add(.punctuation(op), from: index, to: index + op.utf8.count)
            index += op.utf8.count
            return
        }
        add(.punctuation(text(index, index + 1)), from: index, to: index + 1)
        index += 1
    }

    /// A literal's text when it has no interpolation (code parts are kept as written).
    static func plainText(_ parts: [StringPart]) -> String {
        parts.map { part in
            switch part {
            case .text(let text): return text
            case .code(let code): return "#{\(code)}"
            }
        }.joined()
    }
}

extension String {
    func trimmingLeadingSpaces() -> String {
        String(drop(while: { $0 == " " || $0 == "\t" }))
    }
}
