import Basics

/// One readable line per `XcodeLogEvent`, as xcbeautify prints them: `[App] Compiling View.swift`,
/// `❌ /path/File.swift:3:7: message` with the source and caret lines under it, `✔ testName (0.012 s)`,
/// `✖ testName, File.swift:42: message`, and a final summary line. ANSI colours only when
/// `useColor` says so (the caller knows whether the output is a terminal and about `NO_COLOR`).
public struct XcodeLogRenderer: Sendable {
    public var useColor: Bool

    public init(useColor: Bool) { self.useColor = useColor }

    /// The lines for `event` (none for events not worth a line, such as a suite's end).
    public func lines(for event: XcodeLogEvent) -> [String] {
        var text = ""
        render(event, into: &text)
        return text.split(separator: "\n", omittingEmptySubsequences: false).dropLast().map(String.init)
    }

    /// Appends the lines for `event`, each ending in a line break, to `output`.
    public func render(_ event: XcodeLogEvent, into output: inout String) {
        switch event {
        case .step(let step):
            if let target = step.target { output += "[" + target + "] " }
            output += Self.describe(step) + "\n"
        case .diagnostic(let diagnostic):
            render(diagnostic, into: &output)
        case .linkerError(let error):
            output += paint("❌ " + error.message, "31") + "\n"
            for detail in error.details { output += "    " + detail + "\n" }
        case .xcodebuildError(let message):
            output += paint("❌ xcodebuild: " + message, "31") + "\n"
        case .testSuite(let suite):
            guard suite.status == .started, !Self.isUmbrellaSuite(suite.name) else { return }
            output += paint(suite.name, "1") + "\n"
        case .testCase(let test):
            render(test, into: &output)
        case .testFailure(let failure):
            let place = XcodeLogSummary.fileName(failure.file) + (failure.line.map { ":\($0)" } ?? "") + (failure.column.map { ":\($0)" } ?? "")
            output += paint("✖ " + failure.name + (place.isEmpty ? "" : ", " + place) + ": " + failure.message, "31") + "\n"
        case .testRun(let run):
            var line = "Executed \(run.tests) test\(run.tests == 1 ? "" : "s"), \(run.failures) failure\(run.failures == 1 ? "" : "s")"
            if let unexpected = run.unexpected { line += " (\(unexpected) unexpected)" }
            if let duration = run.duration { line += " in " + Self.seconds(duration) }
            output += line + "\n"
        case .testRestart(let message):
            output += paint("⚠️ " + message, "33") + "\n"
        case .testRepeat(let repeated):
            let of = repeated.of.map { " of \($0)" } ?? ""
            output += "↻ " + (repeated.suite.map { $0 + "." } ?? "") + repeated.name + " again (run \(repeated.iteration)\(of))\n"
        case .result(let result):
            output += paint("** \(result.action) \(result.succeeded ? "SUCCEEDED" : "FAILED") **", result.succeeded ? "32" : "31") + "\n"
        }
    }

    private func render(_ diagnostic: XcodeLogEvent.Diagnostic, into output: inout String) {
        let location = diagnostic.location.map { $0 + ": " } ?? ""
        switch diagnostic.severity {
        case .error: output += paint("❌ " + location + diagnostic.message, "31") + "\n"
        case .warning: output += paint("⚠️ " + location + diagnostic.message, "33") + "\n"
        case .note: output += "   note: " + location + diagnostic.message + "\n"
        }
        if let source = diagnostic.sourceLine, let caret = diagnostic.caretLine {
            output += source + "\n" + paint(caret, "36") + "\n"
        }
    }

    private func render(_ test: XcodeLogEvent.TestCase, into output: inout String) {
        let device = test.device.map { " on '" + $0 + "'" } ?? ""
        // Parallel testing interleaves classes: the class keeps two same-named tests apart.
        let name = test.device != nil ? (test.suite.map { $0 + "." } ?? "") + test.name : test.name
        let duration = test.duration.map { " (" + Self.seconds($0) + ")" } ?? ""
        switch test.status {
        case .passed: output += paint("✔", "32") + " " + name + device + duration + "\n"
        case .failed: output += paint("✖ " + name + device + duration, "31") + "\n"
        case .skipped: output += paint("➜ " + name + device + " skipped", "33") + "\n"
        }
    }

    /// The last line: whether the log shows success, and the counts.
    public func summaryLine(_ summary: XcodeLogSummary) -> String {
        var parts = ["\(summary.errors) error\(summary.errors == 1 ? "" : "s")",
                     "\(summary.warnings) warning\(summary.warnings == 1 ? "" : "s")"]
        if summary.testCount > 0 {
            var tests = "tests: \(summary.testsPassed) passed, \(summary.testsFailed) failed, \(summary.testsSkipped) skipped"
            if summary.testsFlaky > 0 { tests += " (\(summary.testsFlaky) flaky)" }
            parts.append(tests)
        }
        let head = summary.failed ? paint("✖ Failed", "31") : paint("✔ Succeeded", "32")
        return head + ": " + parts.joined(separator: ", ")
    }

    /// The warning for a framework whose totals differ from the formatter's counts.
    public func totalsWarning(_ mismatch: XcodeLogSummary.TotalsMismatch) -> String {
        paint("⚠️ " + mismatch.message, "33")
    }

    /// What a step does, in words.
    static func describe(_ step: XcodeLogEvent.BuildStep) -> String {
        let subject = step.subject
        switch step.kind {
        case .compileSwift, .compileC, .compileAssetCatalog, .compileStoryboard, .compileXIB: return "Compiling " + subject
        case .emitSwiftModule: return "Emitting module " + subject
        case .processInfoPlist, .processProductPackaging: return "Processing " + subject
        case .copySwiftLibs: return "Copying Swift libraries into " + subject
        case .link: return "Linking " + subject
        case .codeSign: return "Signing " + subject
        case .runScript: return "Running script '" + subject + "'"
        case .generateDSYM: return "Generating " + subject
        case .touch: return "Touching " + subject
        case .createUniversalBinary: return "Creating universal binary " + subject
        case .libtool: return "Building library " + subject
        }
    }

    /// Suites that only wrap others (`All tests`, `Selected tests`, `App.xctest`): no heading.
    static func isUmbrellaSuite(_ name: String) -> Bool {
        name == "All tests" || name == "Selected tests" || name.hasSuffix(".xctest")
    }

    /// `0.012 s`: seconds with three decimals.
    static func seconds(_ value: Double) -> String {
        NumberText.seconds(value) + " s"
    }

    private func paint(_ text: String, _ code: String) -> String {
        useColor ? "\u{1B}[" + code + "m" + text + "\u{1B}[0m" : text
    }
}
