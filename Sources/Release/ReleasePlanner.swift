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
        public var commits: [GitCommit] { didSet { conventional = Self.parse(commits) } }
        /// The repository's web links, when its `origin` remote is on a known host.
        public var links: RepositoryLinks?
        /// `commits` read as conventional commits (nil where a message is not one), parsed
        /// once for both the next version and the changelog.
        public private(set) var conventional: [ConventionalCommit?]

        init(previousTag: String?, previous: SemanticVersion?, commits: [GitCommit], links: RepositoryLinks?) {
            self.previousTag = previousTag
            self.previous = previous
            self.commits = commits
            self.links = links
            conventional = Self.parse(commits)
        }

        private static func parse(_ commits: [GitCommit]) -> [ConventionalCommit?] {
            commits.map { ConventionalCommit(message: $0.message) }
        }
    }

    let repository: GitRepository
    let tagPrefix: String

    /// A planner over the repository containing `directory`; tags look like `<prefix>1.2.3`.
    public init(directory: String, tagPrefix: String = "v") throws {
        repository = try GitRepository.discover(from: directory)
        self.tagPrefix = tagPrefix
    }

    /// The state as of HEAD; `since` overrides the previous tag.
    ///
    /// In a shallow clone the walk stops at the clone's oldest commits, as git does. That is
    /// enough when the last release tag is among the commits the clone has; when it is not (no
    /// tag found, or a tag whose commit is missing), the state cannot be known, and this throws
    /// `GitError.shallowHistory` saying how to fetch the rest.
    public func state(since: String? = nil) throws -> State {
        guard repository.isShallow else { return try readState(since: since) }
        let state: State
        do {
            state = try readState(since: since)
        } catch let error as GitError {
            throw GitError.shallowHistory(repository: repository.displayPath, needed: "the history since the last release",
                                          detail: Self.shortDetail(error))
        }
        guard state.previousTag != nil else {
            throw GitError.shallowHistory(repository: repository.displayPath, needed: "the search for the last release tag",
                                          detail: state.commits.count == 1 ? "its one commit has no release tag"
                                              : "no release tag among its \(state.commits.count) commits")
        }
        return state
    }

    /// What a Git error says went missing, without its advice (the shallow error gives its own).
    private static func shortDetail(_ error: GitError) -> String {
        switch error {
        case let .operationFailed(_, _, libgit2): libgit2
        case let .revisionNotFound(revision, _, libgit2): "'\(revision)': \(libgit2)"
        default: error.localizedDescription
        }
    }

    private func readState(since: String?) throws -> State {
        var previousTag = since
        var previous = since.flatMap { SemanticVersion(tag: String($0.dropFirst($0.hasPrefix(tagPrefix) ? tagPrefix.count : 0))) }
        let commits: [GitCommit]
        if try repository.head().isUnborn {
            commits = []
        } else if since == nil {
            // One walk finds the tag and the commits since it.
            let latest = try repository.latestSemverTagAndCommits(from: "HEAD", prefix: tagPrefix.isEmpty ? nil : tagPrefix)
            previousTag = latest.tag?.tag.name
            previous = latest.tag?.version
            commits = latest.commits
        } else {
            commits = try repository.commits(from: "HEAD", until: previousTag)
        }
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
        return try VersionCalculator().next(after: state.previous, strategy: strategy, commits: state.conventional)
    }

    /// Throws `ReleaseError.tagExistsElsewhere` when the release tag for `version` already
    /// exists on a commit other than HEAD. `nextVersion` is above every release tag in HEAD's
    /// history, so such a tag was made on another branch; finding it here lets a release lane
    /// stop before it writes anything, rather than at `git.tag` after the release commit.
    public func checkTagIsFree(for version: SemanticVersion) throws {
        let name = tagPrefix + version.description
        guard let existing = try repository.tag(named: name), existing.commit != (try repository.head().commit) else { return }
        let alternative = (try? version.bumped(.patch))?.description ?? "a higher version"
        throw ReleaseError.tagExistsElsewhere(version: version.description, tag: name, commit: existing.commit.short,
                                              alternative: alternative)
    }

    /// The changelog entry for `version` from the state's commits.
    public func entry(for version: SemanticVersion, state: State, date: Date = Date()) -> ChangelogEntry {
        ChangelogEntry(version: version.description, date: Self.day(date), conventional: state.conventional,
                       commits: state.commits, links: state.links, previousTag: state.previousTag,
                       tag: tagPrefix + version.description)
    }

    /// `YYYY-MM-DD` in UTC (proleptic Gregorian calendar), computed directly: a DateFormatter
    /// costs milliseconds to make on Linux.
    public static func day(_ date: Date) -> String {
        // Howard Hinnant's civil_from_days.
        let days = Int((date.timeIntervalSince1970 / 86_400).rounded(.down)) + 719_468
        let era = (days >= 0 ? days : days - 146_096) / 146_097
        let dayOfEra = days - era * 146_097
        let yearOfEra = (dayOfEra - dayOfEra / 1_460 + dayOfEra / 36_524 - dayOfEra / 146_096) / 365
        let dayOfYear = dayOfEra - (365 * yearOfEra + yearOfEra / 4 - yearOfEra / 100)
        let monthIndex = (5 * dayOfYear + 2) / 153
        let day = dayOfYear - (153 * monthIndex + 2) / 5 + 1
        let month = monthIndex < 10 ? monthIndex + 3 : monthIndex - 9
        let year = yearOfEra + era * 400 + (month <= 2 ? 1 : 0)
        func padded(_ value: Int, _ width: Int) -> String {
            let text = String(value)
            return String(repeating: "0", count: max(0, width - text.count)) + text
        }
        return "\(padded(year, 4))-\(padded(month, 2))-\(padded(day, 2))"
    }
}
