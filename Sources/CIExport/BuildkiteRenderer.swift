/// Writes a plan as a Buildkite pipeline (`.buildkite/pipeline.yml`).
///
/// Lane inputs are asked for by an `input` step and read in each job with `buildkite-agent
/// meta-data get`; secrets are Buildkite secrets listed under `secrets:` of only the steps that
/// use them. Buildkite interpolates `$VAR` in every value of the pipeline when it is uploaded,
/// so every `$` is written `$$` (labels, hints, defaults, paths and commands alike): the agent
/// leaves it as `$`, to the shell in commands.
enum BuildkiteRenderer {
    static let inputsKey = "slipway-inputs"

    static func render(_ plan: CIPlan, options: CIExportOptions) throws -> String {
        try CICommands.header(plan, engine: .buildkite, options: options) + PipelineYAML.render(document(plan, options: options))
    }

    /// The file's YAML, without the header comment, every `$` already doubled.
    static func document(_ plan: CIPlan, options: CIExportOptions) -> PipelineNode {
        var steps: [PipelineNode] = []
        if !plan.inputs.isEmpty {
            steps.append(.map([
                PipelineEntry("input", .string("Inputs of lane \(plan.lane)")),
                PipelineEntry("key", .string(inputsKey)),
                PipelineEntry("fields", .list(plan.inputs.map(field))),
            ]))
        }
        steps += plan.jobs.map { step($0, plan: plan, options: options) }
        return PipelineNode.map([PipelineEntry("steps", .list(steps))]).mapStrings(escapingInterpolation)
    }

    static func metaDataKey(_ input: CIInput) -> String { "slipway-input-" + input.name }

    /// `text` with `$` written `$$`, which Buildkite's upload turns back into `$`.
    static func escapingInterpolation(_ text: String) -> String {
        text.replacingOccurrences(of: "$", with: "$$")
    }

    private static func field(_ input: CIInput) -> PipelineNode {
        var entries: [PipelineEntry]
        switch input.kind {
        case .choice, .boolean:
            entries = [PipelineEntry("select", .string(input.name))]
        case .string, .number:
            entries = [PipelineEntry("text", .string(input.name))]
        }
        entries.append(PipelineEntry("key", .string(metaDataKey(input))))
        if let description = input.description { entries.append(PipelineEntry("hint", .string(description))) }
        entries.append(PipelineEntry("required", .bool(input.isRequired)))
        if let value = input.defaultValue { entries.append(PipelineEntry("default", .string(value))) }
        let choices = input.kind == .boolean ? ["true", "false"] : input.options
        if !choices.isEmpty {
            entries.append(PipelineEntry("options", .list(choices.map { choice in
                .map([PipelineEntry("label", .string(choice)), PipelineEntry("value", .string(choice))])
            })))
        }
        return .map(entries)
    }

    private static func step(_ job: CIJob, plan: CIPlan, options: CIExportOptions) -> PipelineNode {
        var entries = [PipelineEntry("label", .string(job.name)), PipelineEntry("key", .string(job.id))]
        var dependsOn = job.needs
        if dependsOn.isEmpty && !plan.inputs.isEmpty { dependsOn = [inputsKey] }
        if !dependsOn.isEmpty { entries.append(PipelineEntry("depends_on", .flowList(dependsOn))) }
        if job.runsAlways { entries.append(PipelineEntry("allow_dependency_failure", .bool(true))) }
        let agent: PipelineEntry
        switch job.runner {
        case .platform: agent = PipelineEntry("os", .string(options.label(for: job.runner, engine: .buildkite)))
        case .label(let label): agent = PipelineEntry("queue", .string(label))
        }
        entries.append(PipelineEntry("agents", .map([agent])))
        if !job.secrets.isEmpty { entries.append(PipelineEntry("secrets", .flowList(job.secrets))) }
        entries.append(PipelineEntry("command", .block(command(job, plan: plan, options: options))))
        entries.append(PipelineEntry("artifact_paths", .list(([".slipway/ci/**/*"] + job.artifacts).map(PipelineNode.string))))
        return .map(entries)
    }

    /// The command's lines, with `$` as the shell should see it (the document is escaped as a whole).
    private static func command(_ job: CIJob, plan: CIPlan, options: CIExportOptions) -> [String] {
        var lines: [String] = []
        let artifactsByJob = Dictionary(plan.jobs.map { ($0.id, $0.artifacts) }, uniquingKeysWith: { first, _ in first })
        for ancestor in job.ancestors {
            for pattern in [".slipway/ci/**/*"] + (artifactsByJob[ancestor] ?? []) {
                let step = CICommands.shellQuoted(ancestor)
                var line = "buildkite-agent artifact download \(CICommands.shellQuoted(pattern)) . --step \(step)"
                // A step skipped after a failure uploaded nothing; the finally step goes on without it.
                if job.runsAlways { line += " || echo " + CICommands.shellQuoted("nothing to download from \(ancestor)") }
                lines.append(line)
            }
        }
        for input in plan.inputs {
            var get = "buildkite-agent meta-data get \(CICommands.shellQuoted(metaDataKey(input)))"
            if let value = input.defaultValue { get += " --default \(CICommands.shellQuoted(value))" }
            // Assigned before it is exported, so that a failing `meta-data get` fails the step.
            lines.append("\(input.environmentVariable)=\"$(\(get))\"")
            lines.append("export \(input.environmentVariable)")
        }
        if let setup = options.slipwaySetup { lines.append(setup) }
        // No cache primitive: the agent's own folder (${SLIPWAY_CACHE_DIR:-$HOME/.cache/slipway}) is the cache.
        if let pin = options.installedPin { lines += SlipwayBootstrap.lines(pin, handOff: .export) }
        if plan.installsTools { lines.append("slipway tools install") }
        if let cleanup = job.cleanupJob {
            // When the command ends, whatever happened, on this agent: it holds what the cleanup removes.
            lines.append("trap " + CICommands.shellQuoted(CICommands.run(plan, job: cleanup, options: options)) + " EXIT")
        }
        lines.append(CICommands.run(plan, job: job, options: options))
        return lines
    }
}
