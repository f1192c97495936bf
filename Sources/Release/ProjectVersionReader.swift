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

    /// Reads the version of the project at `path` through `fileSystem`, bounded by `root`.
    /// - Throws: `ReleaseError.versionLocations` when a value cannot be read for sure,
    ///   `.projectVersionsDisagree` when the shipping targets hold different versions.
    public static func read(project path: String, fileSystem: any FileSystem, root: String,
                            includesIgnoreCase: Bool = false) throws -> ProjectVersion {
        let stamper = VersionStamper(fileSystem: fileSystem, root: root, includesIgnoreCase: includesIgnoreCase)
        let probe = try stamper.plan([.xcodeproj(path: path, targets: nil)], version: "0.0.0", buildNumber: "0")
        func values(_ role: VersionChange.Role) -> [(value: String, place: String)] {
            probe.changes.filter { $0.role == role }.map { change in
                (change.old, (change.line.map { "\(change.file):\($0)" } ?? change.file) + (change.key.map { " " + $0 } ?? ""))
            }
        }
        let versions = values(.version)
        let shown = ConfinedPaths(fileSystem: fileSystem, root: root).display(path)
        guard let first = versions.first else { throw ReleaseError.settingMissing(file: shown, setting: "MARKETING_VERSION", targets: []) }
        let distinct = Set(versions.map(\.value))
        guard distinct.count == 1 else {
            throw ReleaseError.projectVersionsDisagree(project: shown, values: versions.map { "\($0.place) = \($0.value)" })
        }
        let builds = values(.buildNumber)
        let project = try PBXProject(bytes: fileSystem.read(ProjectFile(path: path).pbxprojPath, as: .projectFile),
                                     projectName: ProjectFile(path: path).projectName)
        return ProjectVersion(project: shown, version: first.value, build: Set(builds.map(\.value)).count == 1 ? builds.first?.value : nil,
                              places: versions.map(\.place), targets: project.shippingTargets().shipping, notes: probe.notes)
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
