import PBXProj

/// Build settings written in the project file rather than in xcconfig files (opt-in).
public struct ProjectSettingsRule: LintRule {
    public init() {}
    public var id: String { "settings-in-project" }
    public var summary: String { "A configuration sets build settings in the project file instead of an .xcconfig file (opt-in)." }
    public var defaultSeverity: LintSeverity { .warning }
    public var isOptIn: Bool { true }
    public var examples: [LintExample] {
        [LintExample("settings kept in the project",
                     objects: [], settings: "SWIFT_VERSION = 5.0; ENABLE_TESTABILITY = YES;",
                     expected: ["11: configuration 'Debug' (project) sets 2 build settings (ENABLE_TESTABILITY, SWIFT_VERSION) in the project file; move them to an .xcconfig file"])]
    }

    public func check(_ context: LintContext) -> [LintFinding] {
        guard let project = context.project else { return [] }
        let configurations = ((try? project.configurations(targets: [])) ?? []) + ((try? project.configurations(targets: nil)) ?? [])
        return configurations.compactMap { owned in
            let keys = owned.configuration.buildSettings.keys.sorted()
            guard !keys.isEmpty else { return nil }
            let owner = owned.targetName.map { "target '\($0)'" } ?? "project"
            let shown = keys.prefix(5).joined(separator: ", ") + (keys.count > 5 ? ", ..." : "")
            return finding("configuration '\(owned.configuration.name)' (\(owner)) sets \(keys.count) build settings (\(shown)) in the project file; move them to an .xcconfig file",
                           at: owned.configuration.id, in: context)
        }
    }
}
