import Foundation

/// One value of a property list (XML or binary), as `PropertyListReader` reads it.
///
/// Containers hold their elements by value; a binary plist's shared references therefore
/// share storage (copy on write) but count, for every budget, once per use.
///
/// Equality compares reals by their bits, so that a NaN read from a file equals itself (and
/// reading a file twice gives equal values) as `Hashable` requires.
public enum PropertyListValue: Sendable, Hashable {
    /// `<string>`, or a binary ASCII / UTF-16 string.
    case string(String)
    /// `<integer>`; values outside `Int64` are refused when read.
    case integer(Int64)
    /// `<real>`.
    case real(Double)
    /// `<true/>` / `<false/>`.
    case bool(Bool)
    /// `<date>` (ISO 8601, UTC) or a binary date (seconds since 2001-01-01).
    case date(Date)
    /// `<data>` (base64) or binary data.
    case data([UInt8])
    /// `<array>`, or a binary array or set (in file order).
    case array([PropertyListValue])
    /// `<dict>`; a key given twice keeps its last value, as Foundation does.
    case dictionary([String: PropertyListValue])
    /// A binary plist's UID (NSKeyedArchiver's object references).
    case uid(UInt64)

    /// The string, or nil for any other kind.
    public var string: String? {
        if case .string(let value) = self { return value }
        return nil
    }

    /// The array's elements, or nil for any other kind.
    public var array: [PropertyListValue]? {
        if case .array(let value) = self { return value }
        return nil
    }

    /// The dictionary, or nil for any other kind.
    public var dictionary: [String: PropertyListValue]? {
        if case .dictionary(let value) = self { return value }
        return nil
    }

    /// The value under `key` of a dictionary; nil for a missing key or a value that is no dictionary.
    public subscript(key: String) -> PropertyListValue? {
        dictionary?[key]
    }

    /// The value as Foundation's `PropertyListSerialization` would give it (`String`, `Int`,
    /// `Double`, `Bool`, `Date`, `Data`, `[Any]`, `[String: Any]`; a UID as `["CF$UID": n]`), for
    /// callers written against Foundation. The reader's budget bounds the size of the result.
    public var foundationObject: Any {
        switch self {
        case .string(let value): return value
        case .integer(let value): return Int(value)
        case .real(let value): return value
        case .bool(let value): return value
        case .date(let value): return value
        case .data(let value): return Data(value)
        case .array(let values): return values.map(\.foundationObject)
        case .dictionary(let values): return values.mapValues(\.foundationObject)
        case .uid(let value): return ["CF$UID": Int(truncatingIfNeeded: value)]
        }
    }

    public static func == (lhs: PropertyListValue, rhs: PropertyListValue) -> Bool {
        switch (lhs, rhs) {
        case let (.string(left), .string(right)): return left == right
        case let (.integer(left), .integer(right)): return left == right
        case let (.real(left), .real(right)): return left.bitPattern == right.bitPattern
        case let (.bool(left), .bool(right)): return left == right
        case let (.date(left), .date(right)): return left.timeIntervalSinceReferenceDate.bitPattern == right.timeIntervalSinceReferenceDate.bitPattern
        case let (.data(left), .data(right)): return left == right
        case let (.array(left), .array(right)): return left == right
        case let (.dictionary(left), .dictionary(right)): return left == right
        case let (.uid(left), .uid(right)): return left == right
        default: return false
        }
    }

    public func hash(into hasher: inout Hasher) {
        switch self {
        case .string(let value): hasher.combine(0); hasher.combine(value)
        case .integer(let value): hasher.combine(1); hasher.combine(value)
        case .real(let value): hasher.combine(2); hasher.combine(value.bitPattern)
        case .bool(let value): hasher.combine(3); hasher.combine(value)
        case .date(let value): hasher.combine(4); hasher.combine(value.timeIntervalSinceReferenceDate.bitPattern)
        case .data(let value): hasher.combine(5); hasher.combine(value)
        case .array(let value): hasher.combine(6); hasher.combine(value)
        case .dictionary(let value): hasher.combine(7); hasher.combine(value)
        case .uid(let value): hasher.combine(8); hasher.combine(value)
        }
    }
}
