import Basics
import Git

/// `git.ensure-clean`: fails when the git working tree has uncommitted changes.
public struct GitEnsureCleanStep: Step {
    public static let description = StepDescription(
        id: "git.ensure-clean",
        summary: "Fail unless the git working tree is clean",
        discussion: """
            Reads the repository's status through libgit2 (no git executable needed). Staged, \
            unstaged and — unless allow-untracked is true — untracked files make the step fail \
            with the list of paths. Ignored files never count.
            """,
        options: [
            .optional("allow-untracked", .bool, default: .bool(false), "Ignore untracked files."),
        ],
        outputs: [OutputSpec("branch", "The current branch (empty when HEAD is detached).")],
        examples: [
            StepExample("Before a release", "- git.ensure-clean"),
            StepExample("Tolerate untracked files", "- git.ensure-clean: { allow-untracked: true }"),
        ]
    )

    let allowUntracked: Bool

    public init(options: StepOptions) throws {
        allowUntracked = try options.bool("allow-untracked")
    }

    public func plan(in context: StepContext) throws -> [Effect] {
        let what = allowUntracked ? "no staged or unstaged changes" : "no staged, unstaged or untracked files"
        return [Effect(.check, "the git working tree at \(context.workingDirectory) has \(what)")]
    }

    /// A dry run reads the status too (libgit2 without updating the index) and fails as the
    /// run would on a dirty tree.
    public func check(in context: StepContext) async throws {
        try requireClean(try GitRepository.discover(from: context.workingDirectory))
    }

    public func run(in context: StepContext) async throws -> StepOutputs {
        let repository = try GitRepository.discover(from: context.workingDirectory)
        try requireClean(repository)
        return ["branch": try repository.head().branch ?? ""]
    }

    /// Throws `StepError.failed` listing the changes when the tree is not clean.
    private func requireClean(_ repository: GitRepository) throws {
        let entries = Self.withoutRunJournals(try repository.status(includeUntracked: !allowUntracked))
        let dirty = entries.filter { $0.index != nil || ($0.workTree != nil && $0.workTree != .ignored) }
        guard dirty.isEmpty else {
            let shown = dirty.prefix(20).map { "  \($0.shortCode) \($0.path)" }.joined(separator: "\n")
            let more = dirty.count > 20 ? "\n  ... and \(dirty.count - 20) more" : ""
            throw StepError.failed("""
                the working tree has \(dirty.count) uncommitted change(s):
                \(shown)\(more)
                Commit or stash them first\(allowUntracked ? "" : ", or set allow-untracked: true if only untracked files remain").
                """)
        }
    }

    /// `entries` without run journals (`.slipway/runs/` of a project), which the runner writes
    /// before the first step, without CI hand-over records (`.slipway/ci/`, restored before a
    /// `run --only` job starts), without the cache exported GitLab jobs keep in the project
    /// (`.slipway/cache/`: the pinned Slipway and tools, as GitLab caches only folders inside the
    /// project), and without Slipway's lock files (`.slipway-lock`, in the run's
    /// journal folder and in an `.xcodeproj` being written): in a project that does not ignore
    /// `.slipway/`, the lane's own record would otherwise make the tree dirty on its first run.
    static func withoutRunJournals(_ entries: [GitStatusEntry]) -> [GitStatusEntry] {
        entries.filter {
            !$0.path.hasPrefix(".slipway/runs/") && !$0.path.contains("/.slipway/runs/") && !$0.path.hasPrefix(".slipway/ci/")
                && !$0.path.hasPrefix(".slipway/cache/") && !ExclusiveLock.isLockFile($0.path)
        }
    }
}
