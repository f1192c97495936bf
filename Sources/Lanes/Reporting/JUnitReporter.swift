import Basics
import Foundation
import TestReports

/// `--junit FILE`: one `<testcase>` per step (skipped and failed ones marked), with the step's
/// last output lines, for CI systems that show JUnit reports.
public final class JUnitReporter: RunReporter, @unchecked Sendable {
    private let path: String
    private let fileSystem: any FileSystem
    private var outputs: [String: [String]] = [:]
    /// Tests steps reported, in order, with the step that ran them.
    private var tests: [(step: String, cases: [JUnitTestCase])] = []
    private static let keptLines = 200

    /// A reporter that writes `path` when the run ends.
    public init(path: String, fileSystem: any FileSystem) {
        self.path = path
        self.fileSystem = fileSystem
    }

    public func receive(_ event: RunEvent) {
        if event.event == .tests, let step = event.step, let cases = event.tests {
            tests.append((step, cases))
            return
        }
        guard event.event == .output || event.event == .log, let step = event.step else { return }
        var lines = outputs[step, default: []]
        lines.append(event.line ?? "\(event.level ?? "info"): \(event.message ?? "")")
        if lines.count > Self.keptLines { lines.removeFirst(lines.count - Self.keptLines) }
        outputs[step] = lines
    }

    public func finish(_ summary: RunSummary) throws {
        try fileSystem.writeAtomically(render(summary), to: path)
    }

    func render(_ summary: RunSummary) -> String {
        let failures = summary.steps.filter { $0.status.isFailure && !$0.continuedOnError }.count
        let skipped = summary.steps.filter { [.skipped, .reused, .cancelled].contains($0.status) }.count
        let time = String(format: "%.3f", summary.duration)
        let cases = tests.flatMap(\.cases)
        let testFailures = cases.filter { if case .failed = $0.outcome { true } else { false } }.count
        let testsSkipped = cases.filter { if case .skipped = $0.outcome { true } else { false } }.count
        var xml = """
            <?xml version="1.0" encoding="UTF-8"?>
            <testsuites name="slipway" tests="\(summary.steps.count + cases.count)" failures="\(failures + testFailures)" skipped="\(skipped + testsSkipped)" time="\(time)">
              <testsuite name="\(escape(summary.lane))" tests="\(summary.steps.count)" failures="\(failures)" skipped="\(skipped)" time="\(time)">

            """
        for step in summary.steps {
            let name = escape("\(step.section == "finally" ? "finally/" : "")\(step.name)")
            xml += "    <testcase classname=\"\(escape("slipway.\(summary.lane)"))\" name=\"\(name)\" time=\"\(String(format: "%.3f", step.duration))\">\n"
            switch step.status {
            case .failed, .timedOut:
                let message = escape(step.error?.components(separatedBy: "\n").first ?? step.status.rawValue)
                xml += "      <failure message=\"\(message)\" type=\"\(step.status.rawValue)\">\(escape(step.error ?? ""))</failure>\n"
            case .skipped, .reused, .cancelled:
                xml += "      <skipped message=\"\(step.status.rawValue)\"/>\n"
            case .succeeded, .planned:
                break
            }
            if let lines = outputs[step.id], !lines.isEmpty {
                xml += "      <system-out>\(escape(lines.joined(separator: "\n")))</system-out>\n"
            }
            xml += "    </testcase>\n"
        }
        xml += "  </testsuite>\n"
        // The tests steps ran (xcode.test), one suite per class, named after the step.
        for (step, cases) in tests {
            xml += JUnitXML.suites(cases, prefix: "\(summary.lane)/\(step): ")
        }
        return xml + "</testsuites>\n"
    }

    private func escape(_ text: String) -> String { JUnitXML.escape(text) }
}
