import Basics
import YAMLSupport

extension LaneFileParser {
    mutating func inputs(_ value: YAMLValue) -> [InputSpec] {
        guard case .mapping(let entries, _) = value else {
            if !value.isNull { diagnostics.error("'inputs' must be a mapping of NAME: {type, default, choices, required, description}, but it is \(value.kindDescription)", at: value.location) }
            return []
        }
        let specs = entries.compactMap { input($0) }
        var byVariable: [String: String] = [:]
        for spec in specs where LaneNames.isInputName(spec.name) {
            let variable = LaneNames.environmentVariable(forInput: spec.name)
            if let first = byVariable[variable], first != spec.name {
                diagnostics.error("inputs '\(first)' and '\(spec.name)' would both be passed to CI jobs as \(variable); rename one", at: spec.location)
            } else {
                byVariable[variable] = spec.name
            }
        }
        return specs
    }

    private mutating func input(_ entry: YAMLEntry) -> InputSpec? {
        // Shown in messages with control characters escaped; the spec keeps the name as written.
        let name = LaneNames.escaped(entry.key.text)
        if !LaneNames.isInputName(entry.key.text) {
            diagnostics.error("input name '\(name)' may only use ASCII letters, digits, '_' and '-', starting "
                + "with a letter or '_' (it becomes a CI input and the variable SLIPWAY_INPUT_<NAME>)", at: entry.key.location)
        }
        var spec = InputSpec(name: entry.key.text, type: .string, defaultValue: nil, choices: nil, isRequired: false,
                             description: nil, location: entry.key.location)
        guard case .mapping(let fields, _) = entry.value else {
            // `name: value` is shorthand for a default.
            guard let scalar = entry.value.scalar else {
                diagnostics.error("input '\(name)' must be a mapping or a default value, but it is \(entry.value.kindDescription)", at: entry.value.location)
                return nil
            }
            spec.defaultValue = scalar.resolved == .null ? nil : scalar.resolved
            _ = checkOneLine(scalar.text, what: "input '\(name)' default", at: entry.value.location)
            spec.type = Self.inferredType(spec.defaultValue)
            spec.isRequired = spec.defaultValue == nil
            return spec
        }
        checkKeys(fields, allowed: ["type", "default", "choices", "required", "description"], context: "input '\(name)'")
        var explicitType = false, explicitRequired: Bool?
        for field in fields {
            switch field.key.text {
            case "type":
                guard let text = string(field.value, what: "input '\(name)' type") else { continue }
                guard let type = InputSpec.ValueType(rawValue: text) else {
                    diagnostics.error("input '\(name)' has unknown type '\(text)'; use string, int or bool", at: field.value.location)
                    continue
                }
                spec.type = type
                explicitType = true
            case "default":
                guard let scalar = field.value.scalar else {
                    diagnostics.error("input '\(name)' default must be a single value", at: field.value.location)
                    continue
                }
                spec.defaultValue = scalar.resolved == .null ? nil : scalar.resolved
                _ = checkOneLine(scalar.text, what: "input '\(name)' default", at: field.value.location)
            case "choices":
                guard case .sequence(let items, _) = field.value else {
                    diagnostics.error("input '\(name)' choices must be a list", at: field.value.location)
                    continue
                }
                spec.choices = items.compactMap { item in
                    guard let text = item.scalar?.text else { return nil }
                    return checkOneLine(text, what: "input '\(name)' choice", at: item.location) ? text : nil
                }
            case "required": explicitRequired = bool(field.value, what: "input '\(name)' required")
            case "description": spec.description = oneLine(field.value, what: "input '\(name)' description")
            default: break
            }
        }
        if !explicitType { spec.type = Self.inferredType(spec.defaultValue) }
        spec.isRequired = explicitRequired ?? (spec.defaultValue == nil)
        checkDefault(of: spec, entry: entry)
        return spec
    }

    private mutating func checkDefault(of spec: InputSpec, entry: YAMLEntry) {
        guard let value = spec.defaultValue else { return }
        if let problem = InputValues.problem(with: value, for: spec) {
            diagnostics.error("input '\(spec.name)' default: \(problem)", at: entry.value.location)
        }
        if spec.isRequired {
            diagnostics.warning("input '\(spec.name)' is required but has a default; the default is never used", at: entry.key.location)
        }
    }

    static func inferredType(_ value: YAMLScalar.ScalarValue?) -> InputSpec.ValueType {
        switch value {
        case .int?: return .int
        case .bool?: return .bool
        default: return .string
        }
    }
}

/// Checks and converts input values, from the lane's defaults and from `--input NAME=VALUE`.
public enum InputValues {
    /// What is wrong with `value` for `spec`, or nil when it fits.
    public static func problem(with value: YAMLScalar.ScalarValue, for spec: InputSpec) -> String? {
        let text: String
        switch (spec.type, value) {
        case (.string, .string(let s)): text = s
        case (.string, .int(let n)): text = String(n)
        case (.string, .bool(let b)): text = String(b)
        case (.int, .int(let n)): text = String(n)
        case (.bool, .bool(let b)): text = String(b)
        default: return "expected \(spec.type.rawValue), got '\(describe(value))'"
        }
        if let choices = spec.choices, !choices.contains(text) {
            return "'\(text)' is not one of \(choices.joined(separator: ", "))"
        }
        return nil
    }

    /// Parses a command-line value for `spec`.
    public static func parse(_ text: String, for spec: InputSpec) -> Result<ExpressionValue, InputError> {
        let value: YAMLScalar.ScalarValue
        switch spec.type {
        case .string: value = .string(text)
        case .int:
            guard let number = Int(text) else { return .failure(InputError(message: "input '\(spec.name)' expects an int, got '\(text)'")) }
            value = .int(number)
        case .bool:
            guard let flag = Bool(text.lowercased()) else { return .failure(InputError(message: "input '\(spec.name)' expects true or false, got '\(text)'")) }
            value = .bool(flag)
        }
        if let problem = problem(with: value, for: spec) { return .failure(InputError(message: "input '\(spec.name)': \(problem)")) }
        return .success(expressionValue(value))
    }

    /// The value an expression sees.
    public static func expressionValue(_ value: YAMLScalar.ScalarValue) -> ExpressionValue {
        switch value {
        case .string(let s): return .string(s)
        case .int(let n): return .number(Double(n))
        case .bool(let b): return .bool(b)
        case .null: return .null
        }
    }

    static func describe(_ value: YAMLScalar.ScalarValue) -> String {
        expressionValue(value).description
    }
}

/// A bad `--input` value.
public struct InputError: Error, Sendable, CustomStringConvertible {
    public var message: String
    public var description: String { message }
}
