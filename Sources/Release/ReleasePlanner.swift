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
        /// The prefix the next release tag gets: the scheme of `previousTag` (see
        /// `ReleasePlanner.init(directory:tagPrefix:)`).
        public var tagPrefix: String
        /// What the reader of the plan or log should know about the tags, e.g. that they use
        /// two schemes; each names the tags and how to set the prefix explicitly.
        public var warnings: [String]
        /// How the tags were read, when they are not all written `1.2.3` (`20.7`, `20.8.0.0`).
        public var notes: [String] = []
        /// How the latest release's tag writes its version; new versions are written alike
        /// (after `20.7`, the next minor is `20.8`, not `20.8.0`).
        public var form: ReleaseTagVersion.Form?
        /// The latest release's version as its tag writes it (`20.7`).
        public var previousWritten: String? { previous.map(written) }

        init(previousTag: String?, previous: SemanticVersion?, commits: [GitCommit], links: RepositoryLinks?,
             tagPrefix: String, warnings: [String] = [], notes: [String] = [], form: ReleaseTagVersion.Form? = nil) {
            self.previousTag = previousTag
            self.previous = previous
            self.commits = commits
            self.links = links
            self.tagPrefix = tagPrefix
            self.warnings = warnings
            self.notes = notes
            self.form = form
            conventional = Self.parse(commits)
        }

        /// `version` as the history writes versions: two parts (`20.8`) after a two-part tag
        /// when its patch is 0, else as Semantic Versioning does.
        public func written(_ version: SemanticVersion) -> String {
            if form == .twoPart, version.patch == 0, !version.isPrerelease, version.build.isEmpty {
                return "\(version.major).\(version.minor)"
            }
            return version.description
        }

        private static func parse(_ commits: [GitCommit]) -> [ConventionalCommit?] {
            commits.map { ConventionalCommit(message: $0.message) }
        }
    }

    let repository: GitRepository
    let tagPrefix: String
    /// True when the user set `tagPrefix`; false for the default `v`.
    let prefixIsExplicit: Bool

    /// A planner over the repository containing `directory`; tags look like `<prefix>1.2.3`.
    ///
    /// - Parameter tagPrefix: nil for the default: the latest release is the highest version
    ///   among the `v1.2.3` and the `1.2.3` tags, and new tags follow its scheme (a warning in
    ///   `State.warnings` says so when the schemes disagree). A prefix the user gives counts
    ///   alone (a warning says when a higher version is tagged without it); an empty prefix
    ///   counts both `1.2.3` and `v1.2.3` and gives new tags no prefix.
    public init(directory: String, tagPrefix: String? = nil) throws {
        repository = try GitRepository.discover(from: directory)
        self.tagPrefix = tagPrefix ?? Self.defaultTagPrefix
        prefixIsExplicit = tagPrefix != nil
    }

    /// The prefix of release tags when none is set.
    public static let defaultTagPrefix = "v"

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
        let links = (try? repository.remoteURL(name: "origin")).flatMap(RepositoryLinks.init(remoteURL:))
        if try repository.head().isUnborn {
            let previous = since.flatMap { ReleaseTagVersion(String($0.dropFirst($0.hasPrefix(tagPrefix) ? tagPrefix.count : 0)), allowingV: true) }
            return State(previousTag: since, previous: previous?.version, commits: [], links: links, tagPrefix: tagPrefix, form: previous?.form)
        }
        if let since {
            let prefixed = !tagPrefix.isEmpty && since.hasPrefix(tagPrefix)
            let previous = ReleaseTagVersion(String(since.dropFirst(prefixed ? tagPrefix.count : 0)), allowingV: true)
            // A bare `1.2.3` given with the default prefix is a tag of the bare scheme.
            let prefix = !prefixed && !prefixIsExplicit && ReleaseTagVersion(since) != nil ? "" : tagPrefix
            let commits: [GitCommit]
            do {
                commits = try repository.commits(from: "HEAD", until: since)
            } catch GitError.revisionNotFound {
                throw ReleaseError.sinceNotFound(since)
            }
            return State(previousTag: since, previous: previous?.version, commits: commits,
                         links: links, tagPrefix: prefix, form: previous?.form)
        }
        let latest = try latestRelease()
        return State(previousTag: latest.tag?.tag.name, previous: latest.tag?.version, commits: latest.commits,
                     links: links, tagPrefix: latest.prefix, warnings: latest.warnings, notes: latest.notes, form: latest.form)
    }

    /// The next version for `strategy`. Throws `ReleaseError.nonSemverTags` when the repository
    /// has tags but none is a semantic version (and the strategy needs one), and
    /// `ReleaseError.nothingToRelease` naming the latest release tag and `remedy` when `auto`
    /// finds nothing to release.
    /// - Parameter remedy: how to release anyway where the caller is (a CLI flag, a step
    ///   option); it completes "To release anyway, …".
    public func nextVersion(_ strategy: VersionStrategy, state: State,
                            remedy: String = ReleaseError.stepRemedy) throws -> SemanticVersion {
        if state.previous == nil, case .exact = strategy {} else if state.previous == nil {
            if let since = state.previousTag { throw ReleaseError.sinceNotAVersion(since, prefix: state.tagPrefix) }
            let names = try repository.tags().map(\.name)
            if !names.isEmpty { throw ReleaseError.nonSemverTags(names) }
        }
        do {
            return try VersionCalculator().next(after: state.previous, strategy: strategy, commits: state.conventional)
        } catch ReleaseError.nothingToRelease(let since, let commits, _) {
            throw ReleaseError.nothingToRelease(since: state.previousTag ?? since, commits: commits, remedy: remedy)
        }
    }

    /// Throws `ReleaseError.tagExistsElsewhere` when the release tag for `version` already
    /// exists on a commit other than HEAD. `nextVersion` is above every release tag in HEAD's
    /// history, so such a tag was made on another branch; finding it here lets a release lane
    /// stop before it writes anything, rather than at `git.tag` after the release commit.
    public func checkTagIsFree(for version: SemanticVersion, state: State) throws {
        let name = state.tagPrefix + state.written(version)
        guard let existing = try repository.tag(named: name), existing.commit != (try repository.head().commit) else { return }
        let alternative = (try? version.bumped(.patch))?.description ?? "a higher version"
        throw ReleaseError.tagExistsElsewhere(version: version.description, tag: name, commit: existing.commit.short,
                                              alternative: alternative)
    }

    /// The changelog entry for `version` from the state's commits.
    public func entry(for version: SemanticVersion, state: State, date: Date = Date()) -> ChangelogEntry {
        ChangelogEntry(version: state.written(version), date: Self.day(date), conventional: state.conventional,
                       commits: state.commits, links: state.links, previousTag: state.previousTag,
                       tag: state.tagPrefix + state.written(version))
    }

    /// `YYYY-MM-DD` in UTC: the changelog's date (`DateText.day`).
    public static func day(_ date: Date) -> String { DateText.day(date) }
}
