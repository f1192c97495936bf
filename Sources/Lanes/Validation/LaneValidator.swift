import Basics
import Steps

/// A lane whose every step kind, option and reference has been checked: ready to run.
public struct ValidatedLane: Sendable {
    /// The lane.
    public var lane: Lane
    /// The kind of each step, by step id.
    public var kinds: [String: StepKind]
    /// Warnings found while validating (errors would have thrown).
    public var warnings: [Diagnostic]
    /// The expressions each step uses (options, env, if, working-directory), by step id.
    var templates: [String: [Template]] = [:]
    /// The platform the lane was validated for; a dry run plans for it too (`--platform`).
    public var platform: Platform = .current

    /// The declared type of each step's outputs that are not plain strings, by step id.
    var outputTypes: [String: [String: OptionType]] {
        kinds.mapValues { kind in
            Dictionary(kind.description.outputs.filter { $0.type != .string }.map { ($0.name, $0.type) },
                       uniquingKeysWith: { first, _ in first })
        }.filter { !$0.value.isEmpty }
    }
}

/// Checks a lane completely before anything runs: unknown steps, unknown or mistyped options,
/// missing required options, references to undeclared inputs, secrets or steps, references to
/// steps that run later or to a step's own outputs, cycles among `env` entries, steps not
/// supported on this platform. Every problem is reported at once.
public struct LaneValidator: Sendable {
    let registry: StepRegistry
    /// The platform the lane must run on; nil: any (a CI export puts each step on a runner of
    /// its own platforms, so a macOS-only step is fine when exporting on Linux).
    let platform: Platform?
    /// Where steps that check the project (`ProjectCheckedStep`) look; nil: no such checks.
    let project: (directory: String, fileSystem: any FileSystem)?

    /// A validator over `registry` for `platform` (nil: steps of every platform are accepted);
    /// with `projectDirectory`, steps whose options name things in the project (schemes,
    /// workspaces) are checked against it too.
    public init(registry: StepRegistry, platform: Platform? = .current, projectDirectory: String,
                fileSystem: any FileSystem) {
        self.registry = registry
        self.platform = platform
        project = (projectDirectory, fileSystem)
    }

    /// A validator that checks the lane alone, not against a project.
    public init(registry: StepRegistry, platform: Platform? = .current) {
        self.registry = registry
        self.platform = platform
        project = nil
    }

    /// The validated lane; throws `DiagnosticsError` with every problem. With `platformsOf`,
    /// only those steps must run on this platform (`run --only` on a CI runner: the lane's other
    /// steps run on other runners); everything else is checked for every step.
    public func validate(_ lane: Lane, checkingPlatformsOf selected: Set<String>? = nil) async throws -> ValidatedLane {
        var diagnostics = DiagnosticCollector()
        let kinds = await resolveKinds(lane, checkingPlatformsOf: selected, diagnostics: &diagnostics)
        let scope = ReferenceScope(lane: lane, kinds: kinds)
        scope.checkLaneEnvironment(&diagnostics)
        Self.checkLaneDefaultsAreUsed(lane, kinds: kinds, diagnostics: &diagnostics)
        var available = Set<String>()
        var templates: [String: [Template]] = [:]
        for node in lane.steps + lane.finally {
            templates.merge(check(node, available: available, scope: scope, kinds: kinds, diagnostics: &diagnostics)) { a, _ in a }
            available.formUnion(node.invocations.map(\.id))
        }
        try diagnostics.throwIfErrors()
        return ValidatedLane(lane: lane, kinds: kinds, warnings: diagnostics.diagnostics, templates: templates,
                             platform: platform ?? .current)
    }

    private func resolveKinds(_ lane: Lane, checkingPlatformsOf selected: Set<String>?,
                              diagnostics: inout DiagnosticCollector) async -> [String: StepKind] {
        var byKind: [String: StepKind] = [:]
        var failed = Set<String>()
        var result: [String: StepKind] = [:]
        for invocation in lane.allInvocations {
            if failed.contains(invocation.kind) { continue }
            if byKind[invocation.kind] == nil {
                do {
                    guard let kind = try await registry.kind(for: invocation.kind) else {
                        if StepRegistry.macOSOnlyBuiltInTypes.contains(where: { $0.description.id == invocation.kind }) {
                            diagnostics.error(Self.platformRefusal(kind: invocation.kind, supported: [.macOS], platform: platform ?? .current,
                                                                   lane: lane.name), at: invocation.kindLocation)
                            failed.insert(invocation.kind)
                            continue
                        }
                        let hint = Suggestions.didYouMean(invocation.kind, in: registry.knownIDs)
                        diagnostics.error("unknown step '\(invocation.kind)'.\(hint) Run 'slipway steps' for the built-in steps; a plugin would be an executable 'slipway-step-\(invocation.kind)' on PATH.", at: invocation.kindLocation)
                        failed.insert(invocation.kind)
                        continue
                    }
                    byKind[invocation.kind] = kind
                } catch {
                    diagnostics.error("step '\(invocation.kind)': \(error.localizedDescription)", at: invocation.kindLocation)
                    failed.insert(invocation.kind)
                    continue
                }
            }
            guard let kind = byKind[invocation.kind] else { continue }
            if let platform, !kind.description.platforms.contains(platform), selected?.contains(invocation.id) ?? true {
                diagnostics.error(Self.platformRefusal(kind: invocation.kind, supported: Array(kind.description.platforms),
                                                       platform: platform, lane: lane.name), at: invocation.kindLocation)
            }
            result[invocation.id] = kind
        }
        return result
    }

    /// Checks the node's steps; returns the expressions each uses.
    private func check(_ node: StepNode, available: Set<String>, scope: ReferenceScope,
                       kinds: [String: StepKind], diagnostics: inout DiagnosticCollector) -> [String: [Template]] {
        var used: [String: [Template]] = [:]
        for invocation in node.invocations {
            var templates: [Template] = invocation.env.map(\.value)
            if let condition = invocation.condition { templates.append(condition) }
            if let directory = invocation.workingDirectory { templates.append(directory) }
            if let kind = kinds[invocation.id] {
                templates += checkOptions(invocation, kind: kind, outputs: OutputTypes(kinds: kinds), diagnostics: &diagnostics)
            }
            for template in templates {
                scope.check(template, in: invocation, available: available, diagnostics: &diagnostics)
            }
            used[invocation.id] = templates
        }
        return used
    }

    private func checkOptions(_ invocation: StepInvocation, kind: StepKind, outputs: OutputTypes,
                              diagnostics: inout DiagnosticCollector) -> [Template] {
        let description = kind.description
        let entries = OptionChecker.entries(of: invocation, description: description, diagnostics: &diagnostics)
        var templates: [Template] = []
        var given = Set<String>()
        let names = description.options.map(\.name)
        for entry in entries {
            if !given.insert(entry.name).inserted { continue }
            guard let spec = description.option(named: entry.name) else {
                let hint = Suggestions.didYouMean(entry.name, in: names)
                let list = names.isEmpty ? "it takes no options" : "its options are \(names.joined(separator: ", "))"
                diagnostics.error("step '\(invocation.kind)' has no option '\(entry.name)'.\(hint) (\(list))", at: entry.location)
                continue
            }
            templates += OptionChecker.check(entry.value, against: spec.type, option: entry.name,
                                             outputs: outputs, diagnostics: &diagnostics)
        }
        Self.checkLaneDefaults(invocation, entries: entries, diagnostics: &diagnostics)
        for spec in description.options where spec.isRequired && !given.contains(spec.name) {
            diagnostics.error("step '\(invocation.kind)' needs option '\(spec.name)' (\(spec.type)): \(spec.summary)", at: invocation.kindLocation)
        }
        Self.checkRules(invocation, description: description, entries: entries, diagnostics: &diagnostics)
        // Literal options can be checked by the step itself now, instead of halfway through a run.
        if templates.isEmpty && !diagnostics.hasErrors,
           let options = try? StepOptionsBuilder.build(invocation, description: description, platform: platform ?? .current,
                                                       evaluate: { _ in .null }) {
            do {
                let action = try kind.makeAction(options: options)
                if let checked = action as? any ProjectCheckedStep, let project,
                   platform.map(kind.description.platforms.contains) ?? true {
                    try checked.checkProject(in: project.directory, fileSystem: project.fileSystem)
                    for note in checked.projectNotes(in: project.directory, fileSystem: project.fileSystem) {
                        diagnostics.noteOnce(note, at: nil)
                    }
                }
            } catch {
                diagnostics.error("step '\(invocation.displayName)' (\(invocation.kind)): \(error.localizedDescription)", at: invocation.kindLocation)
            }
        }
        return templates
    }
}

/// Builds a step's `StepOptions` from its lane-file options: shorthand expanded, expressions
/// evaluated, defaults filled in.
public enum StepOptionsBuilder {
    /// The options; throws when an expression cannot be evaluated.
    /// `platform`: the one the lane is validated or planned for (`--platform`).
    public static func build(_ invocation: StepInvocation, description: StepDescription, platform: Platform = .current,
                             evaluate: (Template) throws -> ExpressionValue) throws -> StepOptions {
        var diagnostics = DiagnosticCollector()
        var values: [String: OptionValue] = [:]
        var locations: [String: SourceLocation] = [:]
        for entry in OptionChecker.entries(of: invocation, description: description, diagnostics: &diagnostics) {
            let type = description.option(named: entry.name)?.type
            values[entry.name] = try OptionChecker.resolve(entry.value, type: type, option: entry.name, evaluate: evaluate)
            locations[entry.name] = entry.location
        }
        try LaneOptionDefault.apply(invocation, description: description, to: &values, stepLocations: locations, evaluate: evaluate)
        for spec in description.options where values[spec.name] == nil {
            if let value = spec.defaultValue { values[spec.name] = value }
        }
        var options = StepOptions(values, for: description)
        options.platform = platform
        return options
    }
}
