import PBXProj

/// Build settings naming files that are not there.
public struct MissingSettingFileRule: LintRule {
    public init() {}
    public var id: String { "missing-setting-file" }
    public var summary: String {
        "A build setting names a file that does not exist (INFOPLIST_FILE, CODE_SIGN_ENTITLEMENTS, SWIFT_OBJC_BRIDGING_HEADER, GCC_PREFIX_HEADER, MODULEMAP_FILE, the base .xcconfig); a project-level value that every target sets itself is never read and not checked."
    }
    public var defaultSeverity: LintSeverity { .error }
    public var examples: [LintExample] {
        [LintExample("an Info.plist that moved and an entitlements file that is there",
                     objects: [], settings: "INFOPLIST_FILE = App/Info.plist; CODE_SIGN_ENTITLEMENTS = \"$(SRCROOT)/App/App.entitlements\";",
                     files: ["App/App.entitlements"],
                     expected: ["11: INFOPLIST_FILE of configuration 'Debug' (project) names 'App/Info.plist', which does not exist; fix the setting or restore the file"])]
    }

    static let keys = ["INFOPLIST_FILE", "CODE_SIGN_ENTITLEMENTS", "SWIFT_OBJC_BRIDGING_HEADER", "GCC_PREFIX_HEADER", "MODULEMAP_FILE"]
    static let prefixes = ["$(SRCROOT)/", "${SRCROOT}/", "$(PROJECT_DIR)/", "${PROJECT_DIR}/", "$(SOURCE_ROOT)/", "${SOURCE_ROOT}/"]

    public func check(_ context: LintContext) -> [LintFinding] {
        guard let project = context.project else { return [] }
        let configurations = ((try? project.configurations(targets: [])) ?? []) + ((try? project.configurations(targets: nil)) ?? [])
        let projectDirPath = ProjectPath.normalize(project.projectObject?.string("projectDirPath") ?? "")
        var findings: [LintFinding] = []
        let targetConfigurations = configurations.filter { $0.targetName != nil }
        let targets = Set(targetConfigurations.compactMap(\.targetName))
        /// Whether every target's configuration of this name sets `key` itself (a project-level
        /// value no build reads).
        func overriddenEverywhere(_ key: String, configuration name: String) -> Bool {
            let setting = Set(targetConfigurations.filter {
                $0.configuration.name == name && $0.configuration.buildSettings[key]?.string?.isEmpty == false
            }.compactMap(\.targetName))
            return !targets.isEmpty && setting == targets
        }
        for owned in configurations {
            let configuration = owned.configuration
            let owner = owned.targetName.map { "target '\($0)'" } ?? "project"
            for key in Self.keys {
                guard var value = configuration.buildSettings[key]?.string, !value.isEmpty else { continue }
                if owned.targetName == nil, overriddenEverywhere(key, configuration: configuration.name) { continue }
                if let prefix = Self.prefixes.first(where: { value.hasPrefix($0) }) { value.removeFirst(prefix.count) }
                guard !value.contains("$") else { continue }
                let path = value.hasPrefix("/") ? value : ProjectPath.join(projectDirPath, value)
                guard !context.files.exists(path) else { continue }
                findings.append(finding(
                    "\(key) of configuration '\(configuration.name)' (\(owner)) names '\(value)', which does not exist; fix the setting or restore the file",
                    at: configuration.id, in: context, subject: path))
            }
            if let base = configuration.baseConfigurationReference, !project.contains(base) {
                findings.append(finding(
                    "the base configuration file of '\(configuration.name)' (\(owner)) is '\(base)', which is not an object; choose the .xcconfig again in Xcode",
                    at: configuration.id, in: context))
            }
        }
        return findings
    }
}
