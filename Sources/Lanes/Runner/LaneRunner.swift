import Basics
import Foundation
import Steps

/// Runs a validated lane: steps in order, parallel groups at once, `if:` conditions, timeouts,
/// retries with backoff, `continue-on-error`, and `finally` steps after everything, even after a
/// failure or an interruption. Every side effect comes in through `Services`.
public struct LaneRunner: Sendable {
    /// What the runner uses to touch the world.
    public struct Services: Sendable {
        public var fileSystem: any FileSystem
        public var processRunner: any ProcessRunner
        /// The environment of this process (secrets are read from it).
        public var environment: Environment
        /// The project's root: lane paths, working directories and `.slipway/` are relative to it.
        public var projectDirectory: String
        /// Checks a lane's `requires:` against the project's pinned tools (nil: no pins here).
        public var tools: (any ToolRequirements)?
        /// The network, waits and clock every step's context carries.
        public var stepServices: StepServices

        public init(fileSystem: any FileSystem, processRunner: any ProcessRunner, environment: Environment,
                    projectDirectory: String, stepServices: StepServices, tools: (any ToolRequirements)? = nil) {
            self.fileSystem = fileSystem
            self.processRunner = processRunner
            self.environment = environment
            self.projectDirectory = projectDirectory
            self.stepServices = stepServices
            self.tools = tools
        }
    }

    /// How to run.
    public struct Options: Sendable {
        /// `--input NAME=VALUE` pairs.
        public var inputs: [String: String] = [:]
        /// Plan only.
        public var isDryRun = false
        /// Continue after the last successful step of the previous run.
        public var resume = false
        /// Start at this step; earlier steps' outputs come from the previous run's journal.
        public var fromStep: String?
        /// Set by signal handlers.
        public var interruption = Interruption()
        /// Write the run journal under `.slipway/runs/` (never during a dry run).
        public var writesJournal = true
        /// `--only`: run just these steps (ids; entries may be comma-separated lists), taking
        /// earlier steps' outputs, statuses and git changes from the hand-over records in
        /// `.slipway/ci/`, and writing a record for each step run. Empty: the whole lane.
        public var only: [String] = []

        /// The `--only` step ids, comma-separated entries split, in the order given.
        public var onlySteps: [String] {
            only.flatMap { $0.split(separator: ",") }.map { $0.trimmingCharacters(in: .whitespaces) }.filter { !$0.isEmpty }
        }

        public init() {}

        /// Throws `HandOverError.combinedWithResume` when `--only` is combined with `--resume`
        /// or `--from` (the CLI checks it while parsing its arguments, the runner before anything runs).
        public func checkCombination() throws {
            if !onlySteps.isEmpty && (resume || fromStep != nil) { throw HandOverError.combinedWithResume }
        }
    }

    let services: Services

    /// A runner over `services`.
    public init(services: Services) {
        self.services = services
    }

    /// Checks inputs, secrets and resume state, then runs the lane, reporting to `reporters`.
    /// Throws `LaneRunError` (before any step ran) when the run cannot start, and `LockError.busy`
    /// when another run of the lane (sharing its journal) is in progress.
    public func run(_ validated: ValidatedLane, options: Options, reporters: [any RunReporter]) async throws -> RunSummary {
        let (plan, lock) = try await RunResolver(services: services).resolve(validated, options: options)
        defer { lock?.release() }
        let execution = try await start(plan, reporters: reporters)
        let duration = await execute(execution, interruption: options.interruption)
        return try report(execution, duration: duration)
    }

    /// Applies the git hand-over (`--only`), then sets up the run's reporters, state and
    /// hand-over writer. Throws when the hand-over or the lane's `env:` cannot be applied.
    private func start(_ plan: RunPlan, reporters: [any RunReporter]) async throws -> LaneExecution {
        if let handOver = plan.handOver {
            // Indexing packs and checking a tree out is blocking libgit2 work: off the cooperative pool.
            try await BlockingWork.run(name: "slipway-git-handover") { try handOver.applyGitHandOver() }
        }
        let redactor = Redactor(secrets: Array(plan.secrets.values))
        let writer = plan.handOver?.writer(redactor: redactor, lane: plan.lane.name)
        var allReporters = reporters
        let runID = RunJournalStore.newRunID()
        var journal: JournalReporter?
        if plan.writesJournal {
            let journals = RunJournalStore(fileSystem: services.fileSystem, projectDirectory: services.projectDirectory,
                                           environment: services.environment)
            let reporter = JournalReporter(store: journals, lane: plan.lane, runID: runID, inputs: plan.inputs.mapValues(\.description),
                                           redactor: redactor, owed: plan.owedByEarlierRun)
            allReporters.append(reporter)
            journal = reporter
        }
        let state = try RunState(inputs: plan.inputs, secrets: plan.secrets, processEnvironment: services.environment,
                                 laneEnvironment: plan.lane.env, isDryRun: plan.isDryRun,
                                 outputTypes: plan.validated.outputTypes, laneName: plan.lane.name)
        state.seed(outputs: plan.handedOverOutputs, failed: plan.earlierJobFailed, failedStep: plan.earlierFailedStep)
        return LaneExecution(plan: plan, services: services, state: state, bus: EventBus(reporters: allReporters, redactor: redactor),
                             runID: runID, handOver: writer, ledger: RunLedger(earlier: plan.owedByEarlierRun, journal: journal))
    }

    /// Runs the main steps, then the `finally` steps; returns the run's duration in seconds.
    private func execute(_ execution: LaneExecution, interruption: Interruption) async -> Double {
        let (plan, state) = (execution.plan, execution.state)
        let started = ContinuousClock.now
        var event = RunEvent(.laneStarted, lane: plan.lane.name)
        event.file = plan.lane.file
        event.total = plan.steps.flatMap(\.invocations).count
        event.dryRun = plan.isDryRun
        execution.bus.emit(event)

        await runPhase(plan.steps, section: "steps", execution: execution, interruption: interruption, cancelOnTrigger: 1)
        if interruption.triggerCount > 0 { state.markCancelled() }
        await runPhase(plan.finallySteps, section: "finally", execution: execution, interruption: interruption, cancelOnTrigger: 2)
        if interruption.triggerCount > 0 { state.markCancelled() }
        return Self.seconds(ContinuousClock.now - started)
    }

    /// Emits `lane.finished`, finishes every reporter and returns the summary. Throws
    /// `LaneRunError.reportFailed` when a report or a hand-over record could not be written.
    private func report(_ execution: LaneExecution, duration: Double) throws -> RunSummary {
        let (plan, state) = (execution.plan, execution.state)
        let status: RunSummary.Status = state.isCancelled ? .cancelled : state.laneFailed ? .failed : .succeeded
        var finished = RunEvent(.laneFinished, lane: plan.lane.name)
        finished.status = status.rawValue
        finished.duration = duration
        finished.dryRun = plan.isDryRun
        execution.bus.emit(finished)
        // Step results hold errors as the steps threw them: masked here, once, for every report
        // (JUnit, the summary table) and for the caller.
        let redactor = execution.bus.redactor
        let summary = RunSummary(lane: plan.lane.name, file: plan.lane.file, status: status, duration: duration,
                                 steps: state.allResults, isDryRun: plan.isDryRun, runID: execution.runID).redacted(by: redactor)
        let errors = execution.bus.finish(summary)
        if let first = errors.first { throw LaneRunError.reportFailed(redactor.redact(first.localizedDescription)) }
        if let failure = execution.handOver?.failures.first { throw LaneRunError.reportFailed(redactor.redact(failure)) }
        return summary
    }

    /// Runs one section in a task that an interruption cancels (the main steps on the first
    /// signal, `finally` only on the second).
    private func runPhase(_ nodes: [StepNode], section: String, execution: LaneExecution,
                          interruption: Interruption, cancelOnTrigger: Int) async {
        guard !nodes.isEmpty else { return }
        let task = Task { await execution.run(nodes, section: section) }
        let token = interruption.register { count in if count >= cancelOnTrigger { task.cancel() } }
        if interruption.triggerCount >= cancelOnTrigger { task.cancel() }
        await task.value
        interruption.unregister(token)
    }

    static func seconds(_ duration: Duration) -> Double {
        Double(duration.components.seconds) + Double(duration.components.attoseconds) / 1e18
    }
}
