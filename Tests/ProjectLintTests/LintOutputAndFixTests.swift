import Basics
import Foundation
import PBXProj
@testable import ProjectLint
import TestThreads
import Testing

@Suite("Lint output (SARIF, JSON, GitHub) and --fix", .dedicatedThreads)
struct LintOutputAndFixTests {
    static func report(_ rule: any LintRule) throws -> (LintContext, LintReport) {
        let example = try #require(rule.examples.first)
        let context = LintRuleExampleTests.context(example)
        return (context, LintEngine.run(context, configuration: LintConfiguration(severities: [rule.id: .some(rule.defaultSeverity)]),
                                        rules: [rule]))
    }

    @Test func sarifHasRulesResultsLevelsAndRegions() throws {
        let (_, report) = try Self.report(MissingFileRule())
        let text = try LintSARIF.render(report, baseDirectory: nil)
        let log = try #require(try JSONSerialization.jsonObject(with: Data(text.utf8)) as? [String: Any])
        #expect(log["version"] as? String == "2.1.0")
        #expect(log["$schema"] as? String == "https://json.schemastore.org/sarif-2.1.0.json")
        let run = try #require((log["runs"] as? [[String: Any]])?.first)
        let driver = try #require((run["tool"] as? [String: Any])?["driver"] as? [String: Any])
        #expect(driver["name"] as? String == "slipway")
        let rules = try #require(driver["rules"] as? [[String: Any]])
        #expect(rules.map { $0["id"] as? String } == ["missing-file"])
        #expect((rules[0]["defaultConfiguration"] as? [String: Any])?["level"] as? String == "error")
        let result = try #require((run["results"] as? [[String: Any]])?.first)
        #expect(result["ruleId"] as? String == "missing-file")
        #expect(result["ruleIndex"] as? Int == 0)
        #expect(result["level"] as? String == "error")
        #expect((result["message"] as? [String: Any])?["text"] as? String
            == "'Gone.swift' does not exist (file reference 'Gone.swift'); restore the file or remove the reference")
        let physical = try #require(((result["locations"] as? [[String: Any]])?.first)?["physicalLocation"] as? [String: Any])
        #expect((physical["artifactLocation"] as? [String: Any])?["uri"] as? String == "Example.xcodeproj/project.pbxproj")
        #expect((physical["region"] as? [String: Any])?["startLine"] as? Int == 9)
    }

    @Test func sarifURIsAreRelativeAndEscaped() {
        #expect(LintSARIF.uri("/repo/My App.xcodeproj/project.pbxproj", base: "/repo") == "My%20App.xcodeproj/project.pbxproj")
    }

    @Test func jsonAndAnnotations() throws {
        let (_, report) = try Self.report(EmptyGroupRule())
        let json = try #require(try JSONSerialization.jsonObject(with: Data(try LintOutput.json(report).utf8)) as? [String: Any])
        let finding = try #require((json["findings"] as? [[String: Any]])?.first)
        #expect(finding["rule"] as? String == "empty-group")
        #expect(finding["line"] as? Int == 8)
        #expect(finding["severity"] as? String == "warning")
        #expect(LintOutput.githubAnnotations(report)
            == "::warning file=Example.xcodeproj/project.pbxproj,line=8,col=3,title=slipway lint%3A empty-group::group 'Leftovers' is empty; remove it\n")
        #expect(LintOutput.human(report, style: .plain) == """
            Example.xcodeproj/project.pbxproj
              8:3: warning: group 'Leftovers' is empty; remove it [empty-group]
            0 errors, 1 warning, 0 notes in Example.xcodeproj/project.pbxproj

            """)
    }

    /// Fixing a rule's example leaves nothing for that rule to find, changes only the lines the
    /// fixes need, and the result reads back.
    @Test(arguments: ["dead-build-file", "orphaned-object", "duplicate-reference", "unsorted-children", "non-canonical-format"])
    func fixRemovesTheFindings(_ id: String) throws {
        let rule = try #require(LintRegistry.rule(id))
        let (context, report) = try Self.report(rule)
        #expect(!report.findings.isEmpty)
        let project = try #require(context.project)
        let result = try LintFixer.apply(report.findings, to: project)
        #expect(result.fixed.count == report.findings.count)
        let example = try #require(rule.examples.first)
        let fixed = LintContext(bytes: result.bytes, projectName: "Example", pbxprojPath: LintRuleExampleTests.pbxproj,
                                files: .listed(example.files))
        #expect(fixed.readError == nil)
        let again = LintEngine.run(fixed, configuration: LintConfiguration(severities: [id: .some(.warning)]), rules: [rule])
        #expect(again.findings.isEmpty, "\(again.findings.map(LintRuleExampleTests.line))")
    }

    @Test func fixOfDeadBuildFilesIsMinimal() throws {
        let (context, report) = try Self.report(DeadBuildFileRule())
        let project = try #require(context.project)
        let result = try LintFixer.apply(report.findings, to: project)
        let before = context.bytes.split(separator: 0x0A).map { String(decoding: $0, as: UTF8.self) }
        let after = result.bytes.split(separator: 0x0A).map { String(decoding: $0, as: UTF8.self) }
        #expect(after.filter { !before.contains($0) } == ["\t\tP = {isa = PBXSourcesBuildPhase; files = (B1, ); };"])
        #expect(Set(before).subtracting(after) == [
            "\t\tB2 = {isa = PBXBuildFile; fileRef = F; };",
            "\t\tB3 = {isa = PBXBuildFile; fileRef = GONE; };",
            "\t\tP = {isa = PBXSourcesBuildPhase; files = (B1, B2, B3, NOPE, B1); };",
        ])
    }
}
