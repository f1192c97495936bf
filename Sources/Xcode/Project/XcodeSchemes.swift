import Basics
import PBXProj

/// Finds the schemes of a project or workspace, as Xcode lists them.
public enum XcodeSchemes {
    /// The schemes of `container`: for a project, its shared then its users' scheme files, or,
    /// when it has none, one autocreated scheme per target (test bundles left out: Xcode puts
    /// them in their host's scheme); for a workspace, its own shared and users' schemes, then
    /// each listed project's.
    ///
    /// - Throws: `XcodeProjectError.notAContainer` for a missing container (or a project the
    ///   workspace lists that is missing), `malformedXML` for a scheme or workspace file that
    ///   does not parse, `PBXProjError` for a pbxproj that does not.
    ///
    /// With `skippingUninstalledPods`, a project under the workspace folder's `Pods/` is passed
    /// over when that folder holds a Podfile and no `Pods/` (CocoaPods not installed yet: `validate`
    /// notes it once instead); otherwise its absence is an error that says to run `pod install`.
    public static func list(in container: XcodeContainer, fileSystem: FileSystem,
                            skippingUninstalledPods: Bool = false) throws -> [XcodeScheme] {
        try container.checkExists(fileSystem: fileSystem)
        guard container.kind == .workspace else { return try projectSchemes(container.path, fileSystem: fileSystem) }
        let dataPath = container.path + "/contents.xcworkspacedata"
        let projects = try XcodeWorkspaceData.projects(
            xml: fileSystem.read(dataPath, as: .buildSettings), path: dataPath, workspace: container.path)
        var schemes = try schemeFiles(in: container.path, fileSystem: fileSystem)
        let podsNotInstalled = CocoaPodsAdvice.isNotInstalled(in: container.parentDirectory, fileSystem: fileSystem)
        for project in projects {
            guard fileSystem.kind(of: project) == .directory else {
                let pods = CocoaPodsAdvice.isCocoaPodsPath(project)
                if pods && podsNotInstalled && skippingUninstalledPods { continue }
                if pods { throw XcodeProjectError.podsNotInstalled(path: project, workspaceData: dataPath) }
                throw XcodeProjectError.notAContainer(path: project, reason: "is listed in '\(dataPath)' but does not exist")
            }
            schemes += try projectSchemes(project, fileSystem: fileSystem)
        }
        return schemes
    }

    /// The scheme named `name` in `container`.
    ///
    /// - Throws: what `list` throws, and `XcodeProjectError.schemeNotFound` naming the container,
    ///   listing its schemes and suggesting the nearest name.
    public static func find(_ name: String, in container: XcodeContainer, fileSystem: FileSystem,
                            skippingUninstalledPods: Bool = false) throws -> XcodeScheme {
        let schemes = try list(in: container, fileSystem: fileSystem, skippingUninstalledPods: skippingUninstalledPods)
        if let scheme = schemes.first(where: { $0.name == name }) { return scheme }
        var seen = Set<String>()
        let names = schemes.map(\.name).filter { seen.insert($0).inserted }
        throw XcodeProjectError.schemeNotFound(name: name, container: container.path, available: names)
    }

    private static func projectSchemes(_ project: String, fileSystem: FileSystem) throws -> [XcodeScheme] {
        let files = try schemeFiles(in: project, fileSystem: fileSystem)
        return files.isEmpty ? try autocreated(project, fileSystem: fileSystem) : files
    }

    /// `xcshareddata/xcschemes/*.xcscheme`, then `xcuserdata/*.xcuserdatad/xcschemes/*.xcscheme`.
    static func schemeFiles(in container: String, fileSystem: FileSystem) throws -> [XcodeScheme] {
        var schemes = try schemes(inFolder: container + "/xcshareddata/xcschemes", origin: .shared, fileSystem: fileSystem)
        let users = container + "/xcuserdata"
        for entry in (try? fileSystem.contents(ofDirectory: users)) ?? [] where entry.hasSuffix(".xcuserdatad") {
            let user = String(entry.dropLast(".xcuserdatad".count))
            schemes += try Self.schemes(inFolder: users + "/" + entry + "/xcschemes", origin: .user(user), fileSystem: fileSystem)
        }
        return schemes
    }

    private static func schemes(inFolder folder: String, origin: XcodeScheme.Origin, fileSystem: FileSystem) throws -> [XcodeScheme] {
        guard fileSystem.kind(of: folder) == .directory else { return [] }
        return try fileSystem.contents(ofDirectory: folder).filter { $0.hasSuffix(".xcscheme") }.map { file in
            let path = folder + "/" + file
            return try XcodeScheme(xml: fileSystem.read(path, as: .buildSettings), path: path, origin: origin)
        }.sorted { $0.name < $1.name }
    }

    private static let testProductTypes: Set<String> = [
        "com.apple.product-type.bundle.unit-test", "com.apple.product-type.bundle.ui-testing",
    ]

    private static func autocreated(_ project: String, fileSystem: FileSystem) throws -> [XcodeScheme] {
        let container = try XcodeContainer(path: project)
        let pbxproj = try PBXProject(bytes: fileSystem.read(project + "/project.pbxproj", as: .projectFile), projectName: container.name)
        let file = project.split(separator: "/").last.map(String.init) ?? project
        return pbxproj.targets.filter { !testProductTypes.contains($0.productType ?? "") }.map { target in
            var scheme = XcodeScheme(name: target.name, path: project, origin: .autocreated)
            scheme.buildableReferences = [XcodeScheme.BuildableReference(
                blueprintName: target.name, buildableName: productName(target, in: pbxproj),
                blueprintIdentifier: target.id.rawValue, referencedContainer: "container:" + file)]
            return scheme
        }
    }

    private static func productName(_ target: Target, in project: PBXProject) -> String {
        guard let reference = target.productReference, let product = project.fileElement(reference) else { return target.name }
        return product.path ?? product.name ?? target.name
    }
}
