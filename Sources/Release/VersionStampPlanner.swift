import Basics
import Foundation
import PBXProj

/// Works out a `VersionStampPlan`: reads every file, finds where each value is really defined
/// (see `XcodeSettingLocator`), gathers every problem, and only then builds the new texts.
struct VersionStampPlanner {
    let fileSystem: any FileSystem
    let paths: ConfinedPaths
    var locator: XcodeSettingLocator?
    var problems: [String] = []
    /// What the reader should know (targets left out by default).
    var notes: [String] = []
    var changes: [VersionChange] = []
    /// New texts of plain files (VERSION, pattern files, Info.plists) by path, in order.
    var texts: [(path: String, text: String)] = []
    var sites: [(site: SettingSite, new: String)] = []
    var siteIndex: [SettingSite.Place: Int] = [:]
    /// The index in `changes` of each site's change (to add the targets that share it).
    var siteChange: [SettingSite.Place: Int] = [:]

    init(fileSystem: any FileSystem, root: String?, targets: [VersionStamper.Target]) throws {
        self.fileSystem = fileSystem
        var projectPath: String?
        for case .xcodeproj(let path, _) in targets where projectPath == nil { projectPath = path }
        let project = projectPath.map { ProjectFile(path: $0) }
        paths = ConfinedPaths(fileSystem: fileSystem, root: root ?? project?.projectDirectory ?? fileSystem.currentDirectoryPath)
        if let project {
            let text = try fileSystem.readText(project.pbxprojPath, as: .projectFile)
            let model = try PBXProject(bytes: Array(text.utf8), projectName: project.projectName)
            locator = XcodeSettingLocator(project: model, file: project, pbxprojText: text, paths: paths)
        }
    }

    mutating func problem(_ message: String) {
        if !problems.contains(message) { problems.append(message) }
    }

    mutating func setText(_ text: String, of path: String) {
        if let index = texts.firstIndex(where: { $0.path == path }) { texts[index].text = text } else { texts.append((path, text)) }
    }

    /// Records that `site` gets `new`; a site asked for two different values is a problem.
    mutating func write(_ site: SettingSite, _ new: String, reason: String? = nil, role: VersionChange.Role, target: String? = nil) {
        if let index = siteIndex[site.place] {
            if let target, let change = siteChange[site.place], !changes[change].targets.contains(target) {
                changes[change].targets.append(target)
            }
            if sites[index].new != new, let locator {
                problem("\(locator.describe(site)): \(site.key) would be written both as '\(sites[index].new)' and as '\(new)' (it defines both the version and the build number); define MARKETING_VERSION and CURRENT_PROJECT_VERSION separately")
            }
            return
        }
        if case .xcconfig = site.place, new.contains(where: { "\n\r;$".contains($0) }) || new.contains("//"), let locator {
            problem("\(locator.describe(site)): '\(new)' cannot be written into an .xcconfig value (no newline, ';', '$' or '//'); use a plain version or build number")
            return
        }
        siteIndex[site.place] = sites.count
        siteChange[site.place] = changes.count
        sites.append((site, new))
        changes.append(VersionChange(file: paths.display(site.file), line: site.line, key: site.key, old: site.value, new: new, reason: reason,
                                     role: role, targets: target.map { [$0] } ?? []))
    }

    /// MARKETING_VERSION (and CURRENT_PROJECT_VERSION) of the named targets, where defined.
    mutating func stampProject(path: String, targets names: [String]?, settings: [(key: String, value: String)]) throws {
        guard var locator else { return }
        guard ProjectFile(path: path).pbxprojPath == locator.file.pbxprojPath else {
            problem("'\(paths.display(path))': one version stamp writes one Xcode project, and '\(paths.display(locator.file.pbxprojPath))' comes first; use one step per project")
            return
        }
        defer { self.locator = locator }
        var names = names
        if names == nil, let shipping = viaInfoPlists(&locator, path: path, settings: settings) {
            // Each shipping target's Info.plist says where its version comes from.
            names = shipping
            if names?.isEmpty == true { problems = locator.problems.filter { !problems.contains($0) } + problems; return }
        } else if names == nil, !locator.project.shippingTargets().shipping.isEmpty {
            // The version belongs to what ships: the apps and what they embed, not test bundles.
            let shipping = locator.project.shippingTargets()
            names = shipping.shipping
            if !shipping.leftOut.isEmpty {
                let listed = shipping.leftOut.map { "'\($0.target)' (\($0.why))" }.joined(separator: ", ")
                notes.append("'\(paths.display(path))': the version is written for \(shipping.shipping.map { "'\($0)'" }.joined(separator: ", ")); "
                             + "left out: \(listed). List targets in the step's 'targets' option to choose otherwise.")
            }
        }
        let selected = try locator.project.configurations(targets: names).filter { $0.targetName != nil }
        for (key, value) in settings {
            var defined: [(target: String, found: Bool)] = []
            for owned in selected {
                let found = locator.sites(of: key, in: owned)
                for site in found ?? [] {
                    write(site, value, reason: site.key.prefix(while: { $0 != "[" }) == key ? nil : "for \(key)",
                          role: VersionChange.role(of: key), target: owned.targetName)
                }
                let name = owned.targetName ?? ""
                if let index = defined.firstIndex(where: { $0.target == name }) {
                    defined[index].found = defined[index].found || found != nil
                } else {
                    defined.append((name, found != nil))
                }
            }
            let lacking = defined.filter { !$0.found }.map(\.target)
            if !lacking.isEmpty {
                problem(ReleaseError.settingMissing(file: locator.file.pbxprojPath, setting: key, targets: lacking).localizedDescription)
            }
        }
        problems = locator.problems.filter { !problems.contains($0) } + problems
    }

    /// The keys of an Info.plist: literal values are replaced; `$(SETTING)` writes SETTING where
    /// the targets using this Info.plist define it.
    mutating func stampPlist(_ path: String, values: [(key: String, value: String)], targets: [String] = []) throws {
        var text = try fileSystem.readText(path, as: .propertyList)
        let shown = paths.display(path)
        for (key, value) in values {
            guard let (range, old) = VersionStamper.plistString(key, in: text) else { throw ReleaseError.plistKeyMissing(file: path, key: key) }
            if !old.contains("$") {
                let escaped = value.replacingOccurrences(of: "&", with: "&amp;").replacingOccurrences(of: "<", with: "&lt;")
                text.replaceSubrange(range, with: escaped)
                changes.append(VersionChange(file: shown, key: key, old: old, new: value, role: VersionChange.role(of: key), targets: targets))
            } else if let setting = XcodeSettingLocator.reference(in: old) {
                stampReferenced(setting, plist: path, key: key, old: old, value: value)
            } else {
                problem("'\(shown)': \(key) is '\(old)', an expression slipway cannot write; make it a literal value, or exactly $(\(key == "CFBundleVersion" ? "CURRENT_PROJECT_VERSION" : "MARKETING_VERSION"))")
            }
        }
        setText(text, of: path)
    }

    private mutating func stampReferenced(_ setting: String, plist path: String, key: String, old: String, value: String) {
        let shown = paths.display(path)
        guard var locator else {
            problem("'\(shown)': \(key) is '\(old)', a build setting; add the step's option 'xcodeproj' (the project whose targets use this Info.plist) so that \(setting) is written where the project defines it")
            return
        }
        let users = configurations(using: path, in: &locator)
        let projectName = paths.display(ProjectPath.parent(locator.file.pbxprojPath))
        guard !users.isEmpty else {
            problem("'\(shown)': \(key) is '\(old)', but no target of '\(projectName)' has this file as INFOPLIST_FILE, so it is not known whose \(setting) it means; set INFOPLIST_FILE in the target's build settings, or list the Info.plist that target uses")
            return
        }
        let reason = "for \(shown) \(key) = \(old)"
        for owned in users {
            if let found = locator.sites(of: setting, in: owned) {
                self.locator = locator
                for site in found { write(site, value, reason: reason, role: VersionChange.role(of: key), target: owned.targetName) }
            } else {
                problem("'\(shown)': \(key) is '\(old)', but \(setting) is defined nowhere for \(locator.label(owned)); define it in the target's build settings or its .xcconfig")
            }
        }
        self.locator = locator
        problems = locator.problems.filter { !problems.contains($0) } + problems
    }

    /// The target configurations whose INFOPLIST_FILE (from any level: theirs, their xcconfig,
    /// the project's) is `plist`.
    private func configurations(using plist: String, in locator: inout XcodeSettingLocator) -> [OwnedConfiguration] {
        let wanted = ConfinedPaths.realPath(of: plist, in: fileSystem)
        var result: [OwnedConfiguration] = []
        for owned in (try? locator.project.configurations(targets: nil)) ?? [] {
            guard var value = locator.peek("INFOPLIST_FILE", in: owned) else { continue }
            for prefix in ["$(SRCROOT)/", "${SRCROOT}/", "$(PROJECT_DIR)/", "${PROJECT_DIR}/", "$(SOURCE_ROOT)/"] where value.hasPrefix(prefix) {
                value = String(value.dropFirst(prefix.count))
            }
            guard !value.contains("$") else { continue }
            let absolute = value.hasPrefix("/") ? value : ProjectPath.join(locator.file.projectDirectory, value)
            if ConfinedPaths.realPath(of: absolute, in: fileSystem) == wanted { result.append(owned) }
        }
        return result
    }

    /// The shipping targets' version comes from their Info.plists when they have one with
    /// `CFBundleShortVersionString` (a literal, or `$(SETTING)` written where it is defined):
    /// what ships is what the Info.plist says, whatever MARKETING_VERSION holds. Stamps those
    /// Info.plists and returns the shipping targets whose Info.plist is generated (or lacks the
    /// key), which get MARKETING_VERSION; nil when no shipping target has such an Info.plist.
    mutating func viaInfoPlists(_ locator: inout XcodeSettingLocator, path: String,
                                settings: [(key: String, value: String)]) -> [String]? {
        let shipping = locator.project.shippingTargets()
        guard !shipping.shipping.isEmpty, let owned = try? locator.project.configurations(targets: shipping.shipping) else { return nil }
        var plists: [String] = []
        var plistTargets: [String: [String]] = [:]
        var generated: [String] = []
        for name in shipping.shipping {
            let configurations = owned.filter { $0.targetName == name }
            var plist: String?
            for configuration in configurations {
                guard var value = locator.peek("INFOPLIST_FILE", in: configuration) else { continue }
                for prefix in ["$(SRCROOT)/", "${SRCROOT}/", "$(PROJECT_DIR)/", "${PROJECT_DIR}/", "$(SOURCE_ROOT)/"] where value.hasPrefix(prefix) {
                    value = String(value.dropFirst(prefix.count))
                }
                guard !value.contains("$") else { continue }
                let absolute = value.hasPrefix("/") ? value : ProjectPath.join(locator.file.projectDirectory, value)
                if let text = try? fileSystem.readText(absolute, as: .propertyList), VersionStamper.plistString("CFBundleShortVersionString", in: text) != nil {
                    plist = absolute
                    break
                }
            }
            if let plist {
                if !plists.contains(plist) { plists.append(plist) }
                plistTargets[plist, default: []].append(name)
            } else {
                generated.append(name)
            }
        }
        guard !plists.isEmpty else { return nil }
        self.locator = locator
        let leftOut = shipping.leftOut.map { "'\($0.target)' (\($0.why))" }.joined(separator: ", ")
        notes.append("'\(paths.display(path))': the version of \(shipping.shipping.map { "'\($0)'" }.joined(separator: ", ")) is what their "
                     + "Info.plists say (\(plists.map { paths.display($0) }.joined(separator: ", ")))"
                     + (generated.isEmpty ? "" : "; \(generated.map { "'\($0)'" }.joined(separator: ", ")) generate theirs: MARKETING_VERSION")
                     + (leftOut.isEmpty ? "" : "; left out: \(leftOut)") + ". List targets in the step's 'targets' option to choose otherwise.")
        for plist in plists {
            var values = settings.map { setting in
                (key: setting.key == "MARKETING_VERSION" ? "CFBundleShortVersionString" : "CFBundleVersion", value: setting.value)
            }
            if let text = try? fileSystem.readText(plist, as: .propertyList), VersionStamper.plistString("CFBundleVersion", in: text) == nil {
                values.removeAll { $0.key == "CFBundleVersion" }
            }
            do { try stampPlist(plist, values: values, targets: plistTargets[plist] ?? []) } catch { problem("\(paths.display(plist)): \(error.localizedDescription)") }
        }
        if let updated = self.locator { locator = updated }
        return generated
    }
}
