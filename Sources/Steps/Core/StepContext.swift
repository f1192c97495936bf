import Basics
import Foundation
import TestReports

/// Where a step reports while it works. The runner implements it and turns each call into
/// an event (terminal, events file, JUnit), after redacting secrets.
public protocol StepEventSink: Sendable {
    /// A message for the user.
    func log(_ level: LogLevel, _ message: String)
    /// How far the step has got (`fraction` in 0...1, or nil when unknown).
    func progress(fraction: Double?, message: String)
    /// One line a child process wrote.
    func processOutput(_ stream: ProcessStream, line: String)
    /// Test results the step read (e.g. from a result bundle), for the lane's JUnit report
    /// (one test case per test) and GitHub annotations.
    func testResults(_ cases: [JUnitTestCase])
}

extension StepEventSink {
    /// Sinks that show no reports ignore test results.
    public func testResults(_ cases: [JUnitTestCase]) {}
}

/// The level of a log message.
public enum LogLevel: String, Sendable, Codable, CaseIterable {
    case debug, info, warning, error
}

/// Everything a step may use: no step reaches for globals, so every side effect can be
/// replaced in tests.
public struct StepContext: Sendable {
    /// The lane's name.
    public var laneName: String
    /// The step's id in the lane.
    public var stepID: String
    /// The directory the step works in (absolute).
    public var workingDirectory: String
    /// The project's root folder (absolute): what file patterns may not reach out of.
    public var projectDirectory: String
    /// The environment for child processes: the process's, the lane's `env`, the step's `env`.
    public var environment: Environment
    /// The file system.
    public var fileSystem: any FileSystem
    /// Runs child processes.
    public var processRunner: any ProcessRunner
    /// Where the step reports.
    public var events: any StepEventSink
    /// The network, waits and clock.
    public var services: StepServices
    /// The lane's inputs (for plugins, which receive them in their request).
    public var inputs: [String: String]
    /// Outputs of the steps that ran before this one, by step id.
    public var previousOutputs: [String: StepOutputs]
    /// True during `--dry-run`: only `plan` is called.
    public var isDryRun: Bool
    /// What this step owes across an interruption, kept in the run journal.
    public var ledger: any StepLedger
    /// How the run stands as the step starts (a `finally:` step sees the failure).
    public var laneStatus = LaneStatus()

    /// Masks the lane's secrets; for what a step writes itself (a raw build log), since events
    /// are masked on their way out anyway.
    public var redactor: Redactor

    /// Creates a context.
    public init(
        laneName: String, stepID: String, workingDirectory: String, environment: Environment,
        fileSystem: any FileSystem, processRunner: any ProcessRunner, events: any StepEventSink, services: StepServices,
        inputs: [String: String] = [:], previousOutputs: [String: StepOutputs] = [:], isDryRun: Bool = false,
        redactor: Redactor = Redactor(secrets: []), ledger: any StepLedger = MemoryStepLedger(),
        projectDirectory: String? = nil
    ) {
        self.projectDirectory = projectDirectory ?? workingDirectory
        self.ledger = ledger
        self.redactor = redactor
        self.laneName = laneName
        self.stepID = stepID
        self.workingDirectory = workingDirectory
        self.environment = environment
        self.fileSystem = fileSystem
        self.processRunner = processRunner
        self.events = events
        self.services = services
        self.inputs = inputs
        self.previousOutputs = previousOutputs
        self.isDryRun = isDryRun
    }

    /// `path` made absolute against the working directory.
    public func resolve(_ path: String) -> String {
        if path.hasPrefix("/") { return path }
        if path.isEmpty || path == "." { return workingDirectory }
        return workingDirectory + "/" + path
    }

    /// A spec for running `executable` in this step's directory and environment.
    public func processSpec(_ executable: String, _ arguments: [String]) -> ProcessSpec {
        ProcessSpec(executable: executable, arguments: arguments, environment: environment.variables,
                    workingDirectory: workingDirectory)
    }

    /// Runs `body` with `spec` given a `TMPDIR` of its own, removed afterwards (also when `body`
    /// throws). SwiftPM leaves lock files and `TemporaryDirectory.*` folders in `$TMPDIR` after
    /// every build, which pile up on a CI runner or a laptop; here they go with the folder.
    public func withPrivateTemporaryDirectory<Result>(
        _ spec: ProcessSpec, _ body: (ProcessSpec) async throws -> Result
    ) async throws -> Result {
        let base = spec.environment["TMPDIR"].flatMap { $0.isEmpty ? nil : $0 } ?? NSTemporaryDirectory()
        var template = Array(((base.hasSuffix("/") ? base : base + "/") + "slipway-swiftpm-XXXXXX").utf8CString)
        guard let made = mkdtemp(&template) else { return try await body(spec) }
        let folder = String(cString: made)
        defer { try? FileManager.default.removeItem(atPath: folder) }
        var withFolder = spec
        withFolder.environment["TMPDIR"] = folder
        return try await body(withFolder)
    }

    /// Runs a process, streaming its output line by line to the event sink.
    public func runProcess(_ spec: ProcessSpec) async throws -> ProcessResult {
        let streamer = LineStreamer(events: events, redactor: redactor)
        let result = try await processRunner.run(spec) { stream, bytes in streamer.feed(stream, bytes) }
        streamer.finish()
        return result
    }

    /// Runs a process and throws `StepError.processFailed` unless it exits 0.
    @discardableResult
    public func runChecked(_ spec: ProcessSpec) async throws -> ProcessResult {
        let result = try await runProcess(spec)
        guard result.status.isSuccess else {
            throw StepError.processFailed(command: spec.commandLine, status: result.status)
        }
        return result
    }
}

/// Splits a child's byte stream into lines per stream and forwards them, cut so that the
/// lane's secrets are masked even across long-line pieces and wrapped base64 (see
/// `RedactingLineBuffer`).
final class LineStreamer: Sendable {
    private let events: any StepEventSink
    private let buffers: Locked<[ProcessStream: RedactingLineBuffer]>

    init(events: any StepEventSink, redactor: Redactor) {
        self.events = events
        buffers = Locked([.standardOutput: RedactingLineBuffer(redactor: redactor), .standardError: RedactingLineBuffer(redactor: redactor)])
    }

    func feed(_ stream: ProcessStream, _ bytes: [UInt8]) {
        let lines = buffers.withLock { $0[stream]?.append(bytes) ?? [] }
        for line in lines { events.processOutput(stream, line: line) }
    }

    func finish() {
        for stream in [ProcessStream.standardOutput, .standardError] {
            for line in buffers.withLock({ $0[stream]?.finish() ?? [] }) { events.processOutput(stream, line: line) }
        }
    }
}
