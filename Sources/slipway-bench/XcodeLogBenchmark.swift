import Foundation
import Xcode

#if canImport(Glibc)
import Glibc
#endif

/// Issue 12's figures for the log formatter: parser + renderer + summary throughput over a
/// 200,000-line log built from a realistic mix of xcodebuild's lines (mostly the indented
/// command lines every step prints, then steps, diagnostics with source lines, tests), and the
/// peak memory of streaming 200k and then 800k lines (flat when the formatter streams).
enum XcodeLogBenchmark {
    static func run(_ arguments: [String]) async throws {
        let runs = Bench.option("--runs", arguments).flatMap(Int.init) ?? 5
        let lineCount = Bench.option("--lines", arguments).flatMap(Int.init) ?? 200_000
        print("slipway-bench xcode-log — medians of \(runs) runs, \(lineCount) lines")
        let log = Array(makeLog(lines: lineCount).utf8)
        var events = 0
        let seconds = Bench.median(runs: runs) { events = format(log, chunk: 1 << 16).events }
        Bench.report("split + parse + render + summarise (\(events) events)",
                     String(format: "%.2f M lines/s", Double(lineCount) / seconds / 1_000_000), target: "≥ 1 M lines/s")
        Bench.report("  the same, time for the log", Bench.ms(seconds), target: "—")
        var parsed = 0
        let parseOnly = Bench.median(runs: runs) { parsed = parse(log) }
        Bench.report("split + parse only (\(parsed) events)",
                     String(format: "%.2f M lines/s", Double(lineCount) / parseOnly / 1_000_000), target: "—")

        // Memory: stream 200k lines, then 800k, generated chunk by chunk (the log is never whole).
        let before = peakMemoryMiB()
        _ = streamed(lines: 200_000)
        let after200 = peakMemoryMiB()
        _ = streamed(lines: 800_000)
        let after800 = peakMemoryMiB()
        Bench.report("peak RSS before streaming", String(format: "%.1f MiB", before), target: "—")
        Bench.report("peak RSS after streaming 200k lines", String(format: "%.1f MiB", after200), target: "flat")
        Bench.report("peak RSS after streaming 800k lines", String(format: "%.1f MiB", after800), target: "flat")
    }

    /// Formats `log` as the command does (without writing the text anywhere).
    static func format(_ log: [UInt8], chunk: Int) -> (events: Int, text: Int) {
        var splitter = XcodeLogLineSplitter()
        var parser = XcodeLogParser()
        var summary = XcodeLogSummary()
        let renderer = XcodeLogRenderer(useColor: false)
        var events: [XcodeLogEvent] = []
        var text = ""
        var total = 0, written = 0
        func handle(_ line: Substring) {
            parser.consume(line, into: &events)
            for event in events {
                summary.add(event)
                renderer.render(event, into: &text)
            }
            total += events.count
            events.removeAll(keepingCapacity: true)
        }
        log.withUnsafeBytes { bytes in
            var offset = 0
            while offset < bytes.count {
                let end = min(bytes.count, offset + chunk)
                splitter.append(UnsafeRawBufferPointer(rebasing: bytes[offset..<end])) { handle($0) }
                written += text.utf8.count
                text.removeAll(keepingCapacity: true)
                offset = end
            }
        }
        splitter.finish { handle($0) }
        for event in parser.finish() { summary.add(event) }
        return (total, written + renderer.summaryLine(summary).utf8.count)
    }

    /// The parser alone (with the splitter), for comparison.
    static func parse(_ log: [UInt8]) -> Int {
        var splitter = XcodeLogLineSplitter()
        var parser = XcodeLogParser()
        var events: [XcodeLogEvent] = []
        var total = 0
        log.withUnsafeBytes { bytes in
            var offset = 0
            while offset < bytes.count {
                let end = min(bytes.count, offset + (1 << 16))
                splitter.append(UnsafeRawBufferPointer(rebasing: bytes[offset..<end])) { line in
                    parser.consume(line, into: &events)
                    total += events.count
                    events.removeAll(keepingCapacity: true)
                }
                offset = end
            }
        }
        return total + parser.finish().count
    }

    /// `lines` lines formatted block by block, the log never held whole.
    static func streamed(lines: Int) -> Int {
        var events = 0
        var produced = 0
        var block = 0
        while produced < lines {
            let text = Array(logBlock(block).utf8)
            produced += text.reduce(0) { $0 + ($1 == 10 ? 1 : 0) }
            events += format(text, chunk: 1 << 16).events
            block += 1
        }
        return events
    }

    /// About `lines` lines of the mix.
    static func makeLog(lines: Int) -> String {
        var log = ""
        var count = 0
        var block = 0
        while count < lines {
            let text = logBlock(block)
            count += text.utf8.reduce(0) { $0 + ($1 == 10 ? 1 : 0) }
            log += text
            block += 1
        }
        return log
    }

    /// 100 lines in the proportions of a recorded build-and-test log: ~60% indented command
    /// lines, ~15% steps, a warning with its source, test lines. Test names cycle over 500.
    static func logBlock(_ block: Int) -> String {
        let app = "/Users/dev/Projects/App"
        let derived = "/Users/dev/Library/Developer/Xcode/DerivedData/App-abcdefghijklmnop/Build"
        var text = ""
        for step in 0..<10 {
            let file = "Feature\(block % 97)View\(step).swift"
            text += "SwiftCompile normal arm64 \(app)/Sources/Features/\(file) (in target 'App' from project 'App')\n"
            text += "    cd \(app)\n"
            text += "    builtin-swiftTaskExecution -- /Applications/Xcode.app/Contents/Developer/Toolchains/XcodeDefault.xctoolchain/usr/bin/swift-frontend -frontend -c \(app)/Sources/Features/\(file) -target arm64-apple-ios17.0-simulator -module-name App -o \(derived)/Intermediates.noindex/App.build/Debug-iphonesimulator/App.build/Objects-normal/arm64/\(file).o\n"
            text += "\n"
            text += "    export DEVELOPER_DIR=/Applications/Xcode.app/Contents/Developer\n"
            text += "    export SDKROOT=/Applications/Xcode.app/Contents/Developer/Platforms/iPhoneSimulator.platform/Developer/SDKs/iPhoneSimulator18.2.sdk\n"
        }
        text += "\(app)/Sources/Features/Feature\(block % 97)View1.swift:\(block % 300 + 1):9: warning: variable 'count' was never mutated; consider changing to 'let' constant\n"
        text += "    var count = 0\n    ~~~ ^\n"
        text += "Ld \(derived)/Products/Debug-iphonesimulator/App.app/App normal (in target 'App' from project 'App')\n"
        text += "CodeSign \(derived)/Products/Debug-iphonesimulator/App.app (in target 'App' from project 'App')\n"
        text += "    Signing Identity:     \"Sign to Run Locally\"\n"
        text += "PhaseScriptExecution Run\\ SwiftLint \(derived)/Intermediates.noindex/App.build/Script-1A2B3C.sh (in target 'App' from project 'App')\n"
        text += "Test Suite 'LoginTests' started at 2025-01-20 10:00:00.000.\n"
        for test in 0..<10 {
            let name = "-[AppTests.LoginTests testCase\((block * 10 + test) % 500)]"
            text += "Test Case '\(name)' started.\n"
            if test == 7 && block % 10 == 0 {
                text += "\(app)/Tests/LoginTests.swift:\(40 + test): error: \(name) : XCTAssertEqual failed: (\"401\") is not equal to (\"200\")\n"
                text += "Test Case '\(name)' failed (0.103 seconds).\n"
            } else {
                text += "Test Case '\(name)' passed (0.0\(test)2 seconds).\n"
            }
        }
        text += "Test Suite 'LoginTests' passed at 2025-01-20 10:00:00.120.\n"
        text += "\t Executed 10 tests, with 0 failures (0 unexpected) in 0.116 (0.118) seconds\n"
        for _ in 0..<(100 - 60 - 3 - 4 - 1 - 20 - 2 - 1) { text += "    /usr/bin/touch -c \(derived)/Products/Debug-iphonesimulator/App.app\n" }
        text += "** BUILD SUCCEEDED **\n"
        return text
    }

    /// This process's peak resident memory, MiB.
    static func peakMemoryMiB() -> Double {
        var usage = rusage()
        #if canImport(Glibc)
        getrusage(__rusage_who_t(RUSAGE_SELF.rawValue), &usage)
        return Double(usage.ru_maxrss) / 1024
        #else
        getrusage(RUSAGE_SELF, &usage)
        return Double(usage.ru_maxrss) / 1024 / 1024
        #endif
    }
}
