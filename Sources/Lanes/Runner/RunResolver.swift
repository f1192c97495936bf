import Basics
import Foundation

/// Turns `LaneRunner.Options` into a `RunPlan`, making every check that comes before step one,
/// in this order: the lane's run lock (busy), `--only`'s selection and hand-over records, the
/// journal `--resume`/`--from` reuse, inputs, secrets, `--from`'s step, the required tools.
struct RunResolver {
    let services: LaneRunner.Services

    /// The plan, and the lane's run lock when the run writes its journal (held until the run's
    /// last report is written; the caller releases it). Throws `LockError`, `HandOverError` and
    /// `LaneRunError` when the run cannot start; the lock is released then.
    func resolve(_ validated: ValidatedLane, options: LaneRunner.Options) async throws -> (RunPlan, RunLock?) {
        let lane = validated.lane
        let journals = RunJournalStore(fileSystem: services.fileSystem, projectDirectory: services.projectDirectory,
                                       environment: services.environment)
        let writesJournal = options.writesJournal && !options.isDryRun
        // A dry run writes nothing and needs no lock.
        let lock = writesJournal ? try journals.lock(lane: lane.name) : nil
        do {
            try options.checkCombination()
            let selection = options.onlySteps
            let only = selection.isEmpty ? nil : try OnlyRun.prepare(validated, selection: selection, services: services)
            let resolution = Resolution(lane: lane, options: options, environment: services.environment,
                                        selected: only?.selected)
            let previous: RunJournal? = (options.resume || options.fromStep != nil) ? try journals.latest(lane: lane.name) : nil
            if options.resume && previous == nil { throw LaneRunError.nothingToResume(lane: lane.name) }
            let inputs = try resolution.inputs(previous: previous)
            let secrets = try resolution.secrets()
            let reused = try resolution.reusedSteps(previous: previous)
            try await checkRequiredTools(lane)
            var plan = RunPlan(
                validated: validated, steps: only?.filter(lane.steps) ?? lane.steps,
                finallySteps: only?.filter(lane.finally) ?? lane.finally, inputs: inputs, secrets: secrets,
                reused: reused, owedByEarlierRun: previous?.owed ?? [:], handedOverOutputs: only?.outputs ?? [:], earlierJobFailed: only?.earlierFailed(in: lane) ?? false,
                isDryRun: options.isDryRun, writesJournal: writesJournal, handOver: options.isDryRun ? nil : only)
            plan.earlierFailedStep = only?.earlierFailedStep(in: lane)
            return (plan, lock)
        } catch {
            lock?.release()
            throw error
        }
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
}

/// The checks of inputs, secrets and the steps a resumed run takes from the journal.
private struct Resolution {
    let lane: Lane
    let options: LaneRunner.Options
    let environment: Environment
    /// `--only`'s steps (nil: the whole lane).
    let selected: Set<String>?

    func inputs(previous: RunJournal?) throws -> [String: ExpressionValue] {
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

    func secrets() throws -> [String: String] {
        var values: [String: String] = [:]
        var missing: [String] = []
        // `--only` (a CI job) needs only the secrets its steps and the lane's env refer to: a CI
        // export hands each job no others.
        let needed: Set<String>? = selected.map { selected in
            lane.allInvocations.filter { selected.contains($0.id) }
                .reduce(into: SecretReferences.inLaneEnvironment(lane)) { $0.formUnion(SecretReferences.in($1)) }
        }
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

    func reusedSteps(previous: RunJournal?) throws -> [String: StepOutputs] {
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
