import Basics
import Foundation
import PBXProj
@testable import ProjectLint
import TestThreads
import Testing

/// One `--fix` leaves nothing to fix, even where one fix makes work for another.
@Suite("lint --fix converges in one run", .dedicatedThreads)
struct LintFixConvergenceTests {
    /// Every rule, opt-in ones too, at its default severity.
    static let everyRule = LintCorpusSnapshotTests.everyRule

    /// Fixes `context` once (as `--fix` does) and checks that lint then finds nothing fixable,
    /// that the result reads, and that every object removed is one a fixed finding named (an
    /// orphan, a dead build file, a merged duplicate reference). Returns the ids removed.
    @discardableResult
    static func checkFixConverges(_ context: LintContext, configuration: LintConfiguration = everyRule,
                                  _ comment: String, sourceLocation: Testing.SourceLocation = #_sourceLocation) throws -> Set<ObjectID> {
        let project = try #require(context.project, "\(comment)", sourceLocation: sourceLocation) as PBXProject
        let report = LintEngine.run(context, configuration: configuration)
        let result = try LintFixer.applyUntilClean(report, context: context, configuration: configuration)
        let fixed = LintContext(bytes: result.bytes, projectName: project.projectName, pbxprojPath: context.pbxprojPath,
                                files: context.files)
        let after = try #require(fixed.project, "\(comment): the fixed file does not read: \(String(describing: fixed.readError))",
                                 sourceLocation: sourceLocation)
        let again = LintEngine.run(fixed, configuration: configuration, rules: LintRegistry.all.filter(\.isFixable))
        #expect(again.findings.isEmpty, "\(comment): left to fix: \(again.findings.prefix(5).map { "\($0.ruleID): \($0.message)" })",
                sourceLocation: sourceLocation)
        var named = Set<ObjectID>()
        for finding in result.fixed {
            switch finding.fix {
            case .removeObject(let id): named.insert(id)
            case .mergeReference(let duplicate, _): named.insert(duplicate)
            default: break
            }
        }
        let removed = Set(project.objectIDs).subtracting(after.objectIDs)
        #expect(removed.isSubset(of: named), "\(comment): removed without a finding: \(removed.subtracting(named).sorted())",
                sourceLocation: sourceLocation)
        return removed
    }

    /// Duplicate references with build files in one phase, dead build files, a phase entry that
    /// is no object, and orphans (one of them a build file of the duplicate reference).
    static let tangled = LintExample(
        "duplicate references, dead build files and orphans together",
        objects: ["F1 = {isa = PBXFileReference; path = A.swift; sourceTree = \"<group>\"; };",
                  "F2 = {isa = PBXFileReference; path = A.swift; sourceTree = \"<group>\"; };",
                  "F3 = {isa = PBXFileReference; path = B.swift; sourceTree = \"<group>\"; };",
                  "F4 = {isa = PBXFileReference; path = B.swift; sourceTree = \"<group>\"; };",
                  "B1 = {isa = PBXBuildFile; fileRef = F1; };",
                  "B2 = {isa = PBXBuildFile; fileRef = F2; };",
                  "B3 = {isa = PBXBuildFile; fileRef = GONE; };",
                  "B4 = {isa = PBXBuildFile; fileRef = F3; };",
                  "B5 = {isa = PBXBuildFile; fileRef = F4; };",
                  "O1 = {isa = PBXBuildFile; fileRef = F2; };",
                  "O2 = {isa = PBXGroup; children = (O3); name = Lost; sourceTree = \"<group>\"; };",
                  "O3 = {isa = PBXFileReference; path = Lost.swift; sourceTree = \"<group>\"; };",
                  "P = {isa = PBXSourcesBuildPhase; files = (B1, B2, B3, B4, NOPE, B4); };",
                  "R = {isa = PBXResourcesBuildPhase; files = (B5); };",
                  "T = {isa = PBXNativeTarget; buildPhases = (P, R); name = App; };"],
        mainChildren: ["F1", "F2", "F3", "F4"], targets: ["T"], files: ["A.swift", "B.swift"], expected: [])

    @Test func oneFixOfATangledProjectLeavesNothingToFix() throws {
        let context = LintRuleExampleTests.context(Self.tangled)
        // One pass of the fixes is not enough: merging F2 into F1 gives P two build files of A.swift.
        let report = LintEngine.run(context, configuration: Self.everyRule)
        let once = try LintFixer.apply(report.findings, to: try #require(context.project))
        let afterOnce = LintContext(bytes: once.bytes, projectName: "Example", pbxprojPath: LintRuleExampleTests.pbxproj, files: context.files)
        #expect(LintEngine.run(afterOnce, configuration: Self.everyRule).findings.map(\.ruleID).contains("dead-build-file"))

        let removed = try Self.checkFixConverges(context, "tangled")
        #expect(removed == ["F2", "F4", "B2", "B3", "O1", "O2", "O3"])
    }

    /// Only the default rules (no formatting, no sorting): the removals alone converge too, and
    /// the file is edited minimally (the untouched objects' lines stay as they were).
    @Test func defaultRulesConvergeWithMinimalEdits() throws {
        let context = LintRuleExampleTests.context(Self.tangled)
        let configuration = LintConfiguration(severities: ["non-canonical-format": LintSeverity?.none])
        try Self.checkFixConverges(context, configuration: configuration, "tangled, default rules")
        let result = try LintFixer.applyUntilClean(LintEngine.run(context, configuration: configuration), context: context,
                                                   configuration: configuration)
        let after = String(decoding: result.bytes, as: UTF8.self)
        #expect(after.contains("\t\tB1 = {isa = PBXBuildFile; fileRef = F1; };\n"))
        #expect(after.contains("\t\tP = {isa = PBXSourcesBuildPhase; files = (B1, B4, ); };\n"))
        #expect(after.contains("\t\tB5 = {isa = PBXBuildFile; fileRef = F3; };\n"))
    }

    @Test func nothingToFixChangesNothing() throws {
        let example = try #require(EmptyGroupRule().examples.first)
        let context = LintRuleExampleTests.context(example)
        let configuration = LintConfiguration(severities: ["non-canonical-format": LintSeverity?.none])
        let result = try LintFixer.applyUntilClean(LintEngine.run(context, configuration: configuration), context: context,
                                                   configuration: configuration)
        #expect(result.fixed.isEmpty)
        #expect(result.bytes == context.bytes)
    }
}
