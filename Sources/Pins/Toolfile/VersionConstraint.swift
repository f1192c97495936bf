import Basics
import Foundation

/// Which versions of a tool are acceptable, in Cargo's syntax:
/// - `1.2.3` (or `=1.2.3`): exactly that version;
/// - `^1.2.3`, `^1.2`, `^1`: compatible updates — `>=1.2.3, <2.0.0`; under 0.x the first
///   non-zero part may not change (`^0.2.3` is `>=0.2.3, <0.3.0`, `^0.0.3` is `>=0.0.3, <0.0.4`);
/// - `~1.2.3`, `~1.2`: patch updates — `>=1.2.3, <1.3.0` (`~1` is `>=1.0.0, <2.0.0`);
/// - `>=1.2, <2`: comparisons (`>`, `>=`, `<`, `<=`, `=`), all of which must hold;
/// - `*`: any release.
///
/// Versions compare by SemVer 2.0 precedence. A pre-release (`1.1.0-beta.1`) is accepted only
/// when a part of the constraint names a pre-release of the same `MAJOR.MINOR.PATCH`, so that
/// `^1.0` never picks `1.1.0-beta.1`, but `^1.1.0-beta.1` accepts `1.1.0-beta.2` and `1.1.0`.
public struct VersionConstraint: Sendable, Hashable, CustomStringConvertible {
    /// The constraint as written.
    public let text: String
    let comparators: [Comparator]

    /// One comparison a version must pass.
    struct Comparator: Sendable, Hashable {
        enum Operation: String, Sendable { case equal = "=", greater = ">", greaterOrEqual = ">=", less = "<", lessOrEqual = "<=" }
        let operation: Operation
        let version: SemanticVersion

        func accepts(_ candidate: SemanticVersion) -> Bool {
            switch operation {
            case .equal: return candidate == version
            case .greater: return candidate > version
            case .greaterOrEqual: return candidate >= version
            case .less: return candidate < version
            case .lessOrEqual: return candidate <= version
            }
        }
    }

    /// The constraint as written.
    public var description: String { text }

    /// Parses a constraint.
    /// - Throws: `ConstraintError`, whose message says how to write it (Bundler's `~>` is
    ///   refused with the equivalent to write instead).
    public static func parse(_ text: String) throws -> VersionConstraint {
        let trimmed = text.trimmingCharacters(in: .whitespaces)
        guard !trimmed.isEmpty else { throw ConstraintError(text: text, reason: .empty) }
        if trimmed.hasPrefix("~>") { throw ConstraintError(text: text, reason: .pessimistic(suggestion(forPessimistic: trimmed))) }
        if trimmed == "*" { return VersionConstraint(text: trimmed, comparators: []) }
        var comparators: [Comparator] = []
        for part in trimmed.split(separator: ",", omittingEmptySubsequences: false) {
            let piece = part.trimmingCharacters(in: .whitespaces)
            guard !piece.isEmpty else { throw ConstraintError(text: text, reason: .emptyPart) }
            comparators += try parsePart(piece, in: text)
        }
        return VersionConstraint(text: trimmed, comparators: comparators)
    }

    /// True when `version` is acceptable (see the type's notes on pre-releases).
    public func isSatisfied(by version: SemanticVersion) -> Bool {
        guard comparators.allSatisfy({ $0.accepts(version) }) else { return false }
        guard version.isPrerelease else { return true }
        return comparators.contains { comparator in
            let named = comparator.version
            return named.isPrerelease && named.major == version.major && named.minor == version.minor
                && named.patch == version.patch
        }
    }

    /// The highest acceptable version among `versions`, or nil.
    public func best(of versions: [SemanticVersion]) -> SemanticVersion? {
        versions.filter(isSatisfied).max()
    }

    /// True when the constraint is one exact version (`1.2.3` or `=1.2.3`).
    public var exactVersion: SemanticVersion? {
        guard comparators.count == 1, let only = comparators.first, only.operation == .equal else { return nil }
        return only.version
    }

    // MARK: - Parsing

    private static func parsePart(_ piece: String, in text: String) throws -> [Comparator] {
        if piece.hasPrefix("^") { return try caret(partial(piece.dropFirst(), in: text), in: text) }
        if piece.hasPrefix("~") { return try tilde(partial(piece.dropFirst(), in: text), in: text) }
        for operation in [Comparator.Operation.greaterOrEqual, .lessOrEqual, .greater, .less, .equal]
        where piece.hasPrefix(operation.rawValue) {
            return try compare(operation, partial(piece.dropFirst(operation.rawValue.count), in: text), in: text)
        }
        let version = try partial(Substring(piece), in: text)
        guard let exact = version.full else { throw ConstraintError(text: text, reason: .partialExact(piece)) }
        return [Comparator(operation: .equal, version: exact)]
    }

    /// `MAJOR[.MINOR[.PATCH[-PRERELEASE]]]`.
    struct Partial {
        var major: Int
        var minor: Int?
        var patch: Int?
        var full: SemanticVersion?
    }

    private static func partial(_ raw: Substring, in text: String) throws -> Partial {
        let piece = raw.trimmingCharacters(in: .whitespaces)
        if let version = SemanticVersion(piece) {
            return Partial(major: version.major, minor: version.minor, patch: version.patch, full: version)
        }
        let numbers = piece.split(separator: ".", omittingEmptySubsequences: false)
        guard (1...2).contains(numbers.count) else { throw ConstraintError(text: text, reason: .badVersion(piece)) }
        var values: [Int] = []
        for number in numbers {
            guard !number.isEmpty, number.allSatisfy(\.isASCIIDigit), let value = Int(number),
                  number == "0" || !number.hasPrefix("0")
            else { throw ConstraintError(text: text, reason: .badVersion(piece)) }
            values.append(value)
        }
        return Partial(major: values[0], minor: values.count > 1 ? values[1] : nil, patch: nil, full: nil)
    }

    private static func caret(_ p: Partial, in text: String) throws -> [Comparator] {
        let lower = try version(p.major, p.minor ?? 0, p.patch ?? 0, p.full, in: text)
        let upper: SemanticVersion
        if p.major > 0 || p.minor == nil {
            upper = try version(increment(p.major, text), 0, 0, nil, in: text)
        } else if let minor = p.minor, minor > 0 || p.patch == nil {
            upper = try version(0, increment(minor, text), 0, nil, in: text)
        } else {
            upper = try version(0, 0, increment(p.patch ?? 0, text), nil, in: text)
        }
        return [Comparator(operation: .greaterOrEqual, version: lower), Comparator(operation: .less, version: upper)]
    }

    private static func tilde(_ p: Partial, in text: String) throws -> [Comparator] {
        let lower = try version(p.major, p.minor ?? 0, p.patch ?? 0, p.full, in: text)
        let upper = p.minor == nil
            ? try version(increment(p.major, text), 0, 0, nil, in: text)
            : try version(p.major, increment(p.minor ?? 0, text), 0, nil, in: text)
        return [Comparator(operation: .greaterOrEqual, version: lower), Comparator(operation: .less, version: upper)]
    }

    private static func compare(_ operation: Comparator.Operation, _ p: Partial, in text: String) throws -> [Comparator] {
        if let full = p.full { return [Comparator(operation: operation, version: full)] }
        let floor = try version(p.major, p.minor ?? 0, 0, nil, in: text)
        // The first version above the partial one: `1.2` → `1.3.0`, `1` → `2.0.0`.
        let next = p.minor == nil
            ? try version(increment(p.major, text), 0, 0, nil, in: text)
            : try version(p.major, increment(p.minor ?? 0, text), 0, nil, in: text)
        switch operation {
        case .greaterOrEqual: return [Comparator(operation: .greaterOrEqual, version: floor)]
        case .greater: return [Comparator(operation: .greaterOrEqual, version: next)]
        case .less: return [Comparator(operation: .less, version: floor)]
        case .lessOrEqual: return [Comparator(operation: .less, version: next)]
        case .equal:
            return [Comparator(operation: .greaterOrEqual, version: floor), Comparator(operation: .less, version: next)]
        }
    }

    private static func version(_ major: Int, _ minor: Int, _ patch: Int, _ full: SemanticVersion?,
                                in text: String) throws -> SemanticVersion {
        if let full { return full }
        do {
            return try SemanticVersion(major: major, minor: minor, patch: patch)
        } catch {
            throw ConstraintError(text: text, reason: .badVersion("\(major).\(minor).\(patch)"))
        }
    }

    private static func increment(_ value: Int, _ text: String) throws -> Int {
        let (result, overflow) = value.addingReportingOverflow(1)
        if overflow { throw ConstraintError(text: text, reason: .badVersion(String(value))) }
        return result
    }

    /// What to write instead of Bundler's `~> X[.Y[.Z]]`, with the same meaning.
    static func suggestion(forPessimistic text: String) -> String? {
        let body = text.dropFirst(2).trimmingCharacters(in: .whitespaces)
        let parts = body.split(separator: ".", omittingEmptySubsequences: false)
        guard (1...3).contains(parts.count), parts.allSatisfy({ !$0.isEmpty && $0.allSatisfy(\.isASCIIDigit) }),
              let major = Int(parts[0])
        else { return nil }
        switch parts.count {
        case 3: return "~\(body)"
        case 2 where major > 0: return "^\(body)"
        case 2: return ">=\(body), <1"
        default: return "^\(body)"
        }
    }
}

extension Character {
    fileprivate var isASCIIDigit: Bool { ("0"..."9").contains(self) }
}

/// Why a text is not a version constraint.
public struct ConstraintError: Error, Sendable, Equatable, LocalizedError {
    /// What is wrong.
    public enum Reason: Sendable, Equatable {
        case empty, emptyPart
        case badVersion(String)
        case partialExact(String)
        case pessimistic(String?)
    }

    /// The constraint as written.
    public let text: String
    /// What is wrong with it.
    public let reason: Reason

    public var errorDescription: String? {
        let forms = "Write '1.2.3' (exactly), '^1.2' (compatible), '~1.2.3' (patch updates) or '>=1.2, <2' (a range)."
        switch reason {
        case .empty:
            return "The version constraint is empty. \(forms)"
        case .emptyPart:
            return "The version constraint '\(text)' has an empty part between commas. \(forms)"
        case .badVersion(let piece):
            return "'\(piece)' in the version constraint '\(text)' is not a version. \(forms)"
        case .partialExact(let piece):
            return "'\(piece)' is not a complete version. Write '\(piece).0' for exactly that version, or "
                + "'^\(piece)' for compatible updates."
        case .pessimistic(let suggestion):
            let instead = suggestion.map { "Write '\($0)' instead, which means the same." } ?? forms
            return "'\(text)' uses Bundler's '~>' operator, which Slipway does not accept because its meaning "
                + "depends on how many parts the version has. \(instead)"
        }
    }
}
