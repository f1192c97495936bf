import Basics
import YAMLSupport

// SIMULATION — not GitHub. The subset of a GitHub Actions workflow that `GitHubActionsSimulator`
// runs, read strictly: a key, action or expression outside the subset is refused with its
// file:line:column, never silently ignored. Shapes from GitHub's "Workflow syntax for GitHub
// Actions" and the READMEs of actions/checkout, upload-artifact, download-artifact and cache (v4).

/// A parsed workflow: what the simulator needs of it.
public struct GitHubActionsWorkflow: Sendable {
    /// A `workflow_dispatch` input.
    public struct Input: Sendable {
        /// Its name.
        public var name: String
        /// `string` (default), `boolean`, `choice`, `number` or `environment`.
        public var type: String
        /// Whether a dispatch must give it (when it has no default).
        public var required: Bool
        /// The default value, as text.
        public var defaultValue: String?
        /// A choice's options.
        public var options: [String]
    }

    /// An environment variable as written (its value may hold `${{ }}` expressions).
    public struct Variable: Sendable {
        /// The name.
        public var name: String
        /// The unevaluated value.
        public var value: String
    }

    /// `defaults: run:`.
    public struct RunDefaults: Sendable {
        /// `shell`.
        public var shell: String?
        /// `working-directory`.
        public var workingDirectory: String?
    }

    /// One step of a job.
    public struct Step: Sendable {
        /// `name`, or a name made from `uses`/`run` for logs.
        public var name: String
        /// `uses` without the version: `actions/checkout`.
        public var action: String?
        /// `with:` inputs, unevaluated.
        public var with: [String: String]
        /// `run:` script, unevaluated.
        public var run: String?
        /// `shell`.
        public var shell: String?
        /// `env:`.
        public var env: [Variable]
        /// `if:`, unevaluated.
        public var condition: String?
        /// `working-directory`.
        public var workingDirectory: String?
        /// `continue-on-error: true`: a failure of this step does not fail the job.
        public var continueOnError = false
        /// Where it starts.
        public var location: SourceLocation
    }

    /// One job.
    public struct Job: Sendable {
        /// The job id (its key under `jobs:`).
        public var id: String
        /// `runs-on`, as text (a list is joined with commas).
        public var runsOn: String
        /// `needs:`.
        public var needs: [String]
        /// `if:`, unevaluated.
        public var condition: String?
        /// `env:`.
        public var env: [Variable]
        /// `defaults: run:`.
        public var defaults: RunDefaults
        /// The steps in order.
        public var steps: [Step]
        /// Where it starts.
        public var location: SourceLocation
    }

    /// `name`.
    public var name: String?
    /// `on.workflow_dispatch.inputs`.
    public var inputs: [Input]
    /// Workflow-level `env:`.
    public var env: [Variable]
    /// Workflow-level `defaults: run:`.
    public var defaults: RunDefaults
    /// The jobs in file order.
    public var jobs: [Job]

    /// The job called `id`, or nil.
    public func job(_ id: String) -> Job? { jobs.first { $0.id == id } }

    /// Parses and checks `text` (`file` names it in errors).
    /// - Throws: `GitHubActionsSimulationError.unsupported` for anything outside the subset,
    ///   `.invalidWorkflow` for a workflow GitHub would refuse too (unknown needs, a cycle), and
    ///   `DiagnosticsError` for YAML that does not parse.
    public static func parse(_ text: String, file: String) throws -> GitHubActionsWorkflow {
        let reader = YAMLReader(documents: "workflow files", complexKeyMessage: "a workflow key must be plain text")
        guard let root = try reader.parse(text, file: file) else {
            throw GitHubActionsSimulationError.invalidWorkflow(at: nil, "'\(file)' is empty; a workflow needs 'on:' and 'jobs:'")
        }
        let parser = WorkflowParser()
        let workflow = try parser.workflow(root)
        try WorkflowGraph.check(workflow)
        return workflow
    }
}

/// Reads the YAML tree into the model, refusing what the simulation does not do.
struct WorkflowParser {
    static let workflowKeys: Set = ["name", "run-name", "on", "env", "jobs", "permissions", "concurrency", "defaults"]
    static let jobKeys: Set = ["name", "runs-on", "needs", "if", "env", "steps", "permissions", "timeout-minutes", "defaults"]
    static let stepKeys: Set = ["name", "id", "uses", "with", "run", "shell", "env", "if", "working-directory", "timeout-minutes",
                                "continue-on-error"]
    /// The actions the simulation runs and the `with:` keys each accepts.
    static let actions: [String: Set<String>] = [
        "actions/checkout": ["fetch-depth", "persist-credentials"],
        "actions/upload-artifact": ["name", "path", "if-no-files-found", "include-hidden-files", "overwrite",
                                    "retention-days", "compression-level"],
        "actions/download-artifact": ["name", "path", "pattern", "merge-multiple"],
        "actions/cache": ["key", "path", "restore-keys"],
    ]
    static let shells: Set = ["bash", "sh"]

    func workflow(_ root: YAMLValue) throws -> GitHubActionsWorkflow {
        let entries = try mapping(root, "the workflow")
        try checkKeys(entries, Self.workflowKeys, "the workflow")
        var workflow = GitHubActionsWorkflow(name: nil, inputs: [], env: [], defaults: .init(), jobs: [])
        for entry in entries {
            switch entry.key.text {
            case "name": workflow.name = try text(entry.value, "'name'")
            case "on": workflow.inputs = try inputs(entry.value)
            case "env": workflow.env = try variables(entry.value, "the workflow's 'env'")
            case "defaults": workflow.defaults = try defaults(entry.value, "the workflow's 'defaults'")
            case "jobs":
                for job in try mapping(entry.value, "'jobs'") { workflow.jobs.append(try self.job(job)) }
            default: break
            }
        }
        guard !workflow.jobs.isEmpty else {
            throw GitHubActionsSimulationError.invalidWorkflow(at: root.location, "the workflow has no jobs; add them under 'jobs:'")
        }
        return workflow
    }

    func inputs(_ value: YAMLValue) throws -> [GitHubActionsWorkflow.Input] {
        guard case .mapping(let triggers, _) = value,
              let dispatch = triggers.first(where: { $0.key.text == "workflow_dispatch" }),
              case .mapping(let settings, _) = dispatch.value,
              let inputs = settings.first(where: { $0.key.text == "inputs" }) else { return [] }
        return try mapping(inputs.value, "'workflow_dispatch.inputs'").map { entry in
            let fields = try mapping(entry.value, "input '\(entry.key.text)'")
            try checkKeys(fields, ["description", "type", "required", "default", "options"], "input '\(entry.key.text)'")
            func field(_ key: String) -> YAMLValue? { fields.first { $0.key.text == key }?.value }
            return GitHubActionsWorkflow.Input(
                name: entry.key.text, type: try field("type").map { try text($0, "'type'") } ?? "string",
                required: field("required")?.scalar?.text == "true",
                defaultValue: try field("default").map { try text($0, "'default'") },
                options: try field("options").map { try list($0, "'options'") } ?? [])
        }
    }

    func job(_ entry: YAMLEntry) throws -> GitHubActionsWorkflow.Job {
        let id = entry.key.text, what = "job '\(id)'"
        let fields = try mapping(entry.value, what)
        try checkKeys(fields, Self.jobKeys, what)
        var job = GitHubActionsWorkflow.Job(id: id, runsOn: "", needs: [], condition: nil, env: [], defaults: .init(),
                                           steps: [], location: entry.key.location)
        for field in fields {
            switch field.key.text {
            case "runs-on": job.runsOn = try list(field.value, "\(what) 'runs-on'").joined(separator: ",")
            case "needs": job.needs = try list(field.value, "\(what) 'needs'")
            case "if": job.condition = try checkedCondition(field.value, "\(what) 'if'")
            case "env": job.env = try variables(field.value, "\(what) 'env'")
            case "defaults": job.defaults = try defaults(field.value, "\(what) 'defaults'")
            case "steps":
                guard case .sequence(let steps, _) = field.value else {
                    throw GitHubActionsSimulationError.invalidWorkflow(at: field.value.location, "\(what): 'steps' must be a list")
                }
                job.steps = try steps.enumerated().map { try step($1, index: $0 + 1, job: id) }
            default: break
            }
        }
        if job.runsOn.isEmpty {
            throw GitHubActionsSimulationError.invalidWorkflow(at: entry.key.location, "\(what) has no 'runs-on'; add one")
        }
        return job
    }

    func step(_ value: YAMLValue, index: Int, job: String) throws -> GitHubActionsWorkflow.Step {
        let what = "job '\(job)' step \(index)"
        let fields = try mapping(value, what)
        try checkKeys(fields, Self.stepKeys, what)
        func field(_ key: String) -> YAMLValue? { fields.first { $0.key.text == key }?.value }
        var step = GitHubActionsWorkflow.Step(
            name: "", action: nil, with: [:], run: try field("run").map { try checkedText($0, "\(what) 'run'") },
            shell: try field("shell").map { try text($0, "\(what) 'shell'") }, env: try field("env").map { try variables($0, "\(what) 'env'") } ?? [],
            condition: try field("if").map { try checkedCondition($0, "\(what) 'if'") },
            workingDirectory: try field("working-directory").map { try checkedText($0, "\(what) 'working-directory'") },
            location: value.location)
        if let flag = field("continue-on-error") {
            guard let value = flag.scalar?.text, ["true", "false"].contains(value) else {
                throw unsupported(flag.location, "\(what): 'continue-on-error' other than true or false", supported: ["true", "false"])
            }
            step.continueOnError = value == "true"
        }
        if let uses = field("uses") {
            let (action, allowed) = try self.action(uses, what)
            step.action = action
            if let with = field("with") {
                let entries = try mapping(with, "\(what) 'with'")
                try checkKeys(entries, allowed, "\(what) '\(action)' input")
                for entry in entries { step.with[entry.key.text] = try checkedText(entry.value, "\(what) '\(entry.key.text)'") }
            }
        } else if field("with") != nil {
            throw GitHubActionsSimulationError.invalidWorkflow(at: value.location, "\(what) has 'with' but no 'uses'")
        }
        if (step.action == nil) == (step.run == nil) {
            throw GitHubActionsSimulationError.invalidWorkflow(at: value.location, "\(what) needs exactly one of 'uses' and 'run'")
        }
        if let shell = step.shell, !Self.shells.contains(shell) {
            throw unsupported(field("shell")?.location ?? value.location, "\(what): shell '\(shell)'", supported: Self.shells)
        }
        let fallback = step.action.map { "Run \($0)" } ?? "Run \(step.run?.split(separator: "\n").first ?? "")"
        step.name = try field("name").map { try text($0, "\(what) 'name'") } ?? fallback
        return step
    }

    /// The major versions simulated per action: v4's behaviour, which the later majors keep for
    /// the inputs listed in `actions` (they changed the Node runtime and defaults Slipway sets).
    static let majors: [String: ClosedRange<Int>] = [
        "actions/checkout": 4...6, "actions/upload-artifact": 4...7, "actions/download-artifact": 4...8, "actions/cache": 4...5,
    ]

    /// `actions/checkout@v4` (or `@v4.x.y`, or a later major in `majors`) → `actions/checkout`;
    /// anything else is refused.
    func action(_ value: YAMLValue, _ what: String) throws -> (String, Set<String>) {
        let uses = try text(value, "\(what) 'uses'")
        let parts = uses.split(separator: "@", maxSplits: 1).map(String.init)
        let supported = Set(Self.actions.keys.map { "\($0)@v\(Self.majors[$0]?.lowerBound ?? 4)..v\(Self.majors[$0]?.upperBound ?? 4)" })
        let major = parts.count == 2 && parts[1].hasPrefix("v")
            ? Int(parts[1].dropFirst().split(separator: ".", maxSplits: 1).first ?? "") : nil
        guard let major, let allowed = Self.actions[parts[0]], Self.majors[parts[0]]?.contains(major) == true else {
            throw unsupported(value.location, "\(what): 'uses: \(uses)'", supported: supported)
        }
        return (parts[0], allowed)
    }

    func defaults(_ value: YAMLValue, _ what: String) throws -> GitHubActionsWorkflow.RunDefaults {
        let entries = try mapping(value, what)
        try checkKeys(entries, ["run"], what)
        guard let run = entries.first?.value else { return .init() }
        let fields = try mapping(run, "\(what) 'run'")
        try checkKeys(fields, ["shell", "working-directory"], "\(what) 'run'")
        let shell = try fields.first { $0.key.text == "shell" }.map { try text($0.value, "'shell'") }
        if let shell, !Self.shells.contains(shell) { throw unsupported(run.location, "\(what): shell '\(shell)'", supported: Self.shells) }
        return .init(shell: shell,
                     workingDirectory: try fields.first { $0.key.text == "working-directory" }.map { try checkedText($0.value, "'working-directory'") })
    }

    func variables(_ value: YAMLValue, _ what: String) throws -> [GitHubActionsWorkflow.Variable] {
        try mapping(value, what).map { .init(name: $0.key.text, value: try checkedText($0.value, "\(what) '\($0.key.text)'")) }
    }

    // MARK: - Node helpers

    func mapping(_ value: YAMLValue, _ what: String) throws -> [YAMLEntry] {
        if case .mapping(let entries, _) = value { return entries }
        if value.isNull { return [] }
        throw GitHubActionsSimulationError.invalidWorkflow(at: value.location, "\(what) must be a mapping, not \(value.kindDescription)")
    }

    func text(_ value: YAMLValue, _ what: String) throws -> String {
        guard let scalar = value.scalar else {
            throw GitHubActionsSimulationError.invalidWorkflow(at: value.location, "\(what) must be text, not \(value.kindDescription)")
        }
        return scalar.text
    }

    /// Text whose `${{ }}` expressions are all within the simulation's subset.
    func checkedText(_ value: YAMLValue, _ what: String) throws -> String {
        let text = try text(value, what)
        do {
            _ = try ExpressionTemplate(text)
        } catch let error as ExpressionError {
            throw GitHubActionsSimulationError.unsupported(at: value.location, "\(what): \(error.message)")
        }
        return text
    }

    /// An `if:` within the subset.
    func checkedCondition(_ value: YAMLValue, _ what: String) throws -> String {
        let text = try text(value, what)
        do {
            _ = try ExpressionContext.parseCondition(text)
        } catch let error as ExpressionError {
            throw GitHubActionsSimulationError.unsupported(at: value.location, "\(what): \(error.message)")
        }
        return text
    }

    func list(_ value: YAMLValue, _ what: String) throws -> [String] {
        if case .sequence(let items, _) = value { return try items.map { try text($0, what) } }
        return [try text(value, what)]
    }

    func checkKeys(_ entries: [YAMLEntry], _ allowed: Set<String>, _ what: String) throws {
        if let entry = entries.first(where: { !allowed.contains($0.key.text) }) {
            throw unsupported(entry.key.location, "\(what): '\(entry.key.text)'", supported: allowed)
        }
    }

    func unsupported(_ location: SourceLocation, _ subject: String, supported: Set<String>) -> GitHubActionsSimulationError {
        .unsupported(at: location, "\(subject) is not supported (supported: \(supported.sorted().joined(separator: ", ")))")
    }
}

/// Checks `needs:` and gives the order jobs become ready in.
enum WorkflowGraph {
    static func check(_ workflow: GitHubActionsWorkflow) throws {
        let ids = Set(workflow.jobs.map(\.id))
        for job in workflow.jobs {
            if let missing = job.needs.first(where: { !ids.contains($0) }) {
                throw GitHubActionsSimulationError.invalidWorkflow(
                    at: job.location, "job '\(job.id)' needs '\(missing)', which is not a job of this workflow (jobs: \(ids.sorted().joined(separator: ", ")))")
            }
        }
        var done: Set<String> = []
        while done.count < workflow.jobs.count {
            let ready = workflow.jobs.filter { !done.contains($0.id) && $0.needs.allSatisfy(done.contains) }
            guard !ready.isEmpty else {
                let stuck = workflow.jobs.filter { !done.contains($0.id) }.map(\.id).sorted()
                throw GitHubActionsSimulationError.invalidWorkflow(at: nil, "the 'needs' of jobs \(stuck.joined(separator: ", ")) form a cycle; remove one")
            }
            done.formUnion(ready.map(\.id))
        }
    }

    /// Every job `id` depends on, directly or not.
    static func ancestors(of id: String, in workflow: GitHubActionsWorkflow) -> Set<String> {
        var found: Set<String> = [], pending = workflow.job(id)?.needs ?? []
        while let next = pending.popLast() {
            if found.insert(next).inserted { pending += workflow.job(next)?.needs ?? [] }
        }
        return found
    }
}
