/// A rule between a step's options that the option types alone cannot say ("'token' needs
/// 'channel'"). Declared in the step's description, so that the lane validator checks it even
/// where option values are expressions (a secret, an earlier step's output): only which options
/// are given, and the literal values of the options a condition looks at, are needed.
public enum OptionRule: Sendable, Hashable {
    /// Exactly one of these options must be given (when `when` holds, if there is a condition).
    case oneOf([String], when: OptionCondition? = nil)
    /// When the first option is given, each of the others must be given too.
    case requires(String, [String])
    /// The option may be given only when the condition holds.
    case onlyWhen(String, OptionCondition)

    /// The problem with the options `given` (each name given in the lane with its literal value,
    /// or nil when the value is an expression), or nil when the rule holds or cannot be judged
    /// yet (a condition on an expression).
    public func problem(given: [String: OptionValue?]) -> StepError? {
        func isGiven(_ name: String) -> Bool {
            guard let value = given[name] else { return false }
            if case .null? = value { return false }
            return true
        }
        switch self {
        case .oneOf(let names, let condition):
            if let condition, condition.holds(given) != true { return nil }
            let present = names.filter(isGiven)
            let list = names.map { "'\($0)'" }.joined(separator: " or ")
            let with = condition.map { " with \($0.option): \($0.literal(given) ?? "")" } ?? ""
            if present.isEmpty {
                return .invalidOption(name: names[0], problem: names.count == 1 ? "is required\(with)" : "is missing: give \(list)\(with)")
            }
            if present.count > 1 {
                return .invalidOption(name: present[1], problem: "cannot be given with '\(present[0])': give \(list), not both")
            }
        case .requires(let option, let others):
            guard isGiven(option) else { return nil }
            if let missing = others.first(where: { !isGiven($0) }) {
                return .invalidOption(name: option, problem: "needs option '\(missing)' too")
            }
        case .onlyWhen(let option, let condition):
            guard isGiven(option), condition.holds(given) == false else { return nil }
            let allowed = condition.values.map { "\(condition.option): \($0)" }.joined(separator: " or ")
            return .invalidOption(name: option, problem: "applies only with \(allowed), not with \(condition.option): \(condition.literal(given) ?? "")")
        }
        return nil
    }

    /// Throws the first problem with fully known options (a step's initializer checks its
    /// rules with it, so that a step made without the validator keeps them too).
    public static func check(_ rules: [OptionRule], _ options: StepOptions) throws {
        var given: [String: OptionValue?] = options.values.mapValues { Optional($0) }
        for (name, value) in options.defaults where given[name] == nil { given[name] = .some(value) }
        for rule in rules {
            if let problem = rule.problem(given: given) { throw problem }
        }
    }
}

/// "`option` is one of `values`", for `OptionRule`s.
public struct OptionCondition: Sendable, Hashable {
    /// The option the condition reads.
    public var option: String
    /// The values for which it holds.
    public var values: [String]

    /// `option` is one of `values`.
    public init(_ option: String, isOneOf values: [String]) {
        self.option = option
        self.values = values
    }

    /// The option's literal value, or nil when it is absent or an expression.
    func literal(_ given: [String: OptionValue?]) -> String? {
        guard case .some(.some(let value)) = given[option] else { return nil }
        switch value {
        case .string(let text): return text
        case .int(let number): return String(number)
        case .bool(let flag): return String(flag)
        default: return nil
        }
    }

    /// Whether it holds; nil when the option's value is not known yet.
    func holds(_ given: [String: OptionValue?]) -> Bool? {
        literal(given).map(values.contains)
    }
}
