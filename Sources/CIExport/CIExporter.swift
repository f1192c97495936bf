import Basics
import Lanes
import Steps

/// `slipway ci export` and `slipway ci check`: a lane validated for every platform, laid out
/// as jobs and written for one CI engine.
public struct CIExporter: Sendable {
    let store: LaneStore
    let registry: StepRegistry
    let fileSystem: any FileSystem

    /// An exporter for the lanes in `store`, with the steps of `registry`.
    public init(store: LaneStore, registry: StepRegistry, fileSystem: any FileSystem) {
        self.store = store
        self.registry = registry
        self.fileSystem = fileSystem
    }

    /// Loads and validates lane `name` without tying it to this machine's platform (each step
    /// will run on a runner of its own platforms).
    public func validate(_ name: String) async throws -> ValidatedLane {
        let lane = try store.load(name)
        return try await LaneValidator(registry: registry, platform: nil, projectDirectory: store.projectDirectory,
                                       fileSystem: fileSystem).validate(lane)
    }

    /// The pipeline file for lane `name`: the same bytes on every run for the same lane and
    /// options.
    public func export(_ name: String, to engine: CIEngine, options: CIExportOptions) async throws -> String {
        try Self.render(try CIPlanner.plan(try await validate(name)), engine: engine, options: options)
    }

    /// Compares `file` with what `export` would write; nil when equal, a unified diff (from the
    /// file to the expected text) otherwise. A missing file reads as empty.
    public func check(_ name: String, to engine: CIEngine, options: CIExportOptions, file: String) async throws -> String? {
        let expected = try await export(name, to: engine, options: options)
        let path = file.hasPrefix("/") ? file : store.projectDirectory + "/" + file
        let actual = fileSystem.exists(path) ? try fileSystem.readText(path) : ""
        if actual == expected { return nil }
        return LineDiff.unified(from: actual, to: expected, fromName: file, toName: "slipway ci export \(name) --to \(engine.rawValue)")
    }

    /// `plan` written for `engine`.
    /// Throws `CIExportError.unsafePipelineText` or `.duplicatePipelineKey` when text from the
    /// plan or the options would change the file's structure.
    public static func render(_ plan: CIPlan, engine: CIEngine, options: CIExportOptions) throws -> String {
        switch engine {
        case .githubActions: return try GitHubActionsRenderer.render(plan, options: options)
        case .gitlab: return try GitLabRenderer.render(plan, options: options)
        case .buildkite: return try BuildkiteRenderer.render(plan, options: options)
        }
    }
}
