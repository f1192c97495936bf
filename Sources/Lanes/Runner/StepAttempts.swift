import Basics
import Foundation
import Steps

/// Runs one step: builds its options and context, then plans it (dry run) or runs it with its
/// timeout, retrying with exponential backoff.
struct StepAttempts {
    let execution: LaneExecution
    let invocation: StepInvocation
    let group: String?

    var state: RunState { execution.state }

    func run(_ initial: StepResult) async -> StepResult {
        var result = initial
        let context: StepContext
        let action: any StepAction
        do {
            (context, action) = try prepare()
        } catch {
            result.status = .failed
            result.attempts = 1
            result.error = describe(error)
            return settle(result)
        }
        if execution.plan.isDryRun {
            return await plan(action, context: context, result: result)
        }
        let attempts = invocation.retry.retries + 1
        for attempt in 1...attempts {
            result.attempts = attempt
            do {
                let outputs: StepOutputs
                if let limit = invocation.timeout {
                    outputs = try await withTimeout(limit) { try await action.run(in: context) }
                } else {
                    outputs = try await action.run(in: context)
                }
                result.status = .succeeded
                result.outputs = outputs
                result.error = nil
                return settle(checkArtifacts(result))
            } catch is TimeoutError {
                result.status = .timedOut
                result.error = "timed out after \(DurationParser.format(invocation.timeout ?? .zero)); its processes were stopped"
            } catch is CancellationError {
                result.status = .cancelled
                result.error = "interrupted; its processes were stopped"
                return result
            } catch {
                if Task.isCancelled {
                    result.status = .cancelled
                    result.error = "interrupted; its processes were stopped"
                    return result
                }
                result.status = .failed
                result.error = describe(error)
            }
            if attempt < attempts {
                let wait = invocation.retry.delay(beforeRetry: attempt)
                context.events.log(.warning, "attempt \(attempt) of \(attempts) failed: \(result.error ?? ""); retrying in \(DurationParser.format(wait))")
                // The run's injected wait (StepServices.sleep): tests retry without waiting.
                do { try await context.services.sleep(wait) } catch {
                    result.status = .cancelled
                    return result
                }
            }
        }
        return settle(result)
    }

    /// After a success: every `artifacts:` pattern must match something (the step fails
    /// otherwise, naming the pattern); the matches go into the result.
    private func checkArtifacts(_ result: StepResult) -> StepResult {
        guard !invocation.artifacts.isEmpty else { return result }
        var checked = result
        let services = execution.services
        let (unmatched, paths, problem) = ArtifactPatterns.check(invocation.artifacts, in: services.projectDirectory,
                                                                 fileSystem: services.fileSystem)
        checked.artifacts = paths
        if let problem {
            checked.status = .failed
            checked.error = problem
        } else if let pattern = unmatched.first {
            checked.status = .failed
            checked.error = "artifact pattern '\(pattern)' of step '\(invocation.id)' matched no file; make the step produce it, or fix the pattern under 'artifacts:' (paths are relative to the project)"
        }
        return checked
    }

    private func settle(_ result: StepResult) -> StepResult {
        var settled = result
        if settled.status.isFailure && invocation.continueOnError { settled.continuedOnError = true }
        return settled
    }

    private func plan(_ action: any StepAction, context: StepContext, result: StepResult) async -> StepResult {
        var result = result
        result.attempts = 1
        do {
            let effects = try await action.plan(in: context)
            var event = RunEvent(.plan, lane: execution.lane.name, step: invocation.id)
            event.stepKind = invocation.kind
            event.effects = effects.map(\.description)
            execution.bus.emit(event)
            // The read-only checks the step can make without changing anything: a dry run on a
            // dirty tree says that git.ensure-clean would fail.
            try await action.check(in: context)
            result.status = .planned
        } catch {
            result.status = .failed
            result.error = describe(error)
        }
        return settle(result)
    }

    private func prepare() throws -> (StepContext, any StepAction) {
        guard let kind = execution.plan.validated.kinds[invocation.id] else {
            throw StepError.failed("internal error: no kind for step '\(invocation.id)'")
        }
        var stepEnvironment: [String: String] = [:]
        for entry in invocation.env {
            stepEnvironment[entry.name] = try state.render(entry.value, stepEnvironment: [:])
        }
        let options = try StepOptionsBuilder.build(invocation, description: kind.description,
                                                   platform: execution.plan.validated.platform) {
            try state.evaluate($0, stepEnvironment: stepEnvironment)
        }
        let action = try kind.makeAction(options: options)
        let root = execution.services.projectDirectory
        var directory = root
        if let template = invocation.workingDirectory {
            let path = try state.render(template, stepEnvironment: stepEnvironment)
            directory = path.hasPrefix("/") ? path : root + "/" + path
        }
        let environment = execution.services.environment.merging(state.laneEnvironment).merging(stepEnvironment)
        let inputs = state.inputs.mapValues(\.description)
        let context = StepContext(
            laneName: execution.lane.name, stepID: invocation.id, workingDirectory: directory,
            environment: environment, fileSystem: execution.services.fileSystem,
            processRunner: execution.services.processRunner,
            events: StepEventBridge(bus: execution.bus, lane: execution.lane.name, step: invocation.id, parallelGroup: group),
            services: execution.services.stepServices,
            inputs: inputs, previousOutputs: state.allOutputs, isDryRun: execution.plan.isDryRun,
            redactor: execution.bus.redactor, ledger: execution.ledger.forStep(invocation.id), projectDirectory: root)
        var withStatus = context
        withStatus.laneStatus = state.laneStatus(lane: state.laneName)
        return (withStatus, action)
    }

    private func describe(_ error: Error) -> String { errorText(error) }
}
