import Foundation

/// A value in a lane file after expressions are substituted: what options are made of.
public indirect enum OptionValue: Sendable, Hashable, Codable, CustomStringConvertible {
    case string(String)
    case int(Int)
    case bool(Bool)
    case list([OptionValue])
    case map([String: OptionValue])
    case null

    public init(from decoder: any Decoder) throws {
        let container = try decoder.singleValueContainer()
        if container.decodeNil() { self = .null }
        else if let value = try? container.decode(Bool.self) { self = .bool(value) }
        else if let value = try? container.decode(Int.self) { self = .int(value) }
        else if let value = try? container.decode(String.self) { self = .string(value) }
        else if let value = try? container.decode([OptionValue].self) { self = .list(value) }
        else { self = .map(try container.decode([String: OptionValue].self)) }
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        switch self {
        case .string(let value): try container.encode(value)
        case .int(let value): try container.encode(value)
        case .bool(let value): try container.encode(value)
        case .list(let value): try container.encode(value)
        case .map(let value): try container.encode(value)
        case .null: try container.encodeNil()
        }
    }

    /// The value as a lane file would spell it (for docs and plans).
    public var description: String {
        switch self {
        case .string(let value): return value
        case .int(let value): return String(value)
        case .bool(let value): return String(value)
        case .list(let values): return "[" + values.map(\.description).joined(separator: ", ") + "]"
        case .map(let values):
            return "{" + values.sorted { $0.key < $1.key }.map { "\($0.key): \($0.value)" }
                .joined(separator: ", ") + "}"
        case .null: return "null"
        }
    }
}

/// A step's options after validation and defaults: typed accessors for step initializers.
/// Validation has already checked presence and types, so a mismatch here is a bug in the step's
/// description and is reported as such.
///
/// The options know the defaults the step's description declares: every accessor returns an
/// option's declared default when the lane leaves it out (or its value is null), so a step reads
/// `try options.requiredString("target")` for an option declared with `default: .string("HEAD")`
/// instead of restating the default at the read.
public struct StepOptions: Sendable, Hashable {
    /// The values by option name (defaults filled in).
    public var values: [String: OptionValue]
    /// The defaults the step's description declares, by option name.
    public var defaults: [String: OptionValue]
    /// The platform the step is validated and planned for: this machine's, or another one's
    /// for `validate --platform` and `run --dry-run --platform` (a real run always uses this
    /// machine's). Steps whose defaults or checks differ by platform read it, not `#if os`.
    public var platform: Platform = .current

    /// Wraps validated values; `defaults` are the description's declared defaults.
    public init(_ values: [String: OptionValue] = [:], defaults: [String: OptionValue] = [:]) {
        self.values = values
        self.defaults = defaults
    }

    /// Wraps validated values for a step with `description`, whose declared defaults apply.
    public init(_ values: [String: OptionValue] = [:], for description: StepDescription) {
        self.init(values, defaults: description.defaultValues)
    }

    /// The option's value, or its declared default when it is absent or null.
    private func value(_ name: String) -> OptionValue? {
        switch values[name] {
        case nil, .null?: return defaults[name]
        case let value?: return value
        }
    }

    /// A string option, or nil when absent (and declared without a default).
    public func string(_ name: String) throws -> String? {
        switch value(name) {
        case nil, .null?: return nil
        case .string(let value)?: return value
        case .int(let value)?: return String(value)
        case .bool(let value)?: return String(value)
        case let other?: throw StepError.invalidOption(name: name, problem: "expected a string, got \(other)")
        }
    }

    /// A string option that validation guarantees is present (required, or declared with a
    /// default).
    public func requiredString(_ name: String) throws -> String {
        guard let value = try string(name) else { throw StepError.invalidOption(name: name, problem: "is required") }
        return value
    }

    /// An integer option that is required or declared with a default.
    public func requiredInt(_ name: String) throws -> Int {
        guard let value = try int(name) else { throw StepError.invalidOption(name: name, problem: "is required") }
        return value
    }

    /// A duration option that is required or declared with a default.
    public func requiredDuration(_ name: String) throws -> Duration {
        guard let value = try duration(name) else { throw StepError.invalidOption(name: name, problem: "is required") }
        return value
    }

    /// An integer option, or nil.
    public func int(_ name: String) throws -> Int? {
        switch value(name) {
        case nil, .null?: return nil
        case .int(let value)?: return value
        case .string(let text)?:
            guard let value = Int(text) else { throw StepError.invalidOption(name: name, problem: "'\(text)' is not an integer") }
            return value
        case let other?: throw StepError.invalidOption(name: name, problem: "expected an integer, got \(other)")
        }
    }

    /// A boolean option; when absent, its declared default, else `fallback`.
    public func bool(_ name: String, default fallback: Bool = false) throws -> Bool {
        switch value(name) {
        case nil, .null?: return fallback
        case .bool(let value)?: return value
        case .string("true")?: return true
        case .string("false")?: return false
        case let other?: throw StepError.invalidOption(name: name, problem: "expected true or false, got \(other)")
        }
    }

    /// A list of strings (a single string counts as a one-element list); empty when absent.
    public func strings(_ name: String) throws -> [String] {
        switch value(name) {
        case nil, .null?: return []
        case .string(let value)?: return [value]
        case .list(let items)?:
            return try items.map { item in
                switch item {
                case .string(let value): return value
                case .int(let value): return String(value)
                case .bool(let value): return String(value)
                default: throw StepError.invalidOption(name: name, problem: "expected a list of strings")
                }
            }
        case let other?: throw StepError.invalidOption(name: name, problem: "expected a list of strings, got \(other)")
        }
    }

    /// A string-to-string map; empty when absent.
    public func stringMap(_ name: String) throws -> [String: String] {
        switch value(name) {
        case nil, .null?: return [:]
        case .map(let entries)?:
            return try entries.mapValues { value in
                switch value {
                case .string(let text): return text
                case .int(let number): return String(number)
                case .bool(let flag): return String(flag)
                default: throw StepError.invalidOption(name: name, problem: "expected string values")
                }
            }
        case let other?: throw StepError.invalidOption(name: name, problem: "expected a map, got \(other)")
        }
    }

    /// A duration option in seconds, or nil.
    public func duration(_ name: String) throws -> Duration? {
        switch value(name) {
        case nil, .null?: return nil
        case .int(let seconds)?: return .seconds(seconds)
        case .string(let text)?:
            guard let value = DurationParser.parse(text) else {
                throw StepError.invalidOption(name: name, problem: "'\(text)' is not a duration (try 30s, 5m, 1h)")
            }
            return value
        case let other?: throw StepError.invalidOption(name: name, problem: "expected a duration, got \(other)")
        }
    }
}

/// Reads durations as lane files write them: `250ms`, `30s`, `5m`, `1h30m`, or plain seconds.
public enum DurationParser {
    /// The duration, or nil when the text is not one.
    public static func parse(_ text: String) -> Duration? {
        let trimmed = text.trimmingCharacters(in: .whitespaces)
        if let seconds = Double(trimmed), seconds >= 0 { return .milliseconds(Int64(seconds * 1000)) }
        var total: Duration = .zero
        var number = ""
        var index = trimmed.startIndex
        var sawUnit = false
        while index < trimmed.endIndex {
            let character = trimmed[index]
            if character.isNumber || character == "." {
                number.append(character)
                index = trimmed.index(after: index)
                continue
            }
            guard let value = Double(number) else { return nil }
            let rest = trimmed[index...]
            let (unit, length): (Double, Int)
            if rest.hasPrefix("ms") { (unit, length) = (0.001, 2) }
            else if rest.hasPrefix("s") { (unit, length) = (1, 1) }
            else if rest.hasPrefix("m") { (unit, length) = (60, 1) }
            else if rest.hasPrefix("h") { (unit, length) = (3600, 1) }
            else { return nil }
            total += .milliseconds(Int64(value * unit * 1000))
            number = ""
            sawUnit = true
            index = trimmed.index(index, offsetBy: length)
        }
        return sawUnit && number.isEmpty ? total : nil
    }

    /// "1.5s", "2m 3s": a duration as people read it.
    public static func format(_ duration: Duration) -> String {
        let seconds = Double(duration.components.seconds) + Double(duration.components.attoseconds) / 1e18
        if seconds < 60 { return String(format: "%.2fs", seconds) }
        let minutes = Int(seconds) / 60
        return "\(minutes)m \(Int(seconds) % 60)s"
    }
}
