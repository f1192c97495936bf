import Basics
import Foundation

/// What a preflight found, which rules ran and which were skipped (and why).
public struct PreflightReport: Codable, Sendable {
    /// A rule that did not run, and why.
    public struct Skip: Codable, Sendable, Hashable {
        public var rule: String
        public var reason: String
    }

    /// The format's version, read first by machines.
    public var version = 1
    /// Every finding, errors first.
    public var findings: [PreflightFinding] = []
    /// The rules that ran.
    public var ran: [String] = []
    /// The rules skipped.
    public var skipped: [Skip] = []
    /// In a project of several apps, which one was checked and why.
    public var application: String?

    /// A report.
    public init() {}

    /// True when a finding is an error: what App Store Connect would refuse.
    public var hasErrors: Bool { findings.contains { $0.severity == .error } }

    static func order(_ a: PreflightFinding, _ b: PreflightFinding) -> Bool {
        let rank: [PreflightSeverity: Int] = [.error: 0, .warning: 1, .note: 2]
        if a.severity != b.severity { return rank[a.severity, default: 3] < rank[b.severity, default: 3] }
        if a.location.description != b.location.description { return a.location.description < b.location.description }
        if a.rule != b.rule { return a.rule < b.rule }
        return a.message < b.message
    }

    /// The report for people: each finding as `severity: location: [rule] message`, what to do
    /// and the citation, then which rules ran and were skipped, then the counts.
    public func human(style: TerminalStyle = .plain) -> String {
        var text = ""
        for finding in findings {
            let color: TerminalStyle.Color = finding.severity == .error ? .red : .yellow
            text += style.paint("\(finding.severity.rawValue):", color) + " \(finding.location): [\(finding.rule)] \(finding.message)\n"
            text += "  fix: \(finding.advice)\n"
            text += "  see: \(finding.citation)\n"
        }
        if let application { text += application + "\n" }
        text += "ran \(ran.count) rule\(ran.count == 1 ? "" : "s"): \(ran.joined(separator: ", "))\n"
        for skip in skipped { text += "skipped \(skip.rule): \(skip.reason)\n" }
        let count = { (severity: PreflightSeverity) in findings.filter { $0.severity == severity }.count }
        let errors = count(.error), warnings = count(.warning), notes = count(.note)
        text += "\(errors) error\(errors == 1 ? "" : "s"), \(warnings) warning\(warnings == 1 ? "" : "s"), \(notes) note\(notes == 1 ? "" : "s")"
            + (errors > 0 ? ": App Store Connect would refuse this release\n" : "\n")
        return text
    }

    /// The report as JSON, keys sorted.
    public func json() throws -> String {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .prettyPrinted, .withoutEscapingSlashes]
        return String(decoding: try encoder.encode(self), as: UTF8.self) + "\n"
    }

    /// One GitHub Actions annotation per finding, at its file and line when it has one.
    public func githubAnnotations() -> String {
        findings.map { finding in
            let level: GitHubAnnotation.Level = finding.severity == .error ? .error : finding.severity == .warning ? .warning : .notice
            return GitHubAnnotation(level, "\(finding.message) Fix: \(finding.advice) (\(finding.citation))",
                                    file: finding.location.file, line: finding.location.line,
                                    title: "preflight \(finding.rule)").rendered + "\n"
        }.joined()
    }
}
