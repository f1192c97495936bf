import Basics

/// How the next version is chosen: from the commits (`auto`), by a bump, a pre-release step,
/// or given outright.
public enum VersionStrategy: Sendable, Hashable, CustomStringConvertible {
    case auto
    case major, minor, patch
    /// `prerelease rc`: 1.2.3 → 1.2.4-rc.1, 1.2.4-rc.1 → 1.2.4-rc.2.
    case prerelease(String)
    case exact(SemanticVersion)

    /// Reads `auto`, `major`, `minor`, `patch`, `prerelease ID` or a version such as `1.4.0` (or
    /// `20.8`, two parts as App Store versions are often written).
    public init(parsing text: String) throws {
        let trimmed = text.trimmingCharacters(in: .whitespaces)
        switch trimmed {
        case "auto": self = .auto
        case "major": self = .major
        case "minor": self = .minor
        case "patch": self = .patch
        default:
            let words = trimmed.split(separator: " ")
            if words.count == 2, words[0] == "prerelease" {
                self = .prerelease(String(words[1]))
            } else if let version = SemanticVersion(tag: trimmed) {
                self = .exact(version)
            } else if let read = ReleaseTagVersion(trimmed, allowingV: true), read.form == .twoPart {
                // An App Store version of two parts (20.8): 20.8.0 for ordering, written as the
                // history writes versions (see `ReleasePlanner.State.written`).
                self = .exact(read.version)
            } else {
                throw ReleaseError.invalidStrategy(text)
            }
        }
    }

    public var description: String {
        switch self {
        case .auto: return "auto"
        case .major: return "major"
        case .minor: return "minor"
        case .patch: return "patch"
        case .prerelease(let id): return "prerelease \(id)"
        case .exact(let version): return version.description
        }
    }
}

/// Computes the next version from the previous one and the commits since it.
///
/// Rules for `auto`: a breaking change (`!` or a `BREAKING CHANGE:` footer) bumps major, `feat`
/// minor, `fix`/`perf` patch. Before 1.0.0 (0.x), anything may change, so a breaking change bumps
/// the minor version (0.4.2 → 0.5.0) and a feature bumps minor too; fixes bump patch. A
/// pre-release previous version (1.3.0-rc.2) is released as itself without the suffix (1.3.0)
/// when any releasable commit follows it.
public struct VersionCalculator: Sendable {
    /// Creates a calculator.
    public init() {}

    /// The impact of the commits: the largest impact among their conventional messages.
    public func impact(of messages: [String]) -> VersionImpact {
        messages.compactMap(ConventionalCommit.init(message:)).map(\.impact).max() ?? .none
    }

    /// The next version; throws when `auto` finds nothing to release or a bump goes backwards.
    public func next(after previous: SemanticVersion?, strategy: VersionStrategy, messages: [String]) throws -> SemanticVersion {
        try next(after: previous, strategy: strategy, commits: messages.map(ConventionalCommit.init(message:)))
    }

    /// `next(after:strategy:messages:)` for messages already parsed (nil for one that is not a
    /// conventional commit).
    public func next(after previous: SemanticVersion?, strategy: VersionStrategy, commits: [ConventionalCommit?]) throws -> SemanticVersion {
        if case .exact(let version) = strategy {
            if let previous, version <= previous { throw ReleaseError.versionNotAfter(version.description, previous.description) }
            return version
        }
        guard let previous else { throw ReleaseError.noPreviousVersion }
        switch strategy {
        case .exact: preconditionFailure("handled above")
        case .major: return try previous.bumped(.major)
        case .minor: return try previous.bumped(.minor)
        case .patch: return try previous.bumped(.patch)
        case .prerelease(let id): return try previous.bumped(.prerelease(id))
        case .auto:
            let impact = commits.compactMap { $0?.impact }.max() ?? .none
            guard impact != .none else { throw ReleaseError.nothingToRelease(since: previous.description, commits: commits.count) }
            if previous.isPrerelease {
                return try SemanticVersion(major: previous.major, minor: previous.minor, patch: previous.patch)
            }
            switch impact {
            case .major where previous.major == 0, .minor: return try previous.bumped(.minor)
            case .major: return try previous.bumped(.major)
            case .patch, .none: return try previous.bumped(.patch)
            }
        }
    }
}
