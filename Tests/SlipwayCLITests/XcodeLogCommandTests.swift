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
