import Basics
import PBXProj

/// An app's version and build number as its Xcode project holds them, for the targets that
/// ship (`PBXProject.shippingTargets()`): what `slipway version` shows for an app.
public struct ProjectVersion: Sendable, Hashable, Codable {
    /// The project, relative to the folder it was found from.
    public var project: String
    /// MARKETING_VERSION, as written.
    public var version: String
    /// CURRENT_PROJECT_VERSION, when the targets define it.
    public var build: String?
    /// Where the version is written (`Config/Version.xcconfig:3 MARKETING_VERSION`).
    public var places: [String]
    /// The targets read.
    public var targets: [String]
    /// What the reader should know (targets left out, includes skipped).
    public var notes: [String]
    /// What the reader should fix before a release: embedded targets (extensions, a widget)
    /// whose version is not the application's, each with file:line.
    public var warnings: [String] = []

    /// Reads the version of the project at `path` through `fileSystem`, bounded by `root`. When
    /// the shipping targets disagree, the version is the application's and each embedded target
    /// holding another one is named in `warnings` (App Store Connect warns about it on upload).
    /// - Throws: `ReleaseError.versionLocations` when a value cannot be read for sure,
    ///   `.projectVersionsDisagree` when the applications themselves hold different versions.
    public static func read(project path: String, fileSystem: any FileSystem, root: String,
                            includesIgnoreCase: Bool = false) throws -> ProjectVersion {
        let stamper = VersionStamper(fileSystem: fileSystem, root: root, includesIgnoreCase: includesIgnoreCase)
        // One plan reads every file, the pbxproj once; its model says which targets are the apps.
        let (probe, model) = try stamper.planWithProject([.xcodeproj(path: path, targets: nil)], version: "0.0.0", buildNumber: "0")
        let versions = probe.changes.filter { $0.role == .version }
        let shown = ConfinedPaths(fileSystem: fileSystem, root: root).display(path)
        guard !versions.isEmpty else { throw ReleaseError.settingMissing(file: shown, setting: "MARKETING_VERSION", targets: []) }
        let project = try model ?? PBXProject(bytes: fileSystem.read(ProjectFile(path: path).pbxprojPath, as: .projectFile),
                                              projectName: ProjectFile(path: path).projectName)
        let shipping = project.shippingTargets().shipping
        let apps = applications(of: project, shipping: shipping)
        // A value shared with an application (or not tied to a target) is the application's.
        func isApplications(_ change: VersionChange) -> Bool { change.targets.isEmpty || change.targets.contains { apps.contains($0) } }
        let ofApps = Set(versions.map(\.old)).count == 1 ? versions : versions.filter(isApplications)
        guard let version = ofApps.first?.old, Set(ofApps.map(\.old)).count == 1 else {
            throw ReleaseError.projectVersionsDisagree(project: shown, values: versions.map { "\($0.place) = \($0.old)" })
        }
        let builds = probe.changes.filter { $0.role == .buildNumber }
        let appBuilds = Set(builds.map(\.old)).count == 1 ? builds : builds.filter(isApplications)
        var read = ProjectVersion(project: shown, version: version, build: Set(appBuilds.map(\.old)).count == 1 ? appBuilds.first?.old : nil,
                                  places: ofApps.map(\.place), targets: shipping, notes: probe.notes)
        let others = shipping.filter { !apps.contains($0) }.compactMap { name -> String? in
            let held = versions.filter { $0.targets.contains(name) && $0.old != version }
            guard let first = held.first else { return nil }
            return "'\(name)' \(first.old) (\(held.map(\.place).joined(separator: ", ")))"
        }
        if !others.isEmpty {
            read.warnings.append(
                "in '\(shown)', \(others.count == 1 ? "an embedded target does" : "embedded targets do") not hold the version of "
                + "\(apps.map { "'\($0)'" }.joined(separator: ", ")), \(version): \(others.joined(separator: ", ")). App Store Connect "
                + "accepts the upload but warns for each (ITMS-90473, CFBundleShortVersionString Mismatch: the extension's "
                + "CFBundleShortVersionString does not match the one of its containing application). Make them agree: set their "
                + "MARKETING_VERSION (or Info.plist) to \(version), or give version.bump the next version as its strategy, which writes "
                + "it to every shipping target")
        }
        return read
    }

    /// The applications among the shipping targets: the plain ones (`…application`), else any
    /// application (a watch or clip project), else every shipping target (no application).
    static func applications(of project: PBXProject, shipping: [String]) -> [String] {
        let types = Dictionary(project.targets.map { ($0.name, $0.productType ?? "") }, uniquingKeysWith: { first, _ in first })
        let plain = shipping.filter { types[$0] == "com.apple.product-type.application" }
        if !plain.isEmpty { return plain }
        let any = shipping.filter { types[$0]?.hasPrefix("com.apple.product-type.application") == true }
        return any.isEmpty ? shipping : any
    }

    /// The one `.xcodeproj` of a folder (or, when it has none, of its immediate subfolders,
    /// Pods aside), or nil when there is none. Several: an error naming them.
    public static func find(in folder: String, fileSystem: any FileSystem) throws -> String? {
        func projects(_ directory: String) -> [String] {
            ((try? fileSystem.contents(ofDirectory: directory)) ?? []).filter { $0.hasSuffix(".xcodeproj") }.sorted()
                .map { directory + "/" + $0 }
        }
        var found = projects(folder)
        if found.isEmpty {
            for name in ((try? fileSystem.contents(ofDirectory: folder)) ?? []).sorted()
            where !name.hasPrefix(".") && name != "Pods" && name != "Carthage" && fileSystem.kind(of: folder + "/" + name) == .directory
                && !name.hasSuffix(".xcodeproj") && !name.hasSuffix(".xcworkspace") {
                found += projects(folder + "/" + name)
            }
        }
        guard found.count <= 1 else {
            throw ReleaseError.optionsConflict("several Xcode projects could hold the app's version ("
                + found.map { "'\(ConfinedPaths(fileSystem: fileSystem, root: folder).display($0))'" }.joined(separator: ", ")
                + "); give the one with --xcodeproj")
        }
        return found.first
    }
}
