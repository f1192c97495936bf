/// One thing `xcodebuild` reported, recognised in its log by `XcodeLogParser`: a build step, a
/// compiler or linker diagnostic, a test event or the final result line. Encoded as one flat JSON
/// object with an `event` key (`slipway xcode log --json` prints one per line).
public enum XcodeLogEvent: Sendable, Hashable {
    /// A build step started (`SwiftCompile`, `Ld`, `CodeSign`...).
    case step(BuildStep)
    /// A compiler diagnostic (`file:line:col: error: message`) or a bare `error:`/`warning:` line.
    case diagnostic(Diagnostic)
    /// A linker failure: `Undefined symbols for architecture X:` with its symbols,
    /// `ld: ...` or `clang: error: linker command failed ...`.
    case linkerError(LinkerError)
    /// `xcodebuild: error: ...` (a bad scheme, destination or argument).
    case xcodebuildError(message: String)
    /// `Test Suite 'Name' started/passed/failed at ...`.
    case testSuite(TestSuite)
    /// A test ended: XCTest's `Test Case '...' passed (...)`, its parallel-testing form, or a
    /// Swift Testing `✔ Test name() passed after ...` line.
    case testCase(TestCase)
    /// Why a test failed, with the place (`File.swift:42: error: -[Class test] : message`, or
    /// Swift Testing's `recorded an issue at File.swift:12:5: ...`).
    case testFailure(TestFailure)
    /// The totals of a test run (`Executed N tests, with M failures ...`, or Swift Testing's
    /// `Test run with N tests passed/failed after ...`).
    case testRun(TestRun)
    /// `Restarting after unexpected exit, crash, or test timeout in ...`.
    case testRestart(message: String)
    /// xcodebuild runs a test again because it was told to repeat it: XCTest's
    /// `Test Case '-[C t]' started (Iteration 2 of 3).` or Swift Testing's
    /// `◇ Test t() started (repetition 2).`. Only after this may a same-named run fold into the
    /// earlier one (see `XcodeLogSummary`).
    case testRepeat(TestRepeat)
    /// The final `** ACTION SUCCEEDED **` / `** ACTION FAILED **` line.
    case result(Result)
}

extension XcodeLogEvent {
    /// A build step and what it works on.
    public struct BuildStep: Sendable, Hashable, Codable {
        /// The kinds of steps recognised, named after `xcodebuild`'s own words.
        public enum Kind: String, Sendable, Hashable, Codable, CaseIterable {
            case compileSwift, compileC, emitSwiftModule, compileAssetCatalog, compileStoryboard, compileXIB
            case processInfoPlist, copySwiftLibs, link, codeSign, runScript, processProductPackaging
            case generateDSYM, touch, createUniversalBinary, libtool
        }

        public var kind: Kind
        /// The file, product or phase name the step is about (`View.swift`, `App`, `SwiftLint`).
        public var subject: String
        /// The target from `(in target 'App' from project 'App')`, when the line has one.
        public var target: String?

        public init(_ kind: Kind, subject: String, target: String? = nil) {
            self.kind = kind
            self.subject = subject
            self.target = target
        }
    }

    /// A compiler diagnostic; `sourceLine`/`caretLine` are the two lines clang and swiftc print
    /// under it (the code and the `^~~` that points into it).
    public struct Diagnostic: Sendable, Hashable, Codable {
        public enum Severity: String, Sendable, Hashable, Codable { case error, warning, note }

        public var severity: Severity
        public var file: String?
        public var line: Int?
        public var column: Int?
        public var message: String
        public var sourceLine: String?
        public var caretLine: String?

        public init(_ severity: Severity, file: String? = nil, line: Int? = nil, column: Int? = nil, message: String,
                    sourceLine: String? = nil, caretLine: String? = nil) {
            self.severity = severity
            self.file = file
            self.line = line
            self.column = column
            self.message = message
            self.sourceLine = sourceLine
            self.caretLine = caretLine
        }

        /// `file:line:col`, as much of it as is known (nil without a file).
        public var location: String? {
            guard let file else { return nil }
            return file + (line.map { ":\($0)" } ?? "") + (column.map { ":\($0)" } ?? "")
        }
    }

    /// A linker error; `details` are the indented lines under `Undefined symbols ...:`
    /// (the symbols and where they are referenced from), trimmed.
    public struct LinkerError: Sendable, Hashable, Codable {
        public var message: String
        public var details: [String]

        public init(message: String, details: [String] = []) {
            self.message = message
            self.details = details
        }
    }

    /// A test suite's start or end.
    public struct TestSuite: Sendable, Hashable, Codable {
        /// `finished` is older XCTest's end of a suite (Xcode 5: `Test Suite '...' finished at ...`).
        public enum Status: String, Sendable, Hashable, Codable { case started, passed, failed, finished }

        public var name: String
        public var status: Status

        public init(name: String, status: Status) {
            self.name = name
            self.status = status
        }
    }

    /// How a test case ended.
    public enum TestStatus: String, Sendable, Hashable, Codable { case passed, failed, skipped }

    /// A test case's end. `suite` is the class (`AppTests.LoginTests`), nil for Swift Testing,
    /// whose lines do not name it; `device` is the parallel-testing clone it ran on.
    public struct TestCase: Sendable, Hashable, Codable {
        public var suite: String?
        public var name: String
        public var status: TestStatus
        public var duration: Double?
        public var device: String?

        public init(suite: String?, name: String, status: TestStatus, duration: Double? = nil, device: String? = nil) {
            self.suite = suite
            self.name = name
            self.status = status
            self.duration = duration
            self.device = device
        }
    }

    /// A test's failure message and where it was raised.
    public struct TestFailure: Sendable, Hashable, Codable {
        public var suite: String?
        public var name: String
        public var file: String
        public var line: Int?
        public var column: Int?
        public var message: String

        public init(suite: String?, name: String, file: String, line: Int?, column: Int? = nil, message: String) {
            self.suite = suite
            self.name = name
            self.file = file
            self.line = line
            self.column = column
            self.message = message
        }
    }

    /// A test run's totals, as the test framework printed them.
    public struct TestRun: Sendable, Hashable, Codable {
        public var tests: Int
        public var failures: Int
        /// XCTest's "(K unexpected)"; nil for Swift Testing.
        public var unexpected: Int?
        public var duration: Double?

        public init(tests: Int, failures: Int, unexpected: Int? = nil, duration: Double? = nil) {
            self.tests = tests
            self.failures = failures
            self.unexpected = unexpected
            self.duration = duration
        }
    }

    /// A test's announced repetition (the second run or later).
    public struct TestRepeat: Sendable, Hashable, Codable {
        /// The XCTest class, nil for Swift Testing.
        public var suite: String?
        public var name: String
        /// 2 for the first repetition.
        public var iteration: Int
        /// XCTest's `of N`, nil when the line does not say.
        public var of: Int?

        public init(suite: String?, name: String, iteration: Int, of: Int? = nil) {
            self.suite = suite
            self.name = name
            self.iteration = iteration
            self.of = of
        }
    }

    /// The final result line of an action (`BUILD`, `TEST`, `ARCHIVE`, `EXPORT`, `TEST EXECUTE`...).
    public struct Result: Sendable, Hashable, Codable {
        public var action: String
        public var succeeded: Bool

        public init(action: String, succeeded: Bool) {
            self.action = action
            self.succeeded = succeeded
        }
    }
}

extension XcodeLogEvent: Codable {
    private enum Tag: String, Codable {
        case step, diagnostic, linkerError, xcodebuildError, testSuite, testCase, testFailure, testRun, testRestart, testRepeat, result
    }

    private enum Keys: String, CodingKey { case event, message }

    /// The flat form: the payload's fields next to `"event": "<case>"`.
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: Keys.self)
        switch self {
        case .step(let value): try container.encode(Tag.step, forKey: .event); try value.encode(to: encoder)
        case .diagnostic(let value): try container.encode(Tag.diagnostic, forKey: .event); try value.encode(to: encoder)
        case .linkerError(let value): try container.encode(Tag.linkerError, forKey: .event); try value.encode(to: encoder)
        case .xcodebuildError(let message):
            try container.encode(Tag.xcodebuildError, forKey: .event)
            try container.encode(message, forKey: .message)
        case .testSuite(let value): try container.encode(Tag.testSuite, forKey: .event); try value.encode(to: encoder)
        case .testCase(let value): try container.encode(Tag.testCase, forKey: .event); try value.encode(to: encoder)
        case .testFailure(let value): try container.encode(Tag.testFailure, forKey: .event); try value.encode(to: encoder)
        case .testRun(let value): try container.encode(Tag.testRun, forKey: .event); try value.encode(to: encoder)
        case .testRestart(let message):
            try container.encode(Tag.testRestart, forKey: .event)
            try container.encode(message, forKey: .message)
        case .testRepeat(let value): try container.encode(Tag.testRepeat, forKey: .event); try value.encode(to: encoder)
        case .result(let value): try container.encode(Tag.result, forKey: .event); try value.encode(to: encoder)
        }
    }

    /// Reads the flat form back.
    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: Keys.self)
        switch try container.decode(Tag.self, forKey: .event) {
        case .step: self = .step(try BuildStep(from: decoder))
        case .diagnostic: self = .diagnostic(try Diagnostic(from: decoder))
        case .linkerError: self = .linkerError(try LinkerError(from: decoder))
        case .xcodebuildError: self = .xcodebuildError(message: try container.decode(String.self, forKey: .message))
        case .testSuite: self = .testSuite(try TestSuite(from: decoder))
        case .testCase: self = .testCase(try TestCase(from: decoder))
        case .testFailure: self = .testFailure(try TestFailure(from: decoder))
        case .testRun: self = .testRun(try TestRun(from: decoder))
        case .testRestart: self = .testRestart(message: try container.decode(String.self, forKey: .message))
        case .testRepeat: self = .testRepeat(try TestRepeat(from: decoder))
        case .result: self = .result(try Result(from: decoder))
        }
    }
}
