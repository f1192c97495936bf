import Basics
import Foundation
import Steps

/// The values a run has gathered so far (inputs, secrets, environment, step outputs, failures)
/// and the evaluation of expressions against them. Shared by parallel steps, so what changes
/// while the run goes on is behind a lock. (`@unchecked` only for `laneEnvironment`, written
/// once in `init`, which evaluates expressions through `self` and so cannot make it a `let`.)
final class RunState: @unchecked Sendable {
    private struct Progress {
        var outputs: [String: StepOutputs] = [:]
        var results: [StepResult] = []
        var failed = false
        /// A dry run's step failed (its plan or its read-only check): the lane fails, but the
        /// later steps are still planned, so that one dry run lists every failure.
        var failedInDryRun = false
        var cancelled = false
        /// `--only`: the step of an earlier job that failed the lane.
        var earlierFailedStep: String?
    }

    let inputs: [String: ExpressionValue]
    let secrets: [String: String]
    let processEnvironment: Environment
    let isDryRun: Bool
    /// The lane's name (`lane.name`).
    let laneName: String
    /// The declared type of each output, by step id then output name (undeclared: strings).
    let outputTypes: [String: [String: OptionType]]
    private(set) var laneEnvironment: [String: String] = [:]
    private let progress = Locked(Progress())

    init(inputs: [String: ExpressionValue], secrets: [String: String], processEnvironment: Environment,
         laneEnvironment: [EnvironmentEntry], isDryRun: Bool, outputTypes: [String: [String: OptionType]] = [:],
         laneName: String = "") throws {
        self.laneName = laneName
        self.outputTypes = outputTypes
        self.inputs = inputs
        self.secrets = secrets
        self.processEnvironment = processEnvironment
        self.isDryRun = isDryRun
        laneEnvironment_resolve(laneEnvironment)
    }

    /// Resolves the lane's env entries, each at most once; `env.X` inside them sees the other
    /// entries first, then the process environment. Validation rejected cycles.
    private func laneEnvironment_resolve(_ entries: [EnvironmentEntry]) {
        let byName = Dictionary(entries.map { ($0.name, $0) }, uniquingKeysWith: { first, _ in first })
        var resolved: [String: String] = [:]
        func value(of name: String, depth: Int) -> String? {
            if let done = resolved[name] { return done }
            guard let entry = byName[name], depth < 64 else { return processEnvironment[name] }
            let text = (try? entry.value.render { expression in
                try evaluate(expression, environment: { value(of: $0, depth: depth + 1) })
            }) ?? ""
            resolved[name] = text
            return text
        }
        for entry in entries { _ = value(of: entry.name, depth: 0) }
        laneEnvironment = resolved
    }

    // MARK: - Recording

    func record(_ result: StepResult) {
        progress.withLock { progress in
            progress.results.append(result)
            if result.status == .succeeded || result.status == .reused || result.status == .planned {
                progress.outputs[result.id] = result.outputs
            }
            if result.status.isFailure && !result.continuedOnError {
                if isDryRun { progress.failedInDryRun = true } else { progress.failed = true }
            }
        }
    }

    func markCancelled() { progress.withLock { $0.cancelled = true } }

    /// Starts from earlier steps' outputs and status (`--only`: from the hand-over records).
    func seed(outputs earlier: [String: StepOutputs], failed earlierFailed: Bool, failedStep: String? = nil) {
        progress.withLock { progress in
            progress.outputs.merge(earlier) { current, _ in current }
            if earlierFailed { progress.failed = true }
            progress.earlierFailedStep = failedStep
        }
    }

    /// Whether a step failed (what `if:`, `failure()` and the skipping of later steps see).
    var hasFailed: Bool { progress.withLock { $0.failed } }
    /// Whether the lane ends as failed: a step failed, or a dry run found a step that would.
    var laneFailed: Bool { progress.withLock { $0.failed || $0.failedInDryRun } }
    var isCancelled: Bool { progress.withLock { $0.cancelled } }
    var allResults: [StepResult] { progress.withLock { $0.results } }
    var allOutputs: [String: StepOutputs] { progress.withLock { $0.outputs } }

    /// How the run stands (`lane.*` in expressions, `StepContext.laneStatus`): the first
    /// failed step (not `continue-on-error`) and its error, with the lane's secrets masked.
    func laneStatus(lane: String) -> LaneStatus {
        let (results, failed, cancelled, earlier) = progress.withLock { ($0.results, $0.failed, $0.cancelled, $0.earlierFailedStep) }
        let failure = results.first { $0.status.isFailure && !$0.continuedOnError }
        let outcome: LaneStatus.Outcome = cancelled ? .cancelled : failed ? .failure : .success
        let redactor = Redactor(secrets: Array(secrets.values))
        // An earlier job's failure came first; its record has no error text.
        if let earlier { return LaneStatus(lane: lane, outcome: outcome, failedStep: earlier) }
        return LaneStatus(lane: lane, outcome: outcome, failedStep: failure?.id, error: failure?.error.map(redactor.redact))
    }

    // MARK: - Evaluation

    /// The environment a step's options see: the step's env over the lane's over the process's.
    func lookup(_ name: String, stepEnvironment: [String: String]) -> String? {
        stepEnvironment[name] ?? laneEnvironment[name] ?? processEnvironment[name]
    }

    func evaluate(_ template: Template, stepEnvironment: [String: String]) throws -> ExpressionValue {
        let environment: (String) -> String? = { self.lookup($0, stepEnvironment: stepEnvironment) }
        if let expression = template.soleExpression {
            return try evaluate(expression, environment: environment)
        }
        return .string(try template.render { try evaluate($0, environment: environment) })
    }

    func render(_ template: Template, stepEnvironment: [String: String]) throws -> String {
        try evaluate(template, stepEnvironment: stepEnvironment).description
    }

    func evaluate(_ expression: Expression, environment: (String) -> String?) throws -> ExpressionValue {
        switch expression {
        case .string(let value): return .string(value)
        case .number(let value): return .number(value)
        case .bool(let value): return .bool(value)
        case .null: return .null
        case .reference(let reference): return try value(of: reference, environment: environment)
        case .not(let inner): return .bool(!(try evaluate(inner, environment: environment).isTruthy))
        case .equal(let a, let b):
            return .bool(try evaluate(a, environment: environment).looselyEquals(try evaluate(b, environment: environment)))
        case .notEqual(let a, let b):
            return .bool(!(try evaluate(a, environment: environment).looselyEquals(try evaluate(b, environment: environment))))
        case .and(let a, let b):
            let left = try evaluate(a, environment: environment)
            return left.isTruthy ? try evaluate(b, environment: environment) : left
        case .or(let a, let b):
            let left = try evaluate(a, environment: environment)
            return left.isTruthy ? left : try evaluate(b, environment: environment)
        case .call(let function):
            switch function {
            case .success: return .bool(!hasFailed && !isCancelled)
            case .failure: return .bool(hasFailed)
            case .always: return .bool(true)
            case .cancelled: return .bool(isCancelled)
            }
        }
    }

    private func value(of reference: Reference, environment: (String) -> String?) throws -> ExpressionValue {
        switch reference {
        case .input(let name): return inputs[name] ?? .null
        case .secret(let name):
            if let value = secrets[name] { return .string(value) }
            return isDryRun ? .string(Redactor.mask) : .null
        case .env(let name): return environment(name).map(ExpressionValue.string) ?? .null
        case .stepOutput(let step, let output):
            if let value = progress.withLock({ $0.outputs[step]?[output] }) {
                return try typed(value, step: step, output: output)
            }
            return isDryRun ? .string(DryRunPlaceholder.text(for: reference.description)) : .null
        case .lane(let field):
            return .string(laneStatus(lane: laneName).value(of: field) ?? "")
        case .step(let step):
            // A planned step (dry run) has no outputs yet: stand in for them.
            guard let outputs = progress.withLock({ $0.outputs[step] }), !(isDryRun && outputs.isEmpty) else {
                return isDryRun ? .string(DryRunPlaceholder.text(for: reference.description)) : .null
            }
            var result: [String: ExpressionValue] = [:]
            for (name, value) in outputs { result[name] = try typed(value, step: step, output: name) }
            return .map(result)
        }
    }

    /// An output's text as its declared type (text when it has none).
    private func typed(_ text: String, step: String, output: String) throws -> ExpressionValue {
        guard let type = outputTypes[step]?[output] else { return .string(text) }
        return try ExpressionValue.decode(text, as: type, reference: "steps.\(step).outputs.\(output)")
    }
}
