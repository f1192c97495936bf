/// A commit message read as a Conventional Commit (https://www.conventionalcommits.org):
/// `type(scope)!: description`, a body, and footers such as `BREAKING CHANGE: ...`.
public struct ConventionalCommit: Sendable, Hashable {
    /// `feat`, `fix`, `perf`, ... (lower-cased).
    public var type: String
    /// The scope in parentheses, if any.
    public var scope: String?
    /// The summary after the colon.
    public var description: String
    /// True for `!` after the type/scope or a `BREAKING CHANGE:` / `BREAKING-CHANGE:` footer.
    public var isBreaking: Bool
    /// The text of the breaking-change footer, when there is one.
    public var breakingNote: String?

    /// Parses a full commit message; nil when the summary line is not conventional.
    public init?(message: String) {
        let lines = message.split(separator: "\n", omittingEmptySubsequences: false)
        guard let header = lines.first.map(String.init), let colon = header.range(of: ": ") else { return nil }
        var prefix = header[..<colon.lowerBound]
        let summary = header[colon.upperBound...].trimmingCharacters(in: .whitespaces)
        guard !summary.isEmpty else { return nil }
        var breaking = false
        if prefix.hasSuffix("!") {
            breaking = true
            prefix = prefix.dropLast()
        }
        var scope: String?
        if let open = prefix.firstIndex(of: "("), prefix.hasSuffix(")") {
            scope = String(prefix[prefix.index(after: open)..<prefix.index(before: prefix.endIndex)])
            prefix = prefix[..<open]
            if scope?.isEmpty == true { return nil }
        }
        guard !prefix.isEmpty, prefix.allSatisfy({ $0.isLetter || $0 == "-" }) else { return nil }
        type = prefix.lowercased()
        self.scope = scope
        description = summary
        for line in lines.dropFirst() {
            for marker in ["BREAKING CHANGE:", "BREAKING-CHANGE:"] where line.hasPrefix(marker) {
                breaking = true
                breakingNote = line.dropFirst(marker.count).trimmingCharacters(in: .whitespaces)
            }
        }
        isBreaking = breaking
    }

    /// How far this commit moves the version.
    public var impact: VersionImpact {
        if isBreaking { return .major }
        switch type {
        case "feat": return .minor
        case "fix", "perf": return .patch
        default: return .none
        }
    }
}

/// How much a set of changes moves the version.
public enum VersionImpact: Int, Sendable, Comparable, CaseIterable {
    case none, patch, minor, major

    public static func < (lhs: VersionImpact, rhs: VersionImpact) -> Bool { lhs.rawValue < rhs.rawValue }
}
