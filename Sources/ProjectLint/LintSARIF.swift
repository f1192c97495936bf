import Basics
import Foundation

/// SARIF 2.1.0 (the format GitHub code scanning reads): one run whose driver lists every rule
/// that ran, and one result per finding with its rule, level, message and place.
public enum LintSARIF {
    struct Log: Codable {
        var schema = "https://json.schemastore.org/sarif-2.1.0.json"
        var version = "2.1.0"
        var runs: [Run]
        enum CodingKeys: String, CodingKey { case schema = "$schema", version, runs }
    }
    struct Run: Codable { var tool: Tool; var results: [Result] }
    struct Tool: Codable { var driver: Driver }
    struct Driver: Codable {
        var name = "slipway"
        var informationUri = "https://github.com/slipway/slipway/blob/main/docs/lint.md"
        var rules: [Rule]
    }
    struct Rule: Codable {
        var id: String
        var shortDescription: Message
        var defaultConfiguration: Configuration
    }
    struct Configuration: Codable { var level: String }
    struct Message: Codable { var text: String }
    struct Result: Codable {
        var ruleId: String
        var ruleIndex: Int?
        var level: String
        var message: Message
        var locations: [Location]
    }
    struct Location: Codable { var physicalLocation: PhysicalLocation }
    struct PhysicalLocation: Codable { var artifactLocation: ArtifactLocation; var region: Region? }
    struct ArtifactLocation: Codable { var uri: String }
    struct Region: Codable { var startLine: Int; var startColumn: Int? }

    /// SARIF's level for a severity.
    static func level(_ severity: LintSeverity) -> String {
        switch severity {
        case .error: return "error"
        case .warning: return "warning"
        case .note: return "note"
        }
    }

    /// The report as a SARIF 2.1.0 log; file paths are made relative to `baseDirectory` when
    /// they are inside it (SARIF wants URIs relative to the repository).
    public static func render(_ report: LintReport, baseDirectory: String? = nil) throws -> String {
        let rules = report.rules.map {
            Rule(id: $0.rule.id, shortDescription: Message(text: $0.rule.summary),
                 defaultConfiguration: Configuration(level: level($0.severity)))
        }
        let index = Dictionary(rules.enumerated().map { ($1.id, $0) }, uniquingKeysWith: { first, _ in first })
        let results = report.findings.map { finding in
            Result(ruleId: finding.ruleID, ruleIndex: index[finding.ruleID], level: level(finding.severity),
                   message: Message(text: finding.message),
                   locations: [Location(physicalLocation: PhysicalLocation(
                       artifactLocation: ArtifactLocation(uri: uri(finding.path, base: baseDirectory)),
                       region: finding.line.map { Region(startLine: $0, startColumn: finding.column) }))])
        }
        let log = Log(runs: [Run(tool: Tool(driver: Driver(rules: rules)), results: results)])
        return String(decoding: try JSONFormatting.encoder(pretty: true).encode(log), as: UTF8.self) + "\n"
    }

    static func uri(_ path: String, base: String?) -> String {
        var path = path
        if let base, path.hasPrefix(base + "/") { path.removeFirst(base.count + 1) }
        return path.split(separator: "/", omittingEmptySubsequences: false).map {
            $0.addingPercentEncoding(withAllowedCharacters: .urlPathAllowed) ?? String($0)
        }.joined(separator: "/")
    }
}
