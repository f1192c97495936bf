// libFuzzer entry point for the streaming xcodebuild log parser (built by scripts/fuzz.sh
// xcode-log).
//
// Each input is a log. Besides "no crash, no hang, no unbounded memory", it checks:
// - feeding the log line by line, or all of it at once split by the parser's own splitter,
//   gives the same events (the parser keeps no hidden state across the two ways in);
// - every event renders, and the summary counts no more errors than the log has lines.
import Basics
import Xcode

@_cdecl("LLVMFuzzerTestOneInput")
public func xcodeLogFuzzTestOneInput(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    let text = String(decoding: UnsafeBufferPointer(start: data, count: size), as: UTF8.self)
    let lines = text.split(separator: "\n", omittingEmptySubsequences: false)
    var parser = XcodeLogParser()
    var events: [XcodeLogEvent] = []
    for line in lines { parser.consume(line, into: &events) }
    events += parser.finish()

    var again = XcodeLogParser()
    var second: [XcodeLogEvent] = []
    for line in lines { second += again.consume(line) }
    second += again.finish()
    if events != second { fatalError("fuzz: the two ways of feeding the parser disagree") }

    var summary = XcodeLogSummary()
    var rendered = ""
    let renderer = XcodeLogRenderer(useColor: true)
    for event in events {
        summary.add(event)
        renderer.render(event, into: &rendered)
    }
    _ = renderer.summaryLine(summary)
    if summary.errors > lines.count { fatalError("fuzz: \(summary.errors) errors counted in \(lines.count) lines") }
    return 0
}

// SwiftPM links an executable target's `main` to `<Target>_main`; with `-parse-as-library` there
// is none, so this one hands the command line to libFuzzer's driver.
@_silgen_name("LLVMFuzzerRunDriver")
func runFuzzerDriver(
    _ argc: UnsafeMutablePointer<CInt>, _ argv: UnsafeMutablePointer<UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?>,
    _ callback: @convention(c) (UnsafePointer<UInt8>, Int) -> CInt) -> CInt

@_cdecl("XcodeLogFuzz_main")
public func xcodeLogFuzzMain(_ argc: CInt, _ argv: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?) -> CInt {
    var count = argc
    var arguments = argv
    return runFuzzerDriver(&count, &arguments) { data, size in xcodeLogFuzzTestOneInput(data, size) }
}
