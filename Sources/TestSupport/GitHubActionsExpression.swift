import Foundation

// SIMULATION — not GitHub. The part of GitHub's expression language the simulator evaluates
// (from GitHub's "Evaluate expressions in workflows and actions" and "Contexts reference"):
// literals, `!`, `&&`, `||`, `==`, `!=`, parentheses; the contexts `inputs.*`,
// `github.event.inputs.*`, `secrets.*`, `env.*`, `runner.*` and a few `github.*` values; the
// functions `always()`, `success()`, `failure()`, `cancelled()` and `hashFiles(...)`. Anything
// else (indexing, `steps.*`, `needs.*`, `matrix.*`, `format()`...) is an `ExpressionError`.

/// Why an expression is outside the subset or failed to evaluate.
struct ExpressionError: Error {
    let message: String
}

/// A value of an expression.
enum ExpressionValue: Equatable {
    case string(String), bool(Bool), number(Double), null

    var isTruthy: Bool {
        switch self {
        case .string(let text): return !text.isEmpty
        case .bool(let value): return value
        case .number(let value): return value != 0 && !value.isNaN
        case .null: return false
        }
    }

    /// How `${{ }}` writes it into text.
    var text: String {
        switch self {
        case .string(let text): return text
        case .bool(let value): return value ? "true" : "false"
        case .number(let value): return value == value.rounded() && abs(value) < 1e15 ? String(Int(value)) : String(value)
        case .null: return ""
        }
    }

    var number: Double {
        switch self {
        case .string(let text):
            let trimmed = text.trimmingCharacters(in: .whitespaces)
            return trimmed.isEmpty ? 0 : Double(trimmed) ?? .nan
        case .bool(let value): return value ? 1 : 0
        case .number(let value): return value
        case .null: return 0
        }
    }

    /// GitHub's loose equality: strings ignore case, other mixed types compare as numbers.
    func looselyEquals(_ other: ExpressionValue) -> Bool {
        switch (self, other) {
        case (.string(let left), .string(let right)): return left.lowercased() == right.lowercased()
        case (.null, .null): return true
        default: return number == other.number
        }
    }
}

/// A parsed expression.
indirect enum ExpressionNode {
    case literal(ExpressionValue)
    case reference([String])
    case call(String, [ExpressionNode])
    case not(ExpressionNode)
    case and(ExpressionNode, ExpressionNode)
    case or(ExpressionNode, ExpressionNode)
    case equal(ExpressionNode, ExpressionNode, negated: Bool)

    static let statusFunctions: Set = ["always", "success", "failure", "cancelled"]

    /// True when it calls a status function (an `if:` without one means `success() && (...)`).
    var callsStatusFunction: Bool {
        switch self {
        case .literal, .reference: return false
        case .call(let name, let arguments): return Self.statusFunctions.contains(name) || arguments.contains { $0.callsStatusFunction }
        case .not(let inner): return inner.callsStatusFunction
        case .and(let left, let right), .or(let left, let right), .equal(let left, let right, _):
            return left.callsStatusFunction || right.callsStatusFunction
        }
    }
}

/// What an expression can see while it is evaluated.
struct ExpressionContext {
    var inputs: [String: ExpressionValue] = [:]
    var eventInputs: [String: String] = [:]
    var declaredInputs: Set<String> = []
    var secrets: [String: String] = [:]
    var env: [String: String] = [:]
    var runner: [String: String] = [:]
    var github: [String: String] = [:]
    /// For `success()`: the job's needs (or the job's earlier steps) all succeeded.
    var succeeded = true
    /// For `hashFiles`: the hash of the files the patterns match, "" when none.
    var hashFiles: ([String]) throws -> String = { _ in "" }

    func evaluate(_ node: ExpressionNode) throws -> ExpressionValue {
        switch node {
        case .literal(let value): return value
        case .reference(let path): return try resolve(path)
        case .not(let inner): return .bool(!(try evaluate(inner).isTruthy))
        case .and(let left, let right):
            let value = try evaluate(left)
            return value.isTruthy ? try evaluate(right) : value
        case .or(let left, let right):
            let value = try evaluate(left)
            return value.isTruthy ? value : try evaluate(right)
        case .equal(let left, let right, let negated):
            return .bool(try evaluate(left).looselyEquals(try evaluate(right)) != negated)
        case .call(let name, let arguments):
            switch name {
            case "always": return .bool(true)
            case "success": return .bool(succeeded)
            case "failure": return .bool(!succeeded)
            case "cancelled": return .bool(false)
            default: return .string(try hashFiles(try arguments.map { try evaluate($0).text }))
            }
        }
    }

    /// `if:` text: a bare expression or one `${{ }}`; without a status function it also needs success().
    func condition(_ text: String) throws -> Bool {
        let node = try Self.parseCondition(text)
        let value = try evaluate(node).isTruthy
        return node.callsStatusFunction ? value : succeeded && value
    }

    /// Parses `if:` text (a bare expression, or one wrapped in `${{ }}`).
    static func parseCondition(_ text: String) throws -> ExpressionNode {
        var source = text.trimmingCharacters(in: .whitespacesAndNewlines)
        if source.hasPrefix("${{"), source.hasSuffix("}}"), source.components(separatedBy: "${{").count == 2 {
            source = String(source.dropFirst(3).dropLast(2))
        }
        return try ExpressionParser.parse(source)
    }

    func resolve(_ path: [String]) throws -> ExpressionValue {
        let name = path.last ?? ""
        switch path.first {
        case "inputs":
            guard declaredInputs.contains(name) else {
                throw ExpressionError(message: "input '\(name)' is not declared under 'on: workflow_dispatch: inputs:'")
            }
            return inputs[name] ?? .string("")
        case "github" where path.count == 4: return .string(eventInputs[name] ?? "")
        case "github": return .string(github[name] ?? "")
        case "secrets": return .string(secrets[name] ?? "")
        case "env": return env[name].map { .string($0) } ?? .string("")
        default: return .string(runner[name] ?? "")
        }
    }
}

/// Text with `${{ }}` expressions in it.
struct ExpressionTemplate {
    enum Part { case text(String), expression(ExpressionNode) }
    let parts: [Part]

    /// Parses every expression in `text`; throws `ExpressionError` for one outside the subset.
    init(_ text: String) throws {
        var parts: [Part] = [], rest = Substring(text)
        while let open = rest.range(of: "${{") {
            parts.append(.text(String(rest[..<open.lowerBound])))
            guard let close = rest[open.upperBound...].range(of: "}}") else {
                throw ExpressionError(message: "'${{' is not closed with '}}'")
            }
            parts.append(.expression(try ExpressionParser.parse(String(rest[open.upperBound..<close.lowerBound]))))
            rest = rest[close.upperBound...]
        }
        parts.append(.text(String(rest)))
        self.parts = parts
    }

    /// The text with every expression replaced by its value.
    func render(in context: ExpressionContext) throws -> String {
        try parts.map { part in
            switch part {
            case .text(let text): return text
            case .expression(let node): return try context.evaluate(node).text
            }
        }.joined()
    }
}

/// A recursive-descent parser for the subset.
struct ExpressionParser {
    static let githubValues: Set = ["sha", "ref", "ref_name", "workspace", "run_id", "run_number", "run_attempt",
                                    "job", "repository", "event_name", "actor"]
    static let runnerValues: Set = ["os", "arch", "temp", "name"]

    private var tokens: [String]
    private var position = 0
    private let source: String

    /// Parses one expression (the text between `${{` and `}}`).
    static func parse(_ source: String) throws -> ExpressionNode {
        var parser = ExpressionParser(tokens: try tokenize(source), source: source)
        let node = try parser.or()
        if parser.position < parser.tokens.count {
            throw ExpressionError(message: "unexpected '\(parser.tokens[parser.position])' in expression '\(source.trimmingCharacters(in: .whitespaces))'")
        }
        return node
    }

    private init(tokens: [String], source: String) {
        self.tokens = tokens
        self.source = source
    }

    private var next: String? { position < tokens.count ? tokens[position] : nil }

    private mutating func take(_ token: String) -> Bool {
        guard next == token else { return false }
        position += 1
        return true
    }

    private mutating func or() throws -> ExpressionNode {
        var node = try and()
        while take("||") { node = .or(node, try and()) }
        return node
    }

    private mutating func and() throws -> ExpressionNode {
        var node = try unary()
        while take("&&") { node = .and(node, try unary()) }
        return node
    }

    private mutating func unary() throws -> ExpressionNode {
        if take("!") { return .not(try unary()) }
        let left = try primary()
        if take("==") { return .equal(left, try primary(), negated: false) }
        if take("!=") { return .equal(left, try primary(), negated: true) }
        return left
    }

    private mutating func primary() throws -> ExpressionNode {
        guard let token = next else { throw unsupported("it ends too early") }
        position += 1
        if token == "(" {
            let node = try or()
            guard take(")") else { throw unsupported("a '(' is not closed") }
            return node
        }
        if token.hasPrefix("'") { return .literal(.string(String(token.dropFirst()))) }
        if let number = Double(token) { return .literal(.number(number)) }
        switch token {
        case "true": return .literal(.bool(true))
        case "false": return .literal(.bool(false))
        case "null": return .literal(.null)
        default: break
        }
        guard token.first?.isLetter == true || token.first == "_" else { throw unsupported("'\(token)' is not supported") }
        if take("(") { return try call(token) }
        var path = [token]
        while take(".") {
            guard let member = next, member.first?.isLetter == true || member.first == "_" else { throw unsupported("a '.' must be followed by a name") }
            position += 1
            path.append(member)
        }
        try checkReference(path)
        return .reference(path)
    }

    private mutating func call(_ name: String) throws -> ExpressionNode {
        var arguments: [ExpressionNode] = []
        if !take(")") {
            repeat { arguments.append(try or()) } while take(",")
            guard take(")") else { throw unsupported("the arguments of '\(name)(' are not closed") }
        }
        if ExpressionNode.statusFunctions.contains(name), arguments.isEmpty { return .call(name, []) }
        if name == "hashFiles", !arguments.isEmpty { return .call(name, arguments) }
        throw unsupported("function '\(name)' with \(arguments.count) argument(s) is not supported (supported: always(), success(), failure(), cancelled(), hashFiles(pattern...))")
    }

    private func checkReference(_ path: [String]) throws {
        let supported: Bool
        switch path.first {
        case "inputs", "secrets", "env": supported = path.count == 2
        case "runner": supported = path.count == 2 && Self.runnerValues.contains(path[1])
        case "github":
            supported = (path.count == 2 && Self.githubValues.contains(path[1]))
                || (path.count == 4 && path[1] == "event" && path[2] == "inputs")
        default: supported = false
        }
        if !supported {
            throw unsupported("'\(path.joined(separator: "."))' is not supported (supported: inputs.*, github.event.inputs.*, secrets.*, env.*, "
                + "runner.{\(Self.runnerValues.sorted().joined(separator: ","))}, github.{\(Self.githubValues.sorted().joined(separator: ","))})")
        }
    }

    private func unsupported(_ problem: String) -> ExpressionError {
        ExpressionError(message: "in expression '\(source.trimmingCharacters(in: .whitespaces))': \(problem)")
    }

    static func tokenize(_ source: String) throws -> [String] {
        var tokens: [String] = []
        var index = source.startIndex
        while index < source.endIndex {
            let character = source[index]
            if character.isWhitespace { index = source.index(after: index); continue }
            if character == "'" {
                var literal = "'", cursor = source.index(after: index), closed = false
                while cursor < source.endIndex {
                    if source[cursor] == "'" {
                        let after = source.index(after: cursor)
                        if after < source.endIndex, source[after] == "'" { literal.append("'"); cursor = source.index(after: after); continue }
                        closed = true
                        index = after
                        break
                    }
                    literal.append(source[cursor])
                    cursor = source.index(after: cursor)
                }
                guard closed else { throw ExpressionError(message: "in expression '\(source)': a string is not closed with '") }
                tokens.append(literal)
                continue
            }
            let two = String(source[index...].prefix(2))
            if ["&&", "||", "==", "!="].contains(two) {
                tokens.append(two)
                index = source.index(index, offsetBy: 2)
                continue
            }
            if "!().,".contains(character) {
                tokens.append(String(character))
                index = source.index(after: index)
                continue
            }
            var word = ""
            while index < source.endIndex, source[index].isLetter || source[index].isNumber || "_-".contains(source[index]) {
                word.append(source[index])
                index = source.index(after: index)
            }
            guard !word.isEmpty else {
                throw ExpressionError(message: "in expression '\(source.trimmingCharacters(in: .whitespaces))': '\(character)' is not supported")
            }
            tokens.append(word)
        }
        return tokens
    }
}
