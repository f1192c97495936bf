/// A value written in a Fastfile, as far as it can be known without running Ruby.
public indirect enum RubyValue: Sendable, Hashable {
    case string(String)
    /// A double-quoted string with `#{…}` parts.
    case interpolated([StringPart])
    case symbol(String)
    case number(String)
    case bool(Bool)
    case `nil`
    case array([RubyValue])
    case hash([RubyPair])
    /// `ENV['NAME']`, `ENV.fetch('NAME')`, `ENV.fetch('NAME', default)`.
    case environment(String)
    /// `options[:name]`: a lane's argument.
    case laneOption(String)
    /// Anything else: the Ruby source as written.
    case expression(String)

    /// The text of a string or symbol.
    public var text: String? {
        switch self {
        case .string(let text), .symbol(let text): return text
        case .number(let text): return text
        default: return nil
        }
    }

    /// The items of an array; a single value is a list of one.
    public var list: [RubyValue] {
        if case .array(let items) = self { return items }
        return [self]
    }
}

/// A key and value of a Ruby hash or of keyword arguments.
public struct RubyPair: Sendable, Hashable {
    public var key: String
    public var value: RubyValue
}

/// A statement of a Ruby body: a call (perhaps with a `do … end` block), a compound statement
/// (`if`, `unless`, `case`, `begin`, loops) or anything else.
struct RubyStatement: Sendable {
    /// The tokens before the block (or all of them).
    var head: [RubyToken]
    /// The `do |params| … end` block's parameters and statements.
    var block: (parameters: [String], body: [RubyStatement])?
    /// For `if`/`unless`/`case`/`begin`/`while`…: the keyword.
    var compound: String?
    var line: Int
    var endLine: Int
}

/// Groups tokens into statements and blocks.
struct RubyStatementParser {
    private let tokens: [RubyToken]
    private let file: String
    private var index = 0

    static let openers: Set<String> = ["if", "unless", "while", "until", "case", "begin", "def", "class", "module", "for"]
    private static let continuing: Set<String> = [",", "(", "[", "{", "=", "=>", "&&", "||", "+", "-", "*", "/", ".", "&.",
                                                  "?", ":", "||=", "+=", "-=", "<<", "==", "!=", "||", "|", "\\"]

    init(tokens: [RubyToken], file: String) {
        self.tokens = tokens
        self.file = file
    }

    /// The file's top-level statements.
    mutating func parse() throws -> [RubyStatement] {
        try statements(untilEnd: nil)
    }

    private var current: RubyToken? { index < tokens.count ? tokens[index] : nil }

    /// Statements up to the `end` that closes a block opened at `untilEnd` (a line), or the end
    /// of the file.
    private mutating func statements(untilEnd opener: RubyToken?) throws -> [RubyStatement] {
        var result: [RubyStatement] = []
        while true {
            while let token = current, token.isNewline || token.isPunctuation(";") { index += 1 }
            guard let token = current else {
                if let opener {
                    throw FastlaneImportError.syntax(file: file, line: opener.line, column: opener.column,
                                                     problem: "this block has no matching 'end'")
                }
                return result
            }
            if token.identifier == "end" {
                guard opener != nil else {
                    throw FastlaneImportError.syntax(file: file, line: token.line, column: token.column,
                                                     problem: "'end' without a block to close")
                }
                index += 1
                return result
            }
            result.append(try statement())
        }
    }

    private mutating func statement() throws -> RubyStatement {
        let first = tokens[index]
        if let keyword = first.identifier, Self.openers.contains(keyword) {
            let head = try skipToMatchingEnd()
            return RubyStatement(head: head, block: nil, compound: keyword, line: first.line, endLine: head.last?.line ?? first.line)
        }
        var head: [RubyToken] = []
        var depth = 0
        while let token = current {
            if token.isNewline, depth == 0, !continues(after: head.last), !nextLineContinuesChain() { break }
            if token.isPunctuation(";"), depth == 0 { break }
            if case .punctuation(let text) = token.kind {
                if ["(", "[", "{"].contains(text) { depth += 1 }
                if [")", "]", "}"].contains(text) { depth = max(0, depth - 1) }
            }
            if token.identifier == "do" {
                index += 1
                let parameters = blockParameters()
                let body = try statements(untilEnd: token)
                let endLine = index > 0 ? tokens[index - 1].line : token.line
                return RubyStatement(head: head, block: (parameters, body), compound: nil, line: first.line, endLine: endLine)
            }
            if let keyword = token.identifier, Self.openers.contains(keyword), startsExpression(after: head.last) {
                head.append(contentsOf: try skipToMatchingEnd())
                continue
            }
            if !token.isNewline { head.append(token) }
            index += 1
        }
        return RubyStatement(head: head, block: nil, compound: nil, line: first.line, endLine: head.last?.line ?? first.line)
    }

    private func continues(after token: RubyToken?) -> Bool {
        guard let token else { return true }
        if case .punctuation(let text) = token.kind { return Self.continuing.contains(text) }
        if case .label = token.kind { return true }
        return token.identifier == "and" || token.identifier == "or"
    }

    /// A line that starts with `.method` continues the previous line's chain.
    private func nextLineContinuesChain() -> Bool {
        var next = index + 1
        while next < tokens.count, tokens[next].isNewline { next += 1 }
        guard next < tokens.count else { return false }
        return tokens[next].isPunctuation(".") || tokens[next].isPunctuation("&.")
    }

    /// `if`/`case`… opens a block when it starts an expression (`x = if …`), not as a modifier
    /// after a value (`foo if bar`).
    private func startsExpression(after token: RubyToken?) -> Bool {
        guard let token else { return true }
        if case .punctuation(let text) = token.kind { return ![")", "]", "}"].contains(text) }
        if case .label = token.kind { return true }
        return false
    }

    private mutating func blockParameters() -> [String] {
        guard let token = current, token.isPunctuation("|") else { return [] }
        index += 1
        var names: [String] = []
        while let token = current, !token.isPunctuation("|"), !token.isNewline {
            if let name = token.identifier { names.append(name) }
            index += 1
        }
        if current?.isPunctuation("|") == true { index += 1 }
        return names
    }

    /// From an opening keyword to its `end`, counting nested blocks; returns the tokens.
    private mutating func skipToMatchingEnd() throws -> [RubyToken] {
        let opener = tokens[index]
        var collected: [RubyToken] = []
        var depth = 0
        var loopHeaderLine: Int?
        var previous: RubyToken?
        while let token = current {
            collected.append(token)
            index += 1
            if let name = token.identifier {
                let isModifier = ["if", "unless", "while", "until"].contains(name) && !startsStatement(previous)
                if name == "do", loopHeaderLine == token.line {
                    loopHeaderLine = nil
                } else if name == "do" || (Self.openers.contains(name) && !isModifier) {
                    depth += 1
                    if ["while", "until", "for"].contains(name) { loopHeaderLine = token.line }
                } else if name == "end" {
                    depth -= 1
                    if depth == 0 { return collected }
                }
            }
            previous = token
        }
        throw FastlaneImportError.syntax(file: file, line: opener.line, column: opener.column,
                                         problem: "'\(opener.identifier ?? "")' has no matching 'end'")
    }

    private func startsStatement(_ previous: RubyToken?) -> Bool {
        guard let previous else { return true }
        if previous.isNewline || previous.isPunctuation(";") { return true }
        return startsExpression(after: previous)
    }
}
