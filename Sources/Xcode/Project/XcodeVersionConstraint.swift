/// An Xcode version ("16.2", "16.2.1"; a missing part is 0).
public struct XcodeVersion: Sendable, Hashable, Comparable, CustomStringConvertible {
    public var major: Int, minor: Int, patch: Int

    public init(major: Int, minor: Int = 0, patch: Int = 0) {
        self.major = major
        self.minor = minor
        self.patch = patch
    }

    /// "16", "16.2" or "16.2.1"; nil for anything else.
    public init?(_ text: String) {
        guard let parts = Self.parts(text) else { return nil }
        self.init(major: parts[0], minor: parts.count > 1 ? parts[1] : 0, patch: parts.count > 2 ? parts[2] : 0)
    }

    static func parts(_ text: String) -> [Int]? {
        let pieces = text.split(separator: ".", omittingEmptySubsequences: false)
        guard (1...3).contains(pieces.count) else { return nil }
        let numbers = pieces.compactMap { $0.allSatisfy(\.isASCII) ? Int($0) : nil }
        return numbers.count == pieces.count && numbers.allSatisfy { $0 >= 0 } ? numbers : nil
    }

    public var description: String { patch == 0 ? "\(major).\(minor)" : "\(major).\(minor).\(patch)" }

    public static func < (a: XcodeVersion, b: XcodeVersion) -> Bool {
        (a.major, a.minor, a.patch) < (b.major, b.minor, b.patch)
    }
}

/// Which Xcode versions a lane accepts: "16.2" (any 16.2.x), "16" (any 16.x), "^16.2"
/// (≥ 16.2, < 17), "~16.2" (≥ 16.2, < 16.3), comparisons (">=16.1, <17"), clauses joined by commas.
public struct XcodeVersionConstraint: Sendable, Hashable, CustomStringConvertible {
    private struct Bound: Sendable, Hashable {
        var lower: XcodeVersion?, lowerInclusive = true
        var upper: XcodeVersion?, upperInclusive = false
        func contains(_ v: XcodeVersion) -> Bool {
            if let lower, lowerInclusive ? v < lower : v <= lower { return false }
            if let upper, upperInclusive ? v > upper : v >= upper { return false }
            return true
        }
    }

    public let description: String
    private let bounds: [Bound]

    /// Parses a constraint.
    ///
    /// - Throws: `XcodeProjectError.invalidXcodeConstraint` naming the clause that does not parse.
    public init(_ text: String) throws {
        description = text
        let clauses = text.split(separator: ",", omittingEmptySubsequences: false).map { $0.trimmingWhitespace }
        guard !clauses.contains(where: \.isEmpty) else {
            throw XcodeProjectError.invalidXcodeConstraint(constraint: text, problem: "it is empty or has an empty clause")
        }
        bounds = try clauses.map { try Self.bound($0, in: text) }
    }

    /// True when `version` satisfies every clause.
    public func matches(_ version: XcodeVersion) -> Bool { bounds.allSatisfy { $0.contains(version) } }

    private static func bound(_ clause: String, in text: String) throws -> Bound {
        let operators = [">=", "<=", "^", "~", ">", "<", "="]
        let op = operators.first { clause.hasPrefix($0) } ?? ""
        let rest = clause.dropFirst(op.count).trimmingWhitespace
        guard let parts = XcodeVersion.parts(rest) else {
            throw XcodeProjectError.invalidXcodeConstraint(constraint: text, problem: "'\(clause)' is not a version with an optional ^, ~, >=, >, <=, < or =")
        }
        let version = XcodeVersion(major: parts[0], minor: parts.count > 1 ? parts[1] : 0, patch: parts.count > 2 ? parts[2] : 0)
        // The version after the last given part: "16" → 17, "16.2" → 16.3, "16.2.1" → 16.2.2.
        let next = parts.count == 1 ? XcodeVersion(major: version.major + 1)
            : parts.count == 2 ? XcodeVersion(major: version.major, minor: version.minor + 1)
            : XcodeVersion(major: version.major, minor: version.minor, patch: version.patch + 1)
        switch op {
        case ">=": return Bound(lower: version)
        case ">": return Bound(lower: version, lowerInclusive: false)
        case "<=": return Bound(upper: version, upperInclusive: true)
        case "<": return Bound(upper: version)
        case "^": return Bound(lower: version, upper: XcodeVersion(major: version.major + 1))
        case "~": return Bound(lower: version, upper: parts.count == 1 ? next : XcodeVersion(major: version.major, minor: version.minor + 1))
        default: return Bound(lower: version, upper: next)
        }
    }
}

extension StringProtocol {
    var trimmingWhitespace: String {
        String(drop { $0 == " " || $0 == "\t" }.reversed().drop { $0 == " " || $0 == "\t" }.reversed())
    }
}
