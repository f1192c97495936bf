import Basics
import Foundation

/// What one CI job tells the later jobs about a step it ran: `.slipway/ci/<step id>.json`,
/// written by `slipway run LANE --only STEP` and read by the `--only` runs of later jobs (the CI
/// job contract, docs/ci.md). Versioned JSON with sorted keys; an unknown version is refused.
public struct HandOverRecord: Codable, Sendable, Equatable {
    /// The format version this Slipway writes and reads.
    public static let currentVersion = 1

    /// How the step ended, as later steps' `if:` sees it.
    public enum Status: String, Codable, Sendable {
        case succeeded, failed, skipped
    }

    /// Where the step left git, when it changed it (new commits on HEAD or new tags); the
    /// objects are in `<step id>.pack` beside the record.
    public struct GitState: Codable, Sendable, Equatable {
        /// The commit HEAD points at after the step.
        public var head: String
        /// The branch HEAD is on (short name), or nil when detached.
        public var branch: String?
        /// Tags the step created or moved: name → what the tag ref points at (the tag object
        /// of an annotated tag, the commit of a lightweight one).
        public var tags: [String: String]

        /// A git state.
        public init(head: String, branch: String?, tags: [String: String]) {
            self.head = head
            self.branch = branch
            self.tags = tags
        }

        enum CodingKeys: String, CodingKey { case head, branch, tags }

        public func encode(to encoder: any Encoder) throws {
            var container = encoder.container(keyedBy: CodingKeys.self)
            try container.encode(head, forKey: .head)
            try container.encode(branch, forKey: .branch)
            try container.encode(tags, forKey: .tags)
        }
    }

    public var version: Int
    /// The lane's name.
    public var lane: String
    /// The SHA-256 (hex) of the lane file's bytes.
    public var laneDigest: String
    /// The commit the job checked out, before applying any git hand-over; nil outside git.
    public var baseCommit: String?
    public var stepID: String
    public var status: Status
    /// The step's outputs, secrets masked.
    public var outputs: [String: String]
    public var git: GitState?
    /// The paths (relative to the project) the step's `artifacts:` patterns matched.
    public var artifacts: [String]
    /// Tracked files that differ from HEAD when the step ended (uncommitted changes, such as a
    /// version bump), whose contents are kept next to the record; nil outside git.
    public var worktree: WorktreeState?

    /// Uncommitted changes to tracked files, relative to the repository's root.
    public struct WorktreeState: Codable, Sendable, Equatable {
        /// Files whose contents differ from HEAD (kept in `<step id>.tree/`).
        public var changed: [String]
        /// Files HEAD has that were deleted.
        public var deleted: [String]

        public init(changed: [String], deleted: [String]) {
            self.changed = changed
            self.deleted = deleted
        }
    }

    /// A record of the current version.
    public init(lane: String, laneDigest: String, baseCommit: String?, stepID: String, status: Status,
                outputs: [String: String], git: GitState?, artifacts: [String], worktree: WorktreeState? = nil) {
        version = Self.currentVersion
        self.lane = lane
        self.laneDigest = laneDigest
        self.baseCommit = baseCommit
        self.stepID = stepID
        self.status = status
        self.outputs = outputs
        self.git = git
        self.artifacts = artifacts
        self.worktree = worktree
    }

    enum CodingKeys: String, CodingKey {
        case version, lane, laneDigest, baseCommit, stepID, status, outputs, git, artifacts, worktree
    }

    /// Writes every key, `null` included, so that readers in any language find them all.
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(version, forKey: .version)
        try container.encode(lane, forKey: .lane)
        try container.encode(laneDigest, forKey: .laneDigest)
        try container.encode(baseCommit, forKey: .baseCommit)
        try container.encode(stepID, forKey: .stepID)
        try container.encode(status, forKey: .status)
        try container.encode(outputs, forKey: .outputs)
        try container.encode(git, forKey: .git)
        try container.encode(artifacts, forKey: .artifacts)
        try container.encode(worktree, forKey: .worktree)
    }

    /// The record status of a step result: failures of every kind are `failed`.
    static func status(of result: StepStatus) -> Status {
        switch result {
        case .succeeded, .reused, .planned: return .succeeded
        case .skipped: return .skipped
        default: return .failed
        }
    }
}

/// Why `slipway run --only` refused to start (nothing ran). Exit code 2.
public enum HandOverError: Error, LocalizedError, Sendable, Equatable {
    case unknownOnlySteps([String], known: [String])
    case combinedWithResume
    case unreadableRecord(file: String, detail: String)
    case unknownVersion(file: String, version: Int)
    case otherLane(file: String, recorded: String, lane: String)
    case laneChanged(file: String, laneFile: String)
    case otherCommit(file: String, recorded: String, current: String)
    case missingOutput(step: String, reference: String, source: String)
    case missingPack(file: String, step: String)
    case notAGitRepository(file: String, project: String)
    /// A record (or the folder) is a symbolic link, another user's, or too large.
    case unsafeRecord(file: String, reason: String)
    /// A record that git tracks: it came with the checkout, not from an earlier job.
    case trackedRecord(file: String)

    public var errorDescription: String? {
        switch self {
        case .unknownOnlySteps(let ids, let known):
            let list = ids.map { "'\($0)'" }.joined(separator: ", ")
            let hint = ids.count == 1 ? Suggestions.didYouMean(ids[0], in: known) : ""
            return "--only: the lane has no step \(list).\(hint) Its steps are \(known.joined(separator: ", "))."
        case .combinedWithResume:
            return "--only cannot be combined with --resume or --from: --only takes earlier steps from the hand-over records in .slipway/ci/, --resume and --from from the last run's journal. Use one of them."
        case .unreadableRecord(let file, let detail):
            return "hand-over record '\(file)' cannot be read (\(detail)); restore it from the artifacts of the job that wrote it, or delete it and run that step first."
        case .unknownVersion(let file, let version):
            return "hand-over record '\(file)' has format version \(version), but this Slipway reads version \(HandOverRecord.currentVersion); use the same Slipway version in every job of the pipeline."
        case .otherLane(let file, let recorded, let lane):
            return "hand-over record '\(file)' belongs to lane '\(recorded)', not to lane '\(lane)'; remove .slipway/ci/ and restore only the hand-over artifacts of this lane's jobs."
        case .laneChanged(let file, let laneFile):
            return "hand-over record '\(file)' was written for another version of \(laneFile) (the lane file changed since); run the whole pipeline again so that every job runs the same lane."
        case .otherCommit(let file, let recorded, let current):
            return "hand-over record '\(file)' was written on commit \(recorded), but this checkout is commit \(current); every job of a pipeline must check out the same commit (run the whole pipeline again)."
        case .missingOutput(let step, let reference, let source):
            return "step '\(step)' uses '\(reference)', but step '\(source)' is neither selected with --only before it nor recorded in .slipway/ci/; run \(source) first, or restore the hand-over artifacts of its job."
        case .missingPack(let file, let step):
            return "hand-over record of step '\(step)' says it changed git, but its pack '\(file)' is missing; restore the hand-over artifacts of its job completely."
        case .unsafeRecord(let file, let reason):
            return "hand-over record '\(file)' was not used: \(reason); it may be hostile, and nothing ran. Delete .slipway/ci/ and restore it only from the hand-over artifacts of this pipeline's earlier jobs."
        case .trackedRecord(let file):
            return "hand-over record '\(file)' is tracked by git: it came with the checkout, not from an earlier job of this pipeline, and may be hostile; nothing ran. Remove .slipway/ci/ from the branch ('git rm -r .slipway/ci') and restore it only from the pipeline's artifacts."
        case .notAGitRepository(let file, let project):
            return "hand-over record '\(file)' carries git changes, but '\(project)' is not a git repository; run the job in a checkout of the pipeline's commit."
        }
    }
}
