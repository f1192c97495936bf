import Basics
import Foundation
@testable import Lanes
import Testing
import TestSupport
import TestThreads
import TestReports

/// A step's test results (what xcode.test reads from a result bundle) reach the lane's JUnit
/// report as one test case per test, GitHub as one annotation per failure, and are masked.
@Suite("Test results in the lane's reports", .dedicatedThreads)
struct TestResultsReportTests {
    static let cases = [
        JUnitTestCase(className: "AppTests.LoginTests", name: "testLogin()", duration: 0.5, outcome: .passed),
        JUnitTestCase(className: "AppTests.LoginTests", name: "testToken()", duration: 0.25,
                      outcome: .failed(message: "expected hunter2-secret", details: "LoginTests.swift:12: expected hunter2-secret"),
                      file: "AppTests/LoginTests.swift", line: 12),
    ]

    static func summary() -> RunSummary {
        let step = StepResult(id: "test", kind: "xcode.test", name: "test", section: "steps", status: .failed, duration: 1,
                              attempts: 1, error: "1 test failed", outputs: [:], continuedOnError: false)
        return RunSummary(lane: "ios", file: "lanes/ios.yml", status: .failed, duration: 1, steps: [step], isDryRun: false, runID: "r1")
    }

    static func event() -> RunEvent {
        var event = RunEvent(.tests, lane: "ios", step: "test")
        event.tests = cases
        return event.redacted(by: Redactor(secrets: ["hunter2-secret"]))
    }

    @Test("JUnit: the step's case, then one suite per test class with every test, masked")
    func junit() throws {
        let folder = try TemporaryDirectory()
        let path = folder.path + "/junit.xml"
        let reporter = JUnitReporter(path: path, fileSystem: LocalFileSystem())
        reporter.receive(Self.event())
        try reporter.finish(Self.summary())
        let xml = try String(contentsOfFile: path, encoding: .utf8)
        #expect(xml.contains(#"<testsuites name="slipway" tests="3" failures="2" skipped="0""#))
        #expect(xml.contains(#"<testsuite name="ios/test: AppTests.LoginTests" tests="2" failures="1""#))
        #expect(xml.contains(#"<testcase classname="AppTests.LoginTests" name="testLogin()" time="0.500"/>"#))
        #expect(xml.contains(#"<testcase classname="AppTests.LoginTests" name="testToken()" time="0.250" file="AppTests/LoginTests.swift" line="12">"#))
        #expect(xml.contains(#"<failure message="expected ***">LoginTests.swift:12: expected ***</failure>"#))
        #expect(!xml.contains("hunter2"))
    }

    @Test("GitHub Actions: one error annotation per failed test, at its file and line")
    func annotations() {
        let output = BufferedOutput()
        GitHubActionsReporter(output: output).receive(Self.event())
        #expect(output.text == "::error file=AppTests/LoginTests.swift,line=12,title=AppTests.LoginTests.testToken() failed::expected ***\n")
    }
}
