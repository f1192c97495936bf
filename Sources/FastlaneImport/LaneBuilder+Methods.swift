/// Calls of the Fastfile's own `def` methods, and its top-level constants.
extension LaneBuilder {
    /// A call of a `def`: inlined where it is called when its body is plain calls with straight
    /// arguments (as private lanes are), else listed as a helper to translate by hand. Never an
    /// action of the same name: Ruby calls the method.
    mutating func callMethod(_ method: Fastfile.Method, _ call: RubyCall, _ statement: Fastfile.Statement) {
        let key = "def " + method.name
        guard !inlining.contains(key) else {
            skip(statement, "calls the helper method '\(method.name)' (\(method.file):\(method.line)) recursively; translate by hand")
            return
        }
        guard let reason = notInlinable(method, call) else {
            inline(method, call, statement, key: key)
            return
        }
        skip(statement, "a helper method defined at \(method.file):\(method.line) (\(reason)); translate by hand")
    }

    /// Why `method` cannot be inlined for `call`; nil when it can.
    func notInlinable(_ method: Fastfile.Method, _ call: RubyCall) -> String? {
        if method.isUnread { return "its body could not be read" }
        if let rest = method.parameters.first(where: { if case .rest = $0 { return true } else { return false } }) {
            return "it takes \(rest.name), which only Ruby fills"
        }
        if call.positional.contains(where: { if case .expression(let source) = $0 { return source.hasPrefix("*") } else { return false } }) {
            return "its arguments come from a splat"
        }
        let names = Set(method.parameters.map(\.name))
        for statement in method.statements {
            guard case .call(let inner) = statement.kind, inner.condition == nil else {
                return "its body is more than plain calls (line \(statement.line))"
            }
            let values = inner.positional + inner.keywords.map(\.value)
            if let bent = values.first(where: { !isStraight($0, parameters: names) }) {
                return "line \(statement.line) computes an argument in Ruby (\(Self.source(of: bent)))"
            }
        }
        return nil
    }

    /// A literal, a parameter, a constant or an environment read, or made of those.
    func isStraight(_ value: RubyValue, parameters: Set<String>) -> Bool {
        switch value {
        case .array(let items): return items.allSatisfy { isStraight($0, parameters: parameters) }
        case .hash(let pairs): return pairs.allSatisfy { isStraight($0.value, parameters: parameters) }
        case .interpolated(let parts):
            return parts.allSatisfy { part in
                if case .code(let code) = part { return isStraight(.expression(code.trimmingCharacters(in: " ")), parameters: parameters) }
                return true
            }
        case .expression(let source):
            return parameters.contains(source) || translator.fastfile.constant(named: source) != nil
                || RubyCallReader.environmentName(source) != nil
        case .laneOption: return false
        default: return true
        }
    }

    /// Walks the method's body with its parameters bound to the call's arguments; the lane's
    /// local variables are not visible inside a `def`, as in Ruby.
    private mutating func inline(_ method: Fastfile.Method, _ call: RubyCall, _ statement: Fastfile.Statement, key: String) {
        var frame: [String: Binding] = [:]
        var positional = call.positional.makeIterator()
        for parameter in method.parameters {
            var given: RubyValue?
            switch parameter {
            case .positional(_, let fallback): given = positional.next() ?? fallback
            case .keyword(let name, let fallback): given = call.argument(name) ?? fallback
            case .rest: continue
            }
            if let given, let converted = value(given, statement: statement) { frame[parameter.name] = .value(converted) }
        }
        let savedBindings = bindings
        let savedNames = assignedNames
        bindings = frame
        assignedNames = []
        inlining.insert(key)
        differ("'\(method.name)' is a helper method the Fastfile defines (\(method.file):\(method.line)); Ruby calls it, not an action of that name: its calls are inlined where it is called")
        walk(method.statements)
        inlining.remove(key)
        bindings = savedBindings
        assignedNames = savedNames
    }

    /// A top-level constant's value when it is known without Ruby (see `FastlaneConstants`).
    mutating func constantValue(_ name: String, _ statement: Fastfile.Statement) -> DraftValue? {
        guard let constant = translator.literalConstants[name] else { return nil }
        return value(constant, statement: statement)
    }

    /// `**NAME` where NAME is a top-level literal hash: its pairs become keyword arguments (a
    /// keyword written in the call wins). Other splats stay, to be listed.
    func expandingSplats(_ call: RubyCall) -> RubyCall {
        var expanded = call
        expanded.positional = []
        for argument in call.positional {
            guard case .expression(let source) = argument, source.hasPrefix("**"),
                  case .hash(let pairs)? = translator.literalConstants[String(source.dropFirst(2))] else {
                expanded.positional.append(argument)
                continue
            }
            for pair in pairs where call.argument(pair.key) == nil { expanded.keywords.append(pair) }
        }
        return expanded
    }

    /// The call with each keyword whose value is a bound variable, a constant, an inlined lane's
    /// option or an interpolation of those, and is plain data (no `${{ … }}`), written as that
    /// literal: translators read `.text` and see what Ruby would pass.
    func resolvingLiterals(_ call: RubyCall, _ statement: Fastfile.Statement) -> RubyCall {
        var resolved = call
        for index in resolved.keywords.indices {
            switch resolved.keywords[index].value {
            case .expression, .laneOption, .interpolated: break
            default: continue
            }
            var copy = self
            if let value = copy.value(resolved.keywords[index].value, statement: statement), let literal = Self.rubyLiteral(value) {
                resolved.keywords[index].value = literal
            }
        }
        return resolved
    }

    /// A lane value as the Ruby literal it came from; nil when it holds an expression.
    static func rubyLiteral(_ value: DraftValue) -> RubyValue? {
        switch value {
        case .string(let text): return text.contains("${{") ? nil : .string(text)
        case .bool(let flag): return .bool(flag)
        case .int(let number): return .number(String(number))
        case .list(let items):
            let converted = items.compactMap(rubyLiteral)
            return converted.count == items.count ? .array(converted) : nil
        case .map(let pairs):
            let converted = pairs.compactMap { pair in rubyLiteral(pair.value).map { RubyPair(key: pair.key, value: $0) } }
            return converted.count == pairs.count ? .hash(converted) : nil
        }
    }
}
