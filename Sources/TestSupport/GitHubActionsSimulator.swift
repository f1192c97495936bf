import Basics
import Foundation

// SIMULATION — not GitHub.
//
// `GitHubActionsSimulator` runs a GitHub Actions workflow on this machine the way GitHub's
// runners would run it for a `workflow_dispatch` event: each job is its own "runner" (a fresh
// folder with its own HOME, temp folder and a fresh clone of the origin repository at the run's
// commit), jobs start when their `needs:` are done (one at a time, ready jobs in job-id order: the
// result must not depend on the order), a job whose needs did not all succeed is skipped unless
// its `if:` says otherwise (`always()`), and artifacts travel through a local folder that is the
// STAND-IN FOR GITHUB'S ARTIFACT STORE. `actions/cache@v4` is a NO-OP here (every restore misses,
// nothing is saved): a miss is always a correct outcome for a cache. Every job runs on this
// (Linux) machine whatever its `runs-on`; `runner.os` follows the `runs-on` label (macos-* →
// macOS) so cache keys look as on GitHub. Per-runner environments: `runnerEnvironments` gives
// the variables a job sees by its `runner.os` ("macOS", "Linux", "Windows"), laid over
// `environment` for its checkout and its steps. A test makes a STAND-IN MAC that way: a macOS
// job's PATH starts with a folder where `slipway` is `Binaries.macOSStandInSlipway` (the CLI
// reporting macOS) and `xcodebuild`, `xcrun`, `security` are stand-ins; an ubuntu job's `slipway`
// is the real one. Each job (each attempt) still has a HOME of its own, so a stand-in that keeps
// state under HOME (SecurityStandIn without `SLIPWAY_SECURITY_STATE`: its keychains, imported
// identities and search list) starts empty in every job: a later macOS job has no certificate
// an earlier one installed, as on GitHub's fresh runners. `$GITHUB_PATH` is simulated
// (GitHubActionsSimulator+FileCommands.swift); `$GITHUB_ENV`, `$GITHUB_OUTPUT`, `steps.*`, `needs.*`,
// matrices, containers and services are not simulated: such a workflow is refused when parsed.
//
// What is simulated, with its source: see GitHubActionsWorkflow.swift (syntax),
// GitHubActionsExpression.swift (expressions), GitHubActionsArtifactStore.swift (artifacts),
// GitHubActionsSimulator+Steps.swift (the steps).

/// Why the simulation refused a workflow or a request.
public enum GitHubActionsSimulationError: LocalizedError, Equatable {
    /// The workflow uses something the simulation does not run.
    case unsupported(at: SourceLocation, String)
    /// The workflow is wrong in a way GitHub would refuse too.
    case invalidWorkflow(at: SourceLocation?, String)
    /// The dispatch's inputs do not fit the workflow's `workflow_dispatch.inputs`.
    case invalidDispatch(String)
    /// `rerun(job:)` named a job the workflow does not have, or one that has not run yet.
    case unknownJob(String, known: [String])
    /// The origin repository could not be read.
    case origin(String)
    /// `runnerEnvironments` named something that is not a `runner.os`.
    case unknownRunnerOS(String)

    public var errorDescription: String? {
        switch self {
        case .unsupported(let location, let message):
            return "\(location): \(message) by the GitHub Actions simulation (SIMULATION — not GitHub). Use the supported subset or extend GitHubActionsSimulator."
        case .invalidWorkflow(let location, let message):
            return (location.map { "\($0): " } ?? "") + message
        case .invalidDispatch(let message):
            return "workflow_dispatch refused: \(message)"
        case .unknownJob(let job, let known):
            return "job '\(job)' cannot be re-run: it is not a job of this run (jobs: \(known.joined(separator: ", ")))"
        case .origin(let message):
            return message
        case .unknownRunnerOS(let name):
            return "runnerEnvironments: '\(name)' is not a runner.os; give the environment of macOS, Linux or Windows runners"
        }
    }
}

/// What happened to a job or a step.
public enum GitHubActionsStatus: String, Sendable, Equatable {
    case succeeded, failed, skipped
}

/// One step's outcome.
public struct GitHubActionsStepRun: Sendable {
    /// The step's name.
    public var name: String
    /// What happened.
    public var status: GitHubActionsStatus
}

/// One job's outcome (its latest attempt).
public struct GitHubActionsJobRun: Sendable {
    /// The job id.
    public var id: String
    /// 1 for the first run, 2 after one re-run...
    public var attempt: Int
    /// What happened.
    public var status: GitHubActionsStatus
    /// Each step's outcome (empty when the job was skipped).
    public var steps: [GitHubActionsStepRun]
    /// The job's log, secrets masked as `***`.
    public var log: String
    /// The runner's workspace (the clone), kept until the simulator is released; nil when skipped.
    public var workspace: String?
}

/// A run's outcome.
public struct GitHubActionsRunResult: Sendable {
    /// Every job's latest attempt, by id.
    public var jobs: [String: GitHubActionsJobRun]
    /// The jobs in the order they ran (or were skipped), re-runs appended.
    public var order: [String]

    /// The job `id`'s outcome.
    public subscript(_ id: String) -> GitHubActionsJobRun? { jobs[id] }
    /// True when no job failed.
    public var succeeded: Bool { !jobs.values.contains { $0.status == .failed } }
    /// `id: status` per job, sorted, for readable assertions.
    public var statuses: [String: GitHubActionsStatus] { jobs.mapValues(\.status) }
}

/// SIMULATION — not GitHub: runs a workflow's jobs as separate processes on separate local
/// "runners". Workspaces and the artifact store live in a temporary folder removed when the
/// simulator is released.
public actor GitHubActionsSimulator {
    /// The parsed workflow.
    public nonisolated let workflow: GitHubActionsWorkflow
    /// The folder holding the runners and the artifact store.
    public nonisolated let root: String
    /// The STAND-IN FOR GITHUB'S ARTIFACT STORE: one folder per artifact.
    public nonisolated var artifactStorePath: String { root + "/artifacts" }

    let directory: TemporaryDirectory
    let origin: String
    let branch: String
    let environment: [String: String]
    let runnerEnvironments: [String: [String: String]]
    let processes: any ProcessRunner
    var store: ArtifactStore
    var commit = ""
    var inputs: [String: String] = [:]
    var secrets: [String: String] = [:]
    var results: [String: GitHubActionsJobRun] = [:]
    var order: [String] = []

    /// A simulator for `workflowText` (named `file` in errors) whose checkouts clone `origin` (a
    /// repository path) at `branch`'s commit when `run` starts. Steps run with `environment`
    /// (PATH and friends; GitHub's own variables are added per job) through `processes`;
    /// `runnerEnvironments` lays variables over `environment` for the jobs of one `runner.os`
    /// (`["macOS": ["PATH": standIns + ":" + path]]`).
    /// - Throws: `GitHubActionsSimulationError` or `DiagnosticsError` for a workflow it cannot run.
    public init(workflow workflowText: String, file: String = "workflow.yml", origin: String, branch: String = "main",
                environment: [String: String] = GitHubActionsSimulator.defaultEnvironment,
                runnerEnvironments: [String: [String: String]] = [:],
                processes: any ProcessRunner = LocalProcessRunner()) throws {
        if let unknown = runnerEnvironments.keys.sorted().first(where: { !["macOS", "Linux", "Windows"].contains($0) }) {
            throw GitHubActionsSimulationError.unknownRunnerOS(unknown)
        }
        self.runnerEnvironments = runnerEnvironments
        workflow = try GitHubActionsWorkflow.parse(workflowText, file: file)
        directory = try TemporaryDirectory(prefix: "slipway-gha-sim")
        root = directory.path
        store = try ArtifactStore(root: directory.path + "/artifacts")
        self.origin = origin
        self.branch = branch
        self.environment = environment
        self.processes = processes
    }

    /// This process's PATH, LANG and TMPDIR, git's system and global configuration switched off.
    public static var defaultEnvironment: [String: String] {
        let host = ProcessInfo.processInfo.environment
        var environment = ["PATH": host["PATH"] ?? "/usr/local/bin:/usr/bin:/bin", "LANG": "C.UTF-8",
                           "GIT_CONFIG_NOSYSTEM": "1", "GIT_TERMINAL_PROMPT": "0"]
        environment["TMPDIR"] = host["TMPDIR"]
        return environment
    }

    /// Dispatches the workflow (`workflow_dispatch` with `inputs`) with `secrets` and runs every job.
    /// - Throws: `.invalidDispatch` for inputs GitHub would refuse (nothing runs), `.origin` when
    ///   the branch cannot be read. A failing job is a result, not an error.
    public func run(inputs: [String: String] = [:], secrets: [String: String] = [:]) async throws -> GitHubActionsRunResult {
        try checkDispatch(inputs)
        let resolved = try await processes.run(ProcessSpec(
            executable: "git", arguments: ["rev-parse", "--verify", "refs/heads/\(branch)^{commit}"],
            environment: environment, workingDirectory: origin))
        guard resolved.status.isSuccess else {
            throw GitHubActionsSimulationError.origin("cannot read branch '\(branch)' of '\(origin)': \(resolved.errorText)")
        }
        commit = resolved.outputText.trimmingCharacters(in: .whitespacesAndNewlines)
        self.inputs = inputs
        self.secrets = secrets
        results = [:]
        order = []
        try await execute(Set(workflow.jobs.map(\.id)))
        return result
    }

    /// Re-runs job `job` alone, as GitHub's "Re-run job" does for one job: same commit and
    /// inputs, `secrets` as they are now (given here, or as before), the same artifact store; the
    /// job may upload its artifacts again under the same names, replacing its earlier attempt's.
    public func rerun(job: String, secrets: [String: String]? = nil) async throws -> GitHubActionsRunResult {
        guard workflow.job(job) != nil, results[job] != nil else {
            throw GitHubActionsSimulationError.unknownJob(job, known: workflow.jobs.map(\.id).sorted())
        }
        if let secrets { self.secrets = secrets }
        try await execute([job])
        return result
    }

    /// GitHub's "Re-run failed jobs": the failed jobs and every job that depends on them.
    public func rerunFailedJobs(secrets: [String: String]? = nil) async throws -> GitHubActionsRunResult {
        if let secrets { self.secrets = secrets }
        let failed = Set(results.values.filter { $0.status == .failed }.map(\.id))
        let dependants = workflow.jobs.filter { !WorkflowGraph.ancestors(of: $0.id, in: workflow).isDisjoint(with: failed) }.map(\.id)
        try await execute(failed.union(dependants))
        return result
    }

    /// The environment of `runner`'s processes before GitHub's variables: `environment` with the
    /// variables of its `runner.os` laid over it.
    func environment(for runner: RunnerJob) -> [String: String] {
        environment.merging(runnerEnvironments[runner.context.runner["os"] ?? "Linux"] ?? [:]) { _, new in new }
    }

    var result: GitHubActionsRunResult { GitHubActionsRunResult(jobs: results, order: order) }

    /// Runs `jobs` in `needs:` order; jobs outside the set keep their earlier outcome.
    func execute(_ jobs: Set<String>) async throws {
        var pending = workflow.jobs.filter { jobs.contains($0.id) }
        while !pending.isEmpty {
            let ready = pending.filter { job in job.needs.allSatisfy { need in !pending.contains { $0.id == need } } }
                .sorted { $0.id < $1.id }
            guard let job = ready.first else { return }
            pending.removeAll { $0.id == job.id }
            let attempt = (results[job.id]?.attempt ?? 0) + 1
            results[job.id] = await runJob(job, attempt: attempt)
            order.append(job.id)
        }
    }

    func checkDispatch(_ given: [String: String]) throws {
        let declared = Dictionary(workflow.inputs.map { ($0.name, $0) }, uniquingKeysWith: { first, _ in first })
        if let unexpected = given.keys.sorted().first(where: { declared[$0] == nil }) {
            throw GitHubActionsSimulationError.invalidDispatch("Unexpected inputs provided: [\"\(unexpected)\"] (declared: \(declared.keys.sorted().joined(separator: ", ")))")
        }
        for input in workflow.inputs {
            let value = given[input.name] ?? input.defaultValue
            if input.required, value?.isEmpty ?? true {
                throw GitHubActionsSimulationError.invalidDispatch("Required input '\(input.name)' not provided")
            }
            guard let value else { continue }
            if input.type == "choice", !input.options.contains(value) {
                throw GitHubActionsSimulationError.invalidDispatch("input '\(input.name)': '\(value)' is not one of \(input.options.joined(separator: ", "))")
            }
            if input.type == "boolean", value != "true", value != "false" {
                throw GitHubActionsSimulationError.invalidDispatch("input '\(input.name)': '\(value)' is not a boolean (true or false)")
            }
        }
    }

    /// The expression context of `job` before any `env:`.
    func context(for job: GitHubActionsWorkflow.Job, attempt: Int, workspace: String, temp: String) -> ExpressionContext {
        var context = ExpressionContext()
        context.declaredInputs = Set(workflow.inputs.map(\.name))
        for input in workflow.inputs {
            let text = inputs[input.name] ?? input.defaultValue ?? ""
            context.eventInputs[input.name] = text
            switch input.type {
            case "boolean": context.inputs[input.name] = .bool(text == "true")
            case "number": context.inputs[input.name] = .number(Double(text) ?? 0)
            default: context.inputs[input.name] = .string(text)
            }
        }
        context.secrets = secrets
        let os = job.runsOn.lowercased().contains("macos") ? "macOS" : job.runsOn.lowercased().contains("windows") ? "Windows" : "Linux"
        context.runner = ["os": os, "arch": "X64", "temp": temp, "name": "simulated-\(job.id)"]
        context.github = ["sha": commit, "ref": "refs/heads/\(branch)", "ref_name": branch, "workspace": workspace,
                          "run_id": "1", "run_number": "1", "run_attempt": String(attempt), "job": job.id,
                          "repository": "local/simulation", "event_name": "workflow_dispatch", "actor": "simulation"]
        context.succeeded = job.needs.allSatisfy { results[$0]?.status == .succeeded }
        return context
    }
}
