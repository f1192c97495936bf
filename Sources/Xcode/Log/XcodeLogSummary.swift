import TestReports

/// What a log amounts to, accumulated event by event: counts of errors and warnings, every test
/// run, the failures with their places, the result lines seen, and the test frameworks' own
/// totals to check the counts against (`totalsMismatches`). Its size grows with the number of
/// tests, not with the log's length.
///
/// Runs are folded into one test only where xcodebuild announced a repetition of that test
/// (`XcodeLogEvent.testRepeat`): a test that failed and then passed on an announced retry is
/// flaky. Same-named runs without such a line (Quick's shared examples, two destinations) stay
/// separate tests, so a failure among them is never hidden.
public struct XcodeLogSummary: Sendable {
    /// Failure messages kept for the summary (the JUnit cases keep theirs regardless).
    public static let maxFailures = 1000

    /// Error diagnostics, linker errors and `xcodebuild: error:` lines.
    public private(set) var errors = 0
    public private(set) var warnings = 0
    /// The first `maxErrorMessages` errors, with their places (`File.swift:3:7: message`), for a
    /// step's failure message.
    public private(set) var errorMessages: [String] = []
    public static let maxErrorMessages = 20
    /// Test failures in the order seen (at most `maxFailures`).
    public private(set) var failures: [XcodeLogEvent.TestFailure] = []
    /// Every `** ACTION SUCCEEDED/FAILED **` line, in order.
    public private(set) var results: [XcodeLogEvent.Result] = []
    /// The test cases, once each, in first-seen order, as JUnit writes them.
    public private(set) var testCases: [JUnitTestCase] = []
    /// The totals of the last test run line, when there was one.
    public private(set) var lastTestRun: XcodeLogEvent.TestRun?

    private var index: [String: Int] = [:]
    /// Tests whose repetition was announced and whose next end folds into the earlier run.
    private var repeatAnnounced: Set<String> = []
    /// Counted by the formatter, per framework, for `totalsMismatches`.
    var counted = Tally()
    /// The frameworks' own totals: XCTest's top-level `Executed` lines, Swift Testing's run lines.
    var reported = Tally.Reported()
    /// XCTest suite nesting: the `Executed` line after the outermost suite's end is a total.
    private var suiteDepth = 0
    private var awaitingTopLevelTotals = false
    /// Failure details not yet claimed by their test case's end, by test.
    private var pendingDetails: [String: [String]] = [:]

    /// An empty summary.
    public init() {}

    /// Tests that passed (flaky ones included).
    public var testsPassed: Int { count { if case .passed = $0 { true } else if case .flaky = $0 { true } else { false } } }
    /// Tests whose last run failed.
    public var testsFailed: Int { count { if case .failed = $0 { true } else { false } } }
    public var testsSkipped: Int { count { if case .skipped = $0 { true } else { false } } }
    /// Tests that failed and then passed on a retry.
    public var testsFlaky: Int { count { if case .flaky = $0 { true } else { false } } }

    /// Whether the log shows a failure: a FAILED result line, an error, a test that failed
    /// without passing on an announced retry, or a framework's totals that differ from the counts.
    public var failed: Bool {
        results.contains { !$0.succeeded } || errors > 0 || testsFailed > 0 || !totalsMismatches.isEmpty
    }

    private func count(_ matches: (JUnitTestCase.Outcome) -> Bool) -> Int {
        testCases.reduce(0) { $0 + (matches($1.outcome) ? 1 : 0) }
    }

    /// Takes one event into account.
    public mutating func add(_ event: XcodeLogEvent) {
        switch event {
        case .diagnostic(let diagnostic):
            if diagnostic.severity == .error {
                errors += 1
                noteError((diagnostic.location.map { $0 + ": " } ?? "") + diagnostic.message)
            } else if diagnostic.severity == .warning {
                warnings += 1
            }
        case .linkerError(let linker):
            errors += 1
            noteError(([linker.message] + linker.details.prefix(3)).joined(separator: " "))
        case .xcodebuildError(let message):
            errors += 1
            noteError("xcodebuild: " + message)
        case .testFailure(let failure):
            if failure.suite == nil { counted.swiftTestingIssues += 1 } else { counted.xctestFailures += 1 }
            if failures.count < Self.maxFailures { failures.append(failure) }
            let place = Self.fileName(failure.file) + (failure.line.map { ":\($0)" } ?? "")
            pendingDetails[Self.key(failure.suite, failure.name), default: []].append(place + ": " + failure.message)
        case .testCase(let test):
            record(test)
        case .testRepeat(let repeated):
            repeatAnnounced.insert(Self.key(repeated.suite, repeated.name))
            if repeated.suite == nil { counted.swiftTestingRepeats += 1 } else { counted.xctestRepeats += 1 }
        case .testSuite(let suite):
            if suite.status == .started {
                suiteDepth += 1
            } else {
                suiteDepth = max(0, suiteDepth - 1)
                awaitingTopLevelTotals = suiteDepth == 0
            }
        case .testRun(let run):
            lastTestRun = run
            noteTotals(run)
        case .result(let result):
            results.append(result)
        case .step, .testRestart:
            break
        }
    }

    /// Swift Testing's run line is always a total; XCTest's `Executed` line only after the
    /// outermost suite's end (each nested suite prints its own).
    private mutating func noteTotals(_ run: XcodeLogEvent.TestRun) {
        if run.unexpected == nil {
            reported.swiftTesting = (reported.swiftTesting ?? .init()) + .init(tests: run.tests, failures: run.failures)
        } else if awaitingTopLevelTotals {
            awaitingTopLevelTotals = false
            reported.xctest = (reported.xctest ?? .init()) + .init(tests: run.tests, failures: run.failures)
        }
    }

    private mutating func noteError(_ message: String) {
        if errorMessages.count < Self.maxErrorMessages { errorMessages.append(message) }
    }

    private mutating func record(_ test: XcodeLogEvent.TestCase) {
        let key = Self.key(test.suite, test.name)
        let details = (pendingDetails.removeValue(forKey: key) ?? []).joined(separator: "\n")
        let outcome: JUnitTestCase.Outcome
        switch test.status {
        case .passed: outcome = .passed
        case .skipped: outcome = .skipped(message: nil)
        case .failed:
            let message = details.split(separator: "\n", maxSplits: 1).first.map(String.init) ?? "failed"
            outcome = .failed(message: message, details: details)
        }
        let announced = repeatAnnounced.remove(key) != nil
        guard let existing = index[key], announced else {
            index[key] = testCases.count
            testCases.append(JUnitTestCase(className: test.suite ?? Self.swiftTestingClass, name: test.name, duration: test.duration,
                                           outcome: outcome))
            return
        }
        testCases[existing].duration = test.duration
        testCases[existing].outcome = Self.retried(testCases[existing].outcome, then: outcome)
    }

    /// A test's outcome after another run of it.
    static func retried(_ before: JUnitTestCase.Outcome, then after: JUnitTestCase.Outcome) -> JUnitTestCase.Outcome {
        switch (before, after) {
        case (.failed(_, let details), .passed): return .flaky(failedRuns: 1, details: details)
        case (.flaky(let runs, let details), .passed): return .flaky(failedRuns: runs, details: details)
        case (.flaky(let runs, let details), .failed(let message, let more)):
            return .failed(message: message, details: [details, more].filter { !$0.isEmpty }.joined(separator: "\n") + "\n(\(runs + 1) failed runs)")
        default: return after
        }
    }

    /// The JUnit class of Swift Testing's tests, whose lines name no suite.
    static let swiftTestingClass = "Swift Testing"

    static func key(_ suite: String?, _ name: String) -> String { (suite ?? "") + "\u{0}" + name }

    static func fileName(_ path: String) -> String {
        guard let slash = path.lastIndex(of: "/") else { return path }
        return String(path[path.index(after: slash)...])
    }
}
