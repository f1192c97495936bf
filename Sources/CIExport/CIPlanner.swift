import Basics
import Lanes
import Steps
import YAMLSupport

/// Lays a validated lane out as CI jobs (the job contract in docs/ci.md): each top-level step
/// and each member of a `parallel:` group is a job that needs the jobs of the previous
/// top-level entry; all `finally` steps form one job that runs always, after every other job.
public enum CIPlanner {
    /// The plan for `validated`; throws `CIExportError` when a step's `runs-on` contradicts
    /// its platforms or no runner runs every `finally` step.
    public static func plan(_ validated: ValidatedLane) throws -> CIPlan {
        let lane = validated.lane
        try checkNames(lane)
        let laneSecrets = SecretReferences.inLaneEnvironment(lane)
        var ids = JobIDAllocator()
        var jobs: [CIJob] = []
        var previous: [String] = []
        var earlier: [String] = []
        func addJobs(_ groups: [[StepInvocation]], runners: [CIRunner]) {
            var current: [String] = []
            for (group, runner) in zip(groups, runners) {
                let id = ids.allocate(group[0].id)
                jobs.append(CIJob(id: id, name: group.map(\.displayName).joined(separator: ", "), steps: group.map(\.id),
                                  needs: previous, ancestors: earlier, runner: runner,
                                  secrets: secrets(of: group, lane: lane, laneSecrets: laneSecrets),
                                  artifacts: unique(group.flatMap(\.artifacts)), runsAlways: false))
                current.append(id)
            }
            if !current.isEmpty { previous = current }
            earlier += current
        }
        // Runs of single steps are laid out together; a parallel group's members are jobs of
        // their own, side by side.
        var run: [StepInvocation] = []
        func flushRun() throws {
            guard !run.isEmpty else { return }
            let laidOut = try layOut(run, validated: validated)
            for (group, runner) in zip(laidOut.groups, laidOut.runners) { addJobs([group], runners: [runner]) }
            run = []
        }
        for node in lane.steps {
            switch node {
            case .step(let invocation):
                run.append(invocation)
            case .parallel(let group):
                try flushRun()
                let runners = try group.steps.map { try runner(for: $0, platforms: platforms(of: $0, in: validated)) }
                addJobs(group.steps.map { [$0] }, runners: runners)
            }
        }
        try flushRun()
        var finallySteps = lane.finally.flatMap(\.invocations)
        for cleanup in finallySteps {
            guard let index = machineCleanupJob(for: cleanup, in: jobs, validated: validated) else { continue }
            jobs[index].cleanupSteps.append(cleanup.id)
            jobs[index].secrets = unique(jobs[index].secrets + secrets(of: [cleanup], lane: lane, laneSecrets: laneSecrets))
            finallySteps.removeAll { $0.id == cleanup.id }
        }
        if !finallySteps.isEmpty {
            let others = jobs.map(\.id)
            jobs.append(CIJob(id: ids.allocate("finally"), name: "finally", steps: finallySteps.map(\.id), needs: others,
                              ancestors: others, runner: try finallyRunner(finallySteps, validated: validated),
                              secrets: secrets(of: finallySteps, lane: lane, laneSecrets: laneSecrets),
                              artifacts: unique(finallySteps.flatMap(\.artifacts)), runsAlways: true))
        }
        try checkFileHandOvers(jobs, validated: validated)
        try checkSigningHandOvers(jobs, validated: validated)
        return CIPlan(lane: lane.name, laneFile: lane.file, description: lane.description,
                      inputs: lane.inputs.map(CIInput.init), jobs: jobs, installsTools: !lane.requires.isEmpty,
                      secrets: lane.secrets.map(\.name))
    }

    /// The names the renderers write into commands, keys and expressions, checked again here
    /// (the parser checks them first, with their place in the file): a `ValidatedLane` built
    /// some other way cannot inject either.
    static func checkNames(_ lane: Lane) throws {
        if !LaneNames.isStepID(lane.name) { throw CIExportError.unsafeName(what: "lane name", name: lane.name) }
        for input in lane.inputs where !LaneNames.isInputName(input.name) {
            throw CIExportError.unsafeName(what: "input name", name: input.name)
        }
        for secret in lane.secrets where !LaneNames.isSecretName(secret.name) {
            throw CIExportError.unsafeName(what: "secret name", name: secret.name)
        }
        for step in lane.allInvocations where !LaneNames.isStepID(step.id) {
            throw CIExportError.unsafeName(what: "step id", name: step.id)
        }
    }

    /// A job id for a step id: characters outside `[A-Za-z0-9_-]` become `-`, and `s-` is put in
    /// front when it does not start with a letter or `_`.
    public static func jobID(for stepID: String) -> String {
        var id = String(stepID.unicodeScalars.map { scalar -> Character in
            let allowed = ("a"..."z").contains(scalar) || ("A"..."Z").contains(scalar) || ("0"..."9").contains(scalar)
                || scalar == "_" || scalar == "-"
            return allowed ? Character(scalar) : "-"
        })
        if let first = id.unicodeScalars.first, ("a"..."z").contains(first) || ("A"..."Z").contains(first) || first == "_" {
            return id
        }
        id = "s-" + id
        return id
    }

    static func platforms(of invocation: StepInvocation, in validated: ValidatedLane) -> Set<Platform> {
        let platforms = validated.kinds[invocation.id]?.description.platforms ?? Set(Platform.allCases)
        return narrowedByInstall(invocation, platforms.isEmpty ? Set(Platform.allCases) : platforms)
    }

    static func runner(for invocation: StepInvocation, platforms: Set<Platform>) throws -> CIRunner {
        guard let runsOn = invocation.runsOn else {
            return .platform(platforms.contains(.linux) ? .linux : .macOS)
        }
        guard let platform = Platform(rawValue: runsOn.lowercased()) else { return .label(runsOn) }
        guard platforms.contains(platform) else {
            throw CIExportError.runnerExcludesStep(step: invocation.id, kind: invocation.kind,
                                                   location: invocation.location.description, runsOn: runsOn,
                                                   platforms: platforms.map(\.rawValue).sorted())
        }
        return .platform(platform)
    }

    private static func finallyRunner(_ steps: [StepInvocation], validated: ValidatedLane) throws -> CIRunner {
        let explicit = unique(steps.compactMap(\.runsOn))
        if explicit.count > 1, let location = steps.first(where: { $0.runsOn != nil })?.location {
            throw CIExportError.noCommonFinallyRunner(steps: steps.map(\.id), location: location.description)
        }
        if explicit.count == 1 {
            var chosen: CIRunner?
            for step in steps {
                var labelled = step
                labelled.runsOn = explicit[0]
                chosen = try runner(for: labelled, platforms: platforms(of: step, in: validated))
            }
            if let chosen { return chosen }
        }
        let common = steps.reduce(Set(Platform.allCases)) { $0.intersection(platforms(of: $1, in: validated)) }
        if common.contains(.linux) { return .platform(.linux) }
        if common.contains(.macOS) { return .platform(.macOS) }
        throw CIExportError.noCommonFinallyRunner(steps: steps.map(\.id), location: steps[0].location.description)
    }

    private static func secrets(of steps: [StepInvocation], lane: Lane, laneSecrets: Set<String>) -> [String] {
        var used = laneSecrets
        for step in steps { used.formUnion(SecretReferences.in(step)) }
        return lane.secrets.map(\.name).filter(used.contains)
    }

    private static func unique(_ items: [String]) -> [String] {
        var seen = Set<String>()
        return items.filter { seen.insert($0).inserted }
    }
}

/// Hands out job ids: the sanitized step id, with `-2`, `-3`, ... on collisions, also with the
/// names an engine gives a meaning at the place job ids go (GitLab's top-level keywords,
/// Buildkite's input step), so a step id never becomes one.
struct JobIDAllocator {
    static let reserved: Set<String> = ["default", "include", "stages", "variables", "workflow", "image", "services",
                                        "cache", "before_script", "after_script", "spec", "types", BuildkiteRenderer.inputsKey]
    private var used = JobIDAllocator.reserved

    mutating func allocate(_ stepID: String) -> String {
        let base = CIPlanner.jobID(for: stepID)
        var candidate = base
        var number = 2
        while used.contains(candidate) {
            candidate = "\(base)-\(number)"
            number += 1
        }
        used.insert(candidate)
        return candidate
    }
}

extension CIInput {
    init(_ spec: InputSpec) {
        name = spec.name
        isRequired = spec.isRequired
        description = spec.description
        options = spec.choices ?? []
        switch spec.type {
        case .bool: kind = .boolean
        case .int: kind = .number
        case .string: kind = spec.choices == nil ? .string : .choice
        }
        defaultValue = spec.defaultValue.map { InputValues.expressionValue($0).description }
    }
}
