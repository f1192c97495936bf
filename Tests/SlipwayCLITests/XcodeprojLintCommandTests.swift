import Foundation
import ProjectLint
import TestSupport
import TestThreads
import Testing

@Suite("slipway xcodeproj lint (the binary)", .dedicatedThreads)
struct XcodeprojLintCommandTests {
    /// A folder with App.xcodeproj made from a rule's example, and the example's files.
    static func project(_ rule: any LintRule, files extra: [String] = []) throws -> TemporaryDirectory {
        let folder = try TemporaryDirectory(prefix: "slipway-lint")
        let example = try #require(rule.examples.first)
        try folder.write("App.xcodeproj/project.pbxproj", example.project)
        for file in example.files + extra { try folder.write(file, "") }
        return folder
    }

    static func pbxproj(_ folder: TemporaryDirectory) throws -> Data {
        try Data(contentsOf: URL(fileURLWithPath: folder.path + "/App.xcodeproj/project.pbxproj"))
    }

    @Test func exitStatusIsZeroWithoutErrorsAndOneWithThem() async throws {
        let clean = try Self.project(MissingFileRule(), files: ["Gone.swift"])
        let ok = try await Binaries.runSlipway(["xcodeproj", "lint", "App.xcodeproj", "--config", "none.yml"], in: clean.path)
        #expect(ok.status == .exited(2), "a missing --config is bad input: \(ok.errorText)")
        #expect(ok.errorText == "error: none.yml: no such lint configuration; create it or leave out --config\n")
        try clean.write(".slipway/lint.yml", "rules:\n  source-in-no-target: off\n  non-canonical-format: off\n")
        let passed = try await Binaries.runSlipway(["xcodeproj", "lint", "App.xcodeproj"], in: clean.path)
        #expect(passed.status == .exited(0), "\(passed.outputText)\(passed.errorText)")
        #expect(passed.outputText == "0 errors, 0 warnings, 0 notes in App.xcodeproj/project.pbxproj\n")

        let broken = try Self.project(MissingFileRule())
        let failed = try await Binaries.runSlipway(["xcodeproj", "lint", "App.xcodeproj", "--json"], in: broken.path)
        #expect(failed.status == .exited(1))
        #expect(failed.outputText.contains("\"rule\" : \"missing-file\""), "\(failed.outputText)")
    }

    @Test func badInputExitsTwoWithAClearMessage() async throws {
        let folder = try TemporaryDirectory(prefix: "slipway-lint")
        let missing = try await Binaries.runSlipway(["xcodeproj", "lint", "Nope.xcodeproj"], in: folder.path)
        #expect(missing.status == .exited(2))
        #expect(missing.errorText == "error: 'Nope.xcodeproj' is not an Xcode project: give the .xcodeproj folder or the project.pbxproj inside it\n")

        let project = try Self.project(EmptyGroupRule())
        try project.write(".slipway/lint.yml", "rules:\n  empty-grop: off\n")
        let before = try Self.pbxproj(project)
        let config = try await Binaries.runSlipway(["xcodeproj", "lint", "App.xcodeproj", "--fix"], in: project.path)
        #expect(config.status == .exited(2))
        #expect(config.errorText == "\(project.path)/.slipway/lint.yml:2:3: error: unknown rule 'empty-grop'; 'slipway xcodeproj lint --rules' lists them. Did you mean 'empty-group'?\n")
        #expect(try Self.pbxproj(project) == before)
    }

    @Test func conflictMarkersAreFindingsWithLines() async throws {
        let folder = try Self.project(MergeConflictRule())
        let result = try await Binaries.runSlipway(["xcodeproj", "lint", "App.xcodeproj"], in: folder.path)
        #expect(result.status == .exited(1))
        #expect(result.outputText.contains("  3:1: error: merge-conflict marker '<<<<<<<' left in the file; resolve the conflict [merge-conflict-markers]"),
                "\(result.outputText)")
    }

    @Test func fixDryRunWritesNothingAndFixWritesMinimalEdits() async throws {
        let folder = try Self.project(DeadBuildFileRule())
        try folder.write(".slipway/lint.yml", "rules:\n  non-canonical-format: off\n")
        let before = try Self.pbxproj(folder)
        let dry = try await Binaries.runSlipway(["xcodeproj", "lint", "App.xcodeproj", "--fix", "--dry-run"], in: folder.path)
        #expect(dry.errorText.contains("would fix: line 10: build file 'B2'"), "\(dry.errorText)")
        #expect(dry.errorText.contains("nothing written (--dry-run)"))
        #expect(try Self.pbxproj(folder) == before)
        let fixed = try await Binaries.runSlipway(["xcodeproj", "lint", "App.xcodeproj", "--fix"], in: folder.path)
        #expect(fixed.errorText.contains("fixed: line 10: build file 'B2'"), "\(fixed.errorText)")
        #expect(try Self.pbxproj(folder) != before)
        let again = try await Binaries.runSlipway(["xcodeproj", "lint", "App.xcodeproj", "--fail-on", "warning"], in: folder.path)
        #expect(again.status == .exited(0), "\(again.outputText)")
    }

    @Test func sarifFileAndGitHubAnnotations() async throws {
        let folder = try Self.project(EmptyGroupRule())
        let result = try await Binaries.runSlipway(["xcodeproj", "lint", "App.xcodeproj", "--sarif", "lint.sarif"], in: folder.path,
                                                  environment: ["GITHUB_ACTIONS": "true"])
        #expect(result.status == .exited(0))
        #expect(result.outputText.contains("::warning file=App.xcodeproj/project.pbxproj,line=8,col=3,title=slipway lint%3A empty-group::group 'Leftovers' is empty; remove it"),
                "\(result.outputText)")
        let sarif = try String(contentsOfFile: folder.path + "/lint.sarif", encoding: .utf8)
        #expect(sarif.contains("\"ruleId\" : \"empty-group\""))
        #expect(sarif.contains("\"uri\" : \"App.xcodeproj\\/project.pbxproj\"") || sarif.contains("\"uri\" : \"App.xcodeproj/project.pbxproj\""))
    }

    @Test func rulesAreListed() async throws {
        let folder = try TemporaryDirectory(prefix: "slipway-lint")
        let result = try await Binaries.runSlipway(["xcodeproj", "lint", "--rules"], in: folder.path)
        #expect(result.status == .exited(0))
        for id in LintRegistry.ids { #expect(result.outputText.contains(id)) }
    }
}
