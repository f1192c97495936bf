import Foundation
import Testing
import TestSupport
import TestThreads
@testable import Xcode

/// What real bundles showed: no flaky test the bundle did not call retried, no count the two
/// commands disagree on, no result or status slipway cannot read counted silently.
@Suite("Result bundles: flaky only where retried, counts checked, unknown values refused", .dedicatedThreads)
struct ResultBundleFidelityTests {
    private static func testCase(_ result: String, _ children: String) -> String {
        """
        {"testNodes":[{"nodeType":"Test Plan","name":"P","children":[{"nodeType":"Unit test bundle","name":"AppTests","children":[
          {"nodeType":"Test Suite","name":"Suite","children":[
            {"nodeType":"Test Case","name":"check(_:)","result":"\(result)","children":[\(children)]}]}]}]}]}
        """
    }

    private static func repetition(_ result: String, _ message: String? = nil) -> String {
        let failure = message.map { #"{"nodeType":"Failure Message","name":"\#($0)"}"# } ?? ""
        return #"{"nodeType":"Repetition","name":"Retry","result":"\#(result)","children":[\#(failure)]}"#
    }

    private func read(tests: String, summary: String = "{}", in given: TemporaryDirectory? = nil) async throws
        -> (TestResults?, (any Error)?, String, TemporaryDirectory) {
        let directory = try given ?? TemporaryDirectory()
        let bundle = directory.path + "/Shop.xcresult"
        if given == nil { _ = try ResultFixtures.bundle(in: directory) }
        let reader = ResultBundleReader(xcrun: ResultFixtures.xcrun(["summary": "raw:" + summary, "tests": "raw:" + tests]))
        do {
            return (try await reader.testResults(bundle: bundle), nil, bundle, directory)
        } catch {
            return (nil, error, bundle, directory)
        }
    }

    @Test("a parameterized test whose last argument passed on retry but another failed every retry is failed, not flaky")
    func argumentsRepeatOnTheirOwn() async throws {
        let arguments = #"{"nodeType":"Arguments","name":"1","result":"Failed","children":["# + Self.repetition("Failed", "A.swift:3: one")
            + "," + Self.repetition("Failed", "A.swift:3: one") + "]}," + #"{"nodeType":"Arguments","name":"2","result":"Passed","children":["#
            + Self.repetition("Failed", "A.swift:3: two") + "," + Self.repetition("Passed") + "]}"
        let (results, error, _, _) = try await read(tests: Self.testCase("Failed", arguments))
        #expect(error == nil)
        let test = try #require(results?.tests.first)
        #expect(test.outcome == .failed)
        #expect(test.runs == 2)
        #expect(test.failures.map(\.message) == ["(arguments: 1) one", "(arguments: 2) two"])
        #expect(results?.totals == TestResults.Totals(total: 1, failed: 1))
    }

    @Test("a passed test is flaky only when one of its repetitions failed")
    func flakyOnlyWhereRetried() async throws {
        let flaky = try await read(tests: Self.testCase("Passed", Self.repetition("Failed", "A.swift:9: boom") + "," + Self.repetition("Passed"))).0
        #expect(flaky?.tests.first?.outcome == .flaky)
        #expect(flaky?.totals == TestResults.Totals(total: 1, passed: 1, flaky: 1))
        let repeated = try await read(tests: Self.testCase("Passed", Self.repetition("Passed") + "," + Self.repetition("Passed"))).0
        #expect(repeated?.tests.first?.outcome == .passed)
        #expect(repeated?.tests.first?.runs == 2)
    }

    @Test("a result slipway does not know is an error naming the JSON path; nothing is written")
    func unknownResult() async throws {
        let directory = try TemporaryDirectory()
        _ = try ResultFixtures.bundle(in: directory)
        let before = try Snapshot.of(directory.path)
        let (results, error, bundle, _) = try await read(tests: Self.testCase("Mixed", ""), in: directory)
        #expect(results == nil)
        #expect(error?.localizedDescription == "Result bundle '\(bundle)': the output of 'xcrun xcresulttool get test-results tests --path \(bundle) --format json' "
            + "is not the JSON expected (at 'testNodes[0].children[0].children[0].children[0]': test 'check(_:)' has the result 'Mixed', "
            + "which slipway does not know). Run the command to see it, and report it with the output of 'xcodebuild -version'.")
        #expect(try Snapshot.of(directory.path) == before)
    }

    @Test("the summary's counts and the test tree's must agree (one device and configuration)")
    func countsDisagree() async throws {
        let summary = #"{"totalTestCount":2,"passedTests":1,"failedTests":1,"skippedTests":0,"expectedFailures":0,"# +
            #""devicesAndConfigurations":[{"device":{"deviceName":"iPhone 16"}}]}"#
        let directory = try TemporaryDirectory()
        _ = try ResultFixtures.bundle(in: directory)
        let before = try Snapshot.of(directory.path)
        let (results, error, bundle, _) = try await read(tests: Self.testCase("Passed", ""), summary: summary, in: directory)
        #expect(results == nil)
        #expect(error?.localizedDescription == "Result bundle '\(bundle)': 'xcrun xcresulttool get test-results summary --path \(bundle) --format json' and "
            + "'xcrun xcresulttool get test-results tests --path \(bundle) --format json' disagree: the summary counts 2 tests (1 passed, 1 failed, "
            + "0 skipped, 0 expected failures), the test tree 1 test (1 passed, 0 failed, 0 skipped, 0 expected failures). slipway reports no counts "
            + "it cannot trust; run both commands to compare, and report them with the output of 'xcodebuild -version'.")
        #expect(try Snapshot.of(directory.path) == before)
        let agreeing = #"{"totalTestCount":1,"passedTests":1,"failedTests":0,"skippedTests":0,"expectedFailures":0}"#
        #expect(try await read(tests: Self.testCase("Passed", ""), summary: agreeing).0?.totals == TestResults.Totals(total: 1, passed: 1))
    }

    @Test("legacy: the same test in two test plan configurations is two tests, not a retry")
    func legacyConfigurations() throws {
        func plan(_ name: String, _ status: String) -> String {
            #"{"name":{"_value":"\#(name)"},"testableSummaries":{"_values":[{"targetName":{"_value":"AppTests"},"tests":{"_values":["#
                + #"{"identifier":{"_value":"Suite/testA()"},"name":{"_value":"testA()"},"testStatus":{"_value":"\#(status)"}}]}}]}}"#
        }
        let json = #"{"summaries":{"_values":["# + plan("English", "Failure") + "," + plan("German", "Success") + "]}}"
        let value = try JSONDecoder().decode(LegacyValue.self, from: Data(json.utf8))
        var configurations: [String] = []
        let tests = try LegacyResults.grouped(LegacyResults.leaves(value, configurations: &configurations)).map {
            try LegacyResults.result($0, failures: [], device: nil)
        }
        #expect(tests.map(\.outcome) == [.failed, .passed])
        #expect(configurations == ["English", "German"])
    }

    @Test("legacy: an unknown testStatus is an error naming its JSON path")
    func legacyUnknownStatus() throws {
        let json = #"{"summaries":{"_values":[{"testableSummaries":{"_values":[{"targetName":{"_value":"AppTests"},"tests":{"_values":["#
            + #"{"name":{"_value":"Suite"},"subtests":{"_values":[{"name":{"_value":"testA()"},"testStatus":{"_value":"Mixed"}}]}}]}}]}}]}}"#
        let value = try JSONDecoder().decode(LegacyValue.self, from: Data(json.utf8))
        var configurations: [String] = []
        let groups = LegacyResults.grouped(LegacyResults.leaves(value, configurations: &configurations))
        #expect(throws: TestNodeTree.Unreadable(path: "summaries[0].testableSummaries[0].tests[0].subtests[0].testStatus",
                                                reason: "test 'testA()' has the status 'Mixed', which slipway does not know")) {
            try LegacyResults.result(groups[0], failures: [], device: nil)
        }
    }

    @Test("legacy: a failed test's failures come from the record when its summary gives none; the URL's 0-based line is made 1-based")
    func legacyRecordFailures() throws {
        let record = #"{"issues":{"testFailureSummaries":{"_values":[{"testCaseName":{"_value":"Suite.testA()"},"message":{"_value":"boom"},"#
            + #""documentLocationInCreatingWorkspace":{"url":{"_value":"file:///ci/My%20App/ATests.swift#CharacterRangeLen=0&EndingLineNumber=40&StartingLineNumber=40"}}},"#
            + #"{"testCaseName":{"_value":"-[Suite testB]"},"message":{"_value":"objc"}}]}}}"#
        let failures = LegacyResults.recordFailures(try JSONDecoder().decode(LegacyValue.self, from: Data(record.utf8)))
        func leaf(_ name: String) -> LegacyResults.Leaf {
            LegacyResults.Leaf(identifier: TestResult.Identifier(bundle: "AppTests", suite: "Suite", name: name), key: name, status: "Failure", path: "")
        }
        #expect(LegacyResults.failures(of: leaf("testA()"), in: failures) == [TestResult.Failure(message: "boom", file: "/ci/My App/ATests.swift", line: 41)])
        #expect(LegacyResults.failures(of: leaf("testB"), in: failures) == [TestResult.Failure(message: "objc")])
        #expect(LegacyResults.failures(of: leaf("testC()"), in: failures).isEmpty)
    }

    @Test("output without a test tree, or a tree with no test where the summary counts some, never reads as 0 tests")
    func neverZero() async throws {
        let (none, error, bundle, _) = try await read(tests: #"{"devices":[]}"#)
        #expect(none == nil)
        #expect(error as? ResultBundleError == .malformedOutput(path: bundle, command: "xcrun xcresulttool get test-results tests --path \(bundle) --format json",
                                                               reason: "no 'testNodes' at the top level"))
        let twoDevices = #"{"totalTestCount":4,"devicesAndConfigurations":[{"device":{"deviceName":"A"}},{"device":{"deviceName":"B"}}]}"#
        let (empty, disagree, other, _) = try await read(tests: #"{"testNodes":[{"nodeType":"Test Plan","name":"P","children":[]}]}"#, summary: twoDevices)
        #expect(empty == nil)
        #expect(disagree as? ResultBundleError == .countsDisagree(
            path: other, summary: "xcrun xcresulttool get test-results summary --path \(other) --format json",
            tests: "xcrun xcresulttool get test-results tests --path \(other) --format json", detail: "the summary counts 4 tests, the test tree none"))
    }

    @Test("legacy: a record that counts tests but leads to none is an error, not 0 tests")
    func legacyNeverZero() async throws {
        let directory = try TemporaryDirectory()
        let bundle = try ResultFixtures.bundle(in: directory)
        let record = #"raw:{"metrics":{"testsCount":{"_value":"12"}},"actions":{"_values":[{"actionResult":{"status":{"_value":"failed"}}}]}}"#
        let reader = ResultBundleReader(xcrun: ResultFixtures.xcrun(["record": record], failure: ResultFixtures.oldTool, refuse: ["summary"]))
        await #expect(throws: ResultBundleError.malformedOutput(path: bundle, command: "xcrun xcresulttool get --format json --path \(bundle)",
                                                                reason: "its 'metrics.testsCount' is 12, but no test was found under 'actions[].actionResult.testsRef'")) {
            try await reader.testResults(bundle: bundle)
        }
    }
}
