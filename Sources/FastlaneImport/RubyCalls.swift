/// A method call with the arguments as far as they are literal: `gym(scheme: "App")`,
/// `increment_build_number build_number: 42`, `ensure_git_status_clean`.
public struct RubyCall: Sendable, Hashable {
    /// The method's name.
    public var name: String
    /// Positional arguments.
    public var positional: [RubyValue]
    /// Keyword arguments (and a trailing hash), in order.
    public var keywords: [RubyPair]
    /// The condition of a trailing `if`/`unless` modifier, as written.
    public var condition: String?

    /// The keyword argument `key`.
    public func argument(_ key: String) -> RubyValue? {
        keywords.last(where: { $0.key == key })?.value
    }
}

/// Reads calls and values from a statement's tokens.
struct RubyCallReader {
    let source: [UInt8]

    /// The source text from the first to the last token.
    func text(_ tokens: ArraySlice<RubyToken>) -> String {
        guard let first = tokens.first, let last = tokens.last, first.start < last.end else { return "" }
        return String(decoding: source[first.start..<last.end], as: UTF8.self)
    }

    /// The statement as a call, or nil when it is an assignment, a chain (`UI.message`) or an
    /// expression.
    func call(_ head: [RubyToken]) -> RubyCall? {
        guard let name = head.first?.identifier, !RubyStatementParser.openers.contains(name),
              name.first.map({ $0.isLowercase || $0 == "_" }) == true, !name.hasPrefix("@"), !name.hasPrefix("$") else {
            return nil
        }
        var rest = head.dropFirst()
        var condition: String?
        if let modifier = modifierIndex(in: rest) {
            condition = (rest[modifier].identifier ?? "") + " " + text(rest[(modifier + 1)...])
            rest = rest[..<modifier]
        }
        var arguments: ArraySlice<RubyToken>
        if let open = rest.first, open.isPunctuation("(") {
            guard let close = matchingClose(in: rest), close == rest.endIndex - 1 else { return nil }
            arguments = rest[(rest.startIndex + 1)..<close]
        } else if let next = rest.first, case .punctuation(let text) = next.kind,
                  !(text == "[" && next.start > head[0].end) {
            return nil
        } else {
            arguments = rest
        }
        var call = RubyCall(name: name, positional: [], keywords: [], condition: condition)
        for argument in split(arguments) where !argument.isEmpty {
            if case .label(let key) = argument.first!.kind {
                call.keywords.append(RubyPair(key: key, value: value(argument.dropFirst())))
            } else if let key = Self.quotedLabel(argument) {
                call.keywords.append(RubyPair(key: key, value: value(argument.dropFirst(2))))
            } else if let arrow = argument.firstIndex(where: { $0.isPunctuation("=>") }),
                      let key = value(argument[..<arrow]).text {
                call.keywords.append(RubyPair(key: key, value: value(argument[(arrow + 1)...])))
            } else if argument.first?.isPunctuation("{") == true, argument.endIndex == arguments.endIndex,
                      case .hash(let pairs) = value(argument) {
                call.keywords.append(contentsOf: pairs)
            } else {
                call.positional.append(value(argument))
            }
        }
        return call
    }

    /// A value from its tokens.
    func value(_ tokens: ArraySlice<RubyToken>) -> RubyValue {
        guard let first = tokens.first else { return .nil }
        if tokens.count == 1 {
            switch first.kind {
            case .string(let parts):
                if parts.allSatisfy({ if case .text = $0 { return true } else { return false } }) {
                    return .string(RubyTokenizer.plainText(parts))
                }
                if parts.count == 1, case .code(let code) = parts[0], let inner = Self.environmentName(code) {
                    return .environment(inner)
                }
                return .interpolated(parts)
            case .symbol(let name): return .symbol(name)
            case .number(let text): return .number(text)
            case .words(let words, let symbols): return .array(words.map { symbols ? .symbol($0) : .string($0) })
            case .identifier("true"): return .bool(true)
            case .identifier("false"): return .bool(false)
            case .identifier("nil"): return .nil
            default: break
            }
        }
        if first.isPunctuation("["), matchingClose(in: tokens) == tokens.endIndex - 1 {
            return .array(split(tokens.dropFirst().dropLast()).filter { !$0.isEmpty }.map(value))
        }
        if first.isPunctuation("{"), matchingClose(in: tokens) == tokens.endIndex - 1 {
            var pairs: [RubyPair] = []
            for entry in split(tokens.dropFirst().dropLast()) where !entry.isEmpty {
                if case .label(let key) = entry.first!.kind {
                    pairs.append(RubyPair(key: key, value: value(entry.dropFirst())))
                } else if let key = Self.quotedLabel(entry) {
                    pairs.append(RubyPair(key: key, value: value(entry.dropFirst(2))))
                } else if let arrow = entry.firstIndex(where: { $0.isPunctuation("=>") }), let key = value(entry[..<arrow]).text {
                    pairs.append(RubyPair(key: key, value: value(entry[(arrow + 1)...])))
                } else {
                    return .expression(text(tokens))
                }
            }
            return .hash(pairs)
        }
        let source = text(tokens)
        if let name = Self.environmentName(source) { return .environment(name) }
        if let name = laneOptionName(tokens) { return .laneOption(name) }
        return .expression(source)
    }

    /// `"en-GB": value`: a quoted symbol key (plain text only); nil otherwise.
    static func quotedLabel(_ tokens: ArraySlice<RubyToken>) -> String? {
        guard tokens.count > 2, case .string(let parts) = tokens[tokens.startIndex].kind, tokens[tokens.startIndex + 1].isPunctuation(":"),
              tokens[tokens.startIndex].end == tokens[tokens.startIndex + 1].start,
              parts.allSatisfy({ if case .text = $0 { return true } else { return false } }) else { return nil }
        return RubyTokenizer.plainText(parts)
    }

    /// `ENV['X']`, `ENV["X"]`, `ENV.fetch('X')`, `ENV.fetch('X', nil)`: the variable's name (ASCII
    /// letters, digits and `_`), else nil.
    static func environmentName(_ code: String) -> String? {
        let trimmed = code.trimmingCharacters(in: " ")
        for prefix in ["ENV[", "ENV.fetch(", "ENV.fetch "] where trimmed.hasPrefix(prefix) {
            let rest = trimmed.dropFirst(prefix.count)
            guard let quote = rest.first, quote == "'" || quote == "\"" else { return nil }
            let name = rest.dropFirst().prefix(while: { $0 != quote })
            guard !name.isEmpty, name.allSatisfy({ $0.isASCII && ($0.isLetter || $0.isNumber || $0 == "_") }) else { return nil }
            return String(name)
        }
        return nil
    }

    /// `options[:name]` (or any block parameter indexed by a symbol).
    private func laneOptionName(_ tokens: ArraySlice<RubyToken>) -> String? {
        let items = Array(tokens)
        guard items.count == 4, items[0].identifier == "options", items[1].isPunctuation("["),
              case .symbol(let name) = items[2].kind, items[3].isPunctuation("]") else { return nil }
        return name
    }

    private func modifierIndex(in tokens: ArraySlice<RubyToken>) -> Int? {
        var depth = 0
        for index in tokens.indices {
            let token = tokens[index]
            if case .punctuation(let text) = token.kind {
                if ["(", "[", "{"].contains(text) { depth += 1 }
                if [")", "]", "}"].contains(text) { depth -= 1 }
            }
            if depth == 0, let name = token.identifier, name == "if" || name == "unless" { return index }
        }
        return nil
    }

    private func matchingClose(in tokens: ArraySlice<RubyToken>) -> Int? {
        var depth = 0
        for index in tokens.indices {
            if case .punctuation(let text) = tokens[index].kind {
                if ["(", "[", "{"].contains(text) { depth += 1 }
                if [")", "]", "}"].contains(text) {
                    depth -= 1
                    if depth == 0 { return index }
                }
            }
        }
        return nil
    }

    /// Splits at commas outside brackets.
    private func split(_ tokens: ArraySlice<RubyToken>) -> [ArraySlice<RubyToken>] {
        var parts: [ArraySlice<RubyToken>] = []
        var depth = 0
        var start = tokens.startIndex
        for index in tokens.indices {
            if case .punctuation(let text) = tokens[index].kind {
                if ["(", "[", "{"].contains(text) { depth += 1 }
                if [")", "]", "}"].contains(text) { depth -= 1 }
                if text == ",", depth == 0 {
                    parts.append(tokens[start..<index])
                    start = index + 1
                }
            }
        }
        parts.append(tokens[start..<tokens.endIndex])
        return parts
    }
}

extension String {
    func trimmingCharacters(in set: Character) -> String {
        String(drop(while: { $0 == set }).reversed().drop(while: { $0 == set }).reversed())
    }
}
