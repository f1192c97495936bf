import Basics
import TestReports
import Foundation

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Why a log could not be read.
public enum XcodeLogError: LocalizedError, Equatable {
    /// The log file does not exist or cannot be opened.
    case cannotOpen(path: String, reason: String)
    /// Reading failed part-way.
    case cannotRead(path: String, reason: String)
    /// The temporary files for the test results cannot be made.
    case cannotSpill(folder: String, reason: String)

    public var errorDescription: String? {
        switch self {
        case .cannotOpen(let path, let reason):
            return "cannot read the log '\(path)': \(reason). Give the file xcodebuild's output was saved to, "
                + "or pipe it in: 'xcodebuild ... | slipway xcode log'."
        case .cannotRead(let path, let reason):
            return "reading the log '\(path)' failed: \(reason)."
        case .cannotSpill(let folder, let reason):
            return "cannot make a temporary file for the test results in '\(folder)': \(reason). Set TMPDIR to a writable folder."
        }
    }
}

/// `slipway xcode log`'s work: reads a log from a file descriptor in chunks (on a thread of its
/// own, never on the cooperative pool), parses it line by line and writes readable lines, NDJSON
/// events or GitHub annotations as it goes; returns the summary. Memory stays flat however long
/// the log is: with `spillTestCases`, the summary keeps the test cases in temporary files.
public struct XcodeLogFormatter: Sendable {
    /// What to print.
    public struct Options: Sendable {
        /// NDJSON events instead of readable lines (and no summary line).
        public var json = false
        /// Only errors, warnings, test failures, the result lines and the summary.
        public var quiet = false
        public var useColor = false
        /// `::error`/`::warning` workflow commands for diagnostics and test failures.
        public var githubAnnotations = false
        /// Keep the test cases in a `JUnitCaseSpool` (temporary files), not in memory.
        public var spillTestCases = false

        public init(json: Bool = false, quiet: Bool = false, useColor: Bool = false, githubAnnotations: Bool = false,
                    spillTestCases: Bool = false) {
            self.json = json
            self.quiet = quiet
            self.useColor = useColor
            self.githubAnnotations = githubAnnotations
            self.spillTestCases = spillTestCases
        }
    }

    public var options: Options

    public init(options: Options) { self.options = options }

    /// Formats the file at `path` (or standard input when `path` is nil) to `output`.
    /// - Throws: `XcodeLogError` when the file cannot be opened or read.
    public func format(path: String?, to output: any TextOutput) async throws -> XcodeLogSummary {
        let formatter = self
        return try await BlockingWork.run(name: "slipway-xcode-log") {
            let descriptor: Int32
            if let path {
                descriptor = open(path, O_RDONLY)
                guard descriptor >= 0 else { throw XcodeLogError.cannotOpen(path: path, reason: String(cString: strerror(errno))) }
            } else {
                descriptor = 0
            }
            defer { if path != nil { close(descriptor) } }
            return try formatter.formatBlocking(descriptor: descriptor, name: path ?? "standard input", to: output)
        }
    }

    /// The blocking loop: read, split, parse, print.
    func formatBlocking(descriptor: Int32, name: String, to output: any TextOutput) throws -> XcodeLogSummary {
        var state = State(options: options)
        if options.spillTestCases {
            do {
                state.summary = XcodeLogSummary(spool: try JUnitCaseSpool())
            } catch let error as JUnitCaseSpool.CannotCreate {
                throw XcodeLogError.cannotSpill(folder: error.folder, reason: error.reason)
            }
        }
        var splitter = XcodeLogLineSplitter()
        let buffer = UnsafeMutableRawBufferPointer.allocate(byteCount: 1 << 16, alignment: 1)
        defer { buffer.deallocate() }
        while true {
            let count: Int
            do {
                count = try FileDescriptorIO.read(descriptor, into: buffer)
            } catch let failure as FileDescriptorIO.Failure {
                throw XcodeLogError.cannotRead(path: name, reason: String(cString: strerror(failure.code)))
            }
            if count == 0 { break }
            splitter.append(UnsafeRawBufferPointer(rebasing: buffer[..<count])) { state.consume($0) }
            state.flush(to: output)
        }
        splitter.finish { state.consume($0) }
        state.finish()
        state.flush(to: output)
        return state.summary
    }

    /// The parser, the summary and the text not yet written.
    struct State {
        let options: Options
        let renderer: XcodeLogRenderer
        var parser = XcodeLogParser()
        var summary = XcodeLogSummary()
        var events: [XcodeLogEvent] = []
        var text = ""

        init(options: Options) {
            self.options = options
            renderer = XcodeLogRenderer(useColor: options.useColor)
        }

        mutating func consume(_ line: Substring) {
            parser.consume(line, into: &events)
            handleEvents()
        }

        mutating func finish() {
            events += parser.finish()
            handleEvents()
            for mismatch in summary.totalsMismatches {
                if options.json {
                    text += ((try? JSONFormatting.line(TotalsMismatchLine(mismatch))) ?? "") + "\n"
                } else {
                    text += renderer.totalsWarning(mismatch) + "\n"
                }
                if options.githubAnnotations {
                    text += GitHubAnnotation(.warning, mismatch.message, title: "xcodebuild test totals").rendered + "\n"
                }
            }
            if !options.json { text += renderer.summaryLine(summary) + "\n" }
        }

        mutating func flush(to output: any TextOutput) {
            guard !text.isEmpty else { return }
            output.write(text)
            text.removeAll(keepingCapacity: true)
        }

        private mutating func handleEvents() {
            guard !events.isEmpty else { return }
            for event in events {
                summary.add(event)
                if options.json {
                    text += ((try? JSONFormatting.line(event)) ?? "") + "\n"
                } else if !options.quiet || Self.isWorthTelling(event) {
                    renderer.render(event, into: &text)
                }
                if options.githubAnnotations, let annotation = Self.annotation(for: event) { text += annotation.rendered + "\n" }
            }
            events.removeAll(keepingCapacity: true)
        }

        /// What `--quiet` keeps.
        static func isWorthTelling(_ event: XcodeLogEvent) -> Bool {
            switch event {
            case .diagnostic(let diagnostic): diagnostic.severity != .note
            case .linkerError, .xcodebuildError, .testFailure, .testRestart, .testRepeat, .result: true
            case .testCase(let test): test.status == .failed
            case .step, .testSuite, .testRun: false
            }
        }

        /// The GitHub annotation for errors, warnings and test failures.
        static func annotation(for event: XcodeLogEvent) -> GitHubAnnotation? {
            switch event {
            case .diagnostic(let diagnostic):
                guard diagnostic.severity != .note else { return nil }
                // `<unknown>:0:` names no file GitHub could point at: the message goes without a place.
                guard let file = diagnostic.file, !file.hasPrefix("<") else {
                    return GitHubAnnotation(diagnostic.severity == .error ? .error : .warning,
                                            (diagnostic.location.map { $0 + ": " } ?? "") + diagnostic.message)
                }
                return GitHubAnnotation(diagnostic.severity == .error ? .error : .warning, diagnostic.message,
                                        file: file, line: diagnostic.line, column: diagnostic.column)
            case .linkerError(let error):
                return GitHubAnnotation(.error, ([error.message] + error.details).joined(separator: "\n"))
            case .xcodebuildError(let message):
                return GitHubAnnotation(.error, "xcodebuild: " + message)
            case .testFailure(let failure):
                let placed = !failure.file.isEmpty && !failure.file.hasPrefix("<")
                return GitHubAnnotation(.error, failure.message, file: placed ? failure.file : nil, line: placed ? failure.line : nil,
                                        column: placed ? failure.column : nil, title: (failure.suite.map { $0 + "." } ?? "") + failure.name)
            default:
                return nil
            }
        }
    }
}

/// `--json`'s line for a totals mismatch: `{"event":"totalsMismatch","framework":...}`.
struct TotalsMismatchLine: Encodable {
    let event = "totalsMismatch"
    let mismatch: XcodeLogSummary.TotalsMismatch

    init(_ mismatch: XcodeLogSummary.TotalsMismatch) { self.mismatch = mismatch }

    private enum Keys: String, CodingKey { case event }

    func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: Keys.self)
        try container.encode(event, forKey: .event)
        try mismatch.encode(to: encoder)
    }
}
