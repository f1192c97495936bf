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
}
