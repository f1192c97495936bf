import Basics
import Foundation

/// The requirements inside an app's local packages: Xcode resolves their remote dependencies
/// into the same Package.resolved as the project's own, so each needs a pin that meets it.
extension XcodeResolvedAudit {
    /// One local package's remote dependencies, read from its Package.swift.
    struct LocalRequirements {
        /// `Packages/AppCore/Package.swift`, as shown to the user.
        var manifest: String
        var dependencies: [ManifestDependency]
    }

    /// The remote dependencies of `project`'s local packages, through `swift package
    /// dump-package` (cached); nil, with a note, when there is no `swift` on PATH.
    func localRequirements(of project: XcodeProjectPackages, notes: inout [String]) async throws -> [LocalRequirements]? {
        var result: [LocalRequirements] = []
        for package in project.local {
            let folder = XcodeWorkspaceContents.join(project.projectFolder, package.relativePath)
            let manifestPath = folder + "/Package.swift"
            guard context.fileSystem.exists(manifestPath) else { continue }
            let names = try context.fileSystem.contents(ofDirectory: folder)
                .filter { $0 == "Package.swift" || ($0.hasPrefix("Package@swift-") && $0.hasSuffix(".swift")) }.sorted()
            let bytes = try names.flatMap { try context.fileSystem.read(folder + "/" + $0, as: .versionFile) }
            let dependencies: [ManifestDependency]?
            do {
                dependencies = try await ManifestDumper(context: context).dependencies(in: folder, manifests: bytes)
            } catch PinsError.malformedDependencyFile(_, let line, let reason, let fix) {
                throw PinsError.malformedDependencyFile(file: context.display(manifestPath), line: line, reason: reason, fix: fix)
            }
            guard let dependencies else {
                notes.append("\(project.projectFile): the requirements inside its local packages were not checked against "
                    + "Package.resolved: no 'swift' on PATH.")
                return nil
            }
            result.append(LocalRequirements(manifest: context.display(manifestPath), dependencies: dependencies))
        }
        return result
    }

    /// Each local package's dependency needs a pin that meets its requirement.
    func check(_ locals: [LocalRequirements], pins: [String: PackageResolved.Pin], advice: String, into list: inout FindingList) {
        for local in locals {
            for dependency in local.dependencies {
                let expected = "\(dependency.requirement) as \(local.manifest) asks"
                guard let pin = pins[dependency.identity] else {
                    list.check("requirement", dependency.identity, ok: false, expected: "a pin for " + expected,
                               found: "no pin", advice: advice)
                    continue
                }
                list.check("requirement", dependency.identity, ok: PackageResolvedAudit.satisfies(pin, dependency.requirement),
                           expected: expected, found: Self.describe(pin), advice: advice)
            }
        }
    }
}
