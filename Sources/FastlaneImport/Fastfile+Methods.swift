/// `def` methods and top-level assignments of a Fastfile: Ruby calls a local method before an
/// action or lane of the same name, and a lane sees the file's constants.
extension Fastfile {
    /// A `def name(params) … end` at the top of a Fastfile (or of a file it imports).
    public struct Method: Sendable, Hashable {
        public enum Parameter: Sendable, Hashable {
            /// `name` or `name = default`.
            case positional(String, default: RubyValue?)
            /// `name:` or `name: default`.
            case keyword(String, default: RubyValue?)
            /// `*rest`, `**options`, `&block`: what it holds is only known when Ruby runs.
            case rest(String)

            public var name: String {
                switch self {
                case .positional(let name, _), .keyword(let name, _), .rest(let name): return name
                }
            }
        }
        public var name: String
        public var parameters: [Parameter]
        /// The body's statements.
        public var statements: [Statement]
        /// Whether the body could not be split into statements (the method still shadows
        /// actions; its calls are listed).
        public var isUnread = false
        public var file: String
        public var line: Int
    }

    /// `NAME = value` outside lanes.
    public struct Constant: Sendable, Hashable {
        public var name: String
        public var value: RubyValue
        public var statement: Statement
    }

    /// The method a call of `name` runs (the last definition wins, as in Ruby).
    public func method(named name: String) -> Method? { methods.last { $0.name == name } }

    /// The top-level value assigned to `name` last.
    public func constant(named name: String) -> Constant? { constants.last { $0.name == name } }

    /// Reads a `def` statement; nil when it is not `def name…` (`def self.x`, an operator).
    static func method(_ statement: RubyStatement, reader: RubyCallReader, file: String) -> Method? {
        let tokens = statement.head
        guard tokens.count >= 3, tokens[0].identifier == "def", let name = tokens[1].identifier,
              !tokens[2].isPunctuation("."), tokens.last?.identifier == "end" else { return nil }
        var index = 2
        var parameterTokens: [RubyToken] = []
        if tokens[index].isPunctuation("(") {
            var depth = 0
            while index < tokens.count {
                let token = tokens[index]
                if token.isPunctuation("(") { depth += 1 }
                if token.isPunctuation(")") { depth -= 1 }
                index += 1
                if depth == 0 { break }
                if depth > 0, !(depth == 1 && token.isPunctuation("(")) { parameterTokens.append(token) }
            }
        } else {
            while index < tokens.count, !tokens[index].isNewline, !tokens[index].isPunctuation(";") {
                parameterTokens.append(tokens[index])
                index += 1
            }
        }
        let body = Array(tokens[index..<(tokens.count - 1)])
        var parser = RubyStatementParser(tokens: body, file: file)
        let parsed = try? parser.parse()
        return Method(name: name, parameters: parameters(parameterTokens.filter { !$0.isNewline }, reader: reader),
                      statements: (parsed ?? []).map { Self.statement($0, reader: reader, file: file) }, isUnread: parsed == nil,
                      file: file, line: statement.line)
    }

    private static func parameters(_ tokens: [RubyToken], reader: RubyCallReader) -> [Method.Parameter] {
        var result: [Method.Parameter] = []
        var current: [RubyToken] = []
        func flush() {
            defer { current = [] }
            guard let first = current.first else { return }
            if case .label(let name) = first.kind {
                result.append(.keyword(name, default: current.count > 1 ? reader.value(current.dropFirst()[...]) : nil))
            } else if first.isPunctuation("*") || first.isPunctuation("&") {
                result.append(.rest(reader.text(current[...])))
            } else if let name = first.identifier {
                let hasDefault = current.count > 2 && current[1].isPunctuation("=")
                result.append(.positional(name, default: hasDefault ? reader.value(current.dropFirst(2)[...]) : nil))
            }
        }
        var depth = 0
        for token in tokens {
            if case .punctuation(let text) = token.kind {
                if ["(", "[", "{"].contains(text) { depth += 1 }
                if [")", "]", "}"].contains(text) { depth -= 1 }
                if text == ",", depth == 0 { flush(); continue }
            }
            current.append(token)
        }
        flush()
        return result
    }
}
