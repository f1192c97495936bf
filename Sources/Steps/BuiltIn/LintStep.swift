import Basics
import PBXProj
import ProjectLint

/// `lint`: `slipway xcodeproj lint` as a lane step, a hygiene gate for CI.
public struct LintStep: Step {
    public static let description = StepDescription(
        id: "lint",
        summary: "Lint an Xcode project (missing files, dead build files, orphans, conflict markers...) and fail on findings",
        discussion: """
            The same rules as 'slipway xcodeproj lint' (docs/lint.md), configured by \
            .slipway/lint.yml or 'config'. Each finding is logged with its file and line; the \
            step fails when a finding is at 'fail-on' severity or above. Reads only. Outputs \
            the counts, and writes SARIF to 'sarif' when given.
            """,
        options: [
            .required("project", .string, "The .xcodeproj folder (or the project.pbxproj in it)."),
            .optional("config", .string, "The lint configuration (default: .slipway/lint.yml next to the project or at the repository's root)."),
            .optional("fail-on", .choice(["error", "warning", "note", "never"]), default: .string("error"), "The lowest severity that fails the step; never: report only."),
            .optional("sarif", .string, "Also write the findings as SARIF 2.1.0 to this file (for GitHub code scanning)."),
        ],
        outputs: [
            OutputSpec("errors", "How many findings are errors."),
            OutputSpec("warnings", "How many findings are warnings."),
            OutputSpec("notes", "How many findings are notes."),
            OutputSpec("findings", "How many findings there are in all."),
        ],
        primaryOption: "project",
        examples: [
            StepExample("Fail CI on lint errors", "- lint: App.xcodeproj"),
            StepExample("Warnings fail too, with a SARIF report for code scanning", """
                - lint:
                    project: App.xcodeproj
                    fail-on: warning
                    sarif: build/lint.sarif
                """),
        ]
    )

    /// The project, as given.
    public let project: String
    /// The configuration file, if given.
    public let config: String?
    /// The severity that fails the step (nil: never).
    public let failOn: LintSeverity?
    /// Where SARIF goes, if anywhere.
    public let sarif: String?

    public init(options: StepOptions) throws {
        project = try options.requiredString("project")
        config = try options.string("config")
        let failOn = try options.requiredString("fail-on")
        self.failOn = failOn == "never" ? nil : LintSeverity(rawValue: failOn)
        sarif = try options.string("sarif")
    }

    public func plan(in context: StepContext) throws -> [Effect] {
        var effects = [Effect(.check, "lint \(project) (fail on \(failOn?.rawValue ?? "nothing"))")]
        if let sarif { effects.append(Effect(.write, "\(context.resolve(sarif)) (SARIF)")) }
        return effects
    }

    public func run(in context: StepContext) async throws -> StepOutputs {
        let path = context.resolve(project)
        let configPath = config.map { context.resolve($0) }
        let fileSystem = context.fileSystem
        let report = try await BlockingWork.run(name: "slipway-lint") { () throws -> LintReport in
            do {
                return try LintRun(path: path, configurationPath: configPath, fileSystem: fileSystem).report()
            } catch let error as LintError {
                throw StepError.invalidOption(name: error.isConfiguration ? "config" : "project", problem: error.localizedDescription)
            }
        }
        for finding in report.findings {
            let prefix = context.workingDirectory + "/"
            let path = finding.path.hasPrefix(prefix) ? String(finding.path.dropFirst(prefix.count)) : finding.path
            let place = path + (finding.line.map { ":\($0)" } ?? "")
            let level: LogLevel = finding.severity == .error ? .error : (finding.severity == .warning ? .warning : .info)
            context.events.log(level, "\(place): \(finding.message) [\(finding.ruleID)]")
        }
        if let sarif {
            try context.fileSystem.createDirectory(ProjectPath.parent(context.resolve(sarif)))
            // The SARIF file is a report like JUnit: the lane's secrets are masked in it too.
            let text = context.redactor.redact(try LintSARIF.render(report, baseDirectory: context.workingDirectory))
            try context.fileSystem.writeAtomically(Array(text.utf8), to: context.resolve(sarif))
        }
        let outputs = [
            "errors": String(report.count(.error)), "warnings": String(report.count(.warning)),
            "notes": String(report.count(.note)), "findings": String(report.findings.count),
        ]
        if let failOn, report.hasFindings(atLeast: failOn) {
            throw StepError.failed(LintOutput.summary(report) + " (fail-on: \(failOn.rawValue))")
        }
        return outputs
    }
}

extension LintError {
    /// Whether the configuration, not the project, is at fault.
    var isConfiguration: Bool {
        if case .configuration = self { return true }
        return false
    }
}
