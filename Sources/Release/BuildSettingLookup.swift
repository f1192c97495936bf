import Basics
import PBXProj

/// Where a target's build setting is defined, read the way `version.bump` writes it (target
/// settings, its `.xcconfig` with `#include`s, the project's settings and `.xcconfig`;
/// `$(inherited)` and `$(OTHER)` followed): for `slipway init`, which says where the version
/// lives and fills in bundle ids kept in `.xcconfig` files.
public struct BuildSettingLookup {
    /// A setting's value and the place it is defined (`Config/Version.xcconfig:2`, relative to
    /// the root, or `App.xcodeproj/project.pbxproj:120`).
    public struct Found: Sendable, Hashable {
        public let value: String
        public let place: String
    }

    private var locator: XcodeSettingLocator
    private let project: PBXProject
    private let projectName: String
    private let projectDirectory: String
    /// `resolve`'s answers by target, configuration and key: the files do not change meanwhile.
    private var resolved: [String: Resolution] = [:]
    private let paths: ConfinedPaths

    /// Reads the project at `projectPath`; files outside `root` are never read. With
    /// `includesIgnoreCase`, an `#include` whose exact name is missing is found ignoring case, as
    /// Xcode finds it on macOS's default (case-insensitive) disk.
    public init(projectPath: String, root: String, fileSystem: any FileSystem, includesIgnoreCase: Bool = false) throws {
        let file = ProjectFile(path: projectPath)
        let text = try fileSystem.readText(file.pbxprojPath, as: .projectFile)
        project = try PBXProject(bytes: Array(text.utf8), projectName: file.projectName)
        projectName = file.projectName
        projectDirectory = ProjectPath.parent(projectPath)
        paths = ConfinedPaths(fileSystem: fileSystem, root: root)
        locator = XcodeSettingLocator(project: project, file: file, pbxprojText: text, paths: paths)
        locator.includesIgnoreCase = includesIgnoreCase
    }

    /// What one setting is for a target configuration, as Xcode would expand a reference to it.
    public enum Resolution: Sendable, Hashable {
        /// Assigned: its value as written (references not followed) and where.
        case written(Found)
        /// A setting of Xcode's own that the lookup knows for sure (`TARGET_NAME`, `PROJECT_NAME`,
        /// `CONFIGURATION`, and `SRCROOT`, `SOURCE_ROOT`, `PROJECT_DIR`: the project's folder): its value.
        case builtIn(String)
        /// Defined nowhere, in a chain read completely: Xcode expands it to the empty string.
        case undefined
        /// Not known for sure: why (a file of the chain not read, a setting only Xcode's build
        /// system or the environment gives). Never to be taken as empty.
        case unread(String)
    }

    /// How `key` resolves for `target` in `configuration`, telling "defined nowhere" (Xcode's
    /// empty string) from "not read": a chain with a problem (a missing `#include`, a base file
    /// outside the project, an optional `#include?` skipped) or a setting Xcode's build system
    /// sets (`SRCROOT`, `PRODUCT_NAME`'s default, `SDKROOT`…, `BuildSettingLookup.buildSystemSettings`)
    /// is `.unread`, with the reason.
    public mutating func resolve(_ key: String, target: String, configuration: String) -> Resolution {
        let cacheKey = [target, configuration, key].joined(separator: "\u{0}")
        if let known = resolved[cacheKey] { return known }
        let resolution = resolveUncached(key, target: target, configuration: configuration)
        resolved[cacheKey] = resolution
        return resolution
    }

    private mutating func resolveUncached(_ key: String, target: String, configuration: String) -> Resolution {
        guard let owned = try? project.configurations(targets: [target], configurations: [configuration]).first else {
            return .unread("target '\(target)' has no build configuration '\(configuration)'")
        }
        switch key {
        case "TARGET_NAME", "TARGETNAME": return .builtIn(target)
        case "PROJECT_NAME", "PROJECT": return .builtIn(projectName)
        case "CONFIGURATION": return .builtIn(configuration)
        case "SRCROOT", "SOURCE_ROOT", "PROJECT_DIR": return .builtIn(projectDirectory)
        case "inherited": return .unread("$(inherited) inside a longer value is the level below's value, which slipway does not expand")
        default: break
        }
        // `MARKETING_VERSION = $(APP_VERSION)`: the literal and its place, as `find` gives them.
        if let found = find(key, target: target, configuration: configuration) { return .written(found) }
        let (site, newProblems, notes) = reading { $0.writtenSite(of: key, in: owned) }
        if !newProblems.isEmpty { return .unread(newProblems.joined(separator: "; ")) }
        if let site {
            let path = paths.display(site.file)
            return .written(Found(value: site.value, place: site.line.map { "\(path):\($0)" } ?? path))
        }
        if Self.isBuildSystemSetting(key) {
            return .unread("\(key) is defined nowhere in the project's settings and .xcconfig files; it is a setting Xcode's build system "
                           + "gives (or the environment), which slipway does not model")
        }
        // A skipped optional include, or the base files CocoaPods writes, could define it.
        let skipped = notes.filter { note in
            !note.contains("by ignoring case") && (!note.contains("CocoaPods writes") || Self.isCocoaPodsSetting(key))
        }
        if !skipped.isEmpty {
            return .unread("\(key) is defined nowhere that was read, and a file that could define it was not read: " + skipped.joined(separator: "; "))
        }
        return .undefined
    }

    /// Settings Xcode's build system defines itself (paths, product names, the SDK and platform,
    /// the architectures, Xcode's version) that a project may use without defining: the lookup
    /// knows only `TARGET_NAME` (`TARGETNAME`), `PROJECT_NAME` (`PROJECT`), `CONFIGURATION`, `SRCROOT`,
    /// `SOURCE_ROOT` and `PROJECT_DIR`, and refuses to guess these.
    /// Names with one of `buildSystemPrefixes` or `buildSystemSuffixes` count too.
    public static let buildSystemSettings: Set<String> = [
        "ACTION", "ARCHS", "ARCHS_STANDARD", "CURRENT_ARCH", "NATIVE_ARCH", "VALID_ARCHS", "OBJROOT", "SYMROOT",
        "DSTROOT", "SHARED_PRECOMPS_DIR", "PRODUCT_NAME", "PRODUCT_MODULE_NAME", "PRODUCT_BUNDLE_PACKAGE_TYPE", "PRODUCT_TYPE",
        "FULL_PRODUCT_NAME", "EXECUTABLE_NAME", "EXECUTABLE_PREFIX", "EXECUTABLE_SUFFIX", "EXECUTABLE_PATH", "WRAPPER_NAME",
        "WRAPPER_EXTENSION", "WRAPPER_SUFFIX", "CONTENTS_FOLDER_PATH", "INFOPLIST_PATH", "SDKROOT", "SDK_NAME", "SDK_VERSION",
        "SUPPORTED_PLATFORMS", "EFFECTIVE_PLATFORM_NAME", "PLATFORM_NAME", "PLATFORM_DISPLAY_NAME", "DEVELOPER_DIR", "HOME", "USER",
        "PATH", "TMPDIR", "DEPLOYMENT_TARGET_SETTING_NAME", "IPHONEOS_DEPLOYMENT_TARGET", "MACOSX_DEPLOYMENT_TARGET",
        "TVOS_DEPLOYMENT_TARGET", "WATCHOS_DEPLOYMENT_TARGET", "XROS_DEPLOYMENT_TARGET", "SWIFT_VERSION", "MACH_O_TYPE",
        "VARIANT", "BUILD_VARIANTS", "CURRENT_VARIANT", "DEVELOPMENT_TEAM", "CODE_SIGN_IDENTITY", "DT_TOOLCHAIN_DIR",
        "TOOLCHAIN_DIR", "EXPANDED_CODE_SIGN_IDENTITY", "BUNDLE_LOADER", "TEST_HOST", "MODULE_NAME", "UID", "GID", "GROUP",
        "LANG", "SHELL", "LLVM_TARGET_TRIPLE_SUFFIX", "SWIFT_PLATFORM_TARGET_PREFIX", "CORRESPONDING_SIMULATOR_PLATFORM_NAME",
        "CORRESPONDING_DEVICE_PLATFORM_NAME", "TARGET_DEVICE_FAMILY", "TARGETED_DEVICE_FAMILY", "ENABLE_PREVIEWS",
    ]
    /// Prefixes of Xcode's own settings (`PLATFORM_DIR`, `XCODE_VERSION_MAJOR`, `BUILT_PRODUCTS_DIR`…).
    public static let buildSystemPrefixes = ["XCODE_", "PLATFORM_", "SDK_", "DEVELOPER_", "TARGET_", "PROJECT_", "BUILT_", "BUILD_",
                                             "CONFIGURATION_", "EFFECTIVE_", "LOCAL_", "SYSTEM_", "DERIVED_", "TEMP_", "TARGET_TEMP",
                                             "UNLOCALIZED_", "PUBLIC_HEADERS", "PRIVATE_HEADERS", "INSTALL_", "CACHE_", "CCHROOT",
                                             "SWIFT_", "CLANG_", "GCC_", "LD_", "OTHER_", "ENABLE_", "INFOPLIST_KEY_", "ASSETCATALOG_"]
    /// Suffixes of Xcode's own settings (`CONFIGURATION_BUILD_DIR`, `SCRIPT_INPUT_FILE_PATH`…).
    public static let buildSystemSuffixes = ["_DIR", "_PATH", "_ROOT", "_FOLDER_PATH", "_DEPLOYMENT_TARGET"]

    /// True for a setting Xcode's build system may define without the project (see `buildSystemSettings`).
    public static func isBuildSystemSetting(_ key: String) -> Bool {
        buildSystemSettings.contains(key) || buildSystemPrefixes.contains { key.hasPrefix($0) } || buildSystemSuffixes.contains { key.hasSuffix($0) }
    }

    /// Settings CocoaPods writes into the base configurations it generates (`PODS_…`, search
    /// paths, flags): one of these is not known when those files are absent.
    static func isCocoaPodsSetting(_ key: String) -> Bool {
        key.hasPrefix("PODS_") || key.hasSuffix("_SEARCH_PATHS") || key.hasPrefix("OTHER_") || key == "GCC_PREPROCESSOR_DEFINITIONS"
            || key == "USE_RECURSIVE_SCRIPT_INPUTS_IN_SCRIPT_PHASES" || key == "ALWAYS_EMBED_SWIFT_STANDARD_LIBRARIES" || key == "CLANG_ENABLE_MODULES"
    }

    /// `key` for `target` in `configuration`: its value (references followed to a literal) and
    /// where that literal is written; nil when it is defined nowhere or cannot be read for sure.
    public mutating func find(_ key: String, target: String, configuration: String) -> Found? {
        guard let owned = try? project.configurations(targets: [target], configurations: [configuration]).first else { return nil }
        let (sites, problems, _) = reading { $0.sites(of: key, in: owned) }
        guard let sites, problems.isEmpty, let site = sites.last(where: { !$0.key.contains("[") }) ?? sites.last else { return nil }
        let path = paths.display(site.file)
        return Found(value: site.value, place: site.line.map { "\(path):\($0)" } ?? path)
    }

    /// Runs `body` on the locator and returns what it gave with the problems and notes it
    /// recorded, even those an earlier read recorded already (the locator keeps each message
    /// once, so counting them would take a chain read twice for a chain read well).
    private mutating func reading<T>(_ body: (inout XcodeSettingLocator) -> T) -> (T, problems: [String], notes: [String]) {
        let saved = (locator.problems, locator.notes)
        (locator.problems, locator.notes) = ([], [])
        let result = body(&locator)
        let found = (locator.problems, locator.notes)
        let (knownProblems, knownNotes) = (Set(saved.0), Set(saved.1))
        locator.problems = saved.0 + found.0.filter { !knownProblems.contains($0) }
        locator.notes = saved.1 + found.1.filter { !knownNotes.contains($0) }
        return (result, found.0, found.1)
    }
}
