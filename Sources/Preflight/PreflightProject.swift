import Basics
import PBXProj
import PropertyList
import Release

/// A value read from the project and where it is written (`Config/Base.xcconfig:3`, `App/Info.plist:22`).
public struct PreflightValue: Sendable, Hashable {
    /// The value, references followed.
    public var value: String
    /// Where the value is written.
    public var location: PreflightLocation
}

/// A target that ships (the app, and the extensions, watch and clip apps it embeds), as the
/// rules need it: its bundle id, version and build number with their places, its Info.plist and
/// entitlements, read once.
public struct PreflightTarget: Sendable {
    /// The target's name.
    public var name: String
    /// `com.apple.product-type.…`.
    public var productType: String
    /// The shipping target that embeds it (by a target dependency), or the one application.
    public var container: String?
    /// PRODUCT_BUNDLE_IDENTIFIER or the Info.plist's CFBundleIdentifier; nil when it cannot be read for sure.
    public var bundleID: PreflightValue?
    /// CFBundleShortVersionString (MARKETING_VERSION through the Info.plist).
    public var version: PreflightValue?
    /// CFBundleVersion (CURRENT_PROJECT_VERSION through the Info.plist).
    public var build: PreflightValue?
    /// The Info.plist (relative path) and its keys; nil when the target generates it whole.
    public var infoPlistPath: String?
    /// The Info.plist's keys (empty when generated or unreadable).
    public var infoPlist: [String: PropertyListValue] = [:]
    /// The entitlements file (relative path) and its keys.
    public var entitlementsPath: String?
    /// The entitlements' keys.
    public var entitlements: [String: PropertyListValue] = [:]
    /// ASSETCATALOG_COMPILER_APPICON_NAME, when set.
    public var appIconName: PreflightValue?
    /// INFOPLIST_KEY_ITSAppUsesNonExemptEncryption (a generated Info.plist's key), when set.
    public var encryptionSetting: PreflightValue?
    /// SDKROOT (`iphoneos`, `macosx`, ...), when it can be read: which platform an app is for.
    public var sdk: String?
    /// Paths (relative) of the PrivacyInfo.xcprivacy files the target copies as resources.
    public var privacyManifests: [String] = []
    /// Why a value is nil though the project names it ("bundle id", "version", "build number" →
    /// what was not read: a missing `#include`, a setting only Xcode's build system gives).
    public var unread: [String: String] = [:]
    /// True for an application (`com.apple.product-type.application…`).
    public var isApplication: Bool { productType.hasPrefix("com.apple.product-type.application") }
    /// True for the App Store app itself (not a watch or clip app inside it).
    public var isMainApplication: Bool { productType == "com.apple.product-type.application" && container == nil }
}

/// The checkout as preflight reads it: the project, its shipping targets, the files found by one
/// bounded walk (sources, asset catalogs, privacy manifests) and what could not be read.
public struct PreflightProject: Sendable {
    /// The project, relative to the root (`App.xcodeproj`).
    public var projectPath: String
    /// The build configuration read (`Release`).
    public var configuration: String
    /// The shipping targets.
    public var targets: [PreflightTarget]
    /// The files found under the root (relative paths): sources, `.appiconset` folders, manifests.
    public var files: PreflightFiles
    /// What could not be read, one sentence each (an Info.plist that does not parse).
    public var problems: [String]

    /// The applications that are not inside another (usually one).
    public var mainApplications: [PreflightTarget] { targets.filter(\.isMainApplication) }

    /// The SDK an App Store Connect platform's apps are built with.
    static let sdks = ["IOS": "iphoneos", "MAC_OS": "macosx", "TV_OS": "appletvos", "VISION_OS": "xros"]

    /// For a project holding several apps (an iOS and a Mac app): the one to check — the target
    /// named `app`, else the only one whose SDKROOT is `platform`'s SDK — with the targets it
    /// embeds (by target dependency, at any depth); the other apps' targets are left out. Returns
    /// what was chosen and why, or a problem; nil and nil when there is nothing to choose.
    public mutating func selectApplication(named app: String?, platform: String) -> (chosen: String?, problem: String?) {
        let apps = mainApplications
        let candidates: [PreflightTarget]
        let why: String
        if let app {
            candidates = apps.filter { $0.name == app }
            guard !candidates.isEmpty else {
                return (nil, "--app '\(app)' is not an application target that no other target embeds; the project's are "
                    + (apps.isEmpty ? "none" : apps.map { "'\($0.name)'" }.joined(separator: ", ")))
            }
            why = "given with --app"
        } else {
            guard apps.count > 1, let sdk = Self.sdks[platform] else { return (nil, nil) }
            candidates = apps.filter { $0.sdk == sdk }
            guard candidates.count == 1 else { return (nil, nil) }
            why = "the only application whose SDKROOT is \(sdk), for --platform \(platform)"
        }
        let chosen = candidates[0].name
        let byName = Dictionary(targets.map { ($0.name, $0) }, uniquingKeysWith: { first, _ in first })
        func belongs(_ target: PreflightTarget) -> Bool {
            var current: PreflightTarget? = target
            var seen: Set<String> = []
            while let each = current, seen.insert(each.name).inserted {
                if each.name == chosen { return true }
                current = each.container.flatMap { byName[$0] }
            }
            return false
        }
        let kept = targets.filter(belongs)
        let left = targets.filter { !belongs($0) }.map { "'\($0.name)'" }
        targets = kept
        return ("checked the app '\(chosen)' (\(why))" + (left.isEmpty ? "" : "; left out: " + left.joined(separator: ", ")), nil)
    }

    /// Reads the project at `xcodeproj` (absolute) under `root` for `configuration`.
    /// - Throws: `FileSystemError`/`ProjectFileError` for the pbxproj, `PBXProjError` when it does not parse.
    public static func read(xcodeproj: String, root: String, configuration: String, fileSystem: any FileSystem,
                            walkBudget: Int = PreflightFiles.budget) throws -> PreflightProject {
        let files = ProjectFiles(root: root, fileSystem: fileSystem)
        let file = ProjectFile(path: xcodeproj)
        let project = try PBXProject(bytes: fileSystem.read(file.pbxprojPath, as: .projectFile), projectName: file.projectName)
        // The archive is built by Xcode on a Mac, whose default disk ignores case in names.
        var lookup = try BuildSettingLookup(projectPath: xcodeproj, root: root, fileSystem: fileSystem, includesIgnoreCase: true)
        let sourceRoot = ProjectPath.parent(xcodeproj)
        let shipping = Set(project.shippingTargets().shipping)
        let natives = project.targets.filter { shipping.contains($0.name) }
        let byID = Dictionary(natives.map { ($0.id, $0.name) }, uniquingKeysWith: { first, _ in first })
        var containers: [String: String] = [:]
        for target in natives where PBXProjectTypes.isApplication(target.productType) {
            for dependency in target.dependencies {
                if let child = project.targetDependency(dependency)?.target, let name = byID[child], name != target.name {
                    containers[name] = containers[name] ?? target.name
                }
            }
        }
        let plainApps = natives.filter { $0.productType == "com.apple.product-type.application" }.map(\.name)
        let paths = (try? project.groupTree())?.resolvedPaths() ?? [:]
        var result = PreflightProject(projectPath: files.display(xcodeproj), configuration: configuration, targets: [],
                                      files: PreflightFiles.walk(root: root, fileSystem: fileSystem, budget: walkBudget), problems: [])
        for target in natives {
            var container = containers[target.name]
            if container == nil, target.productType != "com.apple.product-type.application", plainApps.count == 1 {
                container = plainApps[0]
            }
            // Why the last `setting`/`plistValue` answered nil (a reason to show), or nil when
            // the setting is simply defined nowhere.
            var unread: String?
            func setting(_ key: String) -> PreflightValue? {
                unread = nil
                switch lookup.resolve(key, target: target.name, configuration: configuration) {
                case .undefined:
                    return nil
                case .unread(let reason):
                    unread = reason
                    return nil
                case .builtIn(let value):
                    return PreflightValue(value: value, location: .file(files.display(file.pbxprojPath)))
                case .written(let found):
                    // `${BUNDLE_ID_PREFIX}.widget${SUFFIX}`: each reference replaced by its value, as
                    // Xcode expands it (one defined nowhere is empty); one that cannot be read for
                    // sure leaves the whole value undecided (nil, with the reason), never half-substituted.
                    guard let value = Self.substituted(found.value, depth: 0, lookup: { name in reference(name) }) else {
                        unread = unread ?? "\(key) is '\(found.value)' (\(found.place)), an expression slipway does not evaluate (a modifier such as :rfc1034identifier, or references nested more than 8 deep)"
                        return nil
                    }
                    return PreflightValue(value: value, location: .place(found.place))
                }
            }
            func reference(_ name: String) -> String? {
                switch lookup.resolve(name, target: target.name, configuration: configuration) {
                case .written(let found): return found.value
                case .builtIn(let value): return value
                case .undefined: return ""
                case .unread(let reason):
                    unread = unread ?? reason
                    return nil
                }
            }
            var read = PreflightTarget(name: target.name, productType: target.productType ?? "", container: container)
            var plistText: String?
            if let plist = setting("INFOPLIST_FILE"), !plist.value.isEmpty {
                let path = Self.projectRelative(plist.value, sourceRoot: sourceRoot)
                read.infoPlistPath = files.display(path)
                do {
                    let bytes = try fileSystem.read(path, as: .propertyList)
                    read.infoPlist = try PropertyListReader().readDictionary(bytes, file: files.display(path))
                    plistText = String(validating: bytes, as: UTF8.self)
                } catch {
                    result.problems.append("'\(target.name)': its Info.plist '\(files.display(path))' (INFOPLIST_FILE at \(plist.location)) "
                                           + "cannot be read: \(error.localizedDescription)")
                }
            }
            func plistValue(_ key: String, setting name: String) -> PreflightValue? {
                guard let path = read.infoPlistPath, let raw = read.infoPlist[key]?.string else {
                    // Xcode's generated Info.plist takes these keys from their settings.
                    return setting(name)
                }
                let at = PreflightLocation.file(path, line: plistText.flatMap { Self.line(ofKey: key, in: $0) })
                guard raw.contains("$") else { return PreflightValue(value: raw, location: at) }
                // `$(MARKETING_VERSION)`: the setting's value and place.
                let trimmed = raw.trimmingCharacters(in: .whitespaces)
                for open in ["$(", "${"] where trimmed.hasPrefix(open) && (trimmed.hasSuffix(")") || trimmed.hasSuffix("}")) {
                    let inner = String(trimmed.dropFirst(2).dropLast())
                    if !inner.contains("$") && !inner.contains(":") && !inner.contains(")") && !inner.contains("}") { return setting(inner) }
                }
                // `$(PRODUCT_BUNDLE_IDENTIFIER).extra`: written in the Info.plist, its references read from the settings.
                unread = nil
                guard let value = Self.substituted(raw, depth: 0, lookup: { name in
                    guard let value = setting(name) else { return unread == nil ? "" : nil }
                    return value.value
                }) else {
                    unread = unread ?? "\(key) is '\(raw)' (\(at)), an expression slipway does not evaluate (a modifier such as :rfc1034identifier, or references nested more than 8 deep)"
                    return nil
                }
                return PreflightValue(value: value, location: at)
            }
            for (field, key, name) in [("bundle id", "CFBundleIdentifier", "PRODUCT_BUNDLE_IDENTIFIER"),
                                       ("version", "CFBundleShortVersionString", "MARKETING_VERSION"),
                                       ("build number", "CFBundleVersion", "CURRENT_PROJECT_VERSION")] {
                let value = plistValue(key, setting: name)
                switch field {
                case "bundle id": read.bundleID = value
                case "version": read.version = value
                default: read.build = value
                }
                if value == nil {
                    read.unread[field] = unread ?? "\(name) is defined nowhere for target '\(target.name)' (configuration '\(configuration)')"
                }
            }
            read.appIconName = setting("ASSETCATALOG_COMPILER_APPICON_NAME")
            read.encryptionSetting = setting("INFOPLIST_KEY_ITSAppUsesNonExemptEncryption")
            read.sdk = setting("SDKROOT")?.value
            if let entitlements = setting("CODE_SIGN_ENTITLEMENTS"), !entitlements.value.isEmpty {
                let path = Self.projectRelative(entitlements.value, sourceRoot: sourceRoot)
                read.entitlementsPath = files.display(path)
                do {
                    read.entitlements = try PropertyListReader().readDictionary(fileSystem.read(path, as: .propertyList), file: files.display(path))
                } catch {
                    result.problems.append("'\(target.name)': its entitlements '\(files.display(path))' (CODE_SIGN_ENTITLEMENTS at "
                                           + "\(entitlements.location)) cannot be read: \(error.localizedDescription)")
                }
            }
            read.privacyManifests = Self.privacyManifests(of: target, in: project, paths: paths, sourceRoot: sourceRoot, files: files,
                                                         found: result.files.privacyManifests)
            result.targets.append(read)
        }
        return result
    }

    /// The PrivacyInfo.xcprivacy files `target` copies: in its resources phase, or under its synchronized folders.
    static func privacyManifests(of target: Target, in project: PBXProject, paths: [ObjectID: ResolvedPath], sourceRoot: String,
                                 files: ProjectFiles, found: [String]) -> [String] {
        var manifests: [String] = []
        for phaseID in target.buildPhases {
            guard let phase = project.buildPhase(phaseID), phase.isa == "PBXResourcesBuildPhase" else { continue }
            for buildFileID in phase.files {
                guard let reference = project.buildFile(buildFileID)?.fileRef, let element = project.fileElement(reference),
                      (element.displayName ?? "").hasSuffix(privacyManifestName) else { continue }
                let path = paths[reference]?.absolutePath(projectDirectory: sourceRoot).map(files.display) ?? (element.displayName ?? "")
                manifests.append(path)
            }
        }
        for groupID in target.fileSystemSynchronizedGroups {
            guard let folder = paths[groupID]?.absolutePath(projectDirectory: sourceRoot).map(files.display) else { continue }
            manifests += found.filter { folder.isEmpty || folder == "." || $0.hasPrefix(folder + "/") }
        }
        return manifests
    }

    /// `value` with every `$(NAME)` / `${NAME}` replaced through `lookup` (at most 8 levels); nil
    /// when a reference cannot be read, or uses a modifier (`$(NAME:rfc1034identifier)`).
    static func substituted(_ value: String, depth: Int, lookup: (String) -> String?) -> String? {
        guard value.contains("$"), depth < 8 else { return value.contains("$(") || value.contains("${") ? nil : value }
        var result = ""
        var rest = Substring(value)
        while let dollar = rest.firstIndex(of: "$") {
            result += rest[..<dollar]
            let after = rest.index(after: dollar)
            guard after < rest.endIndex, rest[after] == "(" || rest[after] == "{" else {
                result.append("$")
                rest = rest[after...]
                continue
            }
            let close: Character = rest[after] == "(" ? ")" : "}"
            guard let end = rest[after...].firstIndex(of: close) else { return nil }
            let name = String(rest[rest.index(after: after)..<end])
            guard !name.contains(":"), !name.contains("$"), let inner = lookup(name),
                  let resolved = substituted(inner, depth: depth + 1, lookup: lookup) else { return nil }
            result += resolved
            rest = rest[rest.index(after: end)...]
        }
        return result + rest
    }

    /// The privacy manifest's file name.
    public static let privacyManifestName = "PrivacyInfo.xcprivacy"

    /// A setting's path (`$(SRCROOT)/App/Info.plist`, `App/Info.plist`) made absolute against the project's folder.
    static func projectRelative(_ value: String, sourceRoot: String) -> String {
        var path = value
        for prefix in ["$(SRCROOT)/", "${SRCROOT}/", "$(PROJECT_DIR)/", "${PROJECT_DIR}/"] where path.hasPrefix(prefix) {
            path = String(path.dropFirst(prefix.count))
        }
        return path.hasPrefix("/") ? path : ProjectPath.normalize(sourceRoot + "/" + path)
    }

    /// The 1-based line of `<key>name</key>` in an XML property list.
    static func line(ofKey name: String, in text: String) -> Int? {
        var line = 1
        for row in text.split(separator: "\n", omittingEmptySubsequences: false) {
            if row.contains("<key>\(name)</key>") { return line }
            line += 1
        }
        return nil
    }
}

/// Product types, as PBXProject sees them.
enum PBXProjectTypes {
    static func isApplication(_ type: String?) -> Bool { type?.hasPrefix("com.apple.product-type.application") == true }
}
