/// Writes a plan as GitLab CI/CD configuration (`.gitlab-ci.yml`).
///
/// Lane inputs are top-level `variables:` with `description`, `value` and `options` (the
/// "Run pipeline" form offers them), not a `spec: inputs:` header: variables work on every
/// supported GitLab version, keep the file one YAML document (the JSON schema validators read
/// one document), and reach each job as environment variables, so a value is never pasted
/// into a script. Secrets are the project's masked CI/CD variables: GitLab gives those to every
/// job, so a job whose steps do not use a secret unsets it before Slipway starts.
enum GitLabRenderer {
    static func render(_ plan: CIPlan, options: CIExportOptions) throws -> String {
        try CICommands.header(plan, engine: .gitlab, options: options) + PipelineYAML.render(document(plan, options: options))
    }

    /// The file's YAML, without the header comment.
    static func document(_ plan: CIPlan, options: CIExportOptions) -> PipelineNode {
        var variables = [PipelineEntry("GIT_DEPTH", .string("0"))]
        variables += plan.inputs.map(variable)
        let stages = stageNames(plan)
        var document = [PipelineEntry("variables", .map(variables)),
                        PipelineEntry("stages", .list(unique(stages).map(PipelineNode.string)))]
        for (index, job) in plan.jobs.enumerated() {
            document.append(PipelineEntry(job.id, self.job(job, stage: stages[index], plan: plan, options: options)))
        }
        return .map(document)
    }

    private static func variable(_ input: CIInput) -> PipelineEntry {
        var entries = [PipelineEntry("value", .string(input.defaultValue ?? ""))]
        switch input.kind {
        case .choice: entries.append(PipelineEntry("options", .list(input.options.map(PipelineNode.string))))
        case .boolean: entries.append(PipelineEntry("options", .list(booleanOptions(input).map(PipelineNode.string))))
        case .string, .number: break
        }
        var description = input.description ?? "Lane input '\(input.name)'"
        if input.isRequired { description += " (required)" }
        entries.append(PipelineEntry("description", .string(description)))
        entries.append(PipelineEntry("expand", .bool(false)))
        return PipelineEntry(input.environmentVariable, .map(entries))
    }

    /// GitLab wants the default first among the options.
    private static func booleanOptions(_ input: CIInput) -> [String] {
        input.defaultValue == "true" ? ["true", "false"] : ["false", "true"]
    }

    /// One stage per top-level entry of the lane (jobs of a parallel group share theirs), and
    /// `finally`.
    private static func stageNames(_ plan: CIPlan) -> [String] {
        var names: [String] = []
        for (index, job) in plan.jobs.enumerated() {
            if job.runsAlways { names.append("finally"); continue }
            if index > 0, plan.jobs[index - 1].needs == job.needs, !plan.jobs[index - 1].runsAlways {
                names.append(names[index - 1])
                continue
            }
            let inGroup = index + 1 < plan.jobs.count && plan.jobs[index + 1].needs == job.needs && !plan.jobs[index + 1].runsAlways
            names.append(inGroup ? "parallel-\(job.id)" : job.id)
        }
        return names
    }

    private static func job(_ job: CIJob, stage: String, plan: CIPlan, options: CIExportOptions) -> PipelineNode {
        var entries = [PipelineEntry("stage", .string(stage)),
                       PipelineEntry("tags", .flowList([options.label(for: job.runner, engine: .gitlab)]))]
        // Every ancestor, not only the previous entry: `needs` is what fetches artifacts.
        entries.append(PipelineEntry("needs", .list(job.ancestors.map { ancestor in
            .map([PipelineEntry("job", .string(ancestor)), PipelineEntry("artifacts", .bool(true))])
        })))
        if job.runsAlways { entries.append(PipelineEntry("when", .string("always"))) }
        let label = options.label(for: job.runner, engine: .gitlab)
        var caches: [PipelineNode] = []
        if let pin = options.installedPin {
            caches.append(.map([PipelineEntry("key", .string("slipway-\(pin.version)-\(label)-\(pin.digest)")),
                                PipelineEntry("paths", .flowList([".slipway/cache/\(pin.cacheSubpath)/"]))]))
        }
        if plan.installsTools {
            caches.append(.map([
                PipelineEntry("key", .map([PipelineEntry("files", .flowList(["Toolfile.lock"])),
                                           PipelineEntry("prefix", .string("slipway-tools-" + label))])),
                PipelineEntry("paths", .flowList([".slipway/cache/tools/"])),
            ]))
        }
        if !caches.isEmpty {
            // GitLab caches folders inside the project only.
            entries.append(PipelineEntry("variables", .map([PipelineEntry("SLIPWAY_CACHE_DIR", .string("$CI_PROJECT_DIR/.slipway/cache"))])))
            entries.append(PipelineEntry("cache", caches.count == 1 ? caches[0] : .list(caches)))
        }
        var script: [PipelineNode] = []
        let unused = plan.secrets.filter { !job.secrets.contains($0) }
        if !unused.isEmpty { script.append(.string((["unset"] + unused.map(CICommands.shellQuoted)).joined(separator: " "))) }
        if let setup = options.slipwaySetup { script.append(.string(setup)) }
        if let pin = options.installedPin { script.append(.block(SlipwayBootstrap.lines(pin, handOff: .export))) }
        if plan.installsTools { script.append(.string("slipway tools install")) }
        script.append(.string(CICommands.run(plan, job: job, options: options)))
        entries.append(PipelineEntry("script", .list(script)))
        if let cleanup = job.cleanupJob {
            // after_script runs whatever happened, in a new shell on this machine: Slipway is put on PATH again.
            var after: [PipelineNode] = []
            if let setup = options.slipwaySetup { after.append(.string(setup)) }
            if let pin = options.installedPin { after.append(.block(SlipwayBootstrap.lines(pin, handOff: .export))) }
            after.append(.string(CICommands.run(plan, job: cleanup, options: options)))
            entries.append(PipelineEntry("after_script", .list(after)))
        }
        entries.append(PipelineEntry("artifacts", .map([
            PipelineEntry("name", .string(job.artifactName)),
            PipelineEntry("when", .string("always")),
            PipelineEntry("paths", .list(([".slipway/ci/"] + job.artifacts).map(PipelineNode.string))),
        ])))
        return .map(entries)
    }

    private static func unique(_ items: [String]) -> [String] {
        var seen = Set<String>()
        return items.filter { seen.insert($0).inserted }
    }
}
