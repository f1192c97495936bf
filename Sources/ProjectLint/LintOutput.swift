import Basics
import Foundation

/// The ways a lint report is printed: for people, as JSON, as SARIF 2.1.0 and as GitHub
/// Actions annotations.
public enum LintOutput {
    /// Findings grouped by file, `path:line:col: severity: message [rule]`, coloured when
    /// `style` says so, then a one-line summary. Paths and messages quote the project's names
    /// (untrusted): their control characters are shown escaped (`DisplayText`).
    public static func human(_ report: LintReport, style: TerminalStyle) -> String {
        var text = ""
        var files: [String] = []
        var byFile: [String: [LintFinding]] = [:]
        for finding in report.findings {
            if byFile[finding.path] == nil { files.append(finding.path) }
            byFile[finding.path, default: []].append(finding)
        }
        for file in files {
            text += style.paint(file.displaySafe, .bold) + "\n"
            for finding in byFile[file] ?? [] {
                let place = [finding.line, finding.column].compactMap { $0 }.map(String.init).joined(separator: ":")
                let color: TerminalStyle.Color = finding.severity == .error ? .red : (finding.severity == .warning ? .yellow : .cyan)
                text += "  \(place.isEmpty ? "-" : place): " + style.paint(finding.severity.rawValue, color)
                    + ": \(finding.message.displaySafe) [\(finding.ruleID)]\n"
            }
        }
        text += summary(report).displaySafe + "\n"
        return text
    }

    /// "3 errors, 1 warning, 0 notes in App.xcodeproj/project.pbxproj".
    public static func summary(_ report: LintReport) -> String {
        func count(_ n: Int, _ word: String) -> String { "\(n) \(word)\(n == 1 ? "" : "s")" }
        return "\(count(report.count(.error), "error")), \(count(report.count(.warning), "warning")), \(count(report.count(.note), "note")) in \(report.pbxprojPath)"
    }

    struct JSONFinding: Codable {
        var rule: String
        var severity: String
        var message: String
        var file: String
        var line: Int?
        var column: Int?
        var object: String?
        var fixable: Bool
    }

    struct JSONReport: Codable {
        var project: String
        var findings: [JSONFinding]
        var counts: [String: Int]
    }

    /// `{"project", "findings": [{rule, severity, message, file, line, column, object, fixable}], "counts"}`.
    public static func json(_ report: LintReport) throws -> String {
        let value = JSONReport(
            project: report.pbxprojPath,
            findings: report.findings.map {
                JSONFinding(rule: $0.ruleID, severity: $0.severity.rawValue, message: $0.message, file: $0.path,
                            line: $0.line, column: $0.column, object: $0.objectID?.rawValue, fixable: $0.fix != nil)
            },
            counts: report.countsByRule)
        return String(decoding: try JSONFormatting.encoder(pretty: true).encode(value), as: UTF8.self) + "\n"
    }

    /// GitHub Actions workflow commands, one per finding.
    public static func githubAnnotations(_ report: LintReport) -> String {
        report.findings.map { finding in
            let level: GitHubAnnotation.Level = finding.severity == .error ? .error : (finding.severity == .warning ? .warning : .notice)
            return GitHubAnnotation(level, finding.message, file: finding.path, line: finding.line, column: finding.column,
                                    title: "slipway lint: \(finding.ruleID)").rendered + "\n"
        }.joined()
    }
}
