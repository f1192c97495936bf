/// A configuration together with the target (or project) that owns it.
public struct OwnedConfiguration: Hashable, Sendable {
    /// The owning target's id, or the project object's id.
    public let ownerID: ObjectID
    /// The target's name, or nil for the project's own configurations.
    public let targetName: String?
    /// The configuration.
    public let configuration: BuildConfiguration
}

/// What `setBuildSetting(_:to:targets:configurations:addWhereMissing:)` did.
public struct BuildSettingUpdate: Hashable, Sendable {
    /// The configurations whose value changed.
    public var changedConfigurations: [ObjectID] = []
    /// Targets none of whose (selected) configurations define the setting. When
    /// `addWhereMissing` is false they were left alone.
    public var targetsLackingSetting: [String] = []
}

extension PBXProject {
    /// The build settings of one configuration.
    public func buildSettings(of configuration: ObjectID) -> PBXDictionary? {
        buildConfiguration(configuration)?.buildSettings
    }

    /// Sets (or with nil removes) one build setting of one configuration; only that line of the
    /// file changes.
    /// - Throws: `PBXProjError.missingObject` / `.wrongObjectKind` for a bad configuration id.
    public mutating func setBuildSetting(_ key: String, to value: PBXValue?, in configuration: ObjectID) throws {
        try modify(configuration) { object in
            guard object.isa == PBXIsa.buildConfiguration else {
                throw PBXProjError.wrongObjectKind(id: configuration.rawValue, isa: object.isa, expected: "an XCBuildConfiguration")
            }
            var settings = object["buildSettings"]?.dictionary ?? PBXDictionary()
            settings[key] = value
            object["buildSettings"] = .dictionary(settings)
        }
    }

    /// The configurations of the named targets (nil: every target; empty list: the project's
    /// own), filtered to the named configurations (nil: all).
    /// - Throws: `PBXProjError.invalidArgument` naming a target or configuration that does not
    ///   exist, with the names that do.
    public func configurations(targets names: [String]?, configurations configurationNames: [String]? = nil) throws -> [OwnedConfiguration] {
        var result: [OwnedConfiguration] = []
        if let names, names.isEmpty {
            if let root = rootObjectID {
                result = buildConfigurations(of: root).map { OwnedConfiguration(ownerID: root, targetName: nil, configuration: $0) }
            }
        } else {
            let all = targets
            for name in names ?? [] where !all.contains(where: { $0.name == name }) {
                let known = all.map { "'\($0.name)'" }.joined(separator: ", ")
                throw PBXProjError.invalidArgument(message: "no target named '\(name)'; the project's targets are \(known)")
            }
            for target in all where names?.contains(target.name) ?? true {
                result += buildConfigurations(of: target.id).map {
                    OwnedConfiguration(ownerID: target.id, targetName: target.name, configuration: $0)
                }
            }
        }
        guard let configurationNames else { return result }
        let available = Set(result.map(\.configuration.name))
        for name in configurationNames where !available.contains(name) {
            let known = available.sorted().map { "'\($0)'" }.joined(separator: ", ")
            throw PBXProjError.invalidArgument(message: "no build configuration named '\(name)'; the configurations are \(known)")
        }
        return result.filter { configurationNames.contains($0.configuration.name) }
    }

    /// Sets a build setting on the configurations of the named targets (nil: all targets) —
    /// what version stamping does with `MARKETING_VERSION` and `CURRENT_PROJECT_VERSION`.
    ///
    /// Like `agvtool`, by default only configurations that already define the setting change;
    /// targets that define it nowhere are reported in `targetsLackingSetting`.
    /// - Throws: what `configurations(targets:configurations:)` throws.
    @discardableResult
    public mutating func setBuildSetting(
        _ key: String, to value: String, targets names: [String]? = nil, configurations configurationNames: [String]? = nil,
        addWhereMissing: Bool = false
    ) throws -> BuildSettingUpdate {
        var update = BuildSettingUpdate()
        let selected = try configurations(targets: names, configurations: configurationNames)
        var definedIn: [String: Bool] = [:]
        for owned in selected {
            let target = owned.targetName ?? projectName
            let has = owned.configuration.buildSettings[key] != nil
            definedIn[target] = (definedIn[target] ?? false) || has
        }
        let lacking = Set(definedIn.filter { !$0.value }.map(\.key))
        for owned in selected {
            let has = owned.configuration.buildSettings[key] != nil
            guard has || addWhereMissing else { continue }
            guard owned.configuration.buildSettings[key] != .string(value) else { continue }
            try setBuildSetting(key, to: .string(value), in: owned.configuration.id)
            update.changedConfigurations.append(owned.configuration.id)
        }
        var seen: Set<String> = []
        update.targetsLackingSetting = selected.compactMap { $0.targetName ?? projectName }
            .filter { lacking.contains($0) && seen.insert($0).inserted }
        return update
    }

    /// Removes a build setting from the configurations of the named targets (nil: all targets;
    /// empty list: the project's own), filtered to the named configurations; returns the
    /// configurations that had it.
    /// - Throws: what `configurations(targets:configurations:)` throws.
    @discardableResult
    public mutating func removeBuildSetting(
        _ key: String, targets names: [String]? = nil, configurations configurationNames: [String]? = nil
    ) throws -> [ObjectID] {
        var changed: [ObjectID] = []
        for owned in try configurations(targets: names, configurations: configurationNames)
        where owned.configuration.buildSettings[key] != nil {
            try setBuildSetting(key, to: nil, in: owned.configuration.id)
            changed.append(owned.configuration.id)
        }
        return changed
    }

    /// The named targets (nil: all) none of whose configurations define `key`.
    /// - Throws: what `configurations(targets:configurations:)` throws.
    public func targetsLacking(buildSetting key: String, targets names: [String]? = nil) throws -> [String] {
        var result: [String] = []
        for target in targets where names?.contains(target.name) ?? true {
            if !buildConfigurations(of: target.id).contains(where: { $0.buildSettings[key] != nil }) {
                result.append(target.name)
            }
        }
        if let names {
            for name in names where !targets.contains(where: { $0.name == name }) {
                throw PBXProjError.invalidArgument(message: "no target named '\(name)'")
            }
        }
        return result
    }
}
