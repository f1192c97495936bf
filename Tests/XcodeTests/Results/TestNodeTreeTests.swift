import Foundation
import Testing
import TestSupport
import TestThreads
@testable import Xcode

@Suite("Xcode 16+ result bundles: test-results summary and tests", .dedicatedThreads)
struct TestNodeTreeTests {
    private func read(tests: String, summary: String?) async throws -> TestResults {
        let directory = try TemporaryDirectory()
        let bundle = try ResultFixtures.bundle(in: directory)
        var answers = ["tests": tests]
        answers["summary"] = summary ?? "raw:{}"
        return try await ResultBundleReader(xcrun: ResultFixtures.xcrun(answers)).testResults(bundle: bundle)
    }

    @Test("a passing run: identifiers, durations from seconds and from strings, device and configuration")
    func passing() async throws {
        let results = try await read(tests: "tests-passing", summary: "summary-passing")
        #expect(results.totals == TestResults.Totals(total: 3, passed: 3))
        #expect(results.tests.map(\.identifier) == [
            TestResult.Identifier(bundle: "ShopTests", suite: "CartTests", name: "testAddItem()"),
            TestResult.Identifier(bundle: "ShopTests", suite: "CartTests", name: "testRemoveItem()"),
            TestResult.Identifier(bundle: "ShopTests", suite: "CartTests", name: "testTotal()"),
        ])
        #expect(results.tests.map(\.duration) == [0.123, 0.3, 62])
        #expect(results.tests.allSatisfy { $0.outcome == .passed && $0.runs == 1 && $0.failures.isEmpty })
        #expect(results.devices == ["iPhone 16 (18.2)"])
        #expect(results.configurations == ["Test Scheme Action"])
        #expect(abs(results.duration - 12.3) < 0.0001)
        #expect(results.summaryLine == "3 tests: 3 passed, 12.3 s")
    }

    @Test("failures with file:line, skipped, expected failure, flaky, retried failure, crash, arguments, UI tests")
    func mixed() async throws {
        let results = try await read(tests: "tests-mixed", summary: "summary-mixed")
        let byName = Dictionary(uniqueKeysWithValues: results.tests.map { ($0.identifier.name, $0) })
        #expect(results.tests.count == 8)
        #expect(byName["testCheckout()"]?.outcome == .failed)
        #expect(byName["testCheckout()"]?.failures == [
            TestResult.Failure(message: "XCTAssertEqual failed: (\"1\") is not equal to (\"2\")", file: "CheckoutTests.swift", line: 42),
            TestResult.Failure(message: "XCTAssertTrue failed - cart is empty", file: "CheckoutTests.swift", line: 47),
        ])
        #expect(byName["testGiftCard()"]?.outcome == .skipped)
        #expect(byName["testGiftCard()"]?.failures.first?.message == "Test skipped - gift cards are not enabled")
        #expect(byName["testRounding()"]?.outcome == .expectedFailure)
        #expect(byName["testRounding()"]?.failures == [])
        let flaky = try #require(byName["testPaymentSheet()"])
        #expect(flaky.outcome == .flaky && flaky.runs == 2 && flaky.duration == 2.5)
        #expect(flaky.failures.map(\.line) == [88])
        let retried = try #require(byName["testReceipt()"])
        #expect(retried.outcome == .failed && retried.runs == 3)
        #expect(retried.failures == [TestResult.Failure(message: "failed - no printer", file: "Receipt.swift", line: 12)])
        #expect(byName["testImport()"]?.failures == [TestResult.Failure(message: "Test crashed with signal segv.")])
        let parameterized = try #require(byName["discount(percent:)"])
        #expect(parameterized.identifier == TestResult.Identifier(bundle: "ShopTests", suite: "PriceTests.Discounts", name: "discount(percent:)"))
        #expect(parameterized.outcome == .failed && parameterized.duration == 0.004)
        #expect(parameterized.failures == [TestResult.Failure(message: "(arguments: 150) Expectation failed: (price → 0) > 0", file: "PriceTests.swift", line: 19)])
        #expect(byName["testLaunch()"]?.identifier.bundle == "ShopUITests")
        #expect(byName["testLaunch()"]?.outcome == .passed)
        #expect(results.totals == TestResults.Totals(total: 8, passed: 2, failed: 4, skipped: 1, expectedFailures: 1, flaky: 1))
        #expect(results.summaryLine == "8 tests: 2 passed, 4 failed, 1 skipped, 1 expected failure, 1 flaky (passed on retry), 112.3 s")
    }

    @Test("parallel devices: one result per device; a repetition flaky on one device only")
    func devices() async throws {
        let results = try await read(tests: "tests-devices", summary: nil)
        #expect(results.tests.map { "\($0.identifier.name) \($0.device ?? "-") \($0.outcome) \($0.runs)" } == [
            "testGrid() iPhone 16 passed 1", "testGrid() iPad Air 11-inch (M2) failed 1",
            "testRotate() iPhone 16 flaky 2", "testRotate() iPad Air 11-inch (M2) passed 1",
        ])
        #expect(results.tests.map(\.duration) == [0.4, 0.6, nil, nil])
        #expect(results.devices == ["iPhone 16 (18.2)", "iPad Air 11-inch (M2) (18.2)"])
        #expect(results.junitTestCases.map(\.name) == [
            "testGrid() [iPhone 16]", "testGrid() [iPad Air 11-inch (M2)]", "testRotate() [iPhone 16]", "testRotate() [iPad Air 11-inch (M2)]",
        ])
        #expect(results.githubAnnotations.map(\.rendered) == [
            "::error file=LayoutTests.swift,line=30,title=LayoutTests.testGrid() [iPad Air 11-inch (M2)]::XCTAssertEqual failed: (\"2\") is not equal to (\"3\") - columns",
        ])
        #expect(results.summaryLine == "4 tests: 3 passed, 1 failed, 1 flaky (passed on retry), 1.0 s")
    }

    @Test("duration strings and failure locations")
    func text() {
        #expect(ResultText.seconds("0.12s") == 0.12)
        #expect(ResultText.seconds("1m 2s") == 62)
        #expect(ResultText.seconds("1h 0m 1s") == 3601)
        #expect(ResultText.seconds("250ms") == 0.25)
        #expect(ResultText.seconds("0,5s") == 0.5)
        #expect(ResultText.seconds("soon") == nil)
        #expect(ResultText.failure("My File.swift:7: boom") == TestResult.Failure(message: "boom", file: "My File.swift", line: 7))
        #expect(ResultText.failure("Expectation failed: a:1: b") == TestResult.Failure(message: "Expectation failed: a:1: b"))
        #expect(ResultText.failure("Test crashed with signal kill.") == TestResult.Failure(message: "Test crashed with signal kill."))
        #expect(ResultText.failure("Foo.m:12:no space") == TestResult.Failure(message: "no space", file: "Foo.m", line: 12))
    }
}
