import Foundation
import Xcode

/// The fixture logs in Fixtures/logs, read from the source tree, parsed and rendered.
enum LogFixtures {
    static let directory = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("Fixtures/logs").path
    /// The corpus of logs recorded from real tools, listed in its MANIFEST.tsv.
    static let realLogs = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("Fixtures/real-logs").path

    static func text(_ name: String, in folder: String = directory) throws -> String {
        try String(contentsOfFile: folder + "/" + name, encoding: .utf8)
    }

    /// The events of the fixture `name`, read through the line splitter in small chunks (so
    /// that lines cross chunk boundaries).
    static func events(_ name: String, in folder: String = directory, chunkSize: Int = 7) throws -> [XcodeLogEvent] {
        try events(ofText: text(name, in: folder), chunkSize: chunkSize)
    }

    /// The events of a log given as text (`events(_:)` without the file).
    static func events(ofText text: String, chunkSize: Int = 7) throws -> [XcodeLogEvent] {
        let bytes = Array(text.utf8)
        var splitter = XcodeLogLineSplitter()
        var parser = XcodeLogParser()
        var events: [XcodeLogEvent] = []
        var offset = 0
        while offset < bytes.count {
            let end = min(bytes.count, offset + chunkSize)
            bytes[offset..<end].withUnsafeBytes { chunk in
                splitter.append(chunk) { events += parser.consume($0) }
            }
            offset = end
        }
        splitter.finish { events += parser.consume($0) }
        return events + parser.finish()
    }

    /// The rendered lines (without colour) and the summary line of the fixture `name`.
    static func rendered(_ name: String, in folder: String = directory) throws -> (lines: [String], summary: XcodeLogSummary) {
        try rendered(events: events(name, in: folder, chunkSize: folder == directory ? 7 : 4096))
    }

    /// The rendered lines of a log given as text, with its totals warnings and summary line.
    static func rendered(text: String) throws -> (lines: [String], summary: XcodeLogSummary) {
        try rendered(events: events(ofText: text))
    }

    static func rendered(events: [XcodeLogEvent]) throws -> (lines: [String], summary: XcodeLogSummary) {
        let renderer = XcodeLogRenderer(useColor: false)
        var summary = XcodeLogSummary()
        var lines: [String] = []
        for event in events {
            summary.add(event)
            lines += renderer.lines(for: event)
        }
        lines += summary.totalsMismatches.map(renderer.totalsWarning)
        lines.append(renderer.summaryLine(summary))
        return (lines, summary)
    }
}
