import Basics
import Foundation
import PBXProj

/// What a starter lane needs to know about the Xcode project in a folder: the workspace or project
/// to build, its shared schemes, its app targets with their bundle ids, and where the version is
/// kept. Read-only: nothing is run and nothing is written.
public struct XcodeProjectSurvey: Sendable, Hashable {
    /// A target that ships in the app: the app itself, an extension, a watch app or an App Clip.
    public struct ShippingTarget: Sendable, Hashable {
        public var name: String
        /// `com.apple.product-type.application`, `…app-extension`, ...
        public var productType: String
        /// PRODUCT_BUNDLE_IDENTIFIER in the archive configuration (Release), as written; it may
        /// hold a build setting (`$(BASE_ID).widget`) that only Xcode resolves.
        public var bundleID: String?
        /// Where MARKETING_VERSION is set for the archive configuration: `project.pbxproj`
        /// (target or project build settings) or an `.xcconfig` path relative to the folder.
        public var versionSource: String?

        /// SDKROOT in the archive configuration (`iphoneos`, `macosx`, `auto`), as read so far:
        /// the pbxproj's, then the `.xcconfig` chain's when a caller can follow it.
        public var sdkroot: String?
        /// SUPPORTED_PLATFORMS likewise (`iphoneos iphonesimulator macosx` for a multiplatform target).
        public var supportedPlatforms: String?

        public init(name: String, productType: String, bundleID: String?, versionSource: String?) {
            self.name = name
            self.productType = productType
            self.bundleID = bundleID
            self.versionSource = versionSource
        }

        /// The SDKs the target builds for; nil when its settings do not say.
        public var sdks: Set<String>? { ApplePlatformSDK.supported(sdkroot: sdkroot, supportedPlatforms: supportedPlatforms) }

        /// Whether the target is the app itself.
        public var isApplication: Bool { productType == "com.apple.product-type.application" }
    }

    /// The workspace (preferred) or project to build, relative to the folder.
    public var container: XcodeContainer?
    /// The other candidates that were passed over (`Pods.xcodeproj` never counts).
    public var otherContainers: [String] = []
    /// The project whose targets were read.
    public var project: String?
    /// Shared schemes, by name.
    public var schemes: [XcodeScheme] = []
    /// Targets that ship: applications first.
    public var shippingTargets: [ShippingTarget] = []
    /// The archive configuration used for bundle ids and versions.
    public var configuration = "Release"
    /// What could not be worked out, said in words.
    public var notes: [String] = []

    /// Applications (iOS, watchOS, App Clips, ...) and their extensions ship in the app; test
    /// bundles, frameworks, libraries and tools do not.
    static func ships(_ productType: String) -> Bool {
        let type = productType.replacingOccurrences(of: "com.apple.product-type.", with: "")
        return type.hasPrefix("application") || type.hasPrefix("app-extension") || type.hasSuffix("extension")
    }

    /// The bundle ids that need a signing profile, literal ones only, app first.
    public var bundleIDs: [String] {
        var seen = Set<String>()
        return shippingTargets.compactMap(\.bundleID).filter { !$0.contains("$") && seen.insert($0).inserted }
    }

    /// The scheme that archives the iOS app (`appScheme(for: "iphoneos")`).
    public var appScheme: XcodeScheme? { appScheme(for: "iphoneos") }

    /// The scheme that archives the app for `sdk` (`iphoneos`, `macosx`): a shared scheme that
    /// builds an application target whose SDKROOT / SUPPORTED_PLATFORMS include `sdk` (any
    /// application target when none says), preferring one named like the project.
    public func appScheme(for sdk: String) -> XcodeScheme? {
        let applications = shippingTargets.filter(\.isApplication)
        let fitting = applications.filter { $0.sdks?.contains(sdk) ?? false }
        // A target whose settings name no SDK may still be the one; one that names another is not.
        let unknown = applications.filter { $0.sdks == nil }
        let apps = Set((fitting.isEmpty ? (unknown.isEmpty ? applications : unknown) : fitting).map(\.name))
        let candidates = schemes.filter { scheme in scheme.buildableReferences.contains { apps.contains($0.blueprintName) } }
        // A scheme that archives the Release configuration, named like the project if several.
        let archiving = candidates.filter { ($0.archiveConfiguration ?? configuration) == configuration }
        var pool = archiving.isEmpty ? candidates : archiving
        // Among those, one that also runs Release (App-Release rather than App-Debug).
        let releasing = pool.filter { $0.launchConfiguration == configuration }
        if !releasing.isEmpty { pool = releasing }
        return pool.first(where: { $0.name == container?.name }) ?? pool.first
    }

    /// The scheme that runs tests: the app scheme when it has testables, else the first that does.
    public var testScheme: XcodeScheme? {
        if let app = appScheme, !app.testables.isEmpty || !app.testPlans.isEmpty { return app }
        return schemes.first { !$0.testables.isEmpty || !$0.testPlans.isEmpty }
    }

    public init() {}

    /// Surveys `directory` (the project root): containers at its top level and one level down.
    ///
    /// - Throws: `PBXProjError` when the chosen project cannot be read; a missing project is not
    ///   an error (the survey says so in `notes`).
    public static func survey(_ directory: String, fileSystem: FileSystem) throws -> XcodeProjectSurvey {
        var survey = XcodeProjectSurvey()
        var workspaces: [String] = []
        var projects: [String] = []
        for (folder, prefix) in [(directory, "")] + subfolders(of: directory, fileSystem: fileSystem) {
            for name in ((try? fileSystem.contents(ofDirectory: folder)) ?? []).sorted() {
                if name == "Pods.xcodeproj" || name.hasPrefix(".") { continue }
                if name.hasSuffix(".xcworkspace") { workspaces.append(prefix + name) }
                if name.hasSuffix(".xcodeproj") { projects.append(prefix + name) }
            }
        }
        let choice = ContainerChoice(directory: directory, fileSystem: fileSystem)
        guard let chosen = choice.choose(workspaces: workspaces, projects: projects), let container = try? XcodeContainer(path: chosen.container) else {
            survey.notes.append("no .xcworkspace or .xcodeproj in this folder or its subfolders")
            return survey
        }
        survey.container = container
        survey.otherContainers = (workspaces + projects).filter { $0 != chosen.container && $0 != chosen.project }
        survey.notes += chosen.notes
        let absolute = directory + "/" + chosen.container
        if let schemes = try? XcodeSchemes.list(in: XcodeContainer(path: absolute), fileSystem: fileSystem, skippingUninstalledPods: true) {
            survey.schemes = schemes.filter { $0.origin == .shared }
        }
        if survey.schemes.isEmpty {
            survey.notes.append("\(chosen.container) has no shared schemes: share the app's scheme in Xcode (Manage Schemes, Shared) so that CI can build it")
        }
        guard let project = chosen.project else {
            survey.notes.append("\(chosen.container) lists no project Slipway could read")
            return survey
        }
        survey.project = project
        try survey.readTargets(of: project, in: directory, fileSystem: fileSystem)
        return survey
    }

    private static func subfolders(of directory: String, fileSystem: FileSystem) -> [(String, String)] {
        let skipped: Set<String> = ["Pods", "Carthage", "build", "DerivedData", "node_modules", "vendor", "fastlane"]
        return ((try? fileSystem.kinds(ofDirectory: directory)) ?? [])
            .filter { $0.kind == .directory && !$0.name.hasPrefix(".") && !skipped.contains($0.name)
                && !$0.name.hasSuffix(".xcodeproj") && !$0.name.hasSuffix(".xcworkspace") }
            .map { (directory + "/" + $0.name, $0.name + "/") }
            .sorted { $0.0 < $1.0 }
    }

    private mutating func readTargets(of project: String, in directory: String, fileSystem: FileSystem) throws {
        let file = ProjectFile(path: directory + "/" + project)
        let pbxproj = try PBXProject(bytes: fileSystem.read(file.pbxprojPath, as: .projectFile), projectName: file.projectName)
        let projectConfigurations = pbxproj.rootObjectID.map { pbxproj.buildConfigurations(of: $0) } ?? []
        for target in pbxproj.targets {
            guard let type = target.productType, Self.ships(type) else { continue }
            let configurations = pbxproj.buildConfigurations(of: target.id)
            let release = configurations.first { $0.name == configuration } ?? configurations.first
            var shipping = ShippingTarget(name: target.name, productType: type, bundleID: nil, versionSource: nil)
            shipping.bundleID = release?.buildSettings["PRODUCT_BUNDLE_IDENTIFIER"]?.string
            let projectRelease = projectConfigurations.first { $0.name == release?.name }
            shipping.sdkroot = (release?.buildSettings["SDKROOT"] ?? projectRelease?.buildSettings["SDKROOT"])?.string
            shipping.supportedPlatforms = (release?.buildSettings["SUPPORTED_PLATFORMS"] ?? projectRelease?.buildSettings["SUPPORTED_PLATFORMS"])?.string
            // Set in the pbxproj; an .xcconfig is read by `XcodeProjectSurvey+Settings` callers
            // that can follow includes (FastlaneImport, with Release's lookup).
            if release?.buildSettings["MARKETING_VERSION"] != nil || projectRelease?.buildSettings["MARKETING_VERSION"] != nil {
                shipping.versionSource = project + "/project.pbxproj"
            }
            shippingTargets.append(shipping)
        }
        shippingTargets.sort { ($0.isApplication ? 0 : 1, $0.name) < ($1.isApplication ? 0 : 1, $1.name) }
        if shippingTargets.isEmpty { notes.append("\(project) has no application target") }
        let unresolved = shippingTargets.filter { $0.bundleID?.contains("$") ?? true }.map(\.name)
        if !unresolved.isEmpty {
            notes.append("the bundle id of \(unresolved.joined(separator: ", ")) is set through a build setting or not at all; add it to the lane's bundle-ids by hand")
        }
    }
}
