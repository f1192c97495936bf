import Basics
import Steps

/// What expressions in a lane may refer to, and the checks on each reference.
struct ReferenceScope {
    let lane: Lane
    let kinds: [String: StepKind]
    let inputs: Set<String>
    let secrets: Set<String>
    let allSteps: [String: StepInvocation]

    init(lane: Lane, kinds: [String: StepKind]) {
        self.lane = lane
        self.kinds = kinds
        inputs = Set(lane.inputs.map(\.name))
        secrets = Set(lane.secrets.map(\.name))
        allSteps = Dictionary(lane.allInvocations.map { ($0.id, $0) }, uniquingKeysWith: { first, _ in first })
    }

    /// Checks every reference of `template`, used by `invocation` (nil for lane-level env),
    /// where the steps in `available` have already run.
    func check(_ template: Template, in invocation: StepInvocation?, available: Set<String>,
               diagnostics: inout DiagnosticCollector) {
        for (reference, location) in template.locatedReferences {
            switch reference {
            case .input(let name) where !inputs.contains(name):
                diagnostics.error("'\(reference)' refers to an undeclared input.\(Suggestions.didYouMean(name, in: Array(inputs))) Declare it under 'inputs:'.", at: location)
            case .secret(let name) where !secrets.contains(name):
                diagnostics.error("'\(reference)' refers to an undeclared secret.\(Suggestions.didYouMean(name, in: Array(secrets))) Declare it under 'secrets:' (its value comes from the environment variable \(name)).", at: location)
            case .stepOutput(let step, let output):
                checkStepReference(reference, step: step, output: output, in: invocation, available: available,
                                   at: location, diagnostics: &diagnostics)
            case .step(let step):
                checkStepReference(reference, step: step, output: nil, in: invocation, available: available,
                                   at: location, diagnostics: &diagnostics)
            default:
                break
            }
        }
    }

    private func checkStepReference(_ reference: Reference, step: String, output: String?, in invocation: StepInvocation?,
                                    available: Set<String>, at location: SourceLocation, diagnostics: inout DiagnosticCollector) {
        guard let target = allSteps[step] else {
            diagnostics.error("'\(reference)' refers to an unknown step '\(step)'.\(Suggestions.didYouMean(step, in: Array(allSteps.keys))) Give the step 'id: \(step)'.", at: location)
            return
        }
        if let invocation, invocation.id == step {
            let what = output.map { "its own output '\($0)'" } ?? "its own outputs"
            diagnostics.error("step '\(step)' refers to \(what); a step can only use outputs of steps that ran before it", at: location)
            return
        }
        guard invocation == nil || available.contains(step) else {
            diagnostics.error("'\(reference)' refers to step '\(step)', which runs after this one (or beside it in a parallel group); move it earlier", at: location)
            return
        }
        if invocation == nil {
            diagnostics.error("lane-level 'env' cannot use step outputs ('\(reference)'); set it in the step's own 'env:'", at: location)
            return
        }
        if let output, let kind = kinds[target.id], !kind.description.hasDynamicOutputs,
           !kind.description.outputs.contains(where: { $0.name == output }) {
            let known = kind.description.outputs.map(\.name)
            let list = known.isEmpty ? "it has no outputs" : "its outputs are \(known.joined(separator: ", "))"
            diagnostics.error("step '\(step)' (\(target.kind)) has no output '\(output)'.\(Suggestions.didYouMean(output, in: known)) (\(list))", at: location)
        }
    }

    /// Checks the lane's `env:`: references must be valid and `env.X` links between entries
    /// must not form a cycle (including an entry that refers to itself).
    func checkLaneEnvironment(_ diagnostics: inout DiagnosticCollector) {
        let entries = Dictionary(lane.env.map { ($0.name, $0) }, uniquingKeysWith: { first, _ in first })
        for entry in lane.env {
            check(entry.value, in: nil, available: [], diagnostics: &diagnostics)
        }
        var reported = Set<String>()
        for entry in lane.env {
            if let cycle = Self.cycle(from: entry.name, entries: entries), !reported.contains(entry.name) {
                cycle.forEach { reported.insert($0) }
                let path = (cycle + [cycle[0]]).map { "env.\($0)" }.joined(separator: " → ")
                let message = cycle.count == 1
                    ? "env '\(entry.name)' refers to itself; a lane variable cannot use its own value (set it in a step's env to extend an inherited variable)"
                    : "env variables refer to each other in a cycle: \(path); break the cycle"
                diagnostics.error(message, at: entry.value.location)
            }
        }
    }

    /// The cycle through `start`, if following `env.X` references from it comes back to it.
    static func cycle(from start: String, entries: [String: EnvironmentEntry]) -> [String]? {
        var path: [String] = []
        var visited = Set<String>()
        func visit(_ name: String) -> [String]? {
            if name == start && !path.isEmpty { return path }
            guard !visited.contains(name), let entry = entries[name] else { return nil }
            visited.insert(name)
            path.append(name)
            for case .env(let next) in entry.value.references {
                if let found = visit(next) { return found }
            }
            path.removeLast()
            return nil
        }
        return visit(start)
    }
}
