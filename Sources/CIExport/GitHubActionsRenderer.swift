/// Writes a plan as a GitHub Actions workflow (`.github/workflows/LANE.yml`), started by hand
/// (`workflow_dispatch`) with the lane's inputs.
enum GitHubActionsRenderer {
    /// The actions used, at the current major versions (actionlint flags older ones whose
    /// Node runtime GitHub deprecates). v4+ artifacts are immutable: one name per job.
    enum Action {
        static let checkout = "actions/checkout@v6"
        static let download = "actions/download-artifact@v8"
        static let upload = "actions/upload-artifact@v7"
        static let cache = "actions/cache@v5"
    }

    static func render(_ plan: CIPlan, options: CIExportOptions) throws -> String {
        try CICommands.header(plan, engine: .githubActions, options: options) + PipelineYAML.render(document(plan, options: options))
    }

    /// The file's YAML, without the header comment.
    static func document(_ plan: CIPlan, options: CIExportOptions) -> PipelineNode {
        var dispatch: [PipelineEntry] = []
        if !plan.inputs.isEmpty { dispatch.append(PipelineEntry("inputs", .map(plan.inputs.map(input)))) }
        return .map([
            PipelineEntry("name", .string("\(plan.lane) (Slipway lane)")),
            PipelineEntry("on", .map([PipelineEntry("workflow_dispatch", dispatch.isEmpty ? .empty : .map(dispatch))])),
            PipelineEntry("permissions", .map([PipelineEntry("contents", .string("read"))])),
            PipelineEntry("jobs", .map(plan.jobs.map { PipelineEntry($0.id, job($0, plan: plan, options: options)) })),
        ])
    }

    private static func input(_ input: CIInput) -> PipelineEntry {
        var entries: [PipelineEntry] = []
        if let description = input.description { entries.append(PipelineEntry("description", .string(description))) }
        entries.append(PipelineEntry("type", .string(input.kind.rawValue)))
        entries.append(PipelineEntry("required", .bool(input.isRequired)))
        if let value = input.defaultValue {
            switch input.kind {
            case .boolean: entries.append(PipelineEntry("default", .bool(value == "true")))
            case .number: entries.append(PipelineEntry("default", Int(value).map(PipelineNode.int) ?? .string(value)))
            case .string, .choice: entries.append(PipelineEntry("default", .string(value)))
            }
        }
        if input.kind == .choice { entries.append(PipelineEntry("options", .list(input.options.map(PipelineNode.string)))) }
        return PipelineEntry(input.name, .map(entries))
    }

    private static func job(_ job: CIJob, plan: CIPlan, options: CIExportOptions) -> PipelineNode {
        var entries = [PipelineEntry("name", .string(literal(job.name))),
                       PipelineEntry("runs-on", .string(options.label(for: job.runner, engine: .githubActions)))]
        if !job.needs.isEmpty { entries.append(PipelineEntry("needs", .flowList(job.needs))) }
        if job.runsAlways { entries.append(PipelineEntry("if", .string("${{ always() }}"))) }
        var env = plan.inputs.map { PipelineEntry($0.environmentVariable, .string("${{ inputs.\($0.name) }}")) }
        env += job.secrets.map { PipelineEntry($0, .string("${{ secrets.\($0) }}")) }
        if !env.isEmpty { entries.append(PipelineEntry("env", .map(env))) }
        entries.append(PipelineEntry("steps", .list(steps(job, plan: plan, options: options))))
        return .map(entries)
    }

    private static func steps(_ job: CIJob, plan: CIPlan, options: CIExportOptions) -> [PipelineNode] {
        var steps: [PipelineNode] = [.map([
            PipelineEntry("name", .string("Check out")),
            PipelineEntry("uses", .string(Action.checkout)),
            PipelineEntry("with", .map([PipelineEntry("fetch-depth", .int(0))])),
        ])]
        for ancestor in job.ancestors {
            var entries = [PipelineEntry("name", .string("Hand-over from \(ancestor)")),
                           PipelineEntry("uses", .string(Action.download))]
            // A job skipped after a failure uploaded nothing; the finally job goes on without it.
            if job.runsAlways { entries.append(PipelineEntry("continue-on-error", .bool(true))) }
            let root = plan.jobs.first { $0.id == ancestor }.map(uploadRoot) ?? "."
            entries.append(PipelineEntry("with", .map([PipelineEntry("name", .string("slipway-\(ancestor)")),
                                                       PipelineEntry("path", .string(root))])))
            steps.append(.map(entries))
        }
        if let setup = options.slipwaySetup { steps.append(shell("Set up Slipway", setup)) }
        if let pin = options.installedPin { steps += installSteps(pin) }
        if plan.installsTools {
            steps.append(.map([
                PipelineEntry("name", .string("Cache pinned tools")),
                PipelineEntry("uses", .string(Action.cache)),
                PipelineEntry("with", .map([
                    PipelineEntry("path", .string("~/.cache/slipway/tools")),
                    PipelineEntry("key", .string("slipway-tools-${{ runner.os }}-${{ hashFiles('Toolfile.lock') }}")),
                ])),
            ]))
            steps.append(shell("Install pinned tools", "slipway tools install"))
        }
        steps.append(shell("Run \(job.steps.joined(separator: ", "))", CICommands.run(plan, job: job, options: options)))
        if let cleanup = job.cleanupJob {
            // On this machine, whatever happened: it holds what the cleanup removes.
            steps.append(.map([PipelineEntry("name", .string("Clean up: \(cleanup.steps.joined(separator: ", "))")),
                               PipelineEntry("if", .string("always()")),
                               PipelineEntry("run", .block([CICommands.run(plan, job: cleanup, options: options)])),
                               PipelineEntry("shell", .string("bash"))]))
        }
        steps.append(.map([
            PipelineEntry("name", .string("Hand over")),
            PipelineEntry("if", .string("always()")),
            PipelineEntry("uses", .string(Action.upload)),
            PipelineEntry("with", .map([
                PipelineEntry("name", .string(job.artifactName)),
                PipelineEntry("path", .block([".slipway/ci/"] + job.artifacts)),
                PipelineEntry("include-hidden-files", .bool(true)),
            ])),
        ]))
        return steps
    }

    /// Where an upload's files sit in its artifact: upload-artifact (v4 and later) stores them
    /// relative to the least common ancestor folder of its paths, so a job that hands over only
    /// `.slipway/ci/` stores `x.json`, not `.slipway/ci/x.json`. The download goes to that folder.
    static func uploadRoot(_ job: CIJob) -> String {
        let folders = ([".slipway/ci/x"] + job.artifacts).map { path -> [Substring] in
            let parts = path.split(separator: "/")
            let literal = parts.prefix { !$0.contains(where: { "*?[{".contains($0) }) }
            return Array(literal.count == parts.count ? literal.dropLast() : literal)
        }
        var common = folders[0]
        for folder in folders.dropFirst() {
            common = Array(zip(common, folder).prefix { $0 == $1 }.map(\.0))
        }
        return common.isEmpty ? "." : common.joined(separator: "/")
    }

    /// `text` as GitHub shows it where it evaluates expressions (a job's `name:`): a `${{` from
    /// the lane is written `${{ '${{' }}`, GitHub's escape, so it stays text.
    static func literal(_ text: String) -> String {
        text.replacingOccurrences(of: "${{", with: "${{ '${{' }}")
    }

    /// Restores Slipway's cache folder for this pin, then runs the install script (`sh`), which
    /// adds the folder to `$GITHUB_PATH`.
    private static func installSteps(_ pin: SlipwayPin) -> [PipelineNode] {
        [.map([
            PipelineEntry("name", .string("Cache Slipway \(pin.version)")),
            PipelineEntry("uses", .string(Action.cache)),
            PipelineEntry("with", .map([
                PipelineEntry("path", .string("~/.cache/slipway/" + pin.cacheSubpath)),
                PipelineEntry("key", .string("slipway-\(pin.version)-${{ runner.os }}-${{ runner.arch }}-\(pin.digest)")),
            ])),
        ]), .map([
            PipelineEntry("name", .string("Install Slipway \(pin.version) (Toolfile.lock)")),
            PipelineEntry("run", .block(SlipwayBootstrap.lines(pin, handOff: .githubPath))),
            PipelineEntry("shell", .string("sh")),
        ])]
    }

    private static func shell(_ name: String, _ command: String) -> PipelineNode {
        .map([PipelineEntry("name", .string(name)), PipelineEntry("run", .block([command])),
              PipelineEntry("shell", .string("bash"))])
    }
}
