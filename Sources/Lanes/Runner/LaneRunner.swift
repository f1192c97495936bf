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
        let lane = validated.lane
        let journals = RunJournalStore(fileSystem: services.fileSystem, projectDirectory: services.projectDirectory,
                                       environment: services.environment)
        // Held until the run's last report is written; a dry run writes nothing and needs none.
        let lock = options.writesJournal && !options.isDryRun ? try journals.lock(lane: lane.name) : nil
        defer { lock?.release() }
        let only = options.onlySteps.isEmpty ? nil : try OnlyRun.prepare(validated, options: options, services: services)
        let plan = try RunPreparation(lane: lane, options: options, environment: services.environment, journals: journals).prepare()
        try await checkRequiredTools(lane)
        if !options.isDryRun, let only {
            // Indexing packs and checking a tree out is blocking libgit2 work: off the cooperative pool.
            try await BlockingWork.run(name: "slipway-git-handover") { try only.applyGitHandOver() }
        }
        let redactor = Redactor(secrets: Array(plan.secrets.values))
        let handOver = options.isDryRun ? nil : only?.writer(redactor: redactor, lane: lane.name)
        var allReporters = reporters
        let runID = RunJournalStore.newRunID()
        if options.writesJournal && !options.isDryRun {
            allReporters.append(JournalReporter(store: journals, lane: lane, runID: runID,
                                                inputs: plan.inputs.mapValues(\.description), redactor: redactor))
        }
        let bus = EventBus(reporters: allReporters, redactor: redactor)
        let state = try RunState(inputs: plan.inputs, secrets: plan.secrets, processEnvironment: services.environment,
                                 laneEnvironment: lane.env, isDryRun: options.isDryRun)
        if let only { state.seed(outputs: only.outputs, failed: only.earlierFailed(in: lane)) }
        let execution = LaneExecution(validated: validated, services: services, state: state, bus: bus,
                                      reused: plan.reused, isDryRun: options.isDryRun, handOver: handOver)
        let (steps, finallySteps) = (only?.filter(lane.steps) ?? lane.steps, only?.filter(lane.finally) ?? lane.finally)
        let started = ContinuousClock.now
        var event = RunEvent(.laneStarted, lane: lane.name)
        event.file = lane.file
        event.total = steps.flatMap(\.invocations).count
        event.dryRun = options.isDryRun
        bus.emit(event)

        await runPhase(steps, section: "steps", execution: execution, interruption: options.interruption, cancelOnTrigger: 1)
        if options.interruption.triggerCount > 0 { state.markCancelled() }
        await runPhase(finallySteps, section: "finally", execution: execution, interruption: options.interruption, cancelOnTrigger: 2)
        if options.interruption.triggerCount > 0 { state.markCancelled() }

        let status: RunSummary.Status = state.isCancelled ? .cancelled : state.hasFailed ? .failed : .succeeded
        let duration = Self.seconds(ContinuousClock.now - started)
        var finished = RunEvent(.laneFinished, lane: lane.name)
        finished.status = status.rawValue
        finished.duration = duration
        finished.dryRun = options.isDryRun
        bus.emit(finished)
        let summary = RunSummary(lane: lane.name, file: lane.file, status: status, duration: duration,
                                 steps: state.allResults, isDryRun: options.isDryRun, runID: runID)
        let errors = bus.finish(summary)
        if let first = errors.first { throw LaneRunError.reportFailed(first.localizedDescription) }
        if let failure = handOver?.failures.first { throw LaneRunError.reportFailed(failure) }
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

    /// Verifies the lane's `requires:` before step one (offline: installed, checksums, versions).
    private func checkRequiredTools(_ lane: Lane) async throws {
        guard !lane.requires.isEmpty else { return }
        guard let tools = services.tools else { throw LaneRunError.toolsUnavailable(lane: lane.name, tools: lane.requires) }
        do {
            try await tools.requireVerified(names: lane.requires)
        } catch {
            throw LaneRunError.toolsNotVerified(lane: lane.name, message: errorText(error))
        }
    }

    static func seconds(_ duration: Duration) -> Double {
        Double(duration.components.seconds) + Double(duration.components.attoseconds) / 1e18
    }
}

/// Why a run could not start (nothing ran). Exit code 2.
public enum LaneRunError: Error, LocalizedError, Sendable, Equatable {
    case invalidInputs([String])
    case missingSecrets([String])
    case nothingToResume(lane: String)
    case unknownStartStep(String, suggestion: String)
    case reportFailed(String)
    case toolsUnavailable(lane: String, tools: [String])
    case toolsNotVerified(lane: String, message: String)
    /// The run journal `--resume`/`--from` would use was not written by this user's Slipway here.
    case untrustedJournal(file: String, reason: String)

    public var errorDescription: String? {
        switch self {
        case .invalidInputs(let problems):
            return problems.joined(separator: "\n")
        case .missingSecrets(let names):
            let list = names.map { "'\($0)'" }.joined(separator: ", ")
            return "secret(s) \(list) are not set in the environment. Export them (e.g. 'export \(names[0])=...') or in CI map them from the secret store; secrets are never taken as command-line arguments."
        case .nothingToResume(let lane):
            return "there is no earlier failed run of lane '\(lane)' to resume (nothing under .slipway/runs/\(lane)/). Run it without --resume."
        case .unknownStartStep(let step, let suggestion):
            return "--from: the lane has no step '\(step)'.\(suggestion)"
        case .reportFailed(let message):
            return "could not write a report: \(message)"
        case .toolsUnavailable(let lane, let tools):
            return "lane '\(lane)' requires \(tools.joined(separator: ", ")), but this project has no pinned tools; add them to a Toolfile and run 'slipway tools lock' and 'slipway tools install'"
        case .untrustedJournal(let file, let reason):
            return "the run journal '\(file)' was not used: \(reason). It may be hostile (a journal committed to the branch could skip steps); nothing ran. Delete it (and remove it from git if it is committed), then run the lane without --resume or --from."
        case .toolsNotVerified(let lane, let message):
            return "lane '\(lane)' cannot start: its required tools do not match the lock.\n\(message)\nRun 'slipway tools install' (or 'slipway tools verify' for details)."
        }
    }
}
