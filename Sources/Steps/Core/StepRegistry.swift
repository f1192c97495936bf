import Basics

/// The steps a lane can use: the built-ins listed explicitly here, steps registered by a Swift
/// program that links Slipway, and external plugins found on `PATH`.
public struct StepRegistry: Sendable {
    /// Every built-in step, in the order `slipway steps` lists them. A test walks this list.
    public static var builtInTypes: [any Step.Type] {
        [
            RunStep.self,
            SwiftBuildStep.self,
            SwiftTestStep.self,
            GitEnsureCleanStep.self,
            VersionBumpStep.self,
            ChangelogUpdateStep.self,
            GitCommitStep.self,
            GitTagStep.self,
            GitPushStep.self,
            ArchiveStep.self,
            ChecksumsStep.self,
            SignStep.self,
            UploadStep.self,
            SyncStep.self,
            LintStep.self,
            XcodeSelectStep.self,
            XcodeBuildStep.self,
            XcodeTestStep.self,
            XcodeArchiveStep.self,
            XcodeExportStep.self,
            AppStorePreflightStep.self,
            AppStoreUploadStep.self,
            AppStoreBuildNumberStep.self,
            AppleNotarizeStep.self,
            AppleStapleStep.self,
            TestFlightDistributeStep.self,
            AppStoreSubmitStep.self,
            AppStoreMetadataStep.self,
            SigningSyncStep.self,
            SigningCleanupStep.self,
            NotifyStep.self,
        ] + platformBuiltInTypes
    }

    private let kinds: [String: StepKind]
    private let pluginLocator: PluginLocator?

    /// A registry of the built-ins plus `extra` kinds; external plugins are looked up through
    /// `pluginLocator` (nil disables plugins).
    public init(extra: [StepKind] = [], pluginLocator: PluginLocator? = nil) {
        var kinds: [String: StepKind] = [:]
        for type in Self.builtInTypes {
            let kind = Self.kind(for: type)
            kinds[kind.description.id] = kind
        }
        for kind in extra { kinds[kind.description.id] = kind }
        self.kinds = kinds
        self.pluginLocator = pluginLocator
    }

    private static func kind<S: Step>(for type: S.Type) -> StepKind { StepKind(type) }

    /// Built-in and registered kinds, sorted by id.
    public var builtInKinds: [StepKind] {
        kinds.values.sorted { $0.description.id < $1.description.id }
    }

    /// The ids of built-in and registered kinds.
    public var knownIDs: [String] { kinds.keys.sorted() }

    /// A built-in or registered kind.
    public func builtIn(_ id: String) -> StepKind? { kinds[id] }

    /// The kind for `id`: a built-in, or an external plugin `slipway-step-<id>` on the search
    /// path (asked to describe itself). Throws `PluginError` when a plugin exists but is
    /// broken; returns nil when there is no such step at all.
    public func kind(for id: String) async throws -> StepKind? {
        if let kind = kinds[id] { return kind }
        guard let pluginLocator else { return nil }
        return try await pluginLocator.kind(for: id)
    }

    /// All plugins on the search path, described (for `slipway steps`); broken ones are skipped
    /// and returned as errors beside.
    public func plugins() async -> (kinds: [StepKind], problems: [String]) {
        guard let pluginLocator else { return ([], []) }
        return await pluginLocator.allPlugins()
    }
}
