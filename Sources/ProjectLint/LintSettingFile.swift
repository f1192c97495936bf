import PBXProj

/// A file a build setting names (`INFOPLIST_FILE`, `CODE_SIGN_ENTITLEMENTS`, ...) in one
/// configuration, as `missing-setting-file` checks it and `unchecked-reference` notes it.
struct LintSettingFile: Sendable {
    /// The setting (nil: the base `.xcconfig` that Xcode 16 places in a synchronized folder).
    let key: String?
    /// The configuration's name (`Debug`).
    let configurationName: String
    /// The configuration object.
    let configurationID: ObjectID
    /// `target 'App'` or `project`.
    let owner: String
    /// The value as shown (without a leading `$(SRCROOT)/`; the base `.xcconfig`'s path).
    let value: String
    /// The file's path relative to the project's folder (or absolute).
    let path: String

    /// The settings that name a file.
    static let keys = ["INFOPLIST_FILE", "CODE_SIGN_ENTITLEMENTS", "SWIFT_OBJC_BRIDGING_HEADER", "GCC_PREFIX_HEADER", "MODULEMAP_FILE"]
    /// Leading settings that stand for the project's folder.
    static let prefixes = ["$(SRCROOT)/", "${SRCROOT}/", "$(PROJECT_DIR)/", "${PROJECT_DIR}/", "$(SOURCE_ROOT)/", "${SOURCE_ROOT}/"]

    /// The finding when the file is missing: what names it and what to do.
    var missingMessage: String {
        guard let key else {
            return "the base configuration file of '\(configurationName)' (\(owner)) is '\(value)', which does not exist; "
                + "choose the .xcconfig again in Xcode or restore the file"
        }
        return "\(key) of configuration '\(configurationName)' (\(owner)) names '\(value)', which does not exist; fix the setting or restore the file"
    }

    /// Every file a configuration of the project or of a target names, in configuration order;
    /// a project-level value that every target sets itself is never read and left out, and so is a
    /// value holding another build setting (known only in a build). A base `.xcconfig` given as a
    /// file reference is the reference's (`missing-file`); one given as a path inside a
    /// synchronized folder (Xcode 16's `baseConfigurationReferenceAnchor`) is checked here.
    static func all(_ context: LintContext) -> [LintSettingFile] {
        guard let project = context.project else { return [] }
        let configurations = ((try? project.configurations(targets: [])) ?? []) + ((try? project.configurations(targets: nil)) ?? [])
        let projectDirPath = ProjectPath.normalize(project.projectObject?.string("projectDirPath") ?? "")
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
        var result: [LintSettingFile] = []
        var folders: [ObjectID: ResolvedPath]?
        for owned in configurations {
            let configuration = owned.configuration
            let owner = owned.targetName.map { "target '\($0)'" } ?? "project"
            for key in keys {
                guard var value = configuration.buildSettings[key]?.string, !value.isEmpty else { continue }
                if owned.targetName == nil, overriddenEverywhere(key, configuration: configuration.name) { continue }
                if let prefix = prefixes.first(where: { value.hasPrefix($0) }) { value.removeFirst(prefix.count) }
                guard !value.contains("$") else { continue }
                let path = value.hasPrefix("/") ? value : ProjectPath.join(projectDirPath, value)
                result.append(LintSettingFile(key: key, configurationName: configuration.name, configurationID: configuration.id,
                                              owner: owner, value: value, path: path))
            }
            if let anchor = configuration.baseConfigurationReferenceAnchor,
                let relative = configuration.baseConfigurationReferenceRelativePath, !relative.isEmpty, !relative.contains("$") {
                if folders == nil { folders = context.groupTree?.resolvedPaths() ?? [:] }
                guard case .relative(let folder) = folders?[anchor] else { continue }
                let path = ProjectPath.join(folder, relative)
                result.append(LintSettingFile(key: nil, configurationName: configuration.name, configurationID: configuration.id,
                                              owner: owner, value: path, path: path))
            }
        }
        return result
    }
}
