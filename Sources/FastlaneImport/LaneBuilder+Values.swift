import Basics

/// Ruby values as lane values: literals, `ENV[…]`, `options[:x]`, bound variables and constants.
extension LaneBuilder {
    /// The keyword argument `key` (or, with `settings`, the Matchfile's or Appfile's setting) as
    /// a lane value; listed as not translated when it is there but only Ruby knows its value.
    mutating func literal(_ call: RubyCall, _ key: String, _ statement: Fastfile.Statement, settings: Bool = false) -> DraftValue? {
        guard let argument = call.argument(key) ?? (settings ? translator.setting(key, lane: lane) : nil) else { return nil }
        guard let converted = value(argument, statement: statement) else {
            if case .nil = argument { return nil }
            skipArgument(call.name, key, statement, "its value (\(Self.source(of: argument))) is only known when Ruby runs")
            return nil
        }
        return converted
    }

    /// A Ruby value as a lane value; nil (and listed, unless quiet) when it is only known when
    /// Ruby runs.
    mutating func value(_ value: RubyValue, statement: Fastfile.Statement) -> DraftValue? {
        switch value {
        case .string(let text), .symbol(let text): return .string(text)
        case .number(let text): return Int(text).map(DraftValue.int) ?? .string(text)
        case .bool(let flag): return .bool(flag)
        case .nil: return nil
        case .array(let items):
            let converted = items.compactMap { self.value($0, statement: statement) }
            return converted.count == items.count ? .list(converted) : nil
        case .hash(let pairs):
            var converted: [DraftPair] = []
            for pair in pairs {
                guard let item = self.value(pair.value, statement: statement) else { return nil }
                converted.append(DraftPair(pair.key, item))
            }
            return .map(converted)
        case .environment(let name):
            return .string(environmentReference(name))
        case .laneOption(let name):
            if let frame = optionFrames.last, let frame {
                guard let given = frame[name] else { return nil }
                return given
            }
            let input = LaneSlug.make(name)
            draft.requireInput(input, "fastlane's lane option :\(name)")
            return .string("${{ inputs.\(input) }}")
        case .interpolated(let parts):
            var text = ""
            for part in parts {
                switch part {
                case .text(let literal): text += literal
                case .code(let code):
                    let inner = RubyValue.expression(code.trimmingCharacters(in: " "))
                    switch self.value(reinterpret(inner), statement: statement) {
                    case .string(let piece)?: text += piece
                    case .int(let number)?: text += String(number)
                    default: return nil
                    }
                }
            }
            return .string(text)
        case .expression(let source):
            if case .value(let bound)? = bindings[source] { return bound }
            if bindings[source] == nil, let constant = constantValue(source, statement) { return constant }
            if let (call, next) = Self.buildNumberQuery(source) {
                let id = buildNumberStep(statement, query: call)
                return .string("${{ steps.\(id).outputs.\(next ? "next" : "latest") }}")
            }
            let reinterpreted = reinterpret(value)
            if reinterpreted != value { return self.value(reinterpreted, statement: statement) }
            return nil
        }
    }

    /// Source text read again: `ENV['X']`, `options[:x]`, a bound variable.
    private func reinterpret(_ value: RubyValue) -> RubyValue {
        guard case .expression(let source) = value else { return value }
        if let name = RubyCallReader.environmentName(source) { return .environment(name) }
        if source.hasPrefix("options[:"), source.hasSuffix("]") {
            return .laneOption(String(source.dropFirst("options[:".count).dropLast()))
        }
        return value
    }

    /// A secret for names that look like one (passwords, tokens, keys), else the environment.
    mutating func environmentReference(_ name: String) -> String {
        let upper = name.uppercased()
        let secret = ["PASSWORD", "TOKEN", "SECRET", "PRIVATE", "P12", "PASSPHRASE"].contains { upper.contains($0) }
            || (upper.hasSuffix("_KEY") || upper.contains("_KEY_CONTENT"))
        if secret {
            draft.requireSecret(name, "From the environment variable fastlane read")
            return "${{ secrets.\(name) }}"
        }
        return "${{ env.\(name) }}"
    }
}
