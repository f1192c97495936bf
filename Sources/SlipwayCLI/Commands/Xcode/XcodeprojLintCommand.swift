import ArgumentParser
import Basics
import PBXProj
import ProjectLint

/// `slipway xcodeproj lint PATH`.
struct XcodeprojLintCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "lint",
        abstract: "Find hygiene problems in an Xcode project: missing files, dead build files, orphans, conflict markers...",
        discussion: """
            Runs the rules listed by --rules (docs/lint.md) over the project, configured by \
            .slipway/lint.yml (in the project's folder or the repository's root) or --config. \
            Findings are grouped by file; under GitHub Actions (GITHUB_ACTIONS=true) they are also \
            printed as annotations. --fix applies the safe fixes (dead build files, orphaned \
            objects, duplicate references, sorting, formatting) as minimal edits; with --dry-run \
            it only says what it would change. Exit status: 0 no finding at --fail-on severity \
            (default error), 1 such findings, 2 bad input (not a project, bad configuration).

            EXAMPLES:
              slipway xcodeproj lint App.xcodeproj
              slipway xcodeproj lint App.xcodeproj --sarif lint.sarif --fail-on warning
              slipway xcodeproj lint App.xcodeproj --fix --dry-run
              slipway xcodeproj lint --rules
            """
    )

    @OptionGroup var global: GlobalOptions

    @Argument(help: XcodeprojSupport.pathHelp)
    var path: String?

    @Flag(help: "List the rules (with --markdown: as docs/lint.md) and exit.")
    var rules = false

    @Flag(help: ArgumentHelp(visibility: .hidden))
    var markdown = false

    @Option(help: ArgumentHelp("The lint configuration (default: .slipway/lint.yml).", valueName: "file"))
    var config: String?

    @Flag(help: "Print the findings as JSON.")
    var json = false

    @Option(help: ArgumentHelp("Also write the findings as SARIF 2.1.0 (GitHub code scanning).", valueName: "file"))
    var sarif: String?

    @Option(name: .customLong("fail-on"), help: ArgumentHelp("The lowest severity that fails the run: error, warning or note.", valueName: "severity"))
    var failOn: String = "error"

    @Flag(help: "Apply the safe fixes.")
    var fix = false

    @Flag(name: .customLong("dry-run"), help: "With --fix: say what would change, write nothing.")
    var dryRun = false

    func run() async throws {
        let env = global.environment()
        if rules {
            env.standardOutput.write(markdown ? LintRegistry.markdown() : Self.ruleList())
            return
        }
        guard let given = path else { throw ValidationError("Give the project to lint (the .xcodeproj folder), or --rules.") }
        guard let threshold = LintSeverity(rawValue: failOn) else {
            throw ValidationError("--fail-on '\(failOn)' is not a severity; use error, warning or note.")
        }
        if dryRun && !fix { throw ValidationError("--dry-run goes with --fix.") }
        let path = XcodeprojSupport.resolve(given, global)
        let lint: LintRun
        do {
            lint = try LintRun(path: path, configurationPath: config.map { XcodeprojSupport.resolve($0, global) }, fileSystem: env.fileSystem)
        } catch let error as LintError {
            if case .configuration(let diagnostics) = error, !diagnostics.isEmpty, diagnostics.allSatisfy({ $0.location != nil }) {
                env.printDiagnostics(diagnostics)
                throw Failure.exitCode(for: error.failureKind)
            }
            throw Failure.report(error, in: env)
        }
        let report = lint.report()
        if fix, lint.context.project != nil {
            try applyFixes(report, lint: lint, env: env)
        }
        try output(report, env: env)
        if report.hasFindings(atLeast: threshold) { throw ExitCodes.failure }
    }

    private func output(_ report: LintReport, env: CommandEnvironment) throws {
        if let sarif {
            let target = XcodeprojSupport.resolve(sarif, global)
            let folder = ProjectPath.parent(target)
            if !folder.isEmpty { try env.fileSystem.createDirectory(folder) }
            try env.fileSystem.writeAtomically(Array(try LintSARIF.render(report, baseDirectory: env.projectDirectory).utf8), to: target)
        }
        if json {
            env.standardOutput.write(try LintOutput.json(report))
        } else {
            env.standardOutput.write(LintOutput.human(report, style: env.style))
        }
        if env.environment.isGitHubActions { env.standardOutput.write(LintOutput.githubAnnotations(report)) }
    }

    private func applyFixes(_ report: LintReport, lint: LintRun, env: CommandEnvironment) throws {
        let file = lint.file
        guard report.findings.contains(where: { $0.fix != nil }) else {
            env.standardError.write("nothing to fix\n")
            return
        }
        let result = try LintFixer.applyUntilClean(report, context: lint.context, configuration: lint.configuration)
        let verb = dryRun ? "would fix" : "fixed"
        for finding in result.fixed {
            env.standardError.write("\(verb): \(finding.line.map { "line \($0): " } ?? "")\(finding.message.displaySafe) [\(finding.ruleID)]\n")
        }
        env.standardError.write("\(file.pbxprojPath): \(dryRun ? "would change" : "changed") about \(result.changedLineCount) lines\(dryRun ? "; nothing written (--dry-run)" : "")\n")
        guard !dryRun else { return }
        let lock = try XcodeprojSupport.lock(file.pbxprojPath, in: env)
        defer { lock?.release() }
        try env.fileSystem.writeAtomically(result.bytes, to: file.pbxprojPath)
    }

    static func ruleList() -> String {
        let width = LintRegistry.ids.map(\.count).max() ?? 0
        return LintRegistry.all.map { rule in
            let severity = rule.isOptIn ? "opt-in" : rule.defaultSeverity.rawValue
            let padded = rule.id + String(repeating: " ", count: width - rule.id.count)
            return "\(padded)  \(severity.padding(7))  \(rule.isFixable ? "fix" : "   ")  \(rule.summary)\n"
        }.joined()
    }
}

private extension String {
    func padding(_ width: Int) -> String { self + String(repeating: " ", count: max(0, width - count)) }
}
