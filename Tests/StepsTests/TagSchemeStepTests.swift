import Basics
import Foundation
import Networking
import Steps
import TestSupport
import TestThreads
import Testing

/// version.bump on histories whose tags use `v1.2.3` and `1.2.3` (issue 25, point 9), and its
/// "nothing to release" message (point 3).
@Suite(.dedicatedThreads) struct TagSchemeStepTests {
    final class Log: StepEventSink, @unchecked Sendable {
        private let lock = NSLock()
        private var entries: [String] = []
        var lines: [String] { lock.withLock { entries } }
        func log(_ level: LogLevel, _ message: String) { lock.withLock { entries.append("\(level.rawValue): \(message)") } }
        func progress(fraction: Double?, message: String) {}
        func processOutput(_ stream: ProcessStream, line: String) {}
    }

    func context(_ path: String, log: Log = Log()) -> StepContext {
        StepContext(laneName: "release", stepID: "version", workingDirectory: path, environment: .current,
                    fileSystem: LocalFileSystem(), processRunner: LocalProcessRunner(), events: log,
                    services: StepServices(httpClient: SystemHTTPClient()))
    }

    /// `v0.1.0`, `v0.2.1`, then `1.0.0` and `6.1.1`, then a fix; VERSION holds 6.1.1.
    func twoSchemes() throws -> GitFixture {
        let repo = try GitFixture(prefix: "slipway-tags")
        for tag in ["v0.1.0", "v0.2.1", "1.0.0", "6.1.1"] {
            try repo.commit("feat: before \(tag)", files: ["VERSION": "\(tag)\n"])
            try repo.git("tag", tag)
        }
        try repo.commit("fix: after", files: ["VERSION": "6.1.1\n"])
        return repo
    }

    func bump(_ values: [String: OptionValue]) throws -> VersionBumpStep {
        try VersionBumpStep(options: StepOptions(values.merging(["version-file": .string("VERSION")]) { $1 }, for: VersionBumpStep.description))
    }

    static let twoSchemesWarning = "the release tags use two schemes: the highest with the prefix 'v' is 'v0.2.1', the highest without a prefix is '6.1.1'. "
        + "'6.1.1' is taken as the latest release and new tags get no prefix. To choose explicitly, set tag-prefix: \"\" "
        + "(--tag-prefix '') for the tags without a prefix, or tag-prefix: v (--tag-prefix v) for the 'v' tags."

    @Test func theDefaultFollowsTheHigherSchemeAndSaysSo() async throws {
        let repo = try twoSchemes()
        let step = try bump([:])
        let plan = try step.plan(in: context(repo.path))
        #expect(plan.map(\.description) == [
            "check: warning: " + Self.twoSchemesWarning,
            "other: version 6.1.1 → 6.1.2 (strategy auto, 1 commit(s) since 6.1.1)",
            "write: VERSION 6.1.1 -> 6.1.2",
        ])
        let log = Log()
        let outputs = try await step.run(in: context(repo.path, log: log))
        #expect(outputs == ["version": "6.1.2", "previous": "6.1.1", "tag": "6.1.2", "previous-tag": "6.1.1", "files": #"["VERSION"]"#])
        #expect(log.lines.first == "warning: " + Self.twoSchemesWarning)
    }

    @Test func anExplicitPrefixKeepsItsSchemeAndWarns() async throws {
        let repo = try twoSchemes()
        // The 'v' scheme's VERSION (a file at 6.1.1 would refuse 0.2.2: a release never goes backwards).
        try repo.commit("chore: the v scheme's version", files: ["VERSION": "0.2.1\n"])
        let log = Log()
        let outputs = try await bump(["tag-prefix": .string("v"), "strategy": .string("patch")]).run(in: context(repo.path, log: log))
        #expect(outputs == ["version": "0.2.2", "previous": "0.2.1", "tag": "v0.2.2", "previous-tag": "v0.2.1", "files": #"["VERSION"]"#])
        #expect(log.lines.first == "warning: tag-prefix is 'v', so the latest release is 'v0.2.1', but tag '6.1.1' (no prefix) is a higher version. "
            + "If '6.1.1' is the latest release, set the tag prefix to \"\" (tag-prefix: \"\" in the lane, --tag-prefix '' on the command line).")
    }

    @Test func nothingToReleaseNamesTheTagAndTheOptionAndWritesNothing() async throws {
        let repo = try GitFixture(prefix: "slipway-tags")
        try repo.commit("feat: first", files: ["VERSION": "0.1.0\n"])
        try repo.git("tag", "v0.1.0")
        // A Conventional Commit that changes nothing users get (with no Conventional Commit at
        // all, auto bumps patch and says so: ChangelogStyleStepTests).
        try repo.commit("docs: update the README", files: ["README.md": "hello\n"])
        let before = try Snapshot.of(repo.path)
        do {
            _ = try await bump([:]).run(in: context(repo.path))
            Issue.record("expected nothing to release")
        } catch {
            #expect(error.localizedDescription == "none of the 1 commit(s) since v0.1.0 is a feat, fix, perf or breaking change, so 'auto' "
                + "has nothing to release. To release anyway, set the step's option 'strategy: patch' (or minor, major).")
        }
        #expect(try Snapshot.of(repo.path) == before)
    }
}
