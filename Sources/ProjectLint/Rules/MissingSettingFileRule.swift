import PBXProj

/// Build settings naming files that are not there.
public struct MissingSettingFileRule: LintRule {
    public init() {}
    public var id: String { "missing-setting-file" }
    public var summary: String {
        "A build setting names a file that does not exist (INFOPLIST_FILE, CODE_SIGN_ENTITLEMENTS, SWIFT_OBJC_BRIDGING_HEADER, GCC_PREFIX_HEADER, MODULEMAP_FILE, the base .xcconfig); a project-level value that every target sets itself is never read and not checked. "
            + "A missing file that git ignores (a build's output), that a tool makes (`Pods/`, `Carthage/Build/`) or that lies in a submodule not checked out is what `missing-file` says it is: part of `unchecked-reference`'s note, not an error."
    }
    public var defaultSeverity: LintSeverity { .error }
    public var examples: [LintExample] {
        [LintExample("an Info.plist that moved and an entitlements file that is there",
                     objects: [], settings: "INFOPLIST_FILE = App/Info.plist; CODE_SIGN_ENTITLEMENTS = \"$(SRCROOT)/App/App.entitlements\";",
                     files: ["App/App.entitlements"],
                     expected: ["11: INFOPLIST_FILE of configuration 'Debug' (project) names 'App/Info.plist', which does not exist; fix the setting or restore the file"])]
    }

    public func check(_ context: LintContext) -> [LintFinding] {
        guard let project = context.project else { return [] }
        // Which missing file is an error is `LintReferences`' decision, shared with `missing-file`:
        // a file a tool makes, that git ignores or that is in a submodule not checked out is in
        // `unchecked-reference`'s note instead.
        var missing: [ObjectID: [LintSettingFile]] = [:]
        for setting in context.references.missingSettings { missing[setting.configurationID, default: []].append(setting) }
        let configurations = ((try? project.configurations(targets: [])) ?? []) + ((try? project.configurations(targets: nil)) ?? [])
        var findings: [LintFinding] = []
        var reported = Set<ObjectID>()
        for owned in configurations {
            let configuration = owned.configuration
            let owner = owned.targetName.map { "target '\($0)'" } ?? "project"
            if reported.insert(configuration.id).inserted {
                for setting in missing[configuration.id] ?? [] {
                    findings.append(finding(setting.missingMessage, at: setting.configurationID, in: context, subject: setting.path))
                }
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
