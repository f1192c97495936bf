import Foundation
import Xcode

/// The fixture logs in Fixtures/logs, read from the source tree, parsed and rendered.
enum LogFixtures {
    static let directory = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("Fixtures/logs").path

    static func text(_ name: String) throws -> String {
        try String(contentsOfFile: directory + "/" + name, encoding: .utf8)
    }

    /// The events of the fixture `name`, read through the line splitter in small chunks (so
    /// that lines cross chunk boundaries).
    static func events(_ name: String, chunkSize: Int = 7) throws -> [XcodeLogEvent] {
        let bytes = Array(try text(name).utf8)
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
    static func rendered(_ name: String) throws -> (lines: [String], summary: XcodeLogSummary) {
        let renderer = XcodeLogRenderer(useColor: false)
        var summary = XcodeLogSummary()
        var lines: [String] = []
        for event in try events(name) {
            summary.add(event)
            lines += renderer.lines(for: event)
        }
        lines.append(renderer.summaryLine(summary))
        return (lines, summary)
    }
}
