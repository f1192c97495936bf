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
    private let paths: ConfinedPaths

    /// Reads the project at `projectPath`; files outside `root` are never read.
    public init(projectPath: String, root: String, fileSystem: any FileSystem) throws {
        let file = ProjectFile(path: projectPath)
        let text = try fileSystem.readText(file.pbxprojPath, as: .projectFile)
        project = try PBXProject(bytes: Array(text.utf8), projectName: file.projectName)
        paths = ConfinedPaths(fileSystem: fileSystem, root: root)
        locator = XcodeSettingLocator(project: project, file: file, pbxprojText: text, paths: paths)
    }

    /// `key` for `target` in `configuration`: its value (references followed to a literal) and
    /// where that literal is written; nil when it is defined nowhere or cannot be read for sure.
    public mutating func find(_ key: String, target: String, configuration: String) -> Found? {
        guard let owned = try? project.configurations(targets: [target], configurations: [configuration]).first else { return nil }
        let before = locator.problems.count
        guard let sites = locator.sites(of: key, in: owned), locator.problems.count == before,
              let site = sites.last(where: { !$0.key.contains("[") }) ?? sites.last else { return nil }
        let path = paths.display(site.file)
        return Found(value: site.value, place: site.line.map { "\(path):\($0)" } ?? path)
    }
}
