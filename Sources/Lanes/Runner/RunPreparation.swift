import Basics
import Foundation

/// Everything checked before the first step: inputs, secrets, and which steps a resumed run
/// takes from the journal.
struct RunPreparation {
    struct Plan {
        var inputs: [String: ExpressionValue]
        var secrets: [String: String]
        /// Step id → the outputs reused from an earlier run.
        var reused: [String: StepOutputs]
    }

    let lane: Lane
    let options: LaneRunner.Options
    let environment: Environment
    let journals: RunJournalStore

    func prepare() throws -> Plan {
        let previous: RunJournal? = (options.resume || options.fromStep != nil) ? try journals.latest(lane: lane.name) : nil
        if options.resume && previous == nil { throw LaneRunError.nothingToResume(lane: lane.name) }
        let inputs = try resolveInputs(previous: previous)
        let secrets = try resolveSecrets()
        return Plan(inputs: inputs, secrets: secrets, reused: try reusedSteps(previous: previous))
    }

    private func resolveInputs(previous: RunJournal?) throws -> [String: ExpressionValue] {
        var problems: [String] = []
        var values: [String: ExpressionValue] = [:]
        let secretNames = Set(lane.secrets.map(\.name))
        for (name, _) in options.inputs where lane.inputs.first(where: { $0.name == name }) == nil {
            if secretNames.contains(name) {
                problems.append("'\(name)' is a secret: secrets are read from the environment variable \(name), never from the command line (where they would end up in shell history and process lists).")
            } else {
                let hint = Suggestions.didYouMean(name, in: lane.inputs.map(\.name))
                let known = lane.inputs.isEmpty ? "it declares none" : "its inputs are \(lane.inputs.map(\.name).joined(separator: ", "))"
                problems.append("lane '\(lane.name)' has no input '\(name)'.\(hint) (\(known))")
            }
        }
        for spec in lane.inputs {
            if let text = options.inputs[spec.name] ?? previous?.inputs[spec.name] {
                switch InputValues.parse(text, for: spec) {
                case .success(let value): values[spec.name] = value
                case .failure(let error): problems.append(error.message)
                }
            } else if let value = spec.defaultValue {
                values[spec.name] = InputValues.expressionValue(value)
            } else if spec.isRequired {
                let choices = spec.choices.map { " (one of \($0.joined(separator: ", ")))" } ?? ""
                problems.append("lane '\(lane.name)' needs input '\(spec.name)'\(choices): pass --input \(spec.name)=VALUE")
            }
        }
        if !problems.isEmpty { throw LaneRunError.invalidInputs(problems) }
        return values
    }

    private func resolveSecrets() throws -> [String: String] {
        var values: [String: String] = [:]
        var missing: [String] = []
        // `--only` (a CI job) needs only the secrets its steps and the lane's env refer to: a CI
        // export hands each job no others.
        let selected = Set(options.onlySteps)
        let needed: Set<String>? = selected.isEmpty ? nil : lane.allInvocations.filter { selected.contains($0.id) }
            .reduce(into: SecretReferences.inLaneEnvironment(lane)) { $0.formUnion(SecretReferences.in($1)) }
        for secret in lane.secrets {
            if let value = environment[secret.name], !value.isEmpty {
                values[secret.name] = value
            } else if secret.isRequired && !options.isDryRun && needed?.contains(secret.name) ?? true {
                missing.append(secret.name)
            }
        }
        if !missing.isEmpty { throw LaneRunError.missingSecrets(missing) }
        return values
    }

    private func reusedSteps(previous: RunJournal?) throws -> [String: StepOutputs] {
        let mainIDs = lane.steps.flatMap(\.invocations).map(\.id)
        if let from = options.fromStep {
            guard let index = mainIDs.firstIndex(of: from) else {
                throw LaneRunError.unknownStartStep(from, suggestion: Suggestions.didYouMean(from, in: mainIDs))
            }
            let earlier = Dictionary(uniqueKeysWithValues: (previous?.steps ?? []).map { ($0.id, $0.outputs) })
            return Dictionary(uniqueKeysWithValues: mainIDs[..<index].map { ($0, earlier[$0] ?? [:]) })
        }
        guard options.resume, let previous else { return [:] }
        var reused: [String: StepOutputs] = [:]
        for step in previous.steps where step.status == .succeeded || step.status == .reused {
            if mainIDs.contains(step.id) { reused[step.id] = step.outputs }
        }
        return reused
    }
}

typealias StepOutputs = [String: String]
