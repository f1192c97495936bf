import Basics
import Foundation
import TestReports

extension TestResults {
    /// One JUnit test case per result: the class name is `bundle.suite`, the name carries the
    /// device when the run used more than one; flaky tests become `.flaky`, expected failures pass.
    public var junitTestCases: [JUnitTestCase] {
        let manyDevices = Set(tests.compactMap(\.device)).count > 1
        return tests.map { test in
            let id = test.identifier
            let className = [id.bundle, id.suite].filter { !$0.isEmpty }.joined(separator: ".")
            let name = manyDevices ? id.name + (test.device.map { " [\($0)]" } ?? "") : id.name
            let details = test.failures.map(\.described).joined(separator: "\n")
            let outcome: JUnitTestCase.Outcome
            switch test.outcome {
            case .passed, .expectedFailure:
                outcome = .passed
            case .failed:
                outcome = .failed(message: test.failures.first?.message ?? "failed", details: details)
            case .skipped:
                outcome = .skipped(message: test.failures.first?.message)
            case .flaky:
                outcome = .flaky(failedRuns: max(test.runs - 1, 1), details: details)
            }
            let located = test.outcome == .failed ? test.failures.first { $0.file != nil } : nil
            return JUnitTestCase(className: className.isEmpty ? "Tests" : className, name: name, duration: test.duration,
                                 outcome: outcome, file: located?.file, line: located?.line)
        }
    }

    /// A GitHub Actions `::error` for each failure of each failed test, on its file and line
    /// when known (`file` is as the bundle gives it: a bare file name for Xcode 16 bundles,
    /// which GitHub places only when it is a path from the repository's root).
    public var githubAnnotations: [GitHubAnnotation] {
        failedTests.flatMap { test in
            let title = test.identifier.suite.isEmpty ? test.identifier.name : test.identifier.suite + "." + test.identifier.name
            let failures = test.failures.isEmpty ? [TestResult.Failure(message: "failed")] : test.failures
            return failures.map { failure in
                GitHubAnnotation(.error, failure.message, file: failure.file, line: failure.line,
                                 title: title + (test.device.map { " [\($0)]" } ?? ""))
            }
        }
    }

    /// `412 tests: 409 passed, 1 failed, 2 skipped, 1 flaky (passed on retry), 12.3 s`; counts
    /// that are zero are left out, except `passed`.
    public var summaryLine: String {
        var parts = ["\(totals.passed) passed"]
        if totals.failed > 0 { parts.append("\(totals.failed) failed") }
        if totals.skipped > 0 { parts.append("\(totals.skipped) skipped") }
        if totals.expectedFailures > 0 { parts.append("\(totals.expectedFailures) expected failure\(totals.expectedFailures == 1 ? "" : "s")") }
        if totals.flaky > 0 { parts.append("\(totals.flaky) flaky (passed on retry)") }
        parts.append(String(format: "%.1f s", duration))
        return "\(totals.total) test\(totals.total == 1 ? "" : "s"): " + parts.joined(separator: ", ")
    }
}
