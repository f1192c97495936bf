import Foundation
import Xcode

/// Issue 12's figure for result bundles: decoding `xcresulttool get test-results tests` JSON of
/// 10,000 test cases (2% failing, 1% flaky through repetitions) and converting it to JUnit test
/// cases, annotations and the summary line. Target ≤ 100 ms.
enum XcresultBenchmark {
    static func run(_ arguments: [String]) async throws {
        let runs = Bench.option("--runs", arguments).flatMap(Int.init) ?? 9
        let count = Bench.option("--tests", arguments).flatMap(Int.init) ?? 10_000
        let tests = Data(testsJSON(count: count).utf8)
        let summary = Data("{\"title\":\"Bench\",\"startTime\":0,\"finishTime\":600,\"result\":\"Failed\"}".utf8)
        print("slipway-bench xcresult — medians of \(runs) runs, \(count) test cases, \(tests.count / 1024) KiB of JSON")
        let folder = NSTemporaryDirectory() + "slipway-bench-xcresult-\(UUID().uuidString).xcresult"
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let reader = ResultBundleReader { arguments in arguments.contains("summary") ? summary : tests }
        var line = ""
        let seconds = try await Bench.median(runs: runs) {
            let results = try await reader.testResults(bundle: folder)
            let cases = results.junitTestCases
            let annotations = results.githubAnnotations
            line = results.summaryLine
            guard cases.count == count, !annotations.isEmpty else { throw BenchError("unexpected results: \(line)") }
        }
        print("  " + line)
        Bench.report("decode + convert \(count) tests", Bench.ms(seconds), target: "≤ 100 ms")
    }

    /// A tests document: one bundle, 100 suites, `count` test cases.
    static func testsJSON(count: Int) -> String {
        var suites: [String] = []
        let perSuite = max(count / 100, 1)
        var made = 0
        var suite = 0
        while made < count {
            var cases: [String] = []
            for _ in 0..<min(perSuite, count - made) {
                cases.append(testCase(made, suite: suite))
                made += 1
            }
            suites.append("{\"nodeType\":\"Test Suite\",\"name\":\"Suite\(suite)Tests\",\"nodeIdentifier\":\"Suite\(suite)Tests\",\"result\":\"Passed\",\"children\":[\(cases.joined(separator: ","))]}")
            suite += 1
        }
        let bundle = "{\"nodeType\":\"Unit test bundle\",\"name\":\"AppTests\",\"result\":\"Failed\",\"children\":[\(suites.joined(separator: ","))]}"
        return "{\"devices\":[{\"deviceName\":\"iPhone 16\",\"osVersion\":\"18.2\"}],\"testPlanConfigurations\":[{\"configurationId\":\"1\",\"configurationName\":\"Test Scheme Action\"}],"
            + "\"testNodes\":[{\"nodeType\":\"Test Plan\",\"name\":\"App\",\"result\":\"Failed\",\"children\":[\(bundle)]}]}"
    }

    private static func testCase(_ index: Int, suite: Int) -> String {
        let head = "\"nodeType\":\"Test Case\",\"name\":\"testBehaviour\(index)()\",\"nodeIdentifier\":\"Suite\(suite)Tests/testBehaviour\(index)()\",\"duration\":\"0.0\(index % 10)s\",\"durationInSeconds\":0.0\(index % 10)"
        let failure = "{\"nodeType\":\"Failure Message\",\"name\":\"Suite\(suite)Tests.swift:\(index % 300 + 1): XCTAssertEqual failed: (\\\"\(index)\\\") is not equal to (\\\"\(index + 1)\\\")\",\"result\":\"Failed\"}"
        if index % 50 == 7 {
            return "{\(head),\"result\":\"Failed\",\"children\":[\(failure)]}"
        }
        if index % 100 == 13 {
            return "{\(head),\"result\":\"Passed\",\"children\":[{\"nodeType\":\"Repetition\",\"name\":\"Repetition 1\",\"result\":\"Failed\",\"children\":[\(failure)]},"
                + "{\"nodeType\":\"Repetition\",\"name\":\"Repetition 2\",\"result\":\"Passed\"}]}"
        }
        return "{\(head),\"result\":\"Passed\"}"
    }
}
