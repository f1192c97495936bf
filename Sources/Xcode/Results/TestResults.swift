import Foundation

/// The tests of one `xcodebuild test` run as read from its result bundle (`ResultBundleReader`):
/// counts, durations, the devices and test-plan configurations seen, and every test's outcome.
public struct TestResults: Sendable, Hashable, Codable {
    /// How many tests ended which way. A test that ran on two devices counts twice;
    /// `total == passed + failed + skipped + expectedFailures`.
    public struct Totals: Sendable, Hashable, Codable {
        public var total = 0
        public var passed = 0
        public var failed = 0
        public var skipped = 0
        public var expectedFailures = 0
        /// Failed at least once, then passed on a retry: counted in `passed` too, as Xcode does.
        public var flaky = 0

        public init(total: Int = 0, passed: Int = 0, failed: Int = 0, skipped: Int = 0, expectedFailures: Int = 0, flaky: Int = 0) {
            self.total = total
            self.passed = passed
            self.failed = failed
            self.skipped = skipped
            self.expectedFailures = expectedFailures
            self.flaky = flaky
        }

        /// The counts of `tests`.
        public init(counting tests: [TestResult]) {
            total = tests.count
            for test in tests {
                switch test.outcome {
                case .passed: passed += 1
                case .failed: failed += 1
                case .skipped: skipped += 1
                case .expectedFailure: expectedFailures += 1
                case .flaky:
                    passed += 1
                    flaky += 1
                }
            }
        }
    }

    public var totals: Totals
    /// The run's wall-clock seconds (the bundle's start to finish when known, otherwise the
    /// sum of the tests' durations).
    public var duration: Double
    /// Device names seen (`iPhone 16 Pro (18.2)`), in first-seen order.
    public var devices: [String]
    /// Test-plan configuration names seen, in first-seen order.
    public var configurations: [String]
    public var tests: [TestResult]

    /// Results whose totals are counted from `tests`.
    public init(tests: [TestResult], duration: Double? = nil, devices: [String] = [], configurations: [String] = []) {
        self.tests = tests
        self.totals = Totals(counting: tests)
        self.duration = duration ?? tests.reduce(0) { $0 + ($1.duration ?? 0) }
        self.devices = devices
        self.configurations = configurations
    }

    /// The failures worth a CI annotation: those of failed tests (not of flaky or expected ones).
    public var failedTests: [TestResult] { tests.filter { $0.outcome == .failed } }
}

/// One test's result (on one device, when the run used several).
public struct TestResult: Sendable, Hashable, Codable {
    /// Where a test lives: `AppTests` › `LoginTests` › `testLogin()`.
    public struct Identifier: Sendable, Hashable, Codable {
        /// The test bundle (target), e.g. `AppTests`; empty when unknown.
        public var bundle: String
        /// The suite or XCTestCase class; nested Swift Testing suites are joined with `.`.
        public var suite: String
        /// The test's name, e.g. `testLogin()` or `addition(_:_:)`.
        public var name: String

        public init(bundle: String, suite: String, name: String) {
            self.bundle = bundle
            self.suite = suite
            self.name = name
        }
    }

    /// How a test ended.
    public enum Outcome: String, Sendable, Hashable, Codable {
        case passed, failed, skipped, expectedFailure, flaky
    }

    /// One failure (an assertion, an issue, a crash), with its source location when known.
    public struct Failure: Sendable, Hashable, Codable {
        public var message: String
        /// The file as the bundle names it (a bare name for Xcode 16, a path for Xcode 15).
        public var file: String?
        public var line: Int?

        public init(message: String, file: String? = nil, line: Int? = nil) {
            self.message = message
            self.file = file
            self.line = line
        }

        /// `File.swift:42: message`, or the message alone.
        public var described: String {
            guard let file else { return message }
            return file + (line.map { ":\($0)" } ?? "") + ": " + message
        }
    }

    public var identifier: Identifier
    public var outcome: Outcome
    /// Seconds, when known.
    public var duration: Double?
    public var failures: [Failure]
    /// How many times the test ran (repetitions or retries); 1 without them.
    public var runs: Int
    /// The device it ran on, when the bundle says.
    public var device: String?

    public init(identifier: Identifier, outcome: Outcome, duration: Double? = nil, failures: [Failure] = [], runs: Int = 1, device: String? = nil) {
        self.identifier = identifier
        self.outcome = outcome
        self.duration = duration
        self.failures = failures
        self.runs = runs
        self.device = device
    }
}
