import Basics
import Foundation

/// An expression inside `${{ ... }}`: references such as `inputs.bump` or
/// `steps.version.outputs.version`, literals, `==`, `!=`, `&&`, `||`, `!`, parentheses, and the
/// status functions `success()`, `failure()`, `always()`, `cancelled()`.
public indirect enum Expression: Sendable, Hashable {
    case string(String)
    case number(Double)
    case bool(Bool)
    case null
    case reference(Reference)
    case not(Expression)
    case equal(Expression, Expression)
    case notEqual(Expression, Expression)
    case and(Expression, Expression)
    case or(Expression, Expression)
    case call(StatusFunction)

    /// Every reference in the expression, in order.
    public var references: [Reference] {
        switch self {
        case .reference(let reference): return [reference]
        case .not(let inner): return inner.references
        case .equal(let a, let b), .notEqual(let a, let b), .and(let a, let b), .or(let a, let b):
            return a.references + b.references
        case .string, .number, .bool, .null, .call: return []
        }
    }

    /// True when the expression calls a status function (then it decides on its own whether a
    /// step runs after a failure).
    public var callsStatusFunction: Bool {
        switch self {
        case .call: return true
        case .not(let inner): return inner.callsStatusFunction
        case .equal(let a, let b), .notEqual(let a, let b), .and(let a, let b), .or(let a, let b):
            return a.callsStatusFunction || b.callsStatusFunction
        default: return false
        }
    }
}

/// The functions that read the run's status.
public enum StatusFunction: String, Sendable, Hashable, CaseIterable {
    /// No earlier step failed (the default condition of a step).
    case success
    /// An earlier step failed.
    case failure
    /// Always true (the default condition of a `finally` step).
    case always
    /// The run was interrupted.
    case cancelled
}

/// A reference to a value of the run.
public enum Reference: Sendable, Hashable, CustomStringConvertible {
    case input(String)
    case secret(String)
    case env(String)
    case stepOutput(step: String, output: String)
    /// `steps.ID` (or `steps.ID.outputs`): every output of a step, as a mapping.
    case step(String)
    /// `lane.FIELD`: the run so far (`LaneStatus.fields`: name, status, failed-step, error),
    /// for messages sent from `finally:` steps.
    case lane(String)

    /// The step whose output(s) this refers to, if any.
    public var step: String? {
        switch self {
        case .stepOutput(let step, _), .step(let step): return step
        default: return nil
        }
    }

    public var description: String {
        switch self {
        case .input(let name): return "inputs.\(name)"
        case .secret(let name): return "secrets.\(name)"
        case .env(let name): return "env.\(name)"
        case .stepOutput(let step, let output): return "steps.\(step).outputs.\(output)"
        case .step(let step): return "steps.\(step)"
        case .lane(let field): return "lane.\(field)"
        }
    }
}

/// A value an expression evaluates to.
public enum ExpressionValue: Sendable, Hashable, CustomStringConvertible {
    case string(String)
    case number(Double)
    case bool(Bool)
    case null
    /// A list, from an output declared as a list (or a whole step's outputs).
    case list([ExpressionValue])
    /// A mapping, from an output declared as a mapping or `steps.ID`.
    case map([String: ExpressionValue])

    /// Falsy: false, null, empty string, 0. Everything else (lists and mappings too, even
    /// empty ones, as in GitHub Actions) is truthy.
    public var isTruthy: Bool {
        switch self {
        case .bool(let value): return value
        case .null: return false
        case .string(let value): return !value.isEmpty
        case .number(let value): return value != 0
        case .list, .map: return true
        }
    }

    /// The text substituted into a string: lists and mappings as JSON (keys sorted).
    public var description: String {
        switch self {
        case .string(let value): return value
        case .number(let value):
            return value == value.rounded() && abs(value) < 1e15 ? String(Int(value)) : String(value)
        case .bool(let value): return String(value)
        case .null: return ""
        case .list, .map: return json
        }
    }

    /// The value as JSON text.
    public var json: String {
        switch self {
        case .string(let value): return JSONFormatting.quoted(value)
        case .number, .bool: return description
        case .null: return "null"
        case .list(let items): return "[" + items.map(\.json).joined(separator: ",") + "]"
        case .map(let entries):
            return "{" + entries.keys.sorted().map { "\(JSONFormatting.quoted($0)):\(entries[$0]?.json ?? "null")" }.joined(separator: ",") + "}"
        }
    }


    /// Loose equality: same kinds compare directly, strings compare case-sensitively,
    /// mixed kinds compare by their text.
    public func looselyEquals(_ other: ExpressionValue) -> Bool {
        switch (self, other) {
        case (.number(let a), .number(let b)): return a == b
        case (.bool(let a), .bool(let b)): return a == b
        case (.null, .null): return true
        default: return description == other.description
        }
    }
}
