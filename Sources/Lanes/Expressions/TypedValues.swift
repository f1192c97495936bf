import Foundation
import Steps

/// A step output whose text does not decode as the type the step declares for it, or an
/// expression value that does not fit the option it is given to.
public enum TypedValueError: Error, LocalizedError, Sendable, Equatable {
    /// `steps.ID.outputs.NAME` holds text that is not a value of its declared type.
    case undecodableOutput(reference: String, type: String, text: String)
    /// An option that wants a list or mapping got a value of another kind.
    case optionMismatch(option: String, expected: String, source: String, actual: String)

    public var errorDescription: String? {
        switch self {
        case .undecodableOutput(let reference, let type, let text):
            return "'\(reference)' should hold \(type) (as JSON), but it is '\(Self.clipped(text))'; the step that set it (or a hand-over record) wrote it in another form. Run that step again."
        case .optionMismatch(let option, let expected, let source, let actual):
            return "option '\(option)' expects \(expected), but '\(source)' is \(actual)"
                + (actual.hasPrefix("a string") ? "; give the option a YAML \(expected.contains("list") ? "list" : "mapping"), or an output that holds JSON" : "")
        }
    }

    private static func clipped(_ text: String) -> String {
        text.count > 80 ? String(text.prefix(80)) + "…" : text
    }
}

extension OptionType {
    /// The type in words, as messages use it ("a mapping of strings").
    var phrase: String {
        switch self {
        case .string: return "a string"
        case .int: return "an integer"
        case .bool: return "true or false"
        case .duration: return "a duration"
        case .choice(let values): return "one of \(values.joined(separator: ", "))"
        case .list(let element): return "a list of \(element.plural)"
        case .map(let element): return "a mapping of \(element.plural)"
        }
    }

    private var plural: String {
        switch self {
        case .string: return "strings"
        case .int: return "integers"
        case .bool: return "booleans"
        case .duration: return "durations"
        case .choice: return "strings"
        case .list(let element): return "lists of \(element.plural)"
        case .map(let element): return "mappings of \(element.plural)"
        }
    }

    /// Whether a value of type `source` can be given to an option of this type without a
    /// conversion that could lose or invent anything: the same shape, a scalar into a string
    /// option (lists and mappings become JSON text), an int where a duration goes.
    func accepts(_ source: OptionType) -> Bool {
        switch (self, source) {
        case (.string, _), (.choice, .string), (.choice, .choice): return true
        case (.int, .int), (.bool, .bool), (.duration, .duration), (.duration, .int): return true
        case (.list(let a), .list(let b)), (.map(let a), .map(let b)): return a.accepts(b)
        default: return false
        }
    }
}

extension ExpressionValue {
    /// Decodes an output's text as `type`: JSON for lists and mappings, digits for an int,
    /// `true`/`false` for a bool; other types stay text. `reference` names the value in errors.
    public static func decode(_ text: String, as type: OptionType, reference: String = "the value") throws(TypedValueError) -> ExpressionValue {
        let failure = TypedValueError.undecodableOutput(reference: reference, type: type.phrase, text: text)
        switch type {
        case .int:
            guard let number = Int(text.trimmingCharacters(in: .whitespaces)) else { throw failure }
            return .number(Double(number))
        case .bool:
            guard let flag = Bool(text.trimmingCharacters(in: .whitespaces)) else { throw failure }
            return .bool(flag)
        case .list, .map:
            guard let value = JSONValue.decode(text), value.conforms(to: type) else { throw failure }
            return value
        case .string, .duration, .choice:
            return .string(text)
        }
    }

    /// Whether the value is a string, number, boolean or null (not a list or a mapping).
    var isScalar: Bool {
        switch self {
        case .list, .map: return false
        case .string, .number, .bool, .null: return true
        }
    }

    /// Whether the value has the shape of `type` (a string fits string-like types only).
    func conforms(to type: OptionType) -> Bool {
        switch (self, type) {
        case (.string, .string), (.string, .duration): return true
        case (.string(let text), .choice(let values)): return values.contains(text)
        case (.number(let number), .int): return number == number.rounded()
        case (.number, .duration), (.bool, .bool): return true
        case (.list(let items), .list(let element)): return items.allSatisfy { $0.conforms(to: element) }
        case (.map(let entries), .map(let element)): return entries.values.allSatisfy { $0.conforms(to: element) }
        default: return false
        }
    }

    /// The kind of value, for messages ("a mapping", "a string '...'").
    var kindPhrase: String {
        switch self {
        case .string(let text): return "a string '\(text.count > 60 ? String(text.prefix(60)) + "…" : text)'"
        case .number: return "a number"
        case .bool: return "a boolean"
        case .null: return "empty"
        case .list: return "a list"
        case .map: return "a mapping"
        }
    }
}

/// Decodes any JSON text into an `ExpressionValue`.
struct JSONValue: Decodable {
    let value: ExpressionValue

    /// The value `text` holds as JSON; nil when it is not JSON.
    static func decode(_ text: String) -> ExpressionValue? {
        guard let data = text.data(using: .utf8) else { return nil }
        return try? JSONDecoder().decode(JSONValue.self, from: data).value
    }

    init(from decoder: any Decoder) throws {
        let container = try decoder.singleValueContainer()
        if container.decodeNil() { value = .null }
        else if let flag = try? container.decode(Bool.self) { value = .bool(flag) }
        else if let number = try? container.decode(Double.self) { value = .number(number) }
        else if let text = try? container.decode(String.self) { value = .string(text) }
        else if let items = try? container.decode([JSONValue].self) { value = .list(items.map(\.value)) }
        else { value = .map(try container.decode([String: JSONValue].self).mapValues(\.value)) }
    }
}
