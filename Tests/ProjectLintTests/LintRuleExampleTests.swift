import Basics
import Foundation
import PBXProj
@testable import ProjectLint
import TestSupport
import TestThreads
import Testing

@Suite("Lint rules and their examples", .dedicatedThreads)
struct LintRuleExampleTests {
    static let pbxproj = "Example.xcodeproj/project.pbxproj"

    /// A finding as the examples write it.
    static func line(_ finding: LintFinding) -> String {
        let line = finding.line.map(String.init) ?? "-"
        return finding.path == pbxproj ? "\(line): \(finding.message)" : "\(finding.path):\(line): \(finding.message)"
    }

    static func context(_ example: LintExample) -> LintContext {
        LintContext(bytes: Array(example.project.utf8), projectName: "Example", pbxprojPath: pbxproj,
                    files: .listed(example.files, texts: example.texts.mapValues { Array($0.utf8) }))
    }

    static func findings(_ rule: any LintRule, _ example: LintExample) -> [LintFinding] {
        let configuration = LintConfiguration(severities: [rule.id: .some(rule.defaultSeverity)])
        return LintEngine.run(context(example), configuration: configuration, rules: [rule]).findings
    }

    @Test(arguments: LintRegistry.ids)
    func ruleGivesExactlyItsExamplesFindings(_ id: String) throws {
        let rule = try #require(LintRegistry.rule(id))
        #expect(!rule.examples.isEmpty, "\(id) has no example")
        for example in rule.examples {
            #expect(Self.findings(rule, example).map(Self.line) == example.expected, "\(id): \(example.title)")
        }
    }

    @Test func ruleIDsAreUniqueAndKebabCase() {
        let ids = LintRegistry.ids
        #expect(Set(ids).count == ids.count)
        for id in ids { #expect(id.allSatisfy { $0.isLowercase || $0 == "-" }, "\(id)") }
    }

    /// Every other rule is quiet on each rule's examples except where the example is about it
    /// too: a project made for one rule does not trip the core rules by accident.
    @Test func examplesAreCleanForTheMissingFileRule() {
        for rule in LintRegistry.all where rule.id != "missing-file" && rule.id != "scheme-missing-target" {
            for example in rule.examples where example.files.isEmpty == false {
                let findings = Self.findings(MissingFileRule(), example)
                #expect(findings.isEmpty, "\(rule.id): \(findings.map(Self.line))")
            }
        }
    }

    @Test func docsListEveryRule() throws {
        let path = Corpus.repositoryRoot + "/docs/lint.md"
        let text = try String(contentsOfFile: path, encoding: .utf8)
        #expect(text == LintRegistry.markdown(), "docs/lint.md is stale: regenerate it with 'slipway xcodeproj lint --rules --markdown > docs/lint.md'")
    }

    @Test func ignoredPathsDropFindings() throws {
        let example = try #require(MissingFileRule().examples.first)
        let configuration = LintConfiguration(ignore: ["Gon*.swift"])
        let report = LintEngine.run(Self.context(example), configuration: configuration, rules: [MissingFileRule()])
        #expect(report.findings.isEmpty)
        let deeper = LintConfiguration(ignore: ["Pods/**"])
        #expect(LintEngine.run(Self.context(example), configuration: deeper, rules: [MissingFileRule()]).findings.count == 1)
    }

    @Test func globs() {
        #expect(LintGlob.matches("Pods", "Pods/A/B.swift"))
        #expect(LintGlob.matches("**/*.generated.swift", "App/Model/X.generated.swift"))
        #expect(!LintGlob.matches("App/*.swift", "Other/A.swift"))
        #expect(LintGlob.matches("App/*.swift", "App/A.swift"))
    }
}
