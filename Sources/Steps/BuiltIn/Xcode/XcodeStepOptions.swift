import Basics
import Foundation
import Xcode

/// The options every `xcode.*` step that runs `xcodebuild` on a scheme shares, checked when the
/// lane is validated: project xor workspace, well-formed destinations and build-setting names.
struct XcodeSchemeOptions: Sendable {
    var container: String
    var isWorkspace: Bool
    var scheme: String
    var configuration: String?
    var destinations: [XcodeDestination]
    var sdk: String?
    var derivedDataPath: String?
    var xcconfig: String?
    var buildSettings: [String: String]
    var skipPackagePluginValidation: Bool
    var skipMacroValidation: Bool
    var run: XcodeRunOptions

    static let specs: [OptionSpec] = [
        .optional("project", .string, "The .xcodeproj (give this or workspace)."),
        .optional("workspace", .string, "The .xcworkspace (give this or project)."),
        .required("scheme", .string, "The scheme to build; it must exist in the project or workspace."),
        .optional("configuration", .string, "The build configuration (Debug, Release, ...); default: the scheme's."),
        .optional("destinations", .list(.string), "xcodebuild -destination values, e.g. 'platform=iOS Simulator,name=iPhone 16,OS=18.2'."),
        .optional("sdk", .string, "xcodebuild -sdk (iphoneos, iphonesimulator, macosx, ...)."),
        .optional("derived-data-path", .string, "xcodebuild -derivedDataPath."),
        .optional("xcconfig", .string, "An .xcconfig file whose settings override the project's."),
        .optional("build-settings", .map(.string), "Extra build settings, KEY: value (e.g. CODE_SIGNING_ALLOWED: 'NO')."),
        .optional("skip-package-plugin-validation", .bool, default: .bool(false), "Pass -skipPackagePluginValidation (CI machines that cannot approve plugins)."),
        .optional("skip-macro-validation", .bool, default: .bool(false), "Pass -skipMacroValidation."),
    ] + XcodeRunOptions.specs

    init(options: StepOptions) throws {
        let project = try options.string("project"), workspace = try options.string("workspace")
        switch (project, workspace) {
        case (let project?, nil):
            container = project
            isWorkspace = false
        case (nil, let workspace?):
            container = workspace
            isWorkspace = true
        case (.some, .some):
            throw StepError.invalidOption(name: "workspace", problem: "is given together with project. Give one: the workspace when the app builds through one (CocoaPods, several projects), else the project.")
        case (nil, nil):
            throw StepError.invalidOption(name: "project", problem: "is missing. Give 'project: App.xcodeproj' or 'workspace: App.xcworkspace'.")
        }
        scheme = try options.requiredString("scheme")
        configuration = try options.string("configuration")
        destinations = try options.strings("destinations").map { try XcodeDestination(parsing: $0, option: "destinations") }
        sdk = try options.string("sdk")
        derivedDataPath = try options.string("derived-data-path")
        xcconfig = try options.string("xcconfig")
        buildSettings = try options.stringMap("build-settings")
        for key in buildSettings.keys.sorted() where !XcodebuildInvocation.isBuildSettingKey(key) {
            throw StepError.invalidOption(name: "build-settings", problem: "has the key '\(key)', which is not a build setting name (letters, digits and _, not starting with a digit).")
        }
        skipPackagePluginValidation = try options.bool("skip-package-plugin-validation")
        skipMacroValidation = try options.bool("skip-macro-validation")
        run = try XcodeRunOptions(options: options)
    }

    /// An invocation of `action` with these options, paths resolved in `context`.
    func invocation(_ action: XcodebuildInvocation.Action, in context: StepContext) -> XcodebuildInvocation {
        var invocation = XcodebuildInvocation(action: action)
        if isWorkspace { invocation.workspace = context.resolve(container) } else { invocation.project = context.resolve(container) }
        invocation.scheme = scheme
        invocation.configuration = configuration
        invocation.destinations = destinations
        invocation.sdk = sdk
        invocation.derivedDataPath = derivedDataPath.map(context.resolve)
        invocation.xcconfig = xcconfig.map(context.resolve)
        invocation.buildSettings = buildSettings
        invocation.skipPackagePluginValidation = skipPackagePluginValidation
        invocation.skipMacroValidation = skipMacroValidation
        return invocation
    }

    /// The project or workspace exists and has the scheme, and the scheme's app target builds
    /// for the destinations and SDK given (read-only). When validating (`validating`), a
    /// workspace's `Pods/` project is passed over while CocoaPods is not installed yet (the
    /// lane's note says so once); before a run it is an error that says to run `pod install`.
    func checkProject(in projectDirectory: String, fileSystem: any FileSystem, validating: Bool = true) throws {
        let path = container.hasPrefix("/") ? container : projectDirectory + "/" + container
        do {
            let found = try XcodeContainer(path: path)
            try found.checkExists(fileSystem: fileSystem)
            let scheme = try XcodeSchemes.find(self.scheme, in: found, fileSystem: fileSystem, skippingUninstalledPods: validating)
            try checkPlatform(of: scheme, in: projectDirectory, fileSystem: fileSystem)
        } catch {
            // Paths as the lane gives them, not as this machine spells them.
            throw StepError.failed(errorText(error).replacingOccurrences(of: projectDirectory + "/", with: ""))
        }
    }

    /// `validate`'s note for the container's folder: CocoaPods not installed yet.
    func projectNotes(in projectDirectory: String, fileSystem: any FileSystem) -> [String] {
        let path = container.hasPrefix("/") ? container : projectDirectory + "/" + container
        guard let found = try? XcodeContainer(path: path), found.kind == .workspace,
              CocoaPodsAdvice.isNotInstalled(in: found.parentDirectory, fileSystem: fileSystem) else { return [] }
        return [CocoaPodsAdvice.notInstalled]
    }
}

/// How an `xcode.*` step runs `xcodebuild`: which Xcode, where the raw log goes, whether the
/// raw log is streamed.
struct XcodeRunOptions: Sendable {
    var xcode: String?
    var verbose: Bool
    var log: String?

    static let specs: [OptionSpec] = [
        .optional("xcode", .string, "Which Xcode: a version constraint over /Applications/Xcode*.app ('16.2', '^16', '>=16.1, <17'); DEVELOPER_DIR, when set, wins."),
        .optional("verbose", .bool, default: .bool(false), "Stream xcodebuild's raw output instead of the formatted lines."),
        .optional("log", .string, "Where the raw log is kept (default .slipway/logs/LANE-STEP.log)."),
    ]

    init(options: StepOptions) throws {
        xcode = try options.string("xcode")
        if let xcode { _ = try XcodeVersionConstraint(xcode) }
        verbose = try options.bool("verbose")
        log = try options.string("log")
    }
}
