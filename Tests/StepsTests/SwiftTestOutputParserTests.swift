import Steps
import Testing
import TestThreads

@Suite(.dedicatedThreads) struct SwiftTestOutputParserTests {
    /// Real output of `swift test` (Swift 6.3, Linux) on a package with XCTest and Swift Testing
    /// tests: one pass, one failure and one skip in each framework.
    static let mixedOutput = """
        Test Suite 'All tests' started at 2026-11-21 03:45:42.452
        Test Case 'XTests.testFail' started at 2026-11-21 03:45:42.485
        /tmp/sample/Tests/LibTests/T.swift:6: error: XTests.testFail : XCTAssertEqual failed: ("2") is not equal to ("3") - 
        Test Case 'XTests.testFail' failed (0.001 seconds)
        Test Case 'XTests.testPass' started at 2026-11-21 03:45:42.486
        Test Case 'XTests.testPass' passed (0.0 seconds)
        /tmp/sample/Tests/LibTests/T.swift:7: XTests.testSkip : Test skipped - nope
        Test Case 'XTests.testSkip' skipped (0.0 seconds)
        \t Executed 3 tests, with 1 test skipped and 1 failure (0 unexpected) in 0.002 (0.002) seconds
        ◇ Test run started.
        ◇ Test passes() started.
        ➜ Test skipped() skipped: "off"
        ✔ Test passes() passed after 0.001 seconds.
        ✔ Test inner() passed after 0.001 seconds.
        ✔ Suite S passed after 0.001 seconds.
        ✘ Test fails() recorded an issue at T.swift:10:22: Expectation failed: (two() → 2) == 3
        ✘ Test fails() failed after 0.001 seconds with 1 issue.
        ✘ Test run with 4 tests in 1 suite failed after 0.001 seconds with 1 issue.
        """

    @Test func countsBothFrameworks() {
        var parser = SwiftTestOutputParser()
        parser.consume(output: Self.mixedOutput)
        #expect(parser.passed == 3)
        #expect(parser.failed == 2)
        #expect(parser.skipped == 2)
        #expect(parser.total == 7)
        #expect(parser.failures == [
            .init(test: "XTests.testFail", messages: [#"/tmp/sample/Tests/LibTests/T.swift:6: XCTAssertEqual failed: ("2") is not equal to ("3") - "#]),
            .init(test: "fails()", messages: ["T.swift:10:22: Expectation failed: (two() → 2) == 3"]),
        ])
    }

    @Test func macOSNamesAreNormalized() {
        var parser = SwiftTestOutputParser()
        parser.consume(output: """
            /Users/me/T.swift:6: error: -[LibTests.XTests testFail] : XCTAssertTrue failed
            Test Case '-[LibTests.XTests testFail]' failed (0.001 seconds).
            Test Case '-[LibTests.XTests testPass]' passed (0.000 seconds).
            """)
        #expect(parser.passed == 1)
        #expect(parser.failures == [.init(test: "XTests.testFail", messages: ["/Users/me/T.swift:6: XCTAssertTrue failed"])])
    }

    @Test func unrelatedLinesAreIgnored() {
        var parser = SwiftTestOutputParser()
        parser.consume(output: "Building for debugging...\n[3/4] Compiling Test Case.swift\nTest Suite 'All tests' passed\nTest Plan: ok\n")
        #expect(parser.total == 0)
    }
}
