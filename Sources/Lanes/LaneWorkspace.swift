import Basics
import Steps

/// A project's lanes and the steps they can use, put together: what the CLI talks to.
public struct LaneWorkspace: Sendable {
    /// The lane files.
    public let store: LaneStore
    /// The steps: built-ins, and plugins in `.slipway/bin` or on `PATH`.
    public let registry: StepRegistry
    /// The services a run uses.
    public let services: LaneRunner.Services
    /// The platform lanes are validated and planned for: this machine's, or another one's for
    /// `validate --platform` and `run --dry-run --platform` (injected by tests that run
    /// macOS-only steps through stand-ins).
    public let platform: Platform

    /// A workspace for the project at `projectDirectory`.
    /// Pinned plugins (`tools`' executable folders) are found before `.slipway/bin` and `PATH`.
    /// `pluginTrust` says which plugins may be executed (nil: all of them). `stepServices` are the
    /// network, waits and clock the steps use (the CLI gives the system's HTTP client).
    public init(projectDirectory: String, lanesDirectory: String = "lanes", fileSystem: any FileSystem,
                processRunner: any ProcessRunner, environment: Environment, stepServices: StepServices,
                tools: (any ToolRequirements)? = nil,
                platform: Platform = .current, pluginTrust: PluginTrust? = nil) {
        self.platform = platform
        store = LaneStore(projectDirectory: projectDirectory, lanesDirectory: lanesDirectory, fileSystem: fileSystem)
        let pinned = (try? tools?.executableDirectories()) ?? []
        let locator = PluginLocator(directories: pinned + [projectDirectory + "/.slipway/bin"] + environment.searchPath,
                                    processRunner: processRunner, fileSystem: fileSystem, environment: environment,
                                    trust: pluginTrust)
        // Checking a lane for another platform (`--platform`) needs the built-ins that exist
        // only there; the CLI refuses a real run for another platform.
        registry = StepRegistry.validating(for: platform, pluginLocator: locator)
        services = LaneRunner.Services(fileSystem: fileSystem, processRunner: processRunner, environment: environment,
                                       projectDirectory: projectDirectory, stepServices: stepServices, tools: tools)
    }

    /// Loads and validates lane `name`; throws every problem at once. With `platformsOf`, only
    /// those steps must be supported on this platform (`run --only`).
    public func validate(_ name: String, checkingPlatformsOf selected: Set<String>? = nil) async throws -> ValidatedLane {
        let lane = try store.load(name)
        return try await LaneValidator(registry: registry, platform: platform, projectDirectory: services.projectDirectory,
                                       fileSystem: services.fileSystem).validate(lane, checkingPlatformsOf: selected)
    }

    /// Loads, validates and runs lane `name` (with `--only`, checking platforms only for the
    /// selected steps).
    public func run(_ name: String, options: LaneRunner.Options, reporters: [any RunReporter]) async throws -> RunSummary {
        let selected = options.onlySteps.isEmpty ? nil : Set(options.onlySteps)
        let validated = try await validate(name, checkingPlatformsOf: selected)
        return try await LaneRunner(services: services).run(validated, options: options, reporters: reporters)
    }

    /// Every lane, parsed but not validated (no plugin runs): for `slipway lanes`.
    public func summaries() throws -> [LaneSummary] {
        try store.names().map { name in
            do {
                let lane = try store.load(name)
                return LaneSummary(name: name, file: lane.file, description: lane.description,
                                   inputs: lane.inputs.map(LaneSummary.Input.init), secrets: lane.secrets.map(\.name),
                                   steps: lane.stepCount.steps, finallySteps: lane.stepCount.finally, problems: [])
            } catch {
                let problems = (error as? DiagnosticsError)?.diagnostics.map(\.description) ?? [errorText(error)]
                return LaneSummary(name: name, file: store.displayPath(of: name), description: nil, inputs: [],
                                   secrets: [], steps: 0, finallySteps: 0, problems: problems)
            }
        }
    }
}

/// What `slipway lanes` shows of a lane.
public struct LaneSummary: Sendable, Codable {
    public struct Input: Sendable, Codable {
        public var name: String
        public var type: String
        public var required: Bool
        public var `default`: String?
        public var choices: [String]?
        public var description: String?

        init(_ spec: InputSpec) {
            name = spec.name
            type = spec.type.rawValue
            required = spec.isRequired
            `default` = spec.defaultValue.map { InputValues.expressionValue($0).description }
            choices = spec.choices
            description = spec.description
        }
    }

    public var name: String
    public var file: String
    public var description: String?
    public var inputs: [Input]
    public var secrets: [String]
    /// Main steps (parallel groups flattened), not counting `finally`.
    public var steps: Int
    /// `finally` steps.
    public var finallySteps: Int
    /// Parse problems (the lane is listed anyway, so one broken file does not hide the others).
    public var problems: [String]
}
