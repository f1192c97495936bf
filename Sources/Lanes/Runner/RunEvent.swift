import Basics
import Foundation
import TestReports
import Steps

/// One thing that happened during a run. The same events feed the terminal, the NDJSON events
/// file (`--events`), the JUnit report, GitHub Actions annotations and the run journal; each is
/// redacted before any of them sees it. The NDJSON schema is documented in docs/events.md.
public struct RunEvent: Codable, Sendable, Hashable {
    /// The kind of event.
    public enum Kind: String, Codable, Sendable {
        case laneStarted = "lane.started"
        case laneFinished = "lane.finished"
        case stepStarted = "step.started"
        case stepFinished = "step.finished"
        case output
        case log
        case progress
        case plan
        /// Test results a step read (`tests`): for JUnit reports and annotations.
        case tests
    }

    public var event: Kind
    /// ISO 8601 time with milliseconds.
    public var time: String
    public var lane: String
    public var file: String?
    public var step: String?
    public var stepKind: String?
    public var name: String?
    /// 1-based position and count in the step's section (`steps` or `finally`).
    public var index: Int?
    public var total: Int?
    public var section: String?
    public var parallelGroup: String?
    public var attempt: Int?
    public var stream: String?
    public var line: String?
    public var level: String?
    public var message: String?
    public var fraction: Double?
    public var status: String?
    /// Seconds.
    public var duration: Double?
    public var error: String?
    public var outputs: [String: String]?
    public var effects: [String]?
    /// With `tests`: one entry per test.
    public var tests: [JUnitTestCase]?
    public var dryRun: Bool?
    /// Where the step is written in the lane file (for annotations).
    public var sourceLine: Int?
    public var sourceColumn: Int?

    /// An event of `kind` for `lane`, stamped now.
    public init(_ kind: Kind, lane: String, step: String? = nil) {
        self.event = kind
        self.time = RunEvent.timestamp()
        self.lane = lane
        self.step = step
    }


    /// `2026-11-24T19:45:12.345Z`: what `ISO8601DateFormatter` writes with fractional seconds,
    /// made by hand. Every line of step output is an event; a formatter per event (ICU set-up
    /// each time) held the runner to about 1 MB/s of output.
    static func timestamp(_ date: Date = Date()) -> String {
        let interval = date.timeIntervalSince1970
        var seconds = time_t(interval.rounded(.down))
        let millis = min(999, max(0, Int(((interval - Double(seconds)) * 1000).rounded(.down))))
        var parts = tm()
        gmtime_r(&seconds, &parts)
        func padded(_ value: Int32, _ width: Int) -> String {
            let digits = String(value)
            return String(repeating: "0", count: max(0, width - digits.count)) + digits
        }
        return padded(parts.tm_year + 1900, 4) + "-" + padded(parts.tm_mon + 1, 2) + "-" + padded(parts.tm_mday, 2)
            + "T" + padded(parts.tm_hour, 2) + ":" + padded(parts.tm_min, 2) + ":" + padded(parts.tm_sec, 2)
            + "." + padded(Int32(millis), 3) + "Z"
    }

    /// The event with every string masked by `redactor`.
    func redacted(by redactor: Redactor) -> RunEvent {
        guard !redactor.isEmpty else { return self }
        var copy = self
        copy.line = line.map(redactor.redact)
        copy.message = message.map(redactor.redact)
        copy.error = error.map(redactor.redact)
        copy.outputs = outputs.map(redactor.redact)
        copy.effects = effects?.map(redactor.redact)
        copy.name = name.map(redactor.redact)
        copy.tests = tests?.map { $0.redacted(by: redactor) }
        return copy
    }
}

/// How a step ended.
public enum StepStatus: String, Codable, Sendable, Hashable {
    case succeeded
    case failed
    case skipped
    case timedOut = "timed-out"
    case cancelled
    /// Planned in a dry run.
    case planned
    /// Done in an earlier run; its outputs were reused (`--resume`, `--from`).
    case reused

    /// True for statuses that count as a failure of the lane (unless continue-on-error).
    public var isFailure: Bool { self == .failed || self == .timedOut }
}

/// The result of one step.
public struct StepResult: Sendable, Hashable, Codable {
    public var id: String
    public var kind: String
    public var name: String
    public var section: String
    public var status: StepStatus
    public var duration: Double
    public var attempts: Int
    public var error: String?
    public var outputs: [String: String]
    /// True when the step failed but had `continue-on-error: true`.
    public var continuedOnError: Bool
    /// The paths (relative to the project) its `artifacts:` patterns matched after it succeeded.
    public var artifacts: [String] = []
}

/// The outcome of a lane run.
public struct RunSummary: Sendable {
    /// How the lane ended.
    public enum Status: String, Sendable, Codable {
        case succeeded, failed, cancelled
    }

    public var lane: String
    public var file: String
    public var status: Status
    public var duration: Double
    public var steps: [StepResult]
    public var isDryRun: Bool
    public var runID: String
}

extension RunSummary {
    /// The summary with every step's name, error, outputs and artifacts masked by `redactor`.
    func redacted(by redactor: Redactor) -> RunSummary {
        guard !redactor.isEmpty else { return self }
        var copy = self
        copy.steps = steps.map { step in
            var step = step
            step.name = redactor.redact(step.name)
            step.error = step.error.map(redactor.redact)
            step.outputs = redactor.redact(step.outputs)
            step.artifacts = step.artifacts.map(redactor.redact)
            return step
        }
        return copy
    }
}

extension JUnitTestCase {
    /// The test case with every string masked by `redactor`.
    func redacted(by redactor: Redactor) -> JUnitTestCase {
        var copy = self
        copy.className = redactor.redact(className)
        copy.name = redactor.redact(name)
        copy.file = file.map(redactor.redact)
        switch outcome {
        case .passed: break
        case .failed(let message, let details):
            copy.outcome = .failed(message: redactor.redact(message), details: redactor.redact(details))
        case .skipped(let message):
            copy.outcome = .skipped(message: message.map(redactor.redact))
        case .flaky(let runs, let details):
            copy.outcome = .flaky(failedRuns: runs, details: redactor.redact(details))
        }
        return copy
    }
}
