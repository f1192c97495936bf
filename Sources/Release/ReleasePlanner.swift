import Basics
import Foundation
import Git

/// Reads a repository's release state: the latest semver tag reachable from HEAD, the commits
/// since it, and the next version for a strategy. Read-only: used by `version.bump`'s plan and
/// run, `changelog.update`, `slipway version` and `slipway changelog`.
public struct ReleasePlanner: Sendable {
    /// What the planner found.
    public struct State: Sendable {
        /// The latest release tag (`v1.2.3`), nil when there is none.
        public var previousTag: String?
        /// Its version.
        public var previous: SemanticVersion?
        /// Commits since that tag (all commits when there is none), newest first.
        public var commits: [GitCommit]
        /// The repository's web links, when its `origin` remote is on a known host.
        public var links: RepositoryLinks?
    }

    let repository: GitRepository
    let tagPrefix: String

    /// A planner over the repository containing `directory`; tags look like `<prefix>1.2.3`.
    public init(directory: String, tagPrefix: String = "v") throws {
        repository = try GitRepository.discover(from: directory)
        self.tagPrefix = tagPrefix
    }

    /// The state as of HEAD; `since` overrides the previous tag.
    public func state(since: String? = nil) throws -> State {
        var previousTag = since
        var previous = since.flatMap { SemanticVersion(tag: String($0.dropFirst($0.hasPrefix(tagPrefix) ? tagPrefix.count : 0))) }
        if since == nil, let latest = try repository.latestSemverTag(reachableFrom: "HEAD", prefix: tagPrefix.isEmpty ? nil : tagPrefix) {
            previousTag = latest.tag.name
            previous = latest.version
        }
        let commits = try repository.head().isUnborn ? [] : repository.commits(from: "HEAD", until: previousTag)
        let links = (try? repository.remoteURL(name: "origin")).flatMap(RepositoryLinks.init(remoteURL:))
        return State(previousTag: previousTag, previous: previous, commits: commits, links: links)
    }

    /// The next version for `strategy`. Throws `ReleaseError.nonSemverTags` when the repository
    /// has tags but none is a semantic version (and the strategy needs one).
    public func nextVersion(_ strategy: VersionStrategy, state: State) throws -> SemanticVersion {
        if state.previous == nil, case .exact = strategy {} else if state.previous == nil {
            let names = try repository.tags().map(\.name)
            if !names.isEmpty { throw ReleaseError.nonSemverTags(names) }
        }
        return try VersionCalculator().next(after: state.previous, strategy: strategy, messages: state.commits.map(\.message))
    }

    /// The changelog entry for `version` from the state's commits.
    public func entry(for version: SemanticVersion, state: State, date: Date = Date()) -> ChangelogEntry {
        ChangelogEntry(version: version.description, date: Self.day(date),
                       commits: state.commits.map { ($0.message, $0.oid.hex) }, links: state.links,
                       previousTag: state.previousTag, tag: tagPrefix + version.description)
    }

    /// `YYYY-MM-DD` in UTC.
    public static func day(_ date: Date) -> String {
        let formatter = DateFormatter()
        formatter.locale = Locale(identifier: "en_US_POSIX")
        formatter.timeZone = TimeZone(identifier: "UTC")
        formatter.dateFormat = "yyyy-MM-dd"
        return formatter.string(from: date)
    }
}
