import Basics
import Lanes
import Networking
import Pins
import Steps

/// The project's pinned tools as the lane runner sees them (`requires:` and pinned plugins).
struct PinnedTools: ToolRequirements {
    let verifier: ToolVerifier

    init(_ env: CommandEnvironment) {
        verifier = ToolVerifier(context: PinsContext(projectDirectory: env.projectDirectory, fileSystem: env.fileSystem,
                                                     processRunner: env.processRunner, environment: env.environment))
    }

    func requireVerified(names: [String]) async throws {
        try await verifier.requireVerified(names: names)
    }

    func executableDirectories() throws -> [String] {
        try verifier.executableDirectories()
    }
}

extension CommandEnvironment {
    /// The project's lanes and steps, with its pinned tools (for `requires:` and plugins).
    ///
    /// `runsCheckoutPlugins`: whether plugins from the checkout may be executed without being in
    /// the trust file: true for a real `run` (the lane asks for them), `--trust-plugins` elsewhere.
    /// The steps' HTTP client is made here, once for the workspace.
    /// `platform`: the one lanes are validated and planned for (`--platform`).
    func workspace(lanes: String = "lanes", runsCheckoutPlugins: Bool, platform: Platform = .current) -> LaneWorkspace {
        let trust = PluginTrust.load(projectDirectory: projectDirectory, runsCheckoutPlugins: runsCheckoutPlugins,
                                     environment: environment, fileSystem: fileSystem)
        return LaneWorkspace(projectDirectory: projectDirectory, lanesDirectory: lanes, fileSystem: fileSystem,
                             processRunner: processRunner, environment: environment,
                             stepServices: StepServices(httpClient: SystemHTTPClient()), tools: PinnedTools(self),
                             platform: platform, pluginTrust: trust)
    }
}
