import Basics
import Foundation

/// `slipway deps verify`: audits the project's other lockfiles offline — Package.resolved (the
/// package's and Xcode's), Podfile.lock, Cartfile.resolved and Gemfile.lock — and gives one
/// verdict with expected / found / file for every check.
public struct DependencyAuditor: Sendable {
    /// The project and its services.
    public let context: PinsContext

    /// An auditor for the project in `context`.
    public init(context: PinsContext) {
        self.context = context
    }

    /// Audits every lockfile found in the project's root, and Xcode's Package.resolved files against
    /// the package requirements of the projects that use them.
    /// - Throws: `PinsError.malformedDependencyFile` / `.unsupportedDependencyFileVersion` for a
    ///   file that cannot be read as its format, `FileSystemError` when one cannot be read at all.
    public func audit() async throws -> DepsReport {
        let root = context.projectDirectory
        let fileSystem = context.fileSystem
        var report = DepsReport()
        if fileSystem.exists(root + "/Package.resolved") {
            let manifest = fileSystem.exists(root + "/Package.swift") ? root : nil
            report.merge(try await PackageResolvedAudit(context: context)
                .audit(resolvedPath: root + "/Package.resolved", manifestFolder: manifest))
        }
        report.merge(try await XcodeResolvedAudit(context: context).audit())
        var gemfileLock: GemfileLock?
        let gemfilePath = root + "/Gemfile.lock"
        if fileSystem.exists(gemfilePath) {
            gemfileLock = try GemfileLock.parse(try fileSystem.readText(gemfilePath, as: .lockfile), file: context.display(gemfilePath))
        }
        if fileSystem.exists(root + "/Podfile.lock") {
            report.merge(try PodfileLockAudit(context: context).audit(folder: root, gemfileLock: gemfileLock))
        }
        if fileSystem.exists(root + "/Cartfile.resolved") {
            report.merge(try CartfileAudit(context: context).audit(folder: root))
        } else if fileSystem.exists(root + "/Cartfile") {
            report.files.append("Cartfile")
            report.findings.append(DepsFinding(check: "resolved", subject: "", ok: false, expected: "a Cartfile.resolved",
                                               found: "none", file: "Cartfile.resolved",
                                               advice: "Run 'carthage update' and commit Cartfile.resolved."))
        }
        if let gemfileLock {
            report.merge(GemfileLockAudit(context: context).audit(path: gemfilePath, lock: gemfileLock))
        }
        if report.files.isEmpty {
            report.notes.append("No Package.resolved, Podfile.lock, Cartfile.resolved or Gemfile.lock in '\(root)'.")
        }
        return report
    }
}
