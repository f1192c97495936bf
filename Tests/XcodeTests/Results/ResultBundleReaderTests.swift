import Foundation
import Testing
import TestSupport
import TestThreads
@testable import Xcode
import TestReports

@Suite("ResultBundleReader: legacy fallback, coverage, conversions and errors", .dedicatedThreads)
struct ResultBundleReaderTests {
    @Test("an xcresulttool from Xcode 15 refuses test-results: the legacy object graph is read")
    func legacy() async throws {
        let directory = try TemporaryDirectory()
        let bundle = try ResultFixtures.bundle(in: directory)
        let xcrun = ResultFixtures.xcrun(["record": "legacy-invocation", "id:0~tests": "legacy-tests",
                                          "id:0~checkout": "legacy-summary-checkout", "id:0~sync1": "legacy-summary-sync1"],
                                         failure: ResultFixtures.oldTool, refuse: ["summary", "tests"])
        let results = try await ResultBundleReader(xcrun: xcrun).testResults(bundle: bundle)
        #expect(results.tests.map { "\($0.identifier.bundle)|\($0.identifier.suite)|\($0.identifier.name) \($0.outcome) \($0.runs)" } == [
            "ShopTests|CartTests|testAddItem() passed 1", "ShopTests|CartTests|testCheckout() failed 1",
            "ShopTests|CartTests|testSync() flaky 2", "ShopTests|CartTests|testCoupon() skipped 1",
            "ShopTests|CartTests|testRounding() expectedFailure 1",
        ])
        #expect(results.tests[1].failures == [TestResult.Failure(message: "XCTAssertEqual failed: (\"1\") is not equal to (\"2\")",
                                                                file: "/Users/ci/shop/ShopTests/CartTests.swift", line: 42)])
        #expect(results.tests[2].failures.map(\.line) == [88])
        #expect(results.tests[2].duration == 1.75)
        #expect(results.tests.allSatisfy { $0.device == "iPhone 15" })
        #expect(results.devices == ["iPhone 15"] && results.configurations == ["Test Scheme Action"])
        #expect(results.summaryLine == "5 tests: 2 passed, 1 failed, 1 skipped, 1 expected failure, 1 flaky (passed on retry), 2.5 s")
    }

    @Test("JUnit cases: class is bundle.suite, flaky as .flaky, expected failure as passed; annotations for failed tests only")
    func conversions() async throws {
        let directory = try TemporaryDirectory()
        let bundle = try ResultFixtures.bundle(in: directory)
        let xcrun = ResultFixtures.xcrun(["summary": "summary-mixed", "tests": "tests-mixed"])
        let results = try await ResultBundleReader(xcrun: xcrun).testResults(bundle: bundle)
        let cases = results.junitTestCases
        #expect(cases[0] == JUnitTestCase(className: "ShopTests.CheckoutTests", name: "testCheckout()", duration: 0.05, outcome: .failed(
            message: "XCTAssertEqual failed: (\"1\") is not equal to (\"2\")",
            details: "CheckoutTests.swift:42: XCTAssertEqual failed: (\"1\") is not equal to (\"2\")\nCheckoutTests.swift:47: XCTAssertTrue failed - cart is empty"),
            file: "CheckoutTests.swift", line: 42))
        #expect(cases[1].outcome == .skipped(message: "Test skipped - gift cards are not enabled"))
        #expect(cases[2].outcome == .passed)
        #expect(cases[3].outcome == .flaky(failedRuns: 1, details: "CheckoutTests.swift:88: Asynchronous wait failed: Exceeded timeout of 1 seconds, with unfulfilled expectations: \"sheet\"."))
        #expect(cases[6].className == "ShopTests.PriceTests.Discounts")
        #expect(cases[7].className == "ShopUITests.ShopUITests")
        #expect(results.githubAnnotations.map(\.rendered) == [
            "::error file=CheckoutTests.swift,line=42,title=CheckoutTests.testCheckout()::XCTAssertEqual failed: (\"1\") is not equal to (\"2\")",
            "::error file=CheckoutTests.swift,line=47,title=CheckoutTests.testCheckout()::XCTAssertTrue failed - cart is empty",
            "::error file=Receipt.swift,line=12,title=CheckoutTests.testReceipt()::failed - no printer",
            "::error title=CheckoutTests.testImport()::Test crashed with signal segv.",
            "::error file=PriceTests.swift,line=19,title=PriceTests.Discounts.discount(percent%3A)::(arguments: 150) Expectation failed: (price → 0) > 0",
        ])
        let decoded = try JSONDecoder().decode(TestResults.self, from: JSONEncoder().encode(results))
        #expect(decoded == results)
    }

    @Test("coverage per target from xccov")
    func coverage() async throws {
        let directory = try TemporaryDirectory()
        let bundle = try ResultFixtures.bundle(in: directory)
        let coverage = try await ResultBundleReader(xcrun: ResultFixtures.xcrun(["coverage": "coverage"])).coverage(bundle: bundle)
        #expect(coverage.lineCoverage == 0.65 && coverage.coveredLines == 1300 && coverage.executableLines == 2000)
        #expect(coverage.targets.map(\.name) == ["Shop.app", "ShopKit.framework"])
        #expect(coverage.lines == ["Shop.app 80.0% (1200/1500 lines)", "ShopKit.framework 20.0% (100/500 lines)"])
    }

    @Test("a missing bundle: nothing is run")
    func missing() async throws {
        let directory = try TemporaryDirectory()
        let path = directory.path + "/Missing.xcresult"
        let reader = ResultBundleReader(xcrun: { _ in Issue.record("xcrun ran"); return Data() })
        let error = await #expect(throws: ResultBundleError.self) { try await reader.testResults(bundle: path) }
        #expect(error?.localizedDescription == "Result bundle '\(path)' does not exist: xcodebuild stopped before writing it. Look in the raw log for why the run stopped.")
        await #expect(throws: ResultBundleError.bundleMissing(path: path)) { try await reader.coverage(bundle: path) }
    }

    @Test("xcresulttool fails on an unreadable bundle: its first stderr line, no legacy retry")
    func unreadable() async throws {
        let directory = try TemporaryDirectory()
        let bundle = try ResultFixtures.bundle(in: directory)
        let failure = XcrunFailure(status: 1, standardError: "\nError: The file “Shop.xcresult” couldn’t be opened because it isn’t in the correct format.\nmore\n")
        let reader = ResultBundleReader(xcrun: ResultFixtures.xcrun(["record": "legacy-invocation"], failure: failure))
        let error = await #expect(throws: ResultBundleError.self) { try await reader.testResults(bundle: bundle) }
        #expect(error?.localizedDescription == "Result bundle '\(bundle)' could not be read: 'xcrun xcresulttool get test-results summary --path \(bundle) --format json' failed: "
            + "Error: The file “Shop.xcresult” couldn’t be opened because it isn’t in the correct format. Check that the bundle is complete "
            + "(xcodebuild was not killed while writing it) and that the selected Xcode is at least the one that wrote it.")
    }

    @Test("a tool killed by a signal, or one that prints nothing, is named by its status")
    func silentFailure() async throws {
        let directory = try TemporaryDirectory()
        let bundle = try ResultFixtures.bundle(in: directory)
        let killed = ResultBundleReader(xcrun: ResultFixtures.xcrun(["summary": "summary-passing"], failure: XcrunFailure(status: -9, standardError: "")))
        await #expect(throws: ResultBundleError.toolFailed(path: bundle, command: "xcrun xcresulttool get test-results tests --path \(bundle) --format json",
                                                           detail: "killed by signal 9")) { try await killed.testResults(bundle: bundle) }
        let legacyFails = ResultBundleReader(xcrun: ResultFixtures.xcrun([:], failure: ResultFixtures.oldTool, refuse: ["summary"]))
        await #expect(throws: ResultBundleError.toolFailed(path: bundle, command: "xcrun xcresulttool get --format json --path \(bundle)",
                                                           detail: "Error: Unexpected argument 'test-results'")) { try await legacyFails.testResults(bundle: bundle) }
    }

    @Test("malformed JSON names the command whose output it was")
    func malformed() async throws {
        let directory = try TemporaryDirectory()
        let bundle = try ResultFixtures.bundle(in: directory)
        let notJSON = ResultBundleReader(xcrun: ResultFixtures.xcrun(["summary": "summary-passing", "tests": "raw:Error: oops"]))
        let error = await #expect(throws: ResultBundleError.self) { try await notJSON.testResults(bundle: bundle) }
        #expect(error?.localizedDescription == "Result bundle '\(bundle)': the output of 'xcrun xcresulttool get test-results tests --path \(bundle) --format json' "
            + "is not the JSON expected (not valid JSON). Run the command to see it, and report it with the output of 'xcodebuild -version'.")
        let wrongType = ResultBundleReader(xcrun: ResultFixtures.xcrun(["summary": "raw:{}", "tests": "raw:{\"testNodes\":[{\"nodeType\":\"Test Plan\",\"name\":\"P\",\"children\":[{\"name\":3}]}]}"]))
        await #expect(throws: ResultBundleError.malformedOutput(path: bundle, command: "xcrun xcresulttool get test-results tests --path \(bundle) --format json",
                                                                reason: "expected a string at 'testNodes[0].children[0].name'")) { try await wrongType.testResults(bundle: bundle) }
        let coverage = ResultBundleReader(xcrun: ResultFixtures.xcrun(["coverage": "raw:{\"targets\":{}}"]))
        await #expect(throws: ResultBundleError.malformedOutput(path: bundle, command: "xcrun xccov view --report --json \(bundle)",
                                                                reason: "expected an array at 'targets'")) { try await coverage.coverage(bundle: bundle) }
    }
}
