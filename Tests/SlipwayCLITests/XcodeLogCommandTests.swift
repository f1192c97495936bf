import Foundation
import Testing
import TestSupport
import TestThreads

/// `slipway xcode log`, end to end: the built binary over the Xcode fixture logs.
@Suite("slipway xcode log", .dedicatedThreads)
struct XcodeLogCommandTests {
    static let logs = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("XcodeTests/Fixtures/logs").path

    func slipway(_ arguments: [String], in directory: String? = nil, environment: [String: String?] = [:]) throws -> CommandResult {
        try CommandResult.run(Binaries.slipway, arguments, in: directory,
                              environment: ["GITHUB_ACTIONS": nil, "NO_COLOR": "1"].merging(environment) { $1 })
    }

    @Test("a successful build exits 0; a failed one 1; --quiet keeps only what matters")
    func exitStatus() throws {
        let clean = try slipway(["xcode", "log", Self.logs + "/build-clean.log", "--quiet"])
        #expect(clean.status == 0)
        #expect(clean.standardOutput == "** BUILD SUCCEEDED **\n✔ Succeeded: 0 errors, 0 warnings\n")
        let linker = try slipway(["xcode", "log", Self.logs + "/linker-error.log"])
        #expect(linker.status == 1)
        #expect(linker.standardOutput.hasPrefix("[App] Linking App\n❌ Undefined symbols for architecture arm64\n"))
        #expect(linker.standardOutput.hasSuffix("** BUILD FAILED **\n✖ Failed: 3 errors, 0 warnings\n"))
    }

    @Test("reads standard input, writes JUnit, annotates under GitHub Actions")
    func pipeJUnitAndAnnotations() throws {
        let folder = try TemporaryDirectory(prefix: "slipway-xcode-log")
        let result = try CommandResult.run("/bin/sh", ["-c", "\"$0\" xcode log --quiet --junit report.xml < \"$1\"",
                                                       Binaries.slipway, Self.logs + "/xctest.log"],
                                           in: folder.path, environment: ["GITHUB_ACTIONS": "true", "NO_COLOR": "1"])
        #expect(result.status == 1)
        #expect(result.standardOutput == """
            ✖ testWrongPassword, LoginTests.swift:42: XCTAssertEqual failed: ("401") is not equal to ("200")
            ::error file=/Users/dev/App/Tests/LoginTests.swift,line=42,title=AppTests.LoginTests.testWrongPassword::XCTAssertEqual failed: ("401") is not equal to ("200")
            ✖ testWrongPassword (0.103 s)
            ** TEST FAILED **
            ✖ Failed: 0 errors, 0 warnings, tests: 1 passed, 1 failed, 1 skipped

            """)
        let report = try String(contentsOfFile: folder.path + "/report.xml", encoding: .utf8)
        #expect(report.contains(#"<testsuites name="xcodebuild" tests="3" failures="1" skipped="1" time="0.116">"#))
        #expect(report.contains(#"<testcase classname="AppTests.LoginTests" name="testLogin" time="0.012"/>"#))
    }

    @Test("--json prints NDJSON events only")
    func json() throws {
        let result = try slipway(["xcode", "log", "--json", Self.logs + "/export.log"])
        #expect(result.status == 1)
        #expect(result.standardOutput == """
            {"event":"diagnostic","message":"exportArchive: No profiles for 'com.example.app' were found","severity":"error"}
            {"action":"EXPORT","event":"result","succeeded":false}

            """)
    }

    @Test("same-named runs are 3 tests with 1 failure: exit 1 and JUnit with the failure")
    func sameNamedRuns() throws {
        let folder = try TemporaryDirectory(prefix: "slipway-xcode-log")
        let run = "Test Case '-[AppTests.CartSpec behaves_like_a_list]' "
        let log = try folder.write("shared.log", """
            \(run)failed (0.010 seconds).
            \(run)passed (0.001 seconds).
            \(run)passed (0.001 seconds).

            """)
        let result = try slipway(["xcode", "log", "--quiet", "--junit", "report.xml", log], in: folder.path)
        #expect(result.status == 1)
        #expect(result.standardOutput == "✖ behaves_like_a_list (0.010 s)\n✖ Failed: 0 errors, 0 warnings, tests: 2 passed, 1 failed, 0 skipped\n")
        let report = try String(contentsOfFile: folder.path + "/report.xml", encoding: .utf8)
        #expect(report.contains(#"tests="3" failures="1""#) && report.contains("<failure"))
    }

    @Test("totals that differ from the counts: a warning line, a totalsMismatch JSON event, exit 1")
    func totalsMismatch() throws {
        let folder = try TemporaryDirectory(prefix: "slipway-xcode-log")
        let log = try folder.write("totals.log", """
            Test Suite 'All tests' started at 2026-01-01 10:00:00.000.
            Test Case '-[AppTests.CartTests testA]' passed (0.001 seconds).
            Test Suite 'All tests' passed at 2026-01-01 10:00:01.000.
                 Executed 2 tests, with 0 failures (0 unexpected) in 0.002 (0.002) seconds
            ** TEST SUCCEEDED **

            """)
        let before = try Snapshot.of(folder.path)
        let text = try slipway(["xcode", "log", "--quiet", log])
        #expect(text.status == 1)
        #expect(text.standardOutput == """
            ** TEST SUCCEEDED **
            ⚠️ XCTest reported 2 tests and 0 failures, but the formatter counted 1 test and 0 failures: the log has test lines the formatter did not recognise, or totals that leave runs out (after a restart). Read the raw log or the result bundle before trusting either count.
            ✖ Failed: 0 errors, 0 warnings, tests: 1 passed, 0 failed, 0 skipped

            """)
        let json = try slipway(["xcode", "log", "--json", log])
        #expect(json.status == 1)
        #expect(json.standardOutput.hasSuffix("""
            {"action":"TEST","event":"result","succeeded":true}
            {"countedFailures":0,"countedTests":1,"event":"totalsMismatch","framework":"XCTest","reportedFailures":0,"reportedTests":2}

            """))
        let annotated = try slipway(["xcode", "log", "--quiet", log], environment: ["GITHUB_ACTIONS": "true"])
        #expect(annotated.status == 1)
        #expect(annotated.standardOutput.contains("\n::warning title=xcodebuild test totals::XCTest reported 2 tests and 0 failures, but the formatter counted 1 test and 0 failures: "))
        #expect(try Snapshot.of(folder.path) == before)
    }

    @Test("<unknown>:0: error: counts under BUILD FAILED; its GitHub annotation names no file")
    func unknownLocation() throws {
        let folder = try TemporaryDirectory(prefix: "slipway-xcode-log")
        let log = try folder.write("unknown.log", """
            <unknown>:0: error: unable to load standard library for target 'arm64-apple-ios17.0'
            ** BUILD FAILED **

            """)
        let result = try slipway(["xcode", "log", "--quiet", log], environment: ["GITHUB_ACTIONS": "true"])
        #expect(result.status == 1)
        #expect(result.standardOutput == """
            ❌ <unknown>:0: unable to load standard library for target 'arm64-apple-ios17.0'
            ::error::<unknown>:0: unable to load standard library for target 'arm64-apple-ios17.0'
            ** BUILD FAILED **
            ✖ Failed: 1 error, 0 warnings

            """)
    }

    @Test("a missing log exits 2 naming it; --json with --quiet is a usage error")
    func badInput() throws {
        let folder = try TemporaryDirectory(prefix: "slipway-xcode-log")
        let missing = try slipway(["xcode", "log", "build.log"], in: folder.path)
        #expect(missing.status == 2)
        #expect(missing.standardError == "error: cannot read the log 'build.log': No such file or directory. Give the file xcodebuild's output was saved to, or pipe it in: 'xcodebuild ... | slipway xcode log'.\n")
        #expect(missing.standardOutput.isEmpty)
        let usage = try slipway(["xcode", "log", "--json", "--quiet"], in: folder.path)
        #expect(usage.status == 64)
        #expect(usage.standardError.contains("--json prints every event; it cannot be combined with --quiet."))
        let help = try slipway(["xcode", "log", "--help"])
        #expect(help.standardOutput.contains("slipway xcode log --junit report.xml"))
    }
}
