import Basics
import Foundation
import Xcode
import TestReports

/// Runs `xcodebuild` (or `xcrun`) for an `xcode.*` step: the chosen Xcode in `DEVELOPER_DIR`,
/// every raw line kept in a log file (secrets masked), readable lines for the user (or the raw
/// ones with `verbose`), and the log's summary (errors, tests) for the step's outcome.
struct XcodebuildRunner: Sendable {
    let options: XcodeRunOptions
    let context: StepContext

    /// What a run left.
    struct Outcome: Sendable {
        var status: TerminationStatus
        var summary: XcodeLogSummary
        /// The raw log, as the user should see it (relative to the working directory when inside it).
        var log: String
    }

    /// The environment with `DEVELOPER_DIR` set to the chosen Xcode (unchanged without a
    /// constraint and without `DEVELOPER_DIR`: xcode-select's choice).
    func environment() throws -> [String: String] {
        var variables = context.environment.variables
        guard options.xcode != nil || context.environment["DEVELOPER_DIR"] != nil else { return variables }
        variables["DEVELOPER_DIR"] = try context.selectXcode(options.xcode).developerDirectory
        return variables
    }

    /// Runs `xcodebuild` with `arguments`; `name` names the raw log when the step gave none.
    func run(_ arguments: [String], name: String) async throws -> Outcome {
        var spec = context.processSpec("xcodebuild", arguments)
        spec.environment = try environment()
        let logPath = logPath(name: name)
        // The checkout may hold a committed `.slipway/logs` link (issue 23): no link on the way
        // from the working directory, and the log itself is opened without following one.
        let base = context.workingDirectory.hasSuffix("/") ? String(context.workingDirectory.dropLast()) : context.workingDirectory
        if logPath.hasPrefix(base + "/") { try StateFiles.checkPath(logPath, below: base) }
        try context.fileSystem.createDirectory((logPath as NSString).deletingLastPathComponent)
        if logPath.hasPrefix(base + "/") { try StateFiles.checkPath(logPath, below: base) }
        let sink = try XcodeLogSink(forwardingTo: context.events, logPath: logPath, redactor: context.redactor,
                                    verbose: options.verbose)
        var running = context
        running.events = sink
        let result: ProcessResult
        do {
            result = try await running.runProcess(spec)
        } catch ProcessError.notFound {
            sink.close()
            throw StepError.failed("xcodebuild was not found on PATH. It comes with Xcode: install Xcode, run 'sudo xcode-select --switch /Applications/Xcode.app', or set DEVELOPER_DIR.")
        } catch {
            sink.close()
            throw error
        }
        let summary = sink.close()
        let shown = display(logPath)
        context.events.log(.info, "raw log: \(shown)")
        if case .signalled(let signal) = result.status {
            throw StepError.failed("xcodebuild was killed by signal \(signal) (\(summary.failures.count) test failure(s) and \(summary.errors) error(s) seen before that); the raw log is \(shown)")
        }
        return Outcome(status: result.status, summary: summary, log: shown)
    }

    /// Where the raw log of the run `name` goes: the step's `log:`, else under `.slipway/logs/`.
    func logPath(name: String) -> String {
        context.resolve(options.log ?? ".slipway/logs/\(context.laneName)-\(context.stepID)-\(name).log")
    }

    /// `path` relative to the working directory when it lies inside it.
    func display(_ path: String) -> String {
        let base = context.workingDirectory.hasSuffix("/") ? context.workingDirectory : context.workingDirectory + "/"
        return path.hasPrefix(base) ? String(path.dropFirst(base.count)) : path
    }

    /// The error for a failed build: the first errors with their places, then where the log is.
    static func buildFailure(_ outcome: Outcome, action: String) -> StepError {
        let errors = outcome.summary.errorMessages.prefix(10).map { "  " + $0 }.joined(separator: "\n")
        var what = errors.isEmpty ? "" : ":\n" + errors
        // A log whose own test totals disagree with the formatter's counts fails the summary too.
        for mismatch in outcome.summary.totalsMismatches { what += "\n  " + mismatch.message }
        // CocoaPods' files missing (its .xcconfig, .xcfilelist or project): say what writes them.
        let messages = outcome.summary.errorMessages
        if messages.contains(where: { CocoaPodsAdvice.isCocoaPodsPath($0) || $0.contains("Pods-") }),
           !messages.contains(where: { $0.contains("pod install") }) {
            what += "\n  CocoaPods' files are missing (\(CocoaPodsAdvice.writesIt))."
        }
        return StepError.failed("xcodebuild \(action) failed with \(outcome.status) (\(outcome.summary.errors) error(s))\(what)\nThe raw log is \(outcome.log).")
    }
}

extension StepContext {
    /// The Xcode matching `constraint` (any, when nil); `DEVELOPER_DIR`, when set, wins.
    /// `SLIPWAY_XCODE_APPLICATIONS` names another folder than /Applications to look in.
    func selectXcode(_ constraint: String?) throws -> XcodeSelection {
        try XcodeSelection.choose(constraint: constraint, environment: environment,
                                  applicationsFolder: environment["SLIPWAY_XCODE_APPLICATIONS"] ?? "/Applications",
                                  fileSystem: fileSystem)
    }
}

/// Feeds `xcodebuild`'s lines to the log parser and the raw log file, and forwards readable
/// lines. Called on the process runner's reading thread, never on the cooperative pool.
final class XcodeLogSink: StepEventSink, Sendable {
    private struct State {
        var parser = XcodeLogParser()
        var summary = XcodeLogSummary()
        var file: UnsafeMutablePointer<FILE>?
    }

    private let next: any StepEventSink
    private let redactor: Redactor
    private let verbose: Bool
    private let state: Locked<State>
    private let renderer = XcodeLogRenderer(useColor: false)

    init(forwardingTo next: any StepEventSink, logPath: String, redactor: Redactor, verbose: Bool) throws {
        self.next = next
        self.redactor = redactor
        self.verbose = verbose
        let descriptor: Int32
        do {
            descriptor = try StateFiles.openOrCreate(logPath, flags: O_WRONLY)
        } catch let error as StateFileError {
            throw StepError.failed("cannot write the raw log '\(logPath)': \(error.reason). Give another path with 'log:'.")
        }
        guard ftruncate(descriptor, 0) == 0, let file = fdopen(descriptor, "w") else {
            let reason = String(cString: strerror(errno))
            Foundation.close(descriptor)
            throw StepError.failed("cannot write the raw log '\(logPath)': \(reason). Give another path with 'log:'.")
        }
        state = Locked(State(file: file))
    }

    func log(_ level: LogLevel, _ message: String) { next.log(level, message) }
    func progress(fraction: Double?, message: String) { next.progress(fraction: fraction, message: message) }
    func testResults(_ cases: [JUnitTestCase]) { next.testResults(cases) }

    func processOutput(_ stream: ProcessStream, line: String) {
        let shown: [String] = state.withLock { state in
            if let file = state.file { fputs(redactor.redact(line) + "\n", file) }
            let events = state.parser.consume(Substring(line))
            for event in events { state.summary.add(event) }
            return verbose ? [line] : events.flatMap(renderer.lines(for:))
        }
        for text in shown { next.processOutput(stream, line: text) }
    }

    /// Closes the raw log and returns the summary of everything seen.
    @discardableResult
    func close() -> XcodeLogSummary {
        let (finished, events) = state.withLock { state -> (XcodeLogSummary, [XcodeLogEvent]) in
            let events = state.parser.finish()
            for event in events { state.summary.add(event) }
            if let file = state.file { fclose(file) }
            state.file = nil
            return (state.summary, events)
        }
        if !verbose {
            for text in events.flatMap(renderer.lines(for:)) { next.processOutput(.standardOutput, line: text) }
        }
        return finished
    }
}
