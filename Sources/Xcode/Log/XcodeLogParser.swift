/// Recognises the lines of an `xcodebuild` log, one at a time, as `XcodeLogEvent`s: build steps,
/// diagnostics (with the source and caret lines under them), linker errors, XCTest and Swift
/// Testing results and the final result line. Lines it does not know produce nothing (they stay
/// in the raw log).
///
/// Streaming: it holds at most one unfinished construct (a diagnostic waiting for its source
/// line, or an `Undefined symbols` block, capped at `maxDetailLines`), so its memory does not
/// grow with the log. The first byte of a line picks the few shapes it can have; no regular
/// expressions.
public struct XcodeLogParser: Sendable {
    /// Lines kept under one `Undefined symbols` block; the rest are counted in a last line.
    public static let maxDetailLines = 200

    enum Pending: Sendable {
        case none
        /// A diagnostic and, once seen, the line that may be its source line.
        case diagnostic(XcodeLogEvent.Diagnostic, candidate: String?)
        case undefinedSymbols(XcodeLogEvent.LinkerError, dropped: Int)
    }

    var pending = Pending.none

    /// A parser at the start of a log.
    public init() {}

    /// The events `line` (without its line break) completes; a multi-line construct is reported
    /// when the line after it arrives (or at `finish()`).
    public mutating func consume(_ line: Substring) -> [XcodeLogEvent] {
        var events: [XcodeLogEvent] = []
        consume(line, into: &events)
        return events
    }

    /// `consume(_:)` appending to `events` (no array per line: the benchmark's and the
    /// command's path).
    public mutating func consume(_ line: Substring, into events: inout [XcodeLogEvent]) {
        var line = line
        if line.utf8.last == UInt8(ascii: "\r") { line = line.dropLast() }
        switch pending {
        case .none:
            parse(line, into: &events)
        case .diagnostic(var diagnostic, let candidate):
            guard let candidate else {
                if line.isEmpty || isStartOfDiagnostic(line) {
                    pending = .none
                    events.append(.diagnostic(diagnostic))
                    parse(line, into: &events)
                } else {
                    pending = .diagnostic(diagnostic, candidate: String(line))
                }
                return
            }
            pending = .none
            if Self.isCaretLine(line) {
                diagnostic.sourceLine = candidate
                diagnostic.caretLine = String(line)
                events.append(.diagnostic(diagnostic))
            } else {
                events.append(.diagnostic(diagnostic))
                parse(Substring(candidate), into: &events)
                consume(line, into: &events)
            }
        case .undefinedSymbols(var error, let dropped):
            guard let first = line.utf8.first, first == UInt8(ascii: " ") || first == UInt8(ascii: "\t") else {
                pending = .none
                if dropped > 0 { error.details.append("(\(dropped) more lines)") }
                events.append(.linkerError(error))
                parse(line, into: &events)
                return
            }
            if error.details.count < Self.maxDetailLines {
                error.details.append(String(line.trimmingSpaces))
                pending = .undefinedSymbols(error, dropped: dropped)
            } else {
                pending = .undefinedSymbols(error, dropped: dropped + 1)
            }
        }
    }

    /// The events of a construct the log ended in.
    public mutating func finish() -> [XcodeLogEvent] {
        var events: [XcodeLogEvent] = []
        switch pending {
        case .none: break
        case .diagnostic(let diagnostic, let candidate):
            pending = .none
            events.append(.diagnostic(diagnostic))
            if let candidate { parse(Substring(candidate), into: &events) }
            events.append(contentsOf: finish())
        case .undefinedSymbols(var error, let dropped):
            if dropped > 0 { error.details.append("(\(dropped) more lines)") }
            events.append(.linkerError(error))
            pending = .none
        }
        return events
    }

    /// A line on its own (nothing pending).
    mutating func parse(_ line: Substring, into events: inout [XcodeLogEvent]) {
        guard let first = line.utf8.first else { return }
        switch first {
        case UInt8(ascii: "/"), UInt8(ascii: "<"):
            parsePathLine(line, into: &events)
        case UInt8(ascii: " "), UInt8(ascii: "\t"):
            let trimmed = line.trimmingSpaces
            if trimmed.utf8.starts(with: "Executed ".utf8), let run = Self.executedLine(trimmed) { events.append(.testRun(run)) }
        case UInt8(ascii: "*"):
            if let result = Self.resultLine(line) { events.append(.result(result)) }
        case 0xE2, 0xF0...0xF4:
            if let event = Self.swiftTestingLine(line) { events.append(event) }
        case UInt8(ascii: "A")...UInt8(ascii: "Z"):
            parseCapitalised(line, into: &events)
        default:
            parseLowercase(line, into: &events)
        }
    }

    /// Lines that start with a capital: build steps, XCTest lines, linker blocks, restarts.
    mutating func parseCapitalised(_ line: Substring, into events: inout [XcodeLogEvent]) {
        let utf8 = line.utf8
        if utf8.starts(with: "Test ".utf8) {
            if let event = Self.xctestLine(line) { events.append(event) }
        } else if utf8.starts(with: "Executed ".utf8) {
            if let run = Self.executedLine(line) { events.append(.testRun(run)) }
        } else if utf8.starts(with: "Undefined symbols for architecture ".utf8) {
            var message = line
            if message.utf8.last == UInt8(ascii: ":") { message = message.dropLast() }
            pending = .undefinedSymbols(.init(message: String(message)), dropped: 0)
        } else if utf8.starts(with: "Restarting after ".utf8) {
            events.append(.testRestart(message: String(line)))
        } else if let step = Self.buildStep(line) {
            events.append(.step(step))
        } else {
            parsePathLine(line, into: &events)
        }
    }

    /// `error: ...`, `warning: ...`, `ld: ...`, `clang: error: ...`, `xcodebuild: error: ...`.
    mutating func parseLowercase(_ line: Substring, into events: inout [XcodeLogEvent]) {
        let utf8 = line.utf8
        if let message = line.after("xcodebuild: error: ") {
            events.append(.xcodebuildError(message: String(message)))
        } else if utf8.starts(with: "ld: ".utf8) {
            if let message = line.after("ld: warning: ") {
                events.append(.diagnostic(.init(.warning, message: "ld: " + message)))
            } else {
                events.append(.linkerError(.init(message: String(line))))
            }
        } else if utf8.starts(with: "clang: error: linker command failed".utf8) {
            events.append(.linkerError(.init(message: String(line))))
        } else if let message = line.after("error: ") {
            startDiagnostic(.init(.error, message: String(message)), into: &events)
        } else if let message = line.after("warning: ") {
            startDiagnostic(.init(.warning, message: String(message)), into: &events)
        } else if let message = line.after("fatal error: ") {
            startDiagnostic(.init(.error, message: String(message)), into: &events)
        } else {
            parsePathLine(line, into: &events)
        }
    }

    /// A diagnostic without a location has no source line to wait for.
    mutating func startDiagnostic(_ diagnostic: XcodeLogEvent.Diagnostic, into events: inout [XcodeLogEvent]) {
        if diagnostic.file == nil || diagnostic.line == nil || diagnostic.file?.utf8.first == UInt8(ascii: "<") {
            events.append(.diagnostic(diagnostic))
        } else {
            pending = .diagnostic(diagnostic, candidate: nil)
        }
    }

    /// `LOCATION: error|warning|note: message` (see `locatedDiagnostic`), or an XCTest failure
    /// `/path/File.swift:42: error: -[Module.Class test] : message` (also at `<unknown>:0:`).
    mutating func parsePathLine(_ line: Substring, into events: inout [XcodeLogEvent]) {
        guard let (location, severity, message) = Self.locatedDiagnostic(line) else { return }
        let (file, lineNumber, column) = Self.splitLocation(location)
        if severity == .error, let failure = Self.xctestFailure(message, file: file, line: lineNumber) {
            events.append(.testFailure(failure))
            return
        }
        if lineNumber == nil, Self.isToolName(location) {
            // `clang: error: no such file`, `xcodebuild: warning: ...`: the tool is not a file.
            startDiagnostic(.init(severity, message: String(location) + ": " + String(message)), into: &events)
            return
        }
        startDiagnostic(.init(severity, file: String(file), line: lineNumber, column: column, message: String(message)),
                        into: &events)
    }

    /// Whether `line` starts a new diagnostic (so that it is not taken for a source line).
    func isStartOfDiagnostic(_ line: Substring) -> Bool {
        Self.locatedDiagnostic(line) != nil
    }

    /// A caret line: only spaces, tabs, `^`, `~` and `-`, with at least one `^` or `~`.
    static func isCaretLine(_ line: Substring) -> Bool {
        var marked = false
        for byte in line.utf8 {
            switch byte {
            case UInt8(ascii: "^"), UInt8(ascii: "~"): marked = true
            case UInt8(ascii: " "), UInt8(ascii: "\t"), UInt8(ascii: "-"): continue
            default: return false
            }
        }
        return marked
    }
}
