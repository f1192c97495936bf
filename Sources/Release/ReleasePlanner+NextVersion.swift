import Basics
import Foundation
import Git

extension ReleasePlanner {
    /// The next version, and what `auto` did when it could not read the commits.
    public struct NextVersion: Sendable, Hashable {
        /// The version.
        public var version: SemanticVersion
        /// Set when `auto` found no Conventional Commit and bumped patch: says so, with how to
        /// choose instead ("no Conventional Commits among the 54 commits since v1.2.0, …").
        public var note: String?

        /// `version`, with `note` when there is something to explain.
        public init(version: SemanticVersion, note: String? = nil) {
            self.version = version
            self.note = note
        }
    }

    /// The next version for `strategy`, as `nextVersion(_:state:remedy:)`, except that `auto` on
    /// commits none of which (merges aside) is a Conventional Commit bumps patch (a pre-release
    /// is released without its suffix) and says so in `note`: without conventional messages
    /// there is no telling features from fixes, and refusing every release would make `auto`
    /// useless for such projects. Commits that are conventional but not releasable (only
    /// `docs:`, `chore:`) are still nothing to release.
    /// - Parameter choose: how to choose the version instead where the caller is; it completes
    ///   "To choose, …" (e.g. "set the step's option 'strategy: minor' (or major, or a version)").
    public func nextVersionExplained(_ strategy: VersionStrategy, state: State, remedy: String = ReleaseError.stepRemedy,
                                     choose: String = ReleasePlanner.stepChoice) throws -> NextVersion {
        guard case .auto = strategy, let previous = state.previous, !state.commits.isEmpty,
              !zip(state.commits, state.conventional).contains(where: { $0.0.parents.count <= 1 && $0.1 != nil })
        else { return NextVersion(version: try nextVersion(strategy, state: state, remedy: remedy), note: nil) }
        let version = previous.isPrerelease
            ? try SemanticVersion(major: previous.major, minor: previous.minor, patch: previous.patch)
            : try previous.bumped(.patch)
        let count = state.commits.count
        let since = state.previousTag.map { "since \($0)" } ?? "in the history"
        let note = "no Conventional Commits among the \(count) commit\(count == 1 ? "" : "s") \(since), so 'auto' cannot tell "
            + "features from fixes: bumped patch (\(previous) → \(version)). To choose, \(choose)."
        return NextVersion(version: version, note: note)
    }

    /// How to choose the version from a lane: the `choose` of `version.bump`.
    public static let stepChoice = "set the step's option 'strategy: minor' (or major, or a version such as 1.4.0)"

    /// The next version of an app, and the state to release it with.
    public struct ProjectNextVersion: Sendable {
        /// The state, with the project's version form (two parts or three).
        public var state: State
        /// The version.
        public var version: SemanticVersion
        /// The version as the project writes versions (`7.76`).
        public var written: String
        /// What the reader should know (the project's version is the release, no conventional
        /// commits, ...).
        public var notes: [String]
    }

    /// For an app, the next version from the one the project holds (`current`, as written at
    /// `places`): major, minor and patch bump it (7.75 → 8.0, 7.76, 7.75.1, as fastlane's
    /// increment_version_number does); `auto` releases it as it is when it is above the latest
    /// release tag (the team raised it after the last release), else bumps it as the commits
    /// since that tag say; an explicit version must be above it. The result is never at or
    /// below the project's version or the latest release tag.
    /// - Throws: `ReleaseError.backwards`, `.notAboveLastRelease`, `.projectVersionUnreadable`,
    ///   `.tagExistsElsewhere`, and what `nextVersionExplained` throws.
    public func nextVersion(fromProject current: String, places: [String], strategy: VersionStrategy,
                            state: State) throws -> ProjectNextVersion {
        let parts = current.split(separator: ".", omittingEmptySubsequences: false).count
        guard let read = ReleaseTagVersion(parts == 1 ? current + ".0" : current), !read.form.hasBuild else {
            throw ReleaseError.projectVersionUnreadable(current, places: places)
        }
        let project = read.version
        var based = state
        based.previous = project
        based.form = parts <= 2 ? .twoPart : .semantic
        var notes: [String] = []
        let version: SemanticVersion
        if case .auto = strategy, state.previous.map({ project > $0 }) ?? true {
            let tag = state.previousTag.map { "the latest release tag '\($0)'" } ?? "any release tag"
            notes.append("the project's version \(current) (\(places.joined(separator: ", "))) is above \(tag), so it is the version to release")
            version = project
        } else if case .exact(let given) = strategy, given == project, state.previousTag == nil {
            notes.append("no release tag yet, so \(current), the version the project holds (\(places.joined(separator: ", "))), is released as the first release")
            version = project
        } else {
            if case .exact(let given) = strategy, given <= project {
                throw ReleaseError.backwards(next: based.written(given), current: current, places: places)
            }
            let next = try nextVersionExplained(strategy, state: based)
            if let note = next.note { notes.append(note) }
            guard next.version > project else {
                throw ReleaseError.backwards(next: based.written(next.version), current: current, places: places)
            }
            version = next.version
        }
        if let previous = state.previous, version <= previous, let tag = state.previousTag {
            throw ReleaseError.notAboveLastRelease(next: based.written(version), tag: tag, tagVersion: state.written(previous),
                                                   current: current, places: places)
        }
        try checkTagIsFree(for: version, state: based)
        var result = based
        result.previous = state.previous
        return ProjectNextVersion(state: result, version: version, written: based.written(version), notes: notes)
    }
}
