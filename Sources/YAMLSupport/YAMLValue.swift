import Basics

/// A YAML scalar with where it stands and whether it was quoted (a quoted `"42"` is a string,
/// a plain `42` an integer).
public struct YAMLScalar: Sendable, Hashable {
    /// The text.
    public var text: String
    /// True for plain (unquoted, non-block) scalars, whose type is resolved from the text.
    public var isPlain: Bool
    /// Where it starts.
    public var location: SourceLocation
    /// True for single- or double-quoted scalars.
    public var isQuoted: Bool = false

    /// Where the text itself starts: after the opening quote of a quoted scalar.
    public var contentLocation: SourceLocation {
        guard isQuoted else { return location }
        var shifted = location
        shifted.column += 1
        return shifted
    }

    /// The scalar's value by YAML 1.2's core schema (plain scalars only; quoted ones are strings).
    public var resolved: ScalarValue {
        guard isPlain else { return .string(text) }
        switch text {
        case "", "~", "null", "Null", "NULL": return .null
        case "true", "True", "TRUE": return .bool(true)
        case "false", "False", "FALSE": return .bool(false)
        default:
            if let number = Int(text) { return .int(number) }
            return .string(text)
        }
    }

    /// A scalar's value.
    public enum ScalarValue: Sendable, Hashable {
        case string(String), int(Int), bool(Bool), null
    }
}

/// A YAML document as a tree whose every node knows its line and column, so that errors found
/// long after parsing (in validation) still point at the right place.
public indirect enum YAMLValue: Sendable, Hashable {
    case scalar(YAMLScalar)
    case sequence([YAMLValue], SourceLocation)
    case mapping([YAMLEntry], SourceLocation)

    /// Where the node starts.
    public var location: SourceLocation {
        switch self {
        case .scalar(let scalar): return scalar.location
        case .sequence(_, let location), .mapping(_, let location): return location
        }
    }

    /// "a mapping", "a list", "a string": what the node is, for error messages.
    public var kindDescription: String {
        switch self {
        case .scalar(let scalar):
            switch scalar.resolved {
            case .string: return "a string"
            case .int: return "a number"
            case .bool: return "a boolean"
            case .null: return "nothing (null)"
            }
        case .sequence: return "a list"
        case .mapping: return "a mapping"
        }
    }

    /// The scalar, or nil.
    public var scalar: YAMLScalar? {
        if case .scalar(let scalar) = self { return scalar }
        return nil
    }

    /// True for a null scalar.
    public var isNull: Bool { scalar?.resolved == .null }
}

/// One key/value pair of a mapping, in file order.
public struct YAMLEntry: Sendable, Hashable {
    /// The key (always a scalar: `YAMLReader` refuses lists and mappings as keys).
    public var key: YAMLScalar
    /// The value.
    public var value: YAMLValue
}
