import AppleAPI
import Basics
import Foundation
import PBXProj
import Release

/// Runs every offline rule, and the App Store Connect rules when facts were fetched with a key,
/// and gathers every finding (no rule stops another) with which rules ran and which were
/// skipped, and why.
public struct PreflightRunner: Sendable {
    /// The rules, in order.
    public let rules: [any PreflightRule]

    /// A runner of `rules` (default: every rule).
    public init(rules: [any PreflightRule] = PreflightRegistry.all) {
        self.rules = rules
    }

    /// Reads the project once for every rule. A project that cannot be read is not an error
    /// here: the rules that need it are skipped with the reason, and the report says so.
    public static func context(options: PreflightOptions, fileSystem: any FileSystem) -> PreflightContext {
        var context = PreflightContext(options: options, fileSystem: fileSystem)
        let files = ProjectFiles(root: options.root, fileSystem: fileSystem)
        do {
            guard let xcodeproj = try options.xcodeproj ?? ProjectVersion.find(in: options.root, fileSystem: fileSystem) else {
                context.projectProblem = "there is no .xcodeproj in '\(files.display(options.root))' or the folders in it; give one with --xcodeproj"
                return context
            }
            var project = try PreflightProject.read(xcodeproj: xcodeproj, root: options.root, configuration: options.configuration,
                                                    fileSystem: fileSystem, walkBudget: options.walkBudget)
            (context.applicationChoice, context.applicationChoiceProblem) = project.selectApplication(named: options.app, platform: options.platform)
            context.project = project
            do {
                context.projectVersion = try ProjectVersion.read(project: xcodeproj, fileSystem: fileSystem, root: options.root, includesIgnoreCase: true)
            } catch {
                context.projectVersionProblem = error.localizedDescription
            }
        } catch {
            context.projectProblem = error.localizedDescription
        }
        return context
    }

    /// Runs the rules over `context`.
    public func run(_ context: PreflightContext) -> PreflightReport {
        var report = PreflightReport()
        report.application = context.applicationChoice
        for rule in rules {
            if rule.needsAppStoreConnect, context.remote == nil {
                report.skipped.append(PreflightReport.Skip(rule: rule.id, reason: context.remoteSkipReason
                    ?? "needs App Store Connect: give an API key (--key-id with --key-file or --key-env)"))
                continue
            }
            if let reason = rule.skipReason(context) {
                report.skipped.append(PreflightReport.Skip(rule: rule.id, reason: reason))
                continue
            }
            report.ran.append(rule.id)
            do {
                report.findings += try rule.check(context)
            } catch {
                report.findings.append(PreflightFinding(
                    rule: rule.id, severity: .error, location: .file(context.project?.projectPath ?? "."),
                    message: "the rule could not decide: \(error.localizedDescription)",
                    advice: "fix what the message names, then run slipway preflight again", citation: rule.citation))
            }
        }
        if let problem = context.projectProblem {
            report.findings.append(PreflightFinding(rule: "project", severity: .error, location: .file("."), message: "the Xcode project cannot be read: \(problem)",
                                                    advice: "give the app's project with --xcodeproj (the step's xcodeproj option)",
                                                    citation: "https://developer.apple.com/documentation/xcode/projects-and-workspaces"))
        }
        if let project = context.project {
            for problem in project.problems {
                report.findings.append(PreflightFinding(rule: "project", severity: .error, location: .file(project.projectPath), message: problem,
                                                        advice: "make the file readable (a property list inside the checkout), or fix the setting that names it",
                                                        citation: "https://developer.apple.com/documentation/bundleresources/information-property-list"))
            }
        }
        report.findings.sort(by: PreflightReport.order)
        return report
    }
}
