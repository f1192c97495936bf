import Basics
import Foundation
import Testing
import TestReports
import TestThreads
import Xcode

/// Same-named runs are separate tests unless xcodebuild announced a repetition; the frameworks'
/// own totals are checked; parallel-testing lines keep the class.
@Suite("xcodebuild log: repetitions, totals, parallel testing", .dedicatedThreads)
struct LogRepeatsAndTotalsTests {
    static let sharedExamples = """
        Test Case '-[AppTests.CartSpec behaves_like_a_list]' started.
        /src/CartSpec.swift:9: error: -[AppTests.CartSpec behaves_like_a_list] : expected 1, got 2
        Test Case '-[AppTests.CartSpec behaves_like_a_list]' failed (0.010 seconds).
        Test Case '-[AppTests.CartSpec behaves_like_a_list]' started.
        Test Case '-[AppTests.CartSpec behaves_like_a_list]' passed (0.001 seconds).
        Test Case '-[AppTests.CartSpec behaves_like_a_list]' started.
        Test Case '-[AppTests.CartSpec behaves_like_a_list]' passed (0.001 seconds).
        ** TEST FAILED **
        """

    @Test("three same-named runs, the first failing, are 3 tests with 1 failure, and JUnit keeps it")
    func sameNamedRunsAreNotRetries() throws {
        let (lines, summary) = try LogFixtures.rendered(text: Self.sharedExamples)
        #expect(lines.last == "✖ Failed: 0 errors, 0 warnings, tests: 2 passed, 1 failed, 0 skipped")
        #expect(summary.testCases.count == 3 && summary.testsFailed == 1 && summary.testsFlaky == 0 && summary.failed)
        #expect(summary.testCases[0].outcome == .failed(message: "CartSpec.swift:9: expected 1, got 2", details: "CartSpec.swift:9: expected 1, got 2"))
        #expect(JUnitXML.render(summary.testCases, name: "xcodebuild").contains(#"tests="3" failures="1""#))
    }

    @Test("XCTest's announced retry (started (Iteration 2 of 3).) folds: failed then passed is flaky")
    func announcedRetryIsFlaky() throws {
        let log = """
            Test Case '-[AppTests.CartTests testSync]' started (Iteration 1 of 3).
            /src/CartTests.swift:20: error: -[AppTests.CartTests testSync] : timed out
            Test Case '-[AppTests.CartTests testSync]' failed (1.000 seconds).
            Test Case '-[AppTests.CartTests testSync]' started (Iteration 2 of 3).
            Test Case '-[AppTests.CartTests testSync]' passed (0.500 seconds).
            Test Case '-[AppTests.CartTests testTotal]' started.
            Test Case '-[AppTests.CartTests testTotal]' passed (0.001 seconds).
            ** TEST SUCCEEDED **
            """
        #expect(try LogFixtures.events(ofText: log).contains(.testRepeat(.init(suite: "AppTests.CartTests", name: "testSync", iteration: 2, of: 3))))
        let (lines, summary) = try LogFixtures.rendered(text: log)
        #expect(lines.contains("↻ AppTests.CartTests.testSync again (run 2 of 3)"))
        #expect(lines.last == "✔ Succeeded: 0 errors, 0 warnings, tests: 2 passed, 0 failed, 0 skipped (1 flaky)")
        #expect(summary.testCases.count == 2 && summary.testCases[0].outcome == .flaky(failedRuns: 1, details: "CartTests.swift:20: timed out"))
    }

    @Test("Swift Testing's announced repetition (started (repetition 2).) folds; an unannounced rerun does not")
    func swiftTestingRepetition() throws {
        let log = """
            ◇ Test sync() started.
            ✘ Test sync() recorded an issue at SyncTests.swift:4:3: Expectation failed: online
            ✘ Test sync() failed after 0.002 seconds with 1 issue.
            ◇ Test sync() started (repetition 2).
            ✔ Test sync() passed after 0.001 seconds.
            ✘ Test total() failed after 0.001 seconds with 1 issue.
            ✔ Test total() passed after 0.001 seconds.
            """
        let (lines, summary) = try LogFixtures.rendered(text: log)
        #expect(lines.contains("↻ sync() again (run 2)"))
        #expect(summary.testCases.map(\.name) == ["sync()", "total()", "total()"])
        #expect(lines.last == "✖ Failed: 0 errors, 0 warnings, tests: 2 passed, 1 failed, 0 skipped (1 flaky)")
    }

    @Test("Xcode's SF Symbol prefixes, a known issue passing, an issue with arguments and one without a place")
    func sfSymbols() throws {
        let log = """
            􁁛  Test example() passed after 0.001 seconds.
            􀙟  Test skippedTest() skipped: "Skipping this test"
            􀢄  Test parse(input:) recorded an issue with 1 argument input → "a at b: c" at ParseTests.swift:11:5: Expectation failed
            􀢄  Test parse(input:) failed after 0.003 seconds with 1 issue.
            ✘  Test flaky() passed after 0.001 seconds with 1 known issue.
            ✘ Test setUp() recorded an issue: Caught error: boom
            """
        let (lines, _) = try LogFixtures.rendered(text: log)
        #expect(lines == [
            "✔ example() (0.001 s)",
            "➜ skippedTest() skipped",
            "✖ parse(input:), ParseTests.swift:11:5: Expectation failed",
            "✖ parse(input:) (0.003 s)",
            "✔ flaky() (0.001 s)",
            "✖ setUp(): Caught error: boom",
            "✖ Failed: 0 errors, 0 warnings, tests: 2 passed, 1 failed, 1 skipped",
        ])
    }

    static let undercounted = """
        Test Suite 'All tests' started at 2026-01-01 10:00:00.000.
        Test Case '-[AppTests.CartTests testA]' passed (0.001 seconds).
        Test Case '-[AppTests.CartTests testB]' passed (0.001 seconds).
        Test Suite 'All tests' passed at 2026-01-01 10:00:01.000.
             Executed 3 tests, with 1 failure (0 unexpected) in 0.002 (0.002) seconds
        ✔ Test run with 1 test passed after 0.001 seconds.
        ** TEST SUCCEEDED **
        """

    @Test("totals that differ from the counts are a warning and a failure, never a silent pass")
    func totalsMismatch() throws {
        let (lines, summary) = try LogFixtures.rendered(text: Self.undercounted)
        let xctest = XcodeLogSummary.TotalsMismatch(framework: "XCTest", reportedTests: 3, reportedFailures: 1, countedTests: 2, countedFailures: 0)
        let swiftTesting = XcodeLogSummary.TotalsMismatch(framework: "Swift Testing", reportedTests: 1, reportedFailures: 0, countedTests: 0, countedFailures: 0)
        #expect(summary.totalsMismatches == [xctest, swiftTesting])
        #expect(summary.failed)
        #expect(Array(lines.suffix(3)) == [
            "⚠️ XCTest reported 3 tests and 1 failure, but the formatter counted 2 tests and 0 failures: the log has test lines the formatter did not recognise, or totals that leave runs out (after a restart). Read the raw log or the result bundle before trusting either count.",
            "⚠️ Swift Testing reported 1 test and 0 issues, but the formatter counted 0 tests and 0 issues: the log has test lines the formatter did not recognise, or totals that leave runs out (after a restart). Read the raw log or the result bundle before trusting either count.",
            "✖ Failed: 0 errors, 0 warnings, tests: 2 passed, 0 failed, 0 skipped",
        ])
    }

    @Test("an announced retry is one reported test; XCTest's total may count every run or only the last")
    func totalsWithRetry() throws {
        for (executed, matches) in [(2, true), (1, true), (3, false)] {
            let log = """
                Test Suite 'All tests' started at 2026-01-01 10:00:00.000.
                Test Case '-[AppTests.CartTests testSync]' started (Iteration 1 of 3).
                /src/CartTests.swift:20: error: -[AppTests.CartTests testSync] : timed out
                Test Case '-[AppTests.CartTests testSync]' failed (1.000 seconds).
                Test Case '-[AppTests.CartTests testSync]' started (Iteration 2 of 3).
                Test Case '-[AppTests.CartTests testSync]' passed (0.500 seconds).
                Test Suite 'All tests' passed at 2026-01-01 10:00:01.000.
                     Executed \(executed) tests, with 1 failure (0 unexpected) in 1.500 (1.500) seconds
                """
            let summary = try LogFixtures.rendered(text: log).summary
            #expect(summary.testCases.count == 1 && summary.testsFlaky == 1)
            #expect(summary.totalsMismatches.isEmpty == matches, "Executed \(executed)")
        }
    }

    @Test("the check compares xcodebuild's total with the tests the formatter reports, so a wrong fold shows")
    func totalsAgainstReportedTests() throws {
        let log = Self.sharedExamples.replacingOccurrences(of: "** TEST FAILED **", with: """
            Test Suite 'All tests' failed at 2026-01-01 10:00:01.000.
                 Executed 3 tests, with 1 failure (1 unexpected) in 0.012 (0.012) seconds
            """)
        let summary = try LogFixtures.rendered(text: "Test Suite 'All tests' started at 2026-01-01 10:00:00.000.\n" + log).summary
        #expect(summary.reportedXCTestTotals?.tests == 3 && summary.totalsMismatches == [])
    }

    @Test("nested suites: only the outermost suite's Executed line is a total")
    func nestedTotals() throws {
        let log = """
            Test Suite 'All tests' started at 2026-01-01 10:00:00.000.
            Test Suite 'CartTests' started at 2026-01-01 10:00:00.000.
            Test Case '-[AppTests.CartTests testA]' passed (0.001 seconds).
            Test Suite 'CartTests' passed at 2026-01-01 10:00:01.000.
                 Executed 1 test, with 0 failures (0 unexpected) in 0.001 (0.001) seconds
            Test Suite 'All tests' passed at 2026-01-01 10:00:01.000.
                 Executed 1 test, with 0 failures (0 unexpected) in 0.001 (0.001) seconds
            """
        let summary = try LogFixtures.rendered(text: log).summary
        #expect(summary.totalsMismatches == [] && !summary.failed)
    }

    @Test("parallel-testing lines keep the class name")
    func parallelKeepsClass() throws {
        let log = """
            Test case 'BuildFlagTests.test_failIntentionally()' failed on 'Clone 1 of iPhone 13 mini - xctest (59522)' (0.278 seconds)
            Test case 'OtherTests.test_failIntentionally()' passed on 'Clone 2 of iPhone 13 mini - xctest (59523)' (0.001 seconds)
            """
        #expect(try Array(LogFixtures.rendered(text: log).lines.prefix(2)) == [
            "✖ BuildFlagTests.test_failIntentionally() on 'Clone 1 of iPhone 13 mini - xctest (59522)' (0.278 s)",
            "✔ OtherTests.test_failIntentionally() on 'Clone 2 of iPhone 13 mini - xctest (59523)' (0.001 s)",
        ])
    }

    @Test("--json: a repetition and a finished suite encode flat and decode back")
    func jsonShapes() throws {
        let line = try JSONFormatting.line(XcodeLogEvent.testRepeat(.init(suite: "C", name: "t", iteration: 2, of: 3)))
        #expect(line == #"{"event":"testRepeat","iteration":2,"name":"t","of":3,"suite":"C"}"#)
        #expect(try JSONDecoder().decode(XcodeLogEvent.self, from: Data(line.utf8)) == .testRepeat(.init(suite: "C", name: "t", iteration: 2, of: 3)))
        let finished = try JSONFormatting.line(XcodeLogEvent.testSuite(.init(name: "All tests", status: .finished)))
        #expect(try JSONDecoder().decode(XcodeLogEvent.self, from: Data(finished.utf8)) == .testSuite(.init(name: "All tests", status: .finished)))
    }
}

/// Newer spellings seen in captures from Xcode 26/27: XCTest's skip count in `Executed`, Swift
/// Testing's suite count in its run line, and the zero-width space xcodebuild puts before a symbol.
@Suite("xcodebuild log: newer totals and prefixes", .dedicatedThreads)
struct LogNewerSpellingsTests {
    @Test("Executed ... with 1 test skipped and 0 failures; Test run with N tests in M suites; a zero-width space")
    func newerSpellings() throws {
        let log = """
            Test Suite 'All tests' started at 2026-01-01 10:00:00.000.
            Test Case '-[AppTests.CartTests testA]' passed (0.001 seconds).
            Test Case '-[AppTests.CartTests testB]' skipped (0.001 seconds).
            Test Suite 'All tests' passed at 2026-01-01 10:00:01.000.
            \tExecuted 2 tests, with 1 test skipped and 0 failures (0 unexpected) in 0.002 (0.002) seconds
            \u{200B}◇ Test sum() started (repetition 2).
            \u{200B}✔ Test sum() passed after 0.001 seconds.
            \u{200B}✔ Test run with 1 test in 1 suite passed after 0.001 seconds.
            """
        let events = try LogFixtures.events(ofText: log)
        #expect(events.contains(.testRun(.init(tests: 2, failures: 0, unexpected: 0, duration: 0.002))))
        #expect(events.contains(.testRepeat(.init(suite: nil, name: "sum()", iteration: 2))))
        #expect(events.contains(.testRun(.init(tests: 1, failures: 0, duration: 0.001))))
        let summary = try LogFixtures.rendered(text: log).summary
        #expect(summary.totalsMismatches == [] && !summary.failed)
    }
}
