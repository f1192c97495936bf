/// The top-level constants of a Fastfile whose value is known without running Ruby.
enum FastlaneConstants {
    /// The most values one constant may hold once the constants it uses are written out: a
    /// hostile Fastfile can double a value on every line (`B = [A, A]`).
    static let maximumNodes = 10_000

    /// Each constant whose value is a literal, or made of literals, `ENV[…]` reads and constants
    /// assigned before it (as Ruby runs the file from the top), with those constants written out.
    /// The last assignment of a name wins, as lanes see it.
    static func literals(of fastfile: Fastfile) -> [String: RubyValue] {
        var known: [String: RubyValue] = [:]
        for constant in fastfile.constants {
            var budget = maximumNodes
            if let value = resolve(constant.value, known: known, budget: &budget) {
                known[constant.name] = value
            } else {
                known[constant.name] = nil
            }
        }
        return known
    }

    private static func resolve(_ value: RubyValue, known: [String: RubyValue], budget: inout Int) -> RubyValue? {
        budget -= 1
        guard budget > 0 else { return nil }
        switch value {
        case .string, .symbol, .number, .bool, .nil, .environment: return value
        case .laneOption: return nil
        case .array(let items):
            var resolved: [RubyValue] = []
            for item in items {
                guard let one = resolve(item, known: known, budget: &budget) else { return nil }
                resolved.append(one)
            }
            return .array(resolved)
        case .hash(let pairs):
            var resolved: [RubyPair] = []
            for pair in pairs {
                guard let one = resolve(pair.value, known: known, budget: &budget) else { return nil }
                resolved.append(RubyPair(key: pair.key, value: one))
            }
            return .hash(resolved)
        case .expression(let source):
            if let name = RubyCallReader.environmentName(source) { return .environment(name) }
            guard let constant = known[source] else { return nil }
            budget -= constant.size
            return budget > 0 ? constant : nil
        case .interpolated(let parts):
            var resolved: [StringPart] = []
            for part in parts {
                guard case .code(let code) = part else { resolved.append(part); continue }
                let name = code.trimmingCharacters(in: " ")
                switch known[name] {
                case .string(let text)?, .symbol(let text)?, .number(let text)?: resolved.append(.text(text))
                case nil where RubyCallReader.environmentName(name) != nil: resolved.append(part)
                default: return nil
                }
            }
            if resolved.allSatisfy({ if case .text = $0 { return true } else { return false } }) {
                return .string(RubyTokenizer.plainText(resolved))
            }
            return .interpolated(resolved)
        }
    }
}

extension RubyValue {
    /// How many values it holds (itself included).
    var size: Int {
        switch self {
        case .array(let items): return items.reduce(1) { $0 + $1.size }
        case .hash(let pairs): return pairs.reduce(1) { $0 + $1.value.size }
        default: return 1
        }
    }
}
