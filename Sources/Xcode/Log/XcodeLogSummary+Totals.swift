/// The totals check: where the log carries a test framework's own totals (XCTest's
/// `Executed N tests, with M failures` after its outermost suite, Swift Testing's
/// `Test run with N tests ... with M issues`), the formatter's counts must equal them. A mismatch
/// means lines the formatter did not understand; it is reported and makes the summary a failure,
/// never a silent pass.
extension XcodeLogSummary {
    /// What the formatter counted and what the frameworks reported, per framework.
    struct Tally: Sendable {
        /// A number of tests and of failures (XCTest) or issues (Swift Testing).
        struct Counts: Sendable, Hashable {
            var tests = 0
            var failures = 0

            static func + (lhs: Counts, rhs: Counts) -> Counts {
                Counts(tests: lhs.tests + rhs.tests, failures: lhs.failures + rhs.failures)
            }
        }

        /// The frameworks' totals; nil where the log carries none.
        struct Reported: Sendable {
            var xctest: Counts?
            var swiftTesting: Counts?
        }

        var xctestFailures = 0, xctestRepeats = 0
        var swiftTestingIssues = 0, swiftTestingRepeats = 0
    }

    /// One framework whose totals the formatter's counts do not match.
    public struct TotalsMismatch: Sendable, Hashable, Codable {
        /// `XCTest` or `Swift Testing`.
        public var framework: String
        public var reportedTests: Int
        public var reportedFailures: Int
        public var countedTests: Int
        public var countedFailures: Int

        public init(framework: String, reportedTests: Int, reportedFailures: Int, countedTests: Int, countedFailures: Int) {
            self.framework = framework
            self.reportedTests = reportedTests
            self.reportedFailures = reportedFailures
            self.countedTests = countedTests
            self.countedFailures = countedFailures
        }

        /// The line the formatter prints (after a `⚠️ `) and the reason the summary fails.
        public var message: String {
            let word = framework == "XCTest" ? "failure" : "issue"
            return "\(framework) reported \(Self.plural(reportedTests, "test")) and \(Self.plural(reportedFailures, word)), "
                + "but the formatter counted \(Self.plural(countedTests, "test")) and \(Self.plural(countedFailures, word)): "
                + "the log has test lines the formatter did not recognise, or totals that leave runs out (after a restart). "
                + "Read the raw log or the result bundle before trusting either count."
        }

        static func plural(_ count: Int, _ word: String) -> String { "\(count) \(word)\(count == 1 ? "" : "s")" }
    }

    /// XCTest's totals as the log printed them (the outermost suites' `Executed` lines, summed), nil without any.
    public var reportedXCTestTotals: (tests: Int, failures: Int)? { reported.xctest.map { ($0.tests, $0.failures) } }
    /// Swift Testing's totals as the log printed them (its run lines, summed), nil without any.
    public var reportedSwiftTestingTotals: (tests: Int, failures: Int)? { reported.swiftTesting.map { ($0.tests, $0.failures) } }

    /// The frameworks whose totals differ from the formatter's answer: the tests it reports (its
    /// JUnit cases, so a wrong fold shows) and the failure or issue lines it read. A test whose
    /// repetition was announced is one case; xcodebuild's count may include every run or only the
    /// last (which one is not documented), so both match.
    public var totalsMismatches: [TotalsMismatch] {
        var found: [TotalsMismatch] = []
        let checks: [(String, Tally.Counts?, Int, Int, Int)] = [
            ("XCTest", reported.xctest, testCount - swiftTestingCases, counted.xctestFailures, counted.xctestRepeats),
            ("Swift Testing", reported.swiftTesting, swiftTestingCases, counted.swiftTestingIssues, counted.swiftTestingRepeats),
        ]
        for (framework, reported, tests, failures, repeats) in checks {
            guard let reported else { continue }
            let testsMatch = reported.tests == tests || reported.tests == tests + repeats
            if !testsMatch || reported.failures != failures {
                found.append(.init(framework: framework, reportedTests: reported.tests, reportedFailures: reported.failures,
                                   countedTests: tests, countedFailures: failures))
            }
        }
        return found
    }
}
