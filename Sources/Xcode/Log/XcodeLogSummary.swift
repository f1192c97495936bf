import Basics
import TestReports

/// What a log amounts to, accumulated event by event: counts of errors and warnings, every test
/// run, the failures with their places, the result lines seen, and the test frameworks' own
/// totals to check the counts against (`totalsMismatches`). Its size grows with the number of
/// tests, not with the log's length; with a `JUnitCaseSpool` (`slipway xcode log`) the test
/// cases are kept in temporary files and memory stays flat (the last `recentCapacity` tests are
/// remembered by name, for folding an announced repetition; older ones are looked up in the spool).
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
    /// The test cases, once each, in first-seen order, as JUnit writes them (read back from the
    /// spool when there is one).
    public var testCases: [JUnitTestCase] { spool?.cases() ?? memoryCases }
    /// The number of test cases.
    public private(set) var testCount = 0
    private var memoryCases: [JUnitTestCase] = []
    /// Where the cases go instead of `memoryCases`.
    public let spool: JUnitCaseSpool?
    /// Cases by outcome (passed, failed, skipped, flaky) and Swift Testing's share.
    private var outcomes = [0, 0, 0, 0]
    private var swiftTestingCount = 0
    /// The totals of the last test run line, when there was one.
    public private(set) var lastTestRun: XcodeLogEvent.TestRun?

    /// Memory: every test's last case by key. Spool: the last `recentCapacity` tests' cases.
    private var index: [String: Int] = [:]
    private var recentOrder: [(key: String, number: Int)] = []
    private var recentNext = 0
    static let recentCapacity = 4096
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

    /// An empty summary that keeps its test cases in memory.
    public init() { spool = nil }

    /// An empty summary that keeps its test cases in `spool`.
    public init(spool: JUnitCaseSpool) { self.spool = spool }

    /// Tests that passed (flaky ones included).
    public var testsPassed: Int { outcomes[0] + outcomes[3] }
    /// Tests whose last run failed.
    public var testsFailed: Int { outcomes[1] }
    public var testsSkipped: Int { outcomes[2] }
    /// Tests that failed and then passed on a retry.
    public var testsFlaky: Int { outcomes[3] }
    /// Test cases of Swift Testing (`swiftTestingClass`).
    var swiftTestingCases: Int { swiftTestingCount }

    /// Why the spool is incomplete, when it is.
    public var spoolFailure: String? { spool?.failure }

    /// Writes the JUnit report of the test cases to `path` (streamed from the spool when there
    /// is one, else `JUnitXML.render` through `fileSystem`).
    public func writeJUnit(name: String, to path: String, fileSystem: any FileSystem) throws {
        if let spool {
            try spool.writeJUnit(name: name, to: path)
        } else {
            try fileSystem.writeAtomically(JUnitXML.render(memoryCases, name: name), to: path)
        }
    }

    /// Whether the log shows a failure: a FAILED result line, an error, a test that failed
    /// without passing on an announced retry, or a framework's totals that differ from the counts.
    public var failed: Bool {
        results.contains { !$0.succeeded } || errors > 0 || testsFailed > 0 || !totalsMismatches.isEmpty
    }

    private static func slot(_ outcome: JUnitTestCase.Outcome) -> Int {
        switch outcome {
        case .passed: 0
        case .failed: 1
        case .skipped: 2
        case .flaky: 3
        }
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
        let className = test.suite ?? Self.swiftTestingClass
        guard announced, let existing = earlierCase(key, className: className, name: test.name),
              var folded = spool == nil ? memoryCases[existing] : spool?.testCase(existing) else {
            let number = testCount
            let added = JUnitTestCase(className: className, name: test.name, duration: test.duration, outcome: outcome)
            if let spool { spool.append(added) } else { memoryCases.append(added) }
            testCount += 1
            outcomes[Self.slot(outcome)] += 1
            if className == Self.swiftTestingClass { swiftTestingCount += 1 }
            remember(key, number)
            return
        }
        outcomes[Self.slot(folded.outcome)] -= 1
        folded.duration = test.duration
        folded.outcome = Self.retried(folded.outcome, then: outcome)
        outcomes[Self.slot(folded.outcome)] += 1
        if let spool { spool.replace(existing, with: folded) } else { memoryCases[existing] = folded }
    }

    /// The number of the last case of the test `key`, for folding a repetition into it.
    private func earlierCase(_ key: String, className: String, name: String) -> Int? {
        if let number = index[key] { return number }
        return spool?.lastCase(className: className, name: name)
    }

    /// Notes the last case of `key`: every test in memory, the last `recentCapacity` with a spool.
    private mutating func remember(_ key: String, _ number: Int) {
        index[key] = number
        guard spool != nil else { return }
        if recentOrder.count < Self.recentCapacity {
            recentOrder.append((key, number))
        } else {
            let evicted = recentOrder[recentNext]
            if index[evicted.key] == evicted.number { index.removeValue(forKey: evicted.key) }
            recentOrder[recentNext] = (key, number)
            recentNext = (recentNext + 1) % Self.recentCapacity
        }
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
