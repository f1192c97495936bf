import Steps

/// Parses the text between `${{` and `}}` into an `Expression`.
struct ExpressionParser {
    enum Token: Equatable {
        case identifier(String)   // a dotted path such as steps.build.outputs.bin-path
        case string(String)
        case number(Double)
        case symbol(String)       // == != && || ! ( )
        case end
    }

    /// A syntax error and the 0-based character offset where it was found.
    struct Failure: Error {
        var message: String
        var offset: Int
    }

    private var tokens: [(token: Token, offset: Int)] = []
    private var position = 0

    static func parse(_ text: String) throws(Failure) -> Expression {
        var parser = ExpressionParser()
        parser.tokens = try tokenize(text)
        let expression = try parser.parseOr()
        guard parser.current == .end else {
            throw Failure(message: "unexpected \(parser.describe(parser.current)) in expression", offset: parser.currentOffset)
        }
        return expression
    }

    private var current: Token { tokens[position].token }
    private var currentOffset: Int { tokens[position].offset }

    private mutating func advance() { if position < tokens.count - 1 { position += 1 } }

    private mutating func parseOr() throws(Failure) -> Expression {
        var left = try parseAnd()
        while current == .symbol("||") {
            advance()
            left = .or(left, try parseAnd())
        }
        return left
    }

    private mutating func parseAnd() throws(Failure) -> Expression {
        var left = try parseEquality()
        while current == .symbol("&&") {
            advance()
            left = .and(left, try parseEquality())
        }
        return left
    }

    private mutating func parseEquality() throws(Failure) -> Expression {
        let left = try parseUnary()
        if current == .symbol("==") { advance(); return .equal(left, try parseUnary()) }
        if current == .symbol("!=") { advance(); return .notEqual(left, try parseUnary()) }
        return left
    }

    private mutating func parseUnary() throws(Failure) -> Expression {
        // Iterative over repeated "!" so that a long run of them cannot exhaust the stack.
        var negations = 0
        while current == .symbol("!") { negations += 1; advance() }
        var expression = try parsePrimary()
        for _ in 0..<negations { expression = .not(expression) }
        return expression
    }

    private mutating func parsePrimary() throws(Failure) -> Expression {
        let offset = currentOffset
        switch current {
        case .string(let value): advance(); return .string(value)
        case .number(let value): advance(); return .number(value)
        case .symbol("("):
            advance()
            let inner = try parseOr()
            guard current == .symbol(")") else { throw Failure(message: "expected ')'", offset: currentOffset) }
            advance()
            return inner
        case .identifier(let name):
            advance()
            if current == .symbol("(") {
                advance()
                guard current == .symbol(")") else { throw Failure(message: "status functions take no arguments", offset: currentOffset) }
                advance()
                guard let function = StatusFunction(rawValue: name) else {
                    let known = StatusFunction.allCases.map { "\($0.rawValue)()" }.joined(separator: ", ")
                    throw Failure(message: "unknown function '\(name)()'; known: \(known)", offset: offset)
                }
                return .call(function)
            }
            switch name {
            case "true": return .bool(true)
            case "false": return .bool(false)
            case "null": return .null
            default: return .reference(try Self.reference(name, offset: offset))
            }
        default:
            throw Failure(message: "expected a value but found \(describe(current))", offset: offset)
        }
    }

    static func reference(_ path: String, offset: Int) throws(Failure) -> Reference {
        let parts = path.split(separator: ".", omittingEmptySubsequences: false).map(String.init)
        guard let root = parts.first else { throw Failure(message: "empty reference", offset: offset) }
        switch root {
        case "inputs", "secrets", "env":
            guard parts.count == 2, !parts[1].isEmpty else {
                throw Failure(message: "'\(path)' should be '\(root).NAME'", offset: offset)
            }
            return root == "inputs" ? .input(parts[1]) : root == "secrets" ? .secret(parts[1]) : .env(parts[1])
        case "steps":
            // Step ids may contain dots (git.ensure-clean), so split at ".outputs.".
            // `steps.ID` and `steps.ID.outputs` stand for all of a step's outputs.
            guard let range = path.range(of: ".outputs."), range.lowerBound > path.index(path.startIndex, offsetBy: 6) else {
                var step = String(path.dropFirst(6))
                if step.hasSuffix(".outputs") { step = String(step.dropLast(8)) }
                guard path.hasPrefix("steps."), !step.isEmpty, !step.hasPrefix("."), !step.hasSuffix(".") else {
                    throw Failure(message: "'\(path)' should be 'steps.ID.outputs.NAME' or 'steps.ID'", offset: offset)
                }
                return .step(step)
            }
            let step = String(path[path.index(path.startIndex, offsetBy: 6)..<range.lowerBound])
            let output = String(path[range.upperBound...])
            guard !output.isEmpty, !output.contains(".") else {
                throw Failure(message: "'\(path)' should be 'steps.ID.outputs.NAME'", offset: offset)
            }
            return .stepOutput(step: step, output: output)
        case "lane":
            guard parts.count == 2, LaneStatus.fields.contains(parts[1]) else {
                let known = LaneStatus.fields.map { "lane.\($0)" }.joined(separator: ", ")
                throw Failure(message: "unknown reference '\(path)'; known: \(known)", offset: offset)
            }
            return .lane(parts[1])
        default:
            throw Failure(message: "unknown context '\(root)'; use inputs, secrets, env, steps or lane", offset: offset)
        }
    }

    private func describe(_ token: Token) -> String {
        switch token {
        case .identifier(let name): return "'\(name)'"
        case .string(let value): return "string '\(value)'"
        case .number(let value): return "number \(value)"
        case .symbol(let symbol): return "'\(symbol)'"
        case .end: return "the end of the expression"
        }
    }

    static func tokenize(_ text: String) throws(Failure) -> [(token: Token, offset: Int)] {
        let characters = Array(text)
        var tokens: [(Token, Int)] = []
        var index = 0
        func isIdentifierCharacter(_ c: Character) -> Bool {
            c.isLetter || c.isNumber || c == "_" || c == "-" || c == "."
        }
        while index < characters.count {
            let c = characters[index]
            if c.isWhitespace { index += 1; continue }
            let start = index
            if c == "'" || c == "\"" {
                var value = ""
                index += 1
                while true {
                    guard index < characters.count else { throw Failure(message: "unterminated string", offset: start) }
                    if characters[index] == c {
                        // '' inside single quotes is an escaped quote.
                        if index + 1 < characters.count && characters[index + 1] == c { value.append(c); index += 2; continue }
                        break
                    }
                    value.append(characters[index])
                    index += 1
                }
                index += 1
                tokens.append((.string(value), start))
            } else if c.isNumber || (c == "-" && index + 1 < characters.count && characters[index + 1].isNumber) {
                index += 1
                while index < characters.count && (characters[index].isNumber || characters[index] == ".") { index += 1 }
                guard let number = Double(String(characters[start..<index])) else {
                    throw Failure(message: "'\(String(characters[start..<index]))' is not a number", offset: start)
                }
                tokens.append((.number(number), start))
            } else if c.isLetter || c == "_" {
                while index < characters.count && isIdentifierCharacter(characters[index]) { index += 1 }
                tokens.append((.identifier(String(characters[start..<index])), start))
            } else {
                let pair = index + 1 < characters.count ? String(characters[index...index + 1]) : ""
                if ["==", "!=", "&&", "||"].contains(pair) {
                    tokens.append((.symbol(pair), start))
                    index += 2
                } else if "!()".contains(c) {
                    tokens.append((.symbol(String(c)), start))
                    index += 1
                } else {
                    throw Failure(message: "unexpected character '\(c)'", offset: start)
                }
            }
        }
        tokens.append((.end, characters.count))
        return tokens
    }
}
