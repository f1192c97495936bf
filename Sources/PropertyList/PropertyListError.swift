import Foundation

/// Why a property list could not be read. `file` is how the caller named it.
public enum PropertyListError: Error, LocalizedError, Sendable, Hashable {
    /// The bytes are not a property list this reader understands.
    case malformed(file: String, reason: String)
    /// Reading it would cost more than the budget allows.
    case overBudget(file: String, limit: Limit)

    /// Which bound of `PropertyListLimits` a file exceeds.
    public enum Limit: Sendable, Hashable {
        /// The file itself is larger than `maxInputBytes` (its size, the limit).
        case inputBytes(size: Int, limit: Int)
        /// More than `maxObjects` values once shared references are expanded.
        case objects(limit: Int)
        /// Arrays and dictionaries nested more than `maxDepth` levels.
        case depth(limit: Int)
        /// More than `maxExpandedBytes` bytes of strings and data once expanded.
        case expandedBytes(limit: Int)
    }

    /// The problem without the file's name, for callers that wrap it in their own error.
    public var reason: String {
        switch self {
        case .malformed(_, let reason):
            return reason
        case .overBudget(_, let limit):
            return limit.description + "; the file may be hostile, so slipway stopped reading it"
        }
    }

    public var errorDescription: String? {
        switch self {
        case let .malformed(file, reason):
            return "'\(file)' is not a readable property list: \(reason). Fix or recreate the file."
        case let .overBudget(file, limit):
            return "'\(file)' exceeds slipway's property-list budget: \(limit.description). "
                + "The file may be hostile (a small file that expands to a huge one); slipway stopped reading it. Check where it came from."
        }
    }
}

extension PropertyListError.Limit: CustomStringConvertible {
    /// "it expands to more than 1000000 values ...".
    public var description: String {
        switch self {
        case let .inputBytes(size, limit):
            return "it is \(size) bytes, more than the \(limit) bytes allowed"
        case .objects(let limit):
            return "it expands to more than \(limit) values (each shared reference counted every time it is used)"
        case .depth(let limit):
            return "it nests arrays and dictionaries more than \(limit) levels deep"
        case .expandedBytes(let limit):
            return "its strings and data expand to more than \(limit) bytes (each shared reference counted every time it is used)"
        }
    }
}
