import Basics
import Foundation
import PBXProj
@testable import ProjectLint
import TestSupport
import TestThreads
import Testing

@Suite("Lint over the real-world corpus", .dedicatedThreads)
struct LintCorpusTests {
    /// The project's tree as its repository had it: the tracked files, and the paths outside the
    /// folder that existed.
    static func files(_ entry: PBXProjCorpusEntry) throws -> LintFiles {
        let outside = try entry.outsidePaths().filter { $0.value.hasPrefix("exists") }.keys
        // The project's folder inside its repository (the .xcodeproj's parent), and back up.
        let depth = entry.repositoryPath.split(separator: "/").count - 2
        let root = Array(repeating: "..", count: max(0, depth)).joined(separator: "/")
        return .listed(Array(try entry.treePaths()) + Array(outside), repositoryRoot: root)
    }

    /// Every project is linted with every rule (opt-in ones too) without a crash and fixed in one
    /// `--fix`; counts per rule are printed.
    @Test func wholeCorpusLintsWithItsTreeRebuilt() throws {
        guard let directory = Corpus.pbxprojDirectory else {
            print("SKIPPED: the pbxproj corpus is absent (../shared/corpus/pbxproj or $SLIPWAY_CORPUS)")
            return
        }
        var all: [String: LintSeverity?] = [:]
        for rule in LintRegistry.all { all[rule.id] = .some(rule.defaultSeverity) }
        let configuration = LintConfiguration(severities: all)
        var totals: [String: Int] = [:]
        let entries = try PBXProjCorpusManifest.entries(in: directory)
        #expect(entries.count >= 30)
        for entry in entries {
            let context = LintContext(bytes: try entry.bytes(), projectName: entry.projectName,
                                      pbxprojPath: entry.repositoryPath, files: try Self.files(entry))
            let report = LintEngine.run(context, configuration: configuration)
            for (rule, count) in report.countsByRule { totals[rule, default: 0] += count }
            if entry.baseName.hasSuffix("ProjectInMergeConflict") {
                #expect(report.countsByRule["merge-conflict-markers", default: 0] >= 3, "\(entry.baseName)")
                continue
            }
            #expect(context.readError == nil, "\(entry.baseName): \(String(describing: context.readError))")
            // One --fix leaves nothing fixable, reads back and removes only what findings named.
            if !report.findings.filter({ $0.fix != nil }).isEmpty {
                try LintFixConvergenceTests.checkFixConverges(context, configuration: configuration, entry.baseName)
            }
            let counts = report.countsByRule.sorted { $0.key < $1.key }.map { "\($0.key)=\($0.value)" }.joined(separator: " ")
            print("lint \(entry.baseName): \(counts)")
            for finding in report.findings where ["missing-setting-file", "absolute-path", "missing-file"].contains(finding.ruleID) {
                print("  \(finding.ruleID): \(finding.message)")
            }
        }
        print("lint corpus totals: " + totals.sorted { $0.key < $1.key }.map { "\($0.key)=\($0.value)" }.joined(separator: " "))
    }

    @Test func oddFilesAreFindingsOrClearErrors() throws {
        guard let directory = Corpus.pbxprojDirectory else {
            print("SKIPPED: the pbxproj corpus is absent")
            return
        }
        for path in PBXProjCorpusManifest.oddFiles(in: directory) {
            let bytes = Array(try Data(contentsOf: URL(fileURLWithPath: path)))
            let context = LintContext(bytes: bytes, projectName: "Odd", pbxprojPath: path, files: .listed([]))
            _ = LintEngine.run(context)
            if let error = context.readError { #expect(!error.message.isEmpty) }
        }
    }
}
