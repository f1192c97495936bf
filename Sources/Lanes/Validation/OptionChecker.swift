import Basics
import Foundation
import Steps
import YAMLSupport

/// Checks option values against a step's option types (statically, expressions allowed where a
/// scalar goes) and converts them to `OptionValue`s (at run time, expressions evaluated).
struct OptionChecker {
    /// The options of `invocation` as (name, value) pairs, with the primary-option shorthand
    /// expanded; problems go to `diagnostics`.
    static func entries(of invocation: StepInvocation, description: StepDescription,
                        diagnostics: inout DiagnosticCollector) -> [(name: String, value: YAMLValue, location: SourceLocation)] {
        guard let options = invocation.options else { return [] }
        switch options {
        case .mapping(let entries, _):
            return entries.map { ($0.key.text, $0.value, $0.key.location) }
        case .scalar:
            guard let primary = description.primaryOption else {
                diagnostics.error("step '\(invocation.kind)' takes its options as a mapping, e.g. '- \(invocation.kind): { \(description.options.first?.name ?? "option"): value }'", at: options.location)
                return []
            }
            return [(primary, options, options.location)]
        case .sequence:
            diagnostics.error("the options of step '\(invocation.kind)' must be a mapping, not a list", at: options.location)
            return []
        }
    }

    /// Checks one value against a type; returns the templates found in it (for reference checks).
    /// `outputs` gives the declared types of step outputs, so that a whole-value
    /// `${{ steps.ID.outputs.NAME }}` (or `${{ steps.ID }}`) is checked against the option.
    static func check(_ value: YAMLValue, against type: OptionType, option: String,
                      outputs: OutputTypes = OutputTypes(), diagnostics: inout DiagnosticCollector) -> [Template] {
        func mismatch(_ expected: String) {
            diagnostics.error("option '\(option)' expects \(expected), but this is \(value.kindDescription)\(value.scalar.map { " '\($0.text)'" } ?? "")", at: value.location)
        }
        if let scalar = value.scalar, scalar.text.contains("${{") {
            let template: Template
            switch Template.parse(scalar.text, at: scalar.contentLocation) {
            case .success(let parsed): template = parsed
            case .failure(let error): diagnostics.append(contentsOf: error.diagnostics); return []
            }
            if case .reference(let reference)? = template.soleExpression, reference.step != nil {
                if let problem = outputs.problem(giving: reference, to: type, option: option) {
                    diagnostics.error(problem, at: template.location)
                }
                return [template]
            }
            if !isContainer(type) || isScalarList(type) { return [template] }
        }
        switch type {
        case .string:
            guard let scalar = value.scalar, scalar.resolved != .null else { mismatch("a string"); return [] }
        case .int:
            guard case .int? = value.scalar?.resolved else { mismatch("an integer"); return [] }
        case .bool:
            guard case .bool? = value.scalar?.resolved else { mismatch("true or false"); return [] }
        case .duration:
            if case .int? = value.scalar?.resolved { break }
            guard let text = value.scalar?.text, DurationParser.parse(text) != nil else { mismatch("a duration (30s, 5m, 1h)"); return [] }
        case .choice(let choices):
            guard let text = value.scalar?.text, choices.contains(text) else {
                diagnostics.error("option '\(option)' must be one of \(choices.joined(separator: ", ")), but it is '\(value.scalar?.text ?? value.kindDescription)'.\(Suggestions.didYouMean(value.scalar?.text ?? "", in: choices))", at: value.location)
                return []
            }
        case .list(let element):
            if case .sequence(let items, _) = value {
                return items.flatMap { check($0, against: element, option: option, diagnostics: &diagnostics) }
            }
            if value.scalar != nil && !isContainer(element) {
                return check(value, against: element, option: option, diagnostics: &diagnostics)
            }
            mismatch("a list of \(element)")
        case .map(let element):
            guard case .mapping(let entries, _) = value else { mismatch("a mapping"); return [] }
            return entries.flatMap { check($0.value, against: element, option: "\(option).\($0.key.text)", diagnostics: &diagnostics) }
        }
        return []
    }

    static func isContainer(_ type: OptionType) -> Bool {
        switch type {
        case .list, .map: return true
        default: return false
        }
    }

    static func isScalarList(_ type: OptionType) -> Bool {
        if case .list(let element) = type { return !isContainer(element) }
        return false
    }

    /// Converts a value to an `OptionValue` with expressions evaluated.
    static func resolve(_ value: YAMLValue, type: OptionType?, option: String = "",
                        evaluate: (Template) throws -> ExpressionValue) throws -> OptionValue {
        switch value {
        case .scalar(let scalar):
            if scalar.text.contains("${{") {
                let template = try Template.parse(scalar.text, at: scalar.location).get()
                var source = template.source
                if template.parts.count == 1, case .expression(_, let inner) = template.parts[0] { source = inner }
                return try coerce(try evaluate(template), to: type, option: option, source: source)
            }
            switch scalar.resolved {
            case .string(let text): return .string(text)
            case .int(let number): return type == .string ? .string(scalar.text) : .int(number)
            case .bool(let flag): return type == .string ? .string(scalar.text) : .bool(flag)
            case .null: return .null
            }
        case .sequence(let items, _):
            var element: OptionType?
            if case .list(let inner)? = type { element = inner }
            return .list(try items.map { try resolve($0, type: element, option: option, evaluate: evaluate) })
        case .mapping(let entries, _):
            var element: OptionType?
            if case .map(let inner)? = type { element = inner }
            var result: [String: OptionValue] = [:]
            for entry in entries {
                result[entry.key.text] = try resolve(entry.value, type: element, option: "\(option).\(entry.key.text)", evaluate: evaluate)
            }
            return .map(result)
        }
    }

    /// An expression's value as the option type wants it (`"3"` for an int option becomes 3; a
    /// mapping for a mapping option stays one; an undeclared output's JSON text for a mapping
    /// option is decoded, and anything else there is an error, never a guess).
    static func coerce(_ value: ExpressionValue, to type: OptionType?, option: String = "", source: String = "") throws -> OptionValue {
        switch (value, type) {
        case (.bool(let flag), .bool?): return .bool(flag)
        case (.number(let number), .int?) where number == number.rounded(): return .int(Int(number))
        case (.number(let number), .duration?) where number == number.rounded(): return .int(Int(number))
        case (.string(let text), .int?): return Int(text).map(OptionValue.int) ?? .string(text)
        case (.string(let text), .bool?): return Bool(text).map(OptionValue.bool) ?? .string(text)
        case (.null, _): return .null
        case (.list(let items), .list(let element)?):
            return .list(try items.map { try coerce($0, to: element, option: option, source: source) })
        case (.map(let entries), .map(let element)?):
            var result: [String: OptionValue] = [:]
            for (key, item) in entries { result[key] = try coerce(item, to: element, option: "\(option).\(key)", source: source) }
            return .map(result)
        case (.string(let text), .map?) where DryRunPlaceholder.isWhole(text):
            // A dry run's stand-in for an output that does not exist yet.
            return .map([text: .string(text)])
        case (.string(let text), .map(let element)?):
            // An undeclared output's JSON object of scalars (nested values are refused).
            if case .map(let entries)? = JSONValue.decode(text), entries.values.allSatisfy(\.isScalar) {
                return try coerce(.map(entries), to: .map(element), option: option, source: source)
            }
            throw TypedValueError.optionMismatch(option: option, expected: type?.phrase ?? "a mapping", source: source,
                                                 actual: value.kindPhrase + ", not a JSON object")
        case (.list, .map?), (.map, .list?), (.list, .int?), (.map, .int?), (.list, .bool?), (.map, .bool?):
            throw TypedValueError.optionMismatch(option: option, expected: type?.phrase ?? "", source: source, actual: value.kindPhrase)
        default: return .string(value.description)
        }
    }
}
