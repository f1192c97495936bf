import Basics
import Foundation

/// A run of a lane, resolved before its first step: which steps run, what earlier runs
/// contribute, where hand-over records go, and whether anything may change the world.
///
/// `LaneRunner` resolves one from `LaneRunner.Options` (`--dry-run`, `--resume`, `--from`,
/// `--only`) with `RunResolver`, then executes it; nothing after resolution looks at the options
/// again. The CI job plan (`CIExport`) is meant to produce this same value for each job later.
public struct RunPlan: Sendable {
    /// The lane, validated.
    public let validated: ValidatedLane
    /// The main steps that run (with `--only`, just the selected ones; a parallel group keeps
    /// its selected members).
    public let steps: [StepNode]
    /// The `finally` steps that run (filtered like `steps`).
    public let finallySteps: [StepNode]
    /// The resolved inputs (command line, then the resumed run's, then defaults).
    public let inputs: [String: ExpressionValue]
    /// The secrets' values (read from the environment; masked everywhere).
    public let secrets: [String: String]
    /// `--resume`/`--from`: step id → the outputs reused from the previous run's journal; these
    /// steps are reported as reused and not run.
    public let reused: [String: [String: String]]
    /// `--resume`/`--from`: step id → what the previous run's steps still owed (`StepLedger`).
    public internal(set) var owedByEarlierRun: [String: [String: String]] = [:]
    /// `--only`: step id → the outputs of earlier steps taken from the hand-over records.
    public let handedOverOutputs: [String: [String: String]]
    /// `--only`: whether an earlier job's step failed the lane (so `if:` sees a failure).
    public let earlierJobFailed: Bool
    /// `--only`: the earlier job's step that failed the lane (`${{ lane.failed-step }}`).
    public internal(set) var earlierFailedStep: String?
    /// Plan only (`--dry-run`): no journal, no lock, no git hand-over, no records; steps plan.
    public let isDryRun: Bool
    /// Whether the run journal under `.slipway/runs/` is written (never in a dry run).
    public let writesJournal: Bool
    /// `--only` outside a dry run: the earlier jobs' git changes to apply before step one and the
    /// store each step's hand-over record is written to. Nil: no hand-over.
    let handOver: OnlyRun?

    /// The lane.
    public var lane: Lane { validated.lane }
}
