import Basics
import Foundation
import Steps

/// One run of one lane: walks the nodes of a section and runs each step.
struct LaneExecution: Sendable {
    let plan: RunPlan
    let services: LaneRunner.Services
    let state: RunState
    let bus: EventBus
    /// The id of this run (its journal's name).
    let runID: String
    /// Where `plan.handOver` sends each finished step's record (made once the git hand-over is
    /// applied, since it compares git's state after each step with the one before).
    let handOver: HandOverWriter?
    /// What steps owe across an interruption, kept in the journal.
    let ledger: RunLedger

    var lane: Lane { plan.lane }

    func run(_ nodes: [StepNode], section: String) async {
        let total = nodes.flatMap(\.invocations).count
        var index = 0
        for node in nodes {
            switch node {
            case .step(let invocation):
                index += 1
                await runStep(invocation, position: (index, total, section), group: nil)
            case .parallel(let group):
                let start = index
                index += group.steps.count
                let label = group.name ?? "parallel"
                await withTaskGroup(of: Void.self) { tasks in
                    for (offset, invocation) in group.steps.enumerated() {
                        tasks.addTask { await runStep(invocation, position: (start + offset + 1, total, section), group: label) }
                    }
                }
            }
        }
    }

    private func runStep(_ invocation: StepInvocation, position: (index: Int, total: Int, section: String), group: String?) async {
        var result = StepResult(id: invocation.id, kind: invocation.kind, name: invocation.displayName,
                                section: position.section, status: .skipped, duration: 0, attempts: 0,
                                error: nil, outputs: [:], continuedOnError: false)
        var started = RunEvent(.stepStarted, lane: lane.name, step: invocation.id)
        started.stepKind = invocation.kind
        started.name = invocation.displayName
        started.index = position.index
        started.total = position.total
        started.section = position.section
        started.parallelGroup = group
        started.sourceLine = invocation.kindLocation.line
        started.sourceColumn = invocation.kindLocation.column

        if let outputs = plan.reused[invocation.id] {
            result.status = .reused
            result.outputs = outputs
            finish(result, started: started, reason: "done in an earlier run")
            return
        }
        if Task.isCancelled {
            result.status = .cancelled
            finish(result, started: started, reason: "the run was interrupted")
            return
        }
        do {
            guard try shouldRun(invocation) else {
                finish(result, started: started, reason: skipReason(invocation))
                return
            }
        } catch {
            result.status = .failed
            result.error = "'if' could not be evaluated: \(error.localizedDescription)"
            finish(result, started: started, reason: nil)
            return
        }
        bus.emit(started)
        let clock = ContinuousClock.now
        result = await StepAttempts(execution: self, invocation: invocation, group: group).run(result)
        result.duration = LaneRunner.seconds(ContinuousClock.now - clock)
        finish(result, started: nil, reason: nil)
    }

    private func shouldRun(_ invocation: StepInvocation) throws -> Bool {
        guard let condition = invocation.condition else {
            return invocation.isFinally ? true : !state.hasFailed && !state.isCancelled
        }
        let value = try state.evaluate(condition, stepEnvironment: [:])
        // A condition that does not ask about the run's status only applies while all is well,
        // as in GitHub Actions: `if: inputs.deploy` does not run after a failure.
        if !checksStatus(invocation) && !invocation.isFinally && (state.hasFailed || state.isCancelled) { return false }
        return value.isTruthy
    }

    /// Whether the step's condition calls success(), failure(), always() or cancelled().
    private func checksStatus(_ invocation: StepInvocation) -> Bool {
        invocation.condition?.parts.contains {
            if case .expression(let expression, _) = $0 { return expression.callsStatusFunction }
            return false
        } ?? false
    }

    private func skipReason(_ invocation: StepInvocation) -> String {
        if state.isCancelled { return "the run was interrupted" }
        if state.hasFailed && !invocation.isFinally && !checksStatus(invocation) { return "an earlier step failed" }
        return "condition '\(invocation.condition?.source ?? "")' is false"
    }

    /// Records the result and emits `step.finished` (and `step.started` first for steps that
    /// never started, so every consumer sees a pair).
    private func finish(_ result: StepResult, started: RunEvent?, reason: String?) {
        if let started { bus.emit(started) }
        state.record(result)
        handOver?.stepFinished(result)
        var event = RunEvent(.stepFinished, lane: lane.name, step: result.id)
        event.stepKind = result.kind
        event.name = result.name
        event.section = result.section
        event.status = result.status.rawValue
        event.duration = result.duration
        event.attempt = result.attempts
        event.error = result.error
        event.message = reason
        event.outputs = result.outputs.isEmpty ? nil : result.outputs
        if let step = lane.allInvocations.first(where: { $0.id == result.id }) {
            event.sourceLine = step.kindLocation.line
            event.sourceColumn = step.kindLocation.column
        }
        if result.continuedOnError { event.message = "failed, continuing (continue-on-error)" }
        bus.emit(event)
    }
}
