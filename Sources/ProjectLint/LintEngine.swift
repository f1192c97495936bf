import PBXProj

/// What a lint run found.
public struct LintReport: Sendable {
    /// The project file linted.
    public let pbxprojPath: String
    /// The findings, rule by rule in registry order.
    public let findings: [LintFinding]
    /// The rules that ran, with their severity.
    public let rules: [(rule: any LintRule, severity: LintSeverity)]

    /// How many findings each rule gave (rules without findings left out).
    public var countsByRule: [String: Int] {
        findings.reduce(into: [:]) { $0[$1.ruleID, default: 0] += 1 }
    }

    /// How many findings have each severity.
    public func count(_ severity: LintSeverity) -> Int {
        findings.filter { $0.severity == severity }.count
    }

    /// Whether a finding is at `severity` or above.
    public func hasFindings(atLeast severity: LintSeverity) -> Bool {
        findings.contains { $0.severity >= severity }
    }
}

/// Runs the configured rules over one project.
public enum LintEngine {
    /// Runs every enabled rule of `rules` over `context`, applies severities and ignores.
    public static func run(_ context: LintContext, configuration: LintConfiguration = LintConfiguration(),
                           rules: [any LintRule] = LintRegistry.all) -> LintReport {
        var findings: [LintFinding] = []
        var ran: [(rule: any LintRule, severity: LintSeverity)] = []
        for rule in rules {
            guard let severity = configuration.severity(of: rule) else { continue }
            ran.append((rule, severity))
            for var finding in rule.check(context) {
                if let subject = finding.subject, !configuration.ignore.isEmpty,
                    configuration.ignore.contains(where: { LintGlob.matches($0, subject) }) { continue }
                finding.severity = severity
                findings.append(finding)
            }
        }
        if context.project != nil {
            let unplaced = findings.filter { $0.line == nil && $0.path == context.pbxprojPath }.compactMap(\.objectID)
            let locations = context.locations(of: unplaced)
            for index in findings.indices where findings[index].line == nil && findings[index].path == context.pbxprojPath {
                guard let id = findings[index].objectID, let location = locations[id] else { continue }
                findings[index].line = location.line
                findings[index].column = location.column
            }
        }
        return LintReport(pbxprojPath: context.pbxprojPath, findings: findings, rules: ran)
    }
}
