import Basics
import Foundation

/// Audits the Package.resolved files Xcode keeps, against the requirements in the projects that
/// use them: `X.xcodeproj/project.xcworkspace/xcshareddata/swiftpm/Package.resolved` for the
/// project X, and `Y.xcworkspace/xcshareddata/swiftpm/Package.resolved` for every project the
/// workspace Y lists. Every remote requirement needs a pin that satisfies it; local packages
/// need no pin, but their folder must hold a package.
struct XcodeResolvedAudit: Sendable {
    let context: PinsContext

    /// One Xcode Package.resolved and the projects whose requirements apply to it.
    struct Target {
        var resolvedPath: String
        var projects: [String]
        /// How to write it again with xcodebuild.
        var resolveCommand: String
    }

    /// Audits every Xcode Package.resolved in the project's root folder.
    func audit() async throws -> DepsReport {
        var report = DepsReport()
        var checkedProjects: [String: XcodeProjectPackages] = [:]
        var localChecked = Set<String>()
        var localRequirements: [String: [LocalRequirements]] = [:]
        for target in try targets(notes: &report.notes) {
            let file = context.display(target.resolvedPath)
            report.merge(try await PackageResolvedAudit(context: context).audit(resolvedPath: target.resolvedPath, manifestFolder: nil))
            let resolved = try PackageResolved.parse(try context.fileSystem.read(target.resolvedPath, as: .lockfile), file: file)
            var list = FindingList(file: file)
            var projects: [XcodeProjectPackages] = []
            for bundle in target.projects {
                guard context.fileSystem.exists(bundle + "/project.pbxproj") else {
                    report.notes.append("\(file): '\(context.display(bundle))' is listed in the workspace but is not there; "
                        + "its package requirements were not checked.")
                    continue
                }
                if checkedProjects[bundle] == nil {
                    checkedProjects[bundle] = try XcodeProjectPackages.read(bundle: bundle, fileSystem: context.fileSystem,
                                                                            display: context.display)
                }
                if let packages = checkedProjects[bundle] { projects.append(packages) }
            }
            check(projects, against: resolved, command: target.resolveCommand, into: &list)
            for project in projects where !project.local.isEmpty {
                if localRequirements[project.projectFile] == nil {
                    localRequirements[project.projectFile] = try await self.localRequirements(of: project, notes: &report.notes) ?? []
                }
                check(localRequirements[project.projectFile] ?? [], pins: Self.pins(of: resolved),
                      advice: Self.advice(target.resolveCommand), into: &list)
            }
            report.findings += list.findings
            for project in projects where localChecked.insert(project.projectFile).inserted && !project.local.isEmpty {
                report.merge(checkLocalPackages(of: project))
            }
        }
        report.notes += unresolvedProjects(checked: Set(checkedProjects.keys))
        return report
    }

    /// A note for each project in the root folder that has remote packages but whose
    /// requirements no Package.resolved holds (none committed): nothing pins them.
    private func unresolvedProjects(checked: Set<String>) -> [String] {
        let root = context.projectDirectory
        guard let names = try? context.fileSystem.contents(ofDirectory: root) else { return [] }
        var notes: [String] = []
        for name in names.sorted() where name.hasSuffix(".xcodeproj") && !checked.contains(root + "/" + name) {
            guard let packages = try? XcodeProjectPackages.read(bundle: root + "/" + name, fileSystem: context.fileSystem,
                                                                display: context.display),
                  !packages.remote.isEmpty
            else { continue }
            notes.append("\(name) has \(packages.remote.count) package requirement(s) but no Package.resolved "
                + "(\(name)/project.xcworkspace/xcshareddata/swiftpm/Package.resolved): nothing pins their versions. "
                + "Commit the Package.resolved Xcode writes so that every machine builds the same versions.")
        }
        return notes
    }

    private func check(_ projects: [XcodeProjectPackages], against resolved: PackageResolved, command: String,
                       into list: inout FindingList) {
        let pins = Self.pins(of: resolved)
        let advice = Self.advice(command)
        for project in projects {
            for package in project.remote {
                let wantedBy = "\(project.projectFile)\(package.line.map { " line \($0)" } ?? "")"
                let expected = "\(package.requirement.description) as \(wantedBy) asks"
                guard let pin = pins[package.identity] else {
                    list.check("requirement", package.url, ok: false, expected: "a pin for " + expected, found: "no pin",
                               advice: advice)
                    continue
                }
                if PackageLocation.canonical(pin.location) != PackageLocation.canonical(package.url) {
                    list.check("requirement", package.url, ok: false, expected: "a pin for \(package.url) (\(wantedBy))",
                               found: "a pin for \(pin.location)", advice: advice)
                    continue
                }
                list.check("requirement", package.url, ok: package.requirement.isSatisfied(by: pin), expected: expected,
                           found: Self.describe(pin), advice: advice)
            }
        }
    }

    static func pins(of resolved: PackageResolved) -> [String: PackageResolved.Pin] {
        Dictionary(resolved.pins.map { ($0.identity, $0) }, uniquingKeysWith: { first, _ in first })
    }

    static func advice(_ command: String) -> String {
        "Resolve packages in Xcode (File > Packages > Resolve Package Versions) or run '\(command)', then commit Package.resolved."
    }

    /// `5.0.6 (c8ed701)`, `branch 'main' (c8ed701)`, `revision c8ed701…`.
    static func describe(_ pin: PackageResolved.Pin) -> String {
        let short = pin.revision.prefix(7)
        if let version = pin.version { return "\(version) (\(short))" }
        if let branch = pin.branch { return "branch '\(branch)' (\(short))" }
        return "revision \(pin.revision)"
    }

    /// A local package needs no pin, but its folder must exist and hold a Package.swift.
    private func checkLocalPackages(of project: XcodeProjectPackages) -> DepsReport {
        var list = FindingList(file: project.projectFile)
        for package in project.local {
            let folder = XcodeWorkspaceContents.join(project.projectFolder, package.relativePath)
            let found: String
            if !context.fileSystem.isDirectory(folder) {
                found = "no folder '\(context.display(folder))'"
            } else if !context.fileSystem.exists(folder + "/Package.swift") {
                found = "a folder without Package.swift"
            } else {
                found = "Package.swift"
            }
            list.check("local-package", package.relativePath, ok: found == "Package.swift",
                       expected: "a package folder (line \(package.line.map(String.init) ?? "?"))", found: found,
                       advice: "Restore the package at '\(context.display(folder))' (check out its submodule, or commit it), "
                           + "or remove the local package from the project in Xcode.")
        }
        return DepsReport(files: [project.projectFile], findings: list.findings)
    }

    /// Xcode's Package.resolved files in the root folder, with the projects each serves.
    private func targets(notes: inout [String]) throws -> [Target] {
        let root = context.projectDirectory
        guard let names = try? context.fileSystem.contents(ofDirectory: root) else { return [] }
        var targets: [Target] = []
        for name in names.sorted() {
            let bundle = root + "/" + name
            if name.hasSuffix(".xcodeproj") {
                let resolved = bundle + "/project.xcworkspace/xcshareddata/swiftpm/Package.resolved"
                guard context.fileSystem.exists(resolved) else { continue }
                targets.append(Target(resolvedPath: resolved, projects: [bundle],
                                      resolveCommand: "xcodebuild -resolvePackageDependencies -project \(name)"))
            } else if name.hasSuffix(".xcworkspace") {
                let resolved = bundle + "/xcshareddata/swiftpm/Package.resolved"
                guard context.fileSystem.exists(resolved) else { continue }
                let contents = bundle + "/contents.xcworkspacedata"
                var projects: [String] = []
                if context.fileSystem.exists(contents) {
                    projects = XcodeWorkspaceContents.projects(try context.fileSystem.readText(contents, as: .configuration), workspace: bundle)
                } else {
                    notes.append("\(context.display(resolved)): '\(name)' has no contents.xcworkspacedata, so no project's "
                        + "package requirements were checked against it.")
                }
                targets.append(Target(resolvedPath: resolved, projects: projects,
                                      resolveCommand: "xcodebuild -resolvePackageDependencies -workspace \(name) -scheme <scheme>"))
            }
        }
        return targets
    }
}
