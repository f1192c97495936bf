import Basics
import PBXProj

/// One place where a configuration's build setting gets its value: a key of a build
/// configuration in the pbxproj, or an assignment in an `.xcconfig` file.
struct SettingSite: Sendable {
    /// What identifies the place (two configurations sharing an xcconfig line share it).
    enum Place: Hashable, Sendable {
        case pbxproj(configuration: ObjectID, key: String)
        case xcconfig(path: String, start: Int, end: Int)
    }

    let place: Place
    /// The setting as written, with its conditions (`MARKETING_VERSION[sdk=iphoneos*]`).
    let key: String
    /// The value there now.
    let value: String
    /// The file's real path.
    let file: String
    /// The 1-based line, when known.
    let line: Int?
}

/// Finds where a target configuration's build setting is defined, the way Xcode resolves it:
/// the target's own settings, the target configuration's base `.xcconfig` (its `#include` and
/// `#include?` files in place, later lines winning), then the project's settings and the
/// project's base `.xcconfig`. `$(inherited)` continues to the level below; a value that is
/// exactly `$(OTHER)` is followed to where `OTHER` is defined. Everything the project cannot
/// say for sure is collected in `problems` (file:line, what to do), never skipped.
struct XcodeSettingLocator {
    /// Bounds on what a checkout can make this read.
    static let maximumFileSize = 1 << 20
    static let maximumIncludeDepth = 16
    static let maximumReferenceDepth = 8

    let project: PBXProject
    let file: ProjectFile
    let paths: ConfinedPaths
    let pbxprojLines: [Substring]
    var problems: [String] = []
    /// What the reader should know but need not fix: an optional `#include?` skipped, an
    /// `#include` found only by ignoring case (as macOS does).
    var notes: [String] = []
    /// Resolve an `#include` whose exact name is missing by ignoring case, as Xcode does on a
    /// case-insensitive disk (macOS's default): set when the lane is planned for macOS.
    var includesIgnoreCase = false
    /// Parsed xcconfig files by real path.
    var parsed: [String: XcconfigFile] = [:]
    /// The flattened base-configuration chain of each configuration, with what reading it found.
    var chains: [ObjectID: Chain] = [:]
    /// The chain read from each base `.xcconfig` (by path), shared by the configurations based on
    /// it; its messages say `Chain.origin` where the configuration's label goes.
    var fileChains: [String: Chain] = [:]
    /// The project's own configurations (the level below each target's).
    private var projectConfigurations: [OwnedConfiguration]?
    private lazy var locations: [ObjectID: PBXProj.SourceLocation] = project.locations(of: project.targets.flatMap { project.buildConfigurations(of: $0.id).map(\.id) }
        + (project.rootObjectID.map { project.buildConfigurations(of: $0).map(\.id) } ?? []))

    init(project: PBXProject, file: ProjectFile, pbxprojText: String, paths: ConfinedPaths) {
        self.project = project
        self.file = file
        self.paths = paths
        pbxprojLines = pbxprojText.split(separator: "\n", omittingEmptySubsequences: false)
    }

    /// While set, problems and notes are not recorded: `peek` looks without judging. A chain read
    /// meanwhile is cached with its problems, which are recorded when it is used to write.
    var quiet = false

    mutating func problem(_ message: String) {
        if !quiet && !problems.contains(message) { problems.append(message) }
    }

    mutating func note(_ message: String) {
        if !quiet && !notes.contains(message) { notes.append(message) }
    }

    /// The value of `key` for one configuration as far as the files can be read (the last
    /// unconditional assignment at the highest level), recording no problem: for finding which
    /// targets use an Info.plist, where a target that is not written must not fail the stamp.
    mutating func peek(_ key: String, in owned: OwnedConfiguration) -> String? {
        // A chain read while quiet keeps its problems: they are recorded when it is used to write.
        let saved = quiet
        quiet = true
        defer { quiet = saved }
        for level in levels(of: owned) {
            if let site = assignments(of: key, at: level).unconditional.last(where: { !Self.isInherited($0.value) }) { return site.value }
        }
        return nil
    }

    /// Where `key` is defined for one target configuration: every site to write (an
    /// unconditional one and any `[sdk=...]` ones), or nil when nothing defines it.
    mutating func sites(of key: String, in owned: OwnedConfiguration, following: [String] = []) -> [SettingSite]? {
        var found: [SettingSite] = []
        for level in levels(of: owned) {
            let (conditional, unconditional) = assignments(of: key, at: level)
            for site in conditional where !Self.isInherited(site.value) {
                found += resolve(site, setting: key, in: owned, following: following)
            }
            for site in unconditional.reversed() where !Self.isInherited(site.value) {
                return found + resolve(site, setting: key, in: owned, following: following)
            }
        }
        return found.isEmpty ? nil : found
    }

    /// The assignment that gives `key` its value for one configuration, as written (references
    /// not followed): the last unconditional one at the highest level that has one, else the
    /// last conditional one there. The levels are read from the highest down and no further than
    /// the one that assigns the key, so a problem below it (a missing `#include` in a base file
    /// the target's own setting overrides) is not recorded; nil when no level assigns it (every
    /// level read, its problems and notes recorded as `sites` does).
    mutating func writtenSite(of key: String, in owned: OwnedConfiguration) -> SettingSite? {
        if let site = lastSite(of: key, at: .settings(owned.configuration)) { return site }
        if let site = lastSite(of: key, at: .xcconfig(chain(of: owned))) { return site }
        if projectConfigurations == nil { projectConfigurations = (try? project.configurations(targets: [])) ?? [] }
        guard owned.targetName != nil,
              let projectOwned = projectConfigurations?.first(where: { $0.configuration.name == owned.configuration.name }) else { return nil }
        if let site = lastSite(of: key, at: .settings(projectOwned.configuration)) { return site }
        return lastSite(of: key, at: .xcconfig(chain(of: projectOwned)))
    }

    private mutating func lastSite(of key: String, at level: Level) -> SettingSite? {
        let (conditional, unconditional) = assignments(of: key, at: level)
        return unconditional.last(where: { !Self.isInherited($0.value) }) ?? conditional.last(where: { !Self.isInherited($0.value) })
    }

    /// The site itself when its value is a literal; where `OTHER` is defined when it is exactly
    /// `$(OTHER)`; a problem otherwise.
    private mutating func resolve(_ site: SettingSite, setting key: String, in owned: OwnedConfiguration, following: [String]) -> [SettingSite] {
        guard site.value.contains("$") else { return [site] }
        let location = describe(site)
        guard let other = Self.reference(in: site.value) else {
            problem("\(location): \(site.key) is '\(site.value)', an expression slipway cannot write; set it to a literal value there (\(key) = 1.2.0), or to exactly $(OTHER_SETTING) with OTHER_SETTING defined as a literal")
            return []
        }
        let chain = following + [key]
        guard !chain.contains(other), chain.count <= Self.maximumReferenceDepth else {
            problem("\(location): \(site.key) is '\(site.value)', and the settings refer to each other in a cycle (\((chain + [other]).joined(separator: " → "))); set one of them to a literal value")
            return []
        }
        guard let sites = sites(of: other, in: owned, following: chain) else {
            problem("\(location): \(site.key) is '\(site.value)', but \(other) is defined nowhere for \(label(owned)); define \(other) as a literal, or set \(site.key) to a literal value there")
            return []
        }
        return sites
    }

    /// `file:line` (relative to the root) of a site.
    func describe(_ site: SettingSite) -> String {
        let path = paths.display(site.file)
        return "'\(site.line.map { "\(path):\($0)" } ?? path)'"
    }

    /// "target 'App' (configuration 'Release')".
    func label(_ owned: OwnedConfiguration) -> String {
        "\(owned.targetName.map { "target '\($0)'" } ?? "the project") (configuration '\(owned.configuration.name)')"
    }

    /// `NAME` when `value` is exactly `$(NAME)`, `${NAME}` or `$NAME` (Xcode reads the bare form
    /// as the others).
    static func reference(in value: String) -> String? {
        func isName<S: StringProtocol>(_ name: S) -> Bool {
            guard let first = name.first, first.isASCII, first.isLetter || first == "_" else { return false }
            return name.allSatisfy { $0.isASCII && ($0.isLetter || $0.isNumber || $0 == "_") }
        }
        if value.hasPrefix("$"), !value.hasPrefix("$("), !value.hasPrefix("${") {
            let name = value.dropFirst()
            return isName(name) ? String(name) : nil
        }
        let close: String
        if value.hasPrefix("$(") { close = ")" } else if value.hasPrefix("${") { close = "}" } else { return nil }
        guard value.hasSuffix(close), value.count > 3 else { return nil }
        let name = value.dropFirst(2).dropLast()
        guard isName(name) else { return nil }
        return String(name)
    }

    static func isInherited(_ value: String) -> Bool {
        value == "$(inherited)" || value == "${inherited}" || value == "$inherited"
    }

    // MARK: Levels

    enum Level {
        case settings(BuildConfiguration)
        case xcconfig([(file: String, assignment: XcconfigFile.Assignment)])
    }

    mutating func levels(of owned: OwnedConfiguration) -> [Level] {
        var levels: [Level] = [.settings(owned.configuration), .xcconfig(chain(of: owned))]
        if projectConfigurations == nil { projectConfigurations = (try? project.configurations(targets: [])) ?? [] }
        if owned.targetName != nil,
           let projectOwned = projectConfigurations?.first(where: { $0.configuration.name == owned.configuration.name }) {
            levels += [.settings(projectOwned.configuration), .xcconfig(chain(of: projectOwned))]
        }
        return levels
    }

    private mutating func assignments(of key: String, at level: Level) -> (conditional: [SettingSite], unconditional: [SettingSite]) {
        var conditional: [String: SettingSite] = [:]
        var order: [String] = []
        var unconditional: [SettingSite] = []
        func add(_ site: SettingSite, conditions: String) {
            if conditions.isEmpty { unconditional.append(site); return }
            if conditional[conditions] == nil { order.append(conditions) }
            conditional[conditions] = site
        }
        switch level {
        case .settings(let configuration):
            for entry in configuration.buildSettings.entries where entry.key == key || entry.key.hasPrefix(key + "[") {
                let line = line(of: entry.key, in: configuration.id)
                guard let value = entry.value.string else {
                    problem("'\(paths.display(file.pbxprojPath))\(line.map { ":\($0)" } ?? "")': \(entry.key) is a list, not a value slipway can write; make it a single literal value")
                    continue
                }
                add(SettingSite(place: .pbxproj(configuration: configuration.id, key: entry.key), key: entry.key, value: value, file: paths.confined(file.pbxprojPath) ?? file.pbxprojPath, line: line),
                    conditions: String(entry.key.dropFirst(key.count)))
            }
        case .xcconfig(let assignments):
            for (path, assignment) in assignments where assignment.key == key {
                add(SettingSite(place: .xcconfig(path: path, start: assignment.start, end: assignment.end), key: key + assignment.conditions,
                                value: assignment.value, file: path, line: assignment.line),
                    conditions: assignment.conditions)
            }
        }
        return (order.compactMap { conditional[$0] }, unconditional)
    }

    /// The line of `key = ...` inside the configuration object (the file as read).
    private mutating func line(of key: String, in configuration: ObjectID) -> Int? {
        guard let start = locations[configuration]?.line else { return nil }
        for index in (start - 1)..<min(start + 400, pbxprojLines.count) where index >= 0 {
            let trimmed = pbxprojLines[index].drop { $0 == " " || $0 == "\t" }
            if trimmed.hasPrefix(key + " =") || trimmed.hasPrefix("\"" + key + "\" =") { return index + 1 }
        }
        return start
    }
}
