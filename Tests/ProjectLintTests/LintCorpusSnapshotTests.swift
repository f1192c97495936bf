import Basics
import Foundation
import PBXProj
@testable import ProjectLint
import Sync
import TestSupport
import TestThreads
import Testing

/// Lint's findings over the corpus, every rule on, are what they were before the rules were made
/// faster: `LintCorpusSnapshot.findings` was recorded from main before that work (per project,
/// per rule: the count and a digest of every finding's place, message, object, subject and fix).
///
/// Regenerate it after an intended change of findings with
/// `SLIPWAY_LINT_SNAPSHOT=print swift test --filter LintCorpusSnapshotTests` and copy the lines
/// starting with `snapshot` into `LintCorpusSnapshot.swift`.
@Suite("Lint findings over the corpus stay as recorded", .dedicatedThreads)
struct LintCorpusSnapshotTests {
    /// `rule=count:digest` for each rule with findings, in registry order.
    static func summary(_ report: LintReport) -> String {
        var byRule: [String: [LintFinding]] = [:]
        for finding in report.findings { byRule[finding.ruleID, default: []].append(finding) }
        return LintRegistry.ids.compactMap { id -> String? in
            guard let findings = byRule[id] else { return nil }
            var digest = FNV1a()
            for finding in findings {
                digest.add("\(finding.path)|\(finding.line ?? 0)|\(finding.column ?? 0)|\(finding.severity)|"
                    + "\(finding.objectID?.rawValue ?? "")|\(finding.subject ?? "")|\(finding.fix.map { "\($0)" } ?? "")|\(finding.message)\n")
            }
            return "\(id)=\(findings.count):\(digest.hex)"
        }.joined(separator: " ")
    }

    /// Every rule, opt-in ones too, at its default severity.
    static let everyRule: LintConfiguration = {
        var all: [String: LintSeverity?] = [:]
        for rule in LintRegistry.all { all[rule.id] = .some(rule.defaultSeverity) }
        return LintConfiguration(severities: all)
    }()

    @Test func corpusFindingsMatchTheSnapshot() throws {
        guard let directory = Corpus.pbxprojDirectory else {
            print("SKIPPED: the pbxproj corpus is absent (../shared/corpus/pbxproj or $SLIPWAY_CORPUS)")
            return
        }
        let printing = ProcessInfo.processInfo.environment["SLIPWAY_LINT_SNAPSHOT"] == "print"
        var compared = 0
        for entry in try PBXProjCorpusManifest.entries(in: directory) {
            let context = LintContext(bytes: try entry.bytes(), projectName: entry.projectName,
                                      pbxprojPath: entry.repositoryPath, files: try LintCorpusTests.files(entry))
            let summary = Self.summary(LintEngine.run(context, configuration: Self.everyRule))
            if printing { print("snapshot        \"\(entry.baseName)\": \"\(summary)\",") }
            // Projects added to the corpus later have no recorded findings.
            guard let recorded = LintCorpusSnapshot.findings[entry.baseName] else { continue }
            compared += 1
            #expect(summary == recorded, "\(entry.baseName)")
        }
        #expect(printing || compared == LintCorpusSnapshot.findings.count, "recorded projects missing from the corpus")
    }

    /// For every corpus project (recorded or not): the sync rules' plan, made on the context's
    /// group tree, equals the planner's own (tree built again); orphans found on the syntax tree
    /// equal those found on decoded objects (the path an edited project takes).
    @Test func fastPathsAgreeWithTheSlowOnes() throws {
        guard let directory = Corpus.pbxprojDirectory else {
            print("SKIPPED: the pbxproj corpus is absent (../shared/corpus/pbxproj or $SLIPWAY_CORPUS)")
            return
        }
        for entry in try PBXProjCorpusManifest.entries(in: directory) {
            let context = LintContext(bytes: try entry.bytes(), projectName: entry.projectName,
                                      pbxprojPath: entry.repositoryPath, files: try LintCorpusTests.files(entry))
            guard let project = context.project else { continue }
            if let listing = context.files.listing(), let shared = SyncPlanFindings.plan(context) {
                let rebuilt = try SyncPlanner.plan(project: project, listing: listing,
                                                   options: SyncOptions(prune: true, sortByName: false, useGit: false),
                                                   projectBundle: context.bundlePath)
                #expect(shared.moves == rebuilt.moves, "\(entry.baseName)")
                #expect(shared.pruned == rebuilt.pruned, "\(entry.baseName)")
            }
            var edited = project
            try edited.setRootValue("archiveVersion", project.rootValue("archiveVersion"))
            #expect(edited.hasChanges)
            #expect(edited.unreachableObjectIDs() == project.unreachableObjectIDs(), "\(entry.baseName)")
        }
    }
}

/// The 64-bit FNV-1a hash, stable across runs and platforms (unlike `Hasher`).
struct FNV1a {
    private(set) var value: UInt64 = 0xcbf2_9ce4_8422_2325

    mutating func add(_ text: String) {
        for byte in text.utf8 {
            value ^= UInt64(byte)
            value = value &* 0x0000_0100_0000_01B3
        }
    }

    var hex: String {
        let digits = String(value, radix: 16)
        return String(repeating: "0", count: 16 - digits.count) + digits
    }
}
