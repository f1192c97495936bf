import Basics
import Foundation
import Networking
import Release
import Steps
import TestSupport
import TestThreads
import Testing

/// changelog.update's styles, its `style` and `text` outputs, `create`, and version.bump's
/// explanation of `auto` on a history without Conventional Commits (issue 25, point 3).
@Suite(.dedicatedThreads) struct ChangelogStyleStepTests {
    final class Log: StepEventSink, @unchecked Sendable {
        private let lock = NSLock()
        private var entries: [String] = []
        var lines: [String] { lock.withLock { entries } }
        func log(_ level: LogLevel, _ message: String) { lock.withLock { entries.append("\(level.rawValue): \(message)") } }
        func progress(fraction: Double?, message: String) {}
        func processOutput(_ stream: ProcessStream, line: String) {}
    }

    func context(_ path: String, log: Log = Log()) -> StepContext {
        StepContext(laneName: "release", stepID: "changelog", workingDirectory: path, environment: .current,
                    fileSystem: LocalFileSystem(), processRunner: LocalProcessRunner(), events: log,
                    services: StepServices(httpClient: SystemHTTPClient()))
    }

    /// `v1.2.0` and three commits that are not Conventional Commits; CHANGELOG.md only when asked.
    func plainHistory(changelog: Bool) throws -> GitFixture {
        let repo = try GitFixture(prefix: "slipway-style-step")
        try repo.commit("Initial version", files: changelog ? ["VERSION": "1.2.0\n", "CHANGELOG.md": "# Changelog\n\n## [Unreleased]\n"] : ["VERSION": "1.2.0\n"])
        try repo.git("tag", "v1.2.0")
        try repo.commit("Add the widget extension", files: ["a": "1"])
        try repo.commit("Fix the crash on launch", files: ["a": "2"])
        try repo.commit("Update translations", files: ["a": "3"])
        return repo
    }

    func changelog(_ values: [String: OptionValue]) throws -> ChangelogUpdateStep {
        try ChangelogUpdateStep(options: StepOptions(values.merging(["version": .string("1.2.1")]) { $1 }, for: ChangelogUpdateStep.description))
    }

    static let detected = "changelog style: subjects (detected: 0 of 3 commits since v1.2.0 are Conventional Commits, "
        + "and 0 of 3 first-parent commits are pull requests)"

    @Test func autoDetectsSubjectsAndSaysSoInThePlanLogAndOutputs() async throws {
        let repo = try plainHistory(changelog: true)
        let step = try changelog([:])
        let plan = try step.plan(in: context(repo.path))
        #expect(plan.first?.description == "other: " + Self.detected)
        #expect(plan.last?.description.hasPrefix("write: insert into CHANGELOG.md:\n## [1.2.1] - ") == true)
        let log = Log()
        let outputs = try await step.run(in: context(repo.path, log: log))
        #expect(log.lines == ["info: " + Self.detected])
        #expect(outputs["style"] == "subjects")
        #expect(outputs["text"] == "- Update translations\n- Fix the crash on launch\n- Add the widget extension\n")
        let text = try String(contentsOfFile: repo.path + "/CHANGELOG.md", encoding: .utf8)
        #expect(text.contains("## [1.2.1] - "))
        #expect(text.contains("### Changed\n- Update translations ("))
        #expect(!text.contains("No user-facing changes."))
    }

    @Test func anExplicitStyleIsNamedAsSet() async throws {
        let repo = try plainHistory(changelog: true)
        let log = Log()
        let outputs = try await changelog(["style": .string("conventional")]).run(in: context(repo.path, log: log))
        #expect(log.lines == ["info: changelog style: conventional (set with the step's option 'style')"])
        #expect(outputs["style"] == "conventional")
        #expect(outputs["text"] == "No user-facing changes.\n")
    }

    @Test func mergeCommitsWithAnotherStyleIsRefused() throws {
        #expect(throws: StepError.invalidOption(name: "merge-commits", problem: "applies to style subjects only, but style is pull-requests; "
            + "remove merge-commits or set style: subjects")) {
            try changelog(["style": .string("pull-requests"), "merge-commits": .string("only")])
        }
        #expect(throws: ReleaseError.invalidChoice(option: "option 'style'", value: "prs", allowed: ["auto", "subjects", "pull-requests", "conventional", "unreleased"])) {
            try changelog(["style": .string("prs")])
        }
    }

    @Test func createWritesAKeepAChangelogFile() async throws {
        let repo = try plainHistory(changelog: false)
        let step = try changelog(["create": .bool(true)])
        let plan = try step.plan(in: context(repo.path))
        #expect(plan.last?.description.hasPrefix("write: create CHANGELOG.md (Keep a Changelog) with:\n## [1.2.1] - ") == true)
        #expect(!FileManager.default.fileExists(atPath: repo.path + "/CHANGELOG.md"), "a plan writes nothing")
        let log = Log()
        _ = try await step.run(in: context(repo.path, log: log))
        #expect(log.lines.last == "info: created CHANGELOG.md (Keep a Changelog format)")
        let text = try String(contentsOfFile: repo.path + "/CHANGELOG.md", encoding: .utf8)
        #expect(text.hasPrefix(ChangelogRenderer.keepAChangelogSkeleton + "\n## [1.2.1] - "))
        #expect(text.contains("### Changed\n- Update translations ("))
        #expect(ChangelogFile(text: text, path: "CHANGELOG.md").entry(version: "1.2.1")?.hasPrefix("### Changed\n- Update translations") == true)
    }

    @Test func aMissingChangelogWithoutCreateSaysWhatToSetAndWritesNothing() async throws {
        let repo = try plainHistory(changelog: false)
        let before = try Snapshot.of(repo.path)
        let message = "'CHANGELOG.md' does not exist; set the step's option 'create: true' to start it (Keep a Changelog format) "
            + "with this release's section, or point 'path' at the project's changelog"
        for dryRun in [true, false] {
            do {
                let step = try changelog([:])
                if dryRun { _ = try step.plan(in: context(repo.path)) } else { _ = try await step.run(in: context(repo.path)) }
                Issue.record("expected the missing changelog to be refused")
            } catch {
                #expect(error.localizedDescription == message)
            }
        }
        #expect(try Snapshot.of(repo.path) == before)
    }

    @Test func versionBumpExplainsAutoOnANonConventionalHistory() async throws {
        let repo = try plainHistory(changelog: false)
        let bump = try VersionBumpStep(options: StepOptions(["version-file": .string("VERSION")], for: VersionBumpStep.description))
        let note = "no Conventional Commits among the 3 commits since v1.2.0, so 'auto' cannot tell features from fixes: "
            + "bumped patch (1.2.0 → 1.2.1). To choose, set the step's option 'strategy: minor' (or major, or a version such as 1.4.0)."
        let plan = try bump.plan(in: context(repo.path))
        #expect(plan.map(\.description) == [
            "check: note: " + note,
            "other: version 1.2.0 → 1.2.1 (strategy auto, 3 commit(s) since v1.2.0)",
            "write: VERSION 1.2.0 -> 1.2.1",
        ])
        let log = Log()
        let outputs = try await bump.run(in: context(repo.path, log: log))
        #expect(outputs["version"] == "1.2.1")
        #expect(log.lines.first == "warning: " + note)
    }
}
