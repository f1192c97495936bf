/// An `xcodebuild` command line, typed. `arguments()` checks the options against each other and
/// returns the arguments (without the `xcodebuild` itself) in a stable order: container, scheme,
/// configuration, SDK, destinations, paths, test options, flags, the action, then build settings.
public struct XcodebuildInvocation: Sendable, Hashable {
    /// What xcodebuild does.
    public enum Action: String, Sendable, Hashable, CaseIterable {
        case build, test, archive
        case testWithoutBuilding = "test-without-building"
        case buildForTesting = "build-for-testing"
        /// `-exportArchive`: needs `archivePath`, `exportPath` and `exportOptionsPlist`, no container.
        case exportArchive = "-exportArchive"
        /// `-showBuildSettings`: the settings the other options would build with (add `-json`).
        case showBuildSettings = "-showBuildSettings"

        var runsTests: Bool { self == .test || self == .testWithoutBuilding }
        var buildsTests: Bool { runsTests || self == .buildForTesting }
    }

    public var action: Action
    /// `-project X.xcodeproj`; give this or `workspace`.
    public var project: String?
    /// `-workspace X.xcworkspace`; give this or `project`.
    public var workspace: String?
    public var scheme: String?
    public var configuration: String?
    public var sdk: String?
    public var destinations: [XcodeDestination] = []
    public var derivedDataPath: String?
    public var xcconfig: String?
    public var resultBundlePath: String?
    public var archivePath: String?
    public var exportPath: String?
    public var exportOptionsPlist: String?
    /// `-testPlan NAME` (test actions).
    public var testPlan: String?
    /// `-only-testing:Target[/Class[/method]]`, each.
    public var onlyTesting: [String] = []
    /// `-skip-testing:Target[/Class[/method]]`, each.
    public var skipTesting: [String] = []
    /// `-retry-tests-on-failure`; with `testIterations`, the most runs of a failing test.
    public var retryTestsOnFailure = false
    /// `-test-iterations N` (N ≥ 1).
    public var testIterations: Int?
    /// `-parallel-testing-enabled YES|NO`; nil leaves the scheme's choice.
    public var parallelTestingEnabled: Bool?
    /// `-enableCodeCoverage YES|NO`; nil leaves the scheme's choice.
    public var enableCodeCoverage: Bool?
    public var skipPackagePluginValidation = false
    public var skipMacroValidation = false
    public var allowProvisioningUpdates = false
    /// Trailing `KEY=VALUE` build settings, written sorted by key.
    public var buildSettings: [String: String] = [:]

    /// An invocation of `action` with nothing else set.
    public init(action: Action) { self.action = action }

    /// The arguments for `xcodebuild`.
    ///
    /// - Throws: `XcodeProjectError.invalidInvocation` with every problem: both or neither of
    ///   project and workspace, a missing scheme, test options on an action that runs no tests,
    ///   export paths missing, `testIterations` below 1, a malformed build-setting key, empty
    ///   test identifiers.
    public func arguments() throws -> [String] {
        let problems = self.problems
        if !problems.isEmpty { throw XcodeProjectError.invalidInvocation(problems: problems) }
        var arguments: [String] = []
        func add(_ flag: String, _ value: String?) { if let value { arguments += [flag, value] } }
        func yesNo(_ flag: String, _ value: Bool?) { if let value { arguments += [flag, value ? "YES" : "NO"] } }
        if action == .exportArchive {
            arguments.append(action.rawValue)
        }
        add("-workspace", workspace)
        add("-project", project)
        add("-scheme", scheme)
        add("-configuration", configuration)
        add("-sdk", sdk)
        for destination in destinations { arguments += ["-destination", destination.description] }
        add("-derivedDataPath", derivedDataPath)
        add("-xcconfig", xcconfig)
        add("-resultBundlePath", resultBundlePath)
        add("-archivePath", archivePath)
        add("-exportPath", exportPath)
        add("-exportOptionsPlist", exportOptionsPlist)
        add("-testPlan", testPlan)
        arguments += onlyTesting.map { "-only-testing:" + $0 } + skipTesting.map { "-skip-testing:" + $0 }
        if retryTestsOnFailure { arguments.append("-retry-tests-on-failure") }
        add("-test-iterations", testIterations.map(String.init))
        yesNo("-parallel-testing-enabled", parallelTestingEnabled)
        yesNo("-enableCodeCoverage", enableCodeCoverage)
        if skipPackagePluginValidation { arguments.append("-skipPackagePluginValidation") }
        if skipMacroValidation { arguments.append("-skipMacroValidation") }
        if allowProvisioningUpdates { arguments.append("-allowProvisioningUpdates") }
        if action != .exportArchive { arguments.append(action.rawValue) }
        arguments += buildSettings.sorted { $0.key < $1.key }.map { "\($0.key)=\($0.value)" }
        return arguments
    }

    /// Every problem `arguments()` would report, in a fixed order.
    public var problems: [String] {
        var problems = action == .exportArchive ? exportProblems : containerProblems
        problems += testProblems
        if archivePath != nil, action != .archive, action != .exportArchive {
            problems.append("'archivePath' applies to archive and -exportArchive, not '\(action.rawValue)'")
        }
        for key in buildSettings.keys.sorted() where !Self.isBuildSettingKey(key) {
            problems.append("build setting '\(key)' is not a valid name (letters, digits and '_', not starting with a digit)")
        }
        return problems
    }

    private var containerProblems: [String] {
        var problems: [String] = []
        switch (project, workspace) {
        case let (project?, workspace?):
            problems.append("both 'project' ('\(project)') and 'workspace' ('\(workspace)') are given; give one of them")
        case (nil, nil):
            problems.append("neither 'project' nor 'workspace' is given; give one of them")
        default: break
        }
        if scheme?.isEmpty ?? true { problems.append("'scheme' is required for '\(action.rawValue)'") }
        if exportPath != nil || exportOptionsPlist != nil {
            problems.append("'exportPath' and 'exportOptionsPlist' apply to -exportArchive, not '\(action.rawValue)'")
        }
        return problems
    }

    private var exportProblems: [String] {
        var problems: [String] = []
        for (name, value) in [("archivePath", archivePath), ("exportPath", exportPath), ("exportOptionsPlist", exportOptionsPlist)] where value == nil {
            problems.append("'\(name)' is required for -exportArchive")
        }
        if project != nil || workspace != nil || scheme != nil {
            problems.append("-exportArchive takes no 'project', 'workspace' or 'scheme' (the archive has them)")
        }
        return problems
    }

    private var testProblems: [String] {
        var problems: [String] = []
        let given = [
            ("testPlan", testPlan != nil), ("onlyTesting", !onlyTesting.isEmpty), ("skipTesting", !skipTesting.isEmpty),
            ("retryTestsOnFailure", retryTestsOnFailure), ("testIterations", testIterations != nil),
            ("parallelTestingEnabled", parallelTestingEnabled != nil),
        ].filter(\.1).map(\.0)
        if !action.buildsTests, !given.isEmpty {
            problems.append("'\(given.joined(separator: "', '"))' apply to test actions, not '\(action.rawValue)'")
        }
        if let testIterations, testIterations < 1 {
            problems.append("'testIterations' is \(testIterations); give 1 or more")
        }
        if (onlyTesting + skipTesting).contains(where: { $0.isEmpty || $0.hasPrefix("/") || $0.hasSuffix("/") }) {
            problems.append("a test identifier in 'onlyTesting'/'skipTesting' is empty or malformed; write Target, Target/Class or Target/Class/method")
        }
        return problems
    }

    /// True for `[A-Za-z_][A-Za-z0-9_]*`.
    public static func isBuildSettingKey(_ key: String) -> Bool {
        guard let first = key.utf8.first, !(0x30...0x39).contains(first) else { return false }
        return key.utf8.allSatisfy { (0x30...0x39).contains($0) || (0x41...0x5A).contains($0) || (0x61...0x7A).contains($0) || $0 == 0x5F }
    }
}
