import Basics
import Foundation
import Lanes
import Testing
#if canImport(FoundationXML)
import FoundationXML
import TestThreads
#endif

@Suite(.dedicatedThreads) struct SecretsAndReportsTests {
    static let secret = "s3cr3t-V4lue-\(UInt32.random(in: 1000...9999))"

    @Test func aSecretNeverReachesAnyOutput() async throws {
        let fixture = try LaneFixture(["l": """
            secrets: [DEPLOY_TOKEN]
            steps:
              - run: |
                  echo "token is $DEPLOY_TOKEN"
                  echo "again: ${{ secrets.DEPLOY_TOKEN }}" >&2
                  echo "tok=$DEPLOY_TOKEN" >> "$SLIPWAY_OUTPUT"
                id: leak
              - run: echo "${{ steps.leak.outputs.tok }}"; exit 1
                id: fail
            """], environment: ["DEPLOY_TOKEN": Self.secret])
        let events = fixture.path + "/events.ndjson", junit = fixture.path + "/junit.xml"
        let outcome = try await fixture.run("l", extraReporters: [
            try NDJSONReporter(path: events, fileSystem: LocalFileSystem()), JUnitReporter(path: junit, fileSystem: LocalFileSystem()),
            GitHubActionsReporter(output: BufferedOutput()),
        ])
        #expect(outcome.summary.status == .failed)
        #expect(outcome.console.contains("token is ***"))
        #expect(outcome.console.contains("again: ***"))
        #expect(!outcome.console.contains(Self.secret))
        for file in [events, junit] {
            let text = try String(contentsOfFile: file, encoding: .utf8)
            #expect(!text.contains(Self.secret), "\(file) leaks the secret")
            #expect(text.contains("***"))
        }
        let journalFolder = fixture.path + "/.slipway/runs/l"
        for name in try FileManager.default.contentsOfDirectory(atPath: journalFolder) {
            let text = try String(contentsOfFile: journalFolder + "/" + name, encoding: .utf8)
            #expect(!text.contains(Self.secret), "journal \(name) leaks the secret")
        }
        #expect(outcome.events.allSatisfy { !(try! JSONFormatting.line($0)).contains(Self.secret) })
    }

    @Test func eventsFileIsNDJSONWithDurations() async throws {
        let fixture = try LaneFixture(["l": "steps:\n  - run: echo hi\n    id: a\n  - run: exit 2\n    id: b\n"])
        let events = fixture.path + "/events.ndjson"
        _ = try await fixture.run("l", extraReporters: [try NDJSONReporter(path: events, fileSystem: LocalFileSystem())])
        let lines = try String(contentsOfFile: events, encoding: .utf8).split(separator: "\n")
        let decoded = try lines.map { try JSONDecoder().decode(RunEvent.self, from: Data($0.utf8)) }
        #expect(decoded.map(\.event) == [.laneStarted, .stepStarted, .output, .stepFinished, .stepStarted, .stepFinished, .laneFinished])
        #expect(decoded[2].line == "hi")
        #expect(decoded[3].status == "succeeded")
        #expect(decoded[3].duration != nil)
        #expect(decoded[5].status == "failed")
        #expect(decoded[5].error == "the command exited with code 2")
        #expect(decoded[6].status == "failed")
    }

    @Test func junitReportHasOneCasePerStep() async throws {
        let fixture = try LaneFixture(["l": "steps:\n  - run: echo '<ok & fine>'\n    id: a\n  - run: exit 2\n    id: b\n  - run: 'true'\n    id: c\n"])
        let junit = fixture.path + "/report.xml"
        _ = try await fixture.run("l", extraReporters: [JUnitReporter(path: junit, fileSystem: LocalFileSystem())])
        let xml = try String(contentsOfFile: junit, encoding: .utf8)
        #expect(xml.contains("<testsuite name=\"l\" tests=\"3\" failures=\"1\" skipped=\"1\""))
        #expect(xml.contains("<failure message=\"the command exited with code 2\" type=\"failed\">"))
        #expect(xml.contains("<system-out>&lt;ok &amp; fine&gt;</system-out>"))
        #expect(xml.contains("<skipped message=\"skipped\"/>"))
        _ = try XMLDocument(xmlString: xml)
    }

    @Test func githubActionsGroupsAndAnnotations() async throws {
        let fixture = try LaneFixture(["l": "steps:\n  - run: echo hi\n    id: a\n  - run: exit 4\n    id: b\n"])
        let output = BufferedOutput()
        _ = try await fixture.run("l", extraReporters: [GitHubActionsReporter(output: output)])
        #expect(output.text == """
            ::group::a (run)
            ::endgroup::
            ::group::b (run)
            ::endgroup::
            ::error file=lanes/l.yml,line=4,col=5,title=Step 'b' failed::the command exited with code 4

            """)
    }

    @Test func dryRunChangesNothing() async throws {
        let fixture = try LaneFixture(["release": """
            inputs:
              version: { default: 1.0.0 }
            secrets: [SLIPWAY_DRY_RUN_KEY]
            steps:
              - git.ensure-clean
              - run: echo "v=${{ inputs.version }}" >> "$SLIPWAY_OUTPUT"; touch created
                id: version
              - run: git tag "v${{ steps.version.outputs.v }}" && rm -rf lanes
              - swift.build: { configuration: release }
            finally:
              - run: touch finally-ran
            """])
        try GitFixtureHelper.commitAll(in: fixture.path)
        let gitBefore = try GitFixtureHelper.state(of: fixture.path)
        let before = try fixture.snapshot()
        let outcome = try await fixture.run("release") { $0.isDryRun = true }
        #expect(outcome.summary.status == .succeeded)
        #expect(outcome.summary.steps.allSatisfy { $0.status == .planned })
        #expect(outcome.console.contains("would check: the git working tree at"))
        #expect(outcome.console.contains("would process: /bin/sh -e -c 'git tag \"v<steps.version.outputs.v>\" && rm -rf lanes'"))
        #expect(outcome.console.contains("would process: swift build -c release --package-path \(fixture.path)"))
        #expect(try fixture.snapshot() == before)
        #expect(try GitFixtureHelper.state(of: fixture.path) == gitBefore)
        #expect(!FileManager.default.fileExists(atPath: fixture.path + "/.slipway"), "a dry run writes no journal")
    }
}

/// git through its command line, to set up and cross-check repositories in tests.
enum GitFixtureHelper {
    static func git(_ arguments: [String], in directory: String) throws -> String {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = ["git", "-c", "user.name=Test", "-c", "user.email=test@example.com", "-c", "commit.gpgsign=false"] + arguments
        process.currentDirectoryURL = URL(fileURLWithPath: directory)
        let pipe = Pipe()
        process.standardOutput = pipe
        process.standardError = Pipe()
        try process.run()
        let data = pipe.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        guard process.terminationStatus == 0 else { throw CocoaError(.executableLoad, userInfo: ["git": arguments]) }
        return String(decoding: data, as: UTF8.self)
    }

    static func commitAll(in directory: String) throws {
        _ = try git(["init", "-q", "-b", "main"], in: directory)
        _ = try git(["add", "-A"], in: directory)
        _ = try git(["commit", "-q", "-m", "initial"], in: directory)
    }

    /// HEAD, refs, index and status: everything a step could change in git.
    static func state(of directory: String) throws -> String {
        try git(["rev-parse", "HEAD"], in: directory) + git(["show-ref"], in: directory)
            + git(["status", "--porcelain", "--ignored"], in: directory) + git(["ls-files", "-s"], in: directory)
    }
}
