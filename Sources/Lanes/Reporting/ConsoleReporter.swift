import Basics
import Foundation

/// Human output: a header as each step starts, its child output indented, a status line as it
/// ends, and a summary table at the end — correct on failure too. On a terminal it is coloured
/// and progress updates one line in place; elsewhere it is plain lines.
public final class ConsoleReporter: RunReporter, @unchecked Sendable {
    private let output: any TextOutput
    private let style: TerminalStyle
    private let verbose: Bool
    private var progressShown = false
    /// Set by `lane.started`: a failed step of a dry run "would fail".
    private var isDryRun = false

    /// A reporter writing to `output` in `style`; `verbose` also prints debug logs.
    public init(output: any TextOutput, style: TerminalStyle, verbose: Bool = false) {
        self.output = output
        self.style = style
        self.verbose = verbose
    }

    private func line(_ text: String) {
        if progressShown { output.write("\r\u{1B}[K"); progressShown = false }
        output.write(text + "\n")
    }

    public func receive(_ event: RunEvent) {
        switch event.event {
        case .laneStarted:
            isDryRun = event.dryRun == true
            let mode = isDryRun ? " — dry run, nothing will be changed" : ""
            line(style.paint("▸ lane '\(event.lane.displaySafe)' (\((event.file ?? "").displaySafe))\(mode)", .bold))
        case .stepStarted:
            let section = event.section == "finally" ? "finally " : ""
            let position = "[\(section)\(event.index ?? 0)/\(event.total ?? 0)]"
            let name = (event.name ?? event.step ?? "").displaySafe
            let kind = name == event.stepKind ? "" : style.paint(" · \((event.stepKind ?? "").displaySafe)", .dim)
            line(style.paint("▸ \(position) ", .cyan) + style.paint(name, .bold) + kind)
        case .output:
            let prefix = event.parallelGroup != nil ? "[\((event.step ?? "").displaySafe)] " : ""
            line("    " + style.paint(prefix, .dim) + DisplayText.processOutput(event.line ?? ""))
        case .log:
            guard verbose || event.level != "debug" else { return }
            let color: TerminalStyle.Color = event.level == "error" ? .red : event.level == "warning" ? .yellow : .blue
            line("    " + style.paint("\(event.level ?? "info"): ", color) + DisplayText.untrustedLines(event.message ?? ""))
        case .progress:
            showProgress(event)
        case .plan:
            for effect in event.effects ?? [] { line("    would " + DisplayText.untrustedLines(effect).replacingOccurrences(of: "\n", with: "\n          ")) }
        case .stepFinished:
            finished(event)
        case .laneFinished, .tests:
            break  // the step logs its own test summary
        }
    }

    private func showProgress(_ event: RunEvent) {
        let percent = event.fraction.map { " \(NumberText.roundedInt($0 * 100, in: 0...100))%" } ?? ""
        let text = "    … \((event.message ?? "").displaySafe)\(percent)"
        if style.interactive {
            output.write("\r\u{1B}[K" + style.paint(text, .dim))
            progressShown = true
        } else {
            line(text)
        }
    }

    /// Step names, messages and errors hold text from the checkout, from servers and from
    /// processes: shown with their control characters escaped (`DisplayText`), line breaks kept
    /// where a message has several lines.
    private func finished(_ event: RunEvent) {
        let name = (event.name ?? event.step ?? "").displaySafe
        let message = event.message.map(DisplayText.untrusted)
        let failure = event.error.map(DisplayText.untrustedLines)
        let time = DurationFormatting.seconds(event.duration ?? 0)
        switch StepStatus(rawValue: event.status ?? "") {
        case .succeeded?: line(style.paint("✓ \(name)", .green) + style.paint(" (\(time))", .dim))
        case .planned?: line(style.paint("✓ \(name) planned", .green))
        case .reused?: line(style.paint("↷ \(name) reused (\(message ?? "done earlier"))", .dim))
        case .skipped?: line(style.paint("○ \(name) skipped: \(message ?? "")", .yellow))
        case .cancelled?: line(style.paint("⊘ \(name) cancelled: \(failure ?? message ?? "")", .yellow))
        case .failed? where isDryRun:
            let error = (failure ?? "failed").replacingOccurrences(of: "\n", with: "\n    ")
            line(style.paint("✗ \(name) would fail", .red) + "\n    \(error)")
        case .failed?, .timedOut?:
            let tail = message.map { " — \($0)" } ?? ""
            let error = (failure ?? "failed").replacingOccurrences(of: "\n", with: "\n    ")
            line(style.paint("✗ \(name) \(event.status == "timed-out" ? "timed out" : "failed") after \(time)", .red) + "\(tail)\n    \(error)")
        case nil: break
        }
    }

    public func finish(_ summary: RunSummary) throws {
        line("")
        line(SummaryTable.render(summary, style: style))
        let counts = Dictionary(grouping: summary.steps, by: \.status).mapValues(\.count)
        let detail = [StepStatus.failed, .timedOut, .skipped, .cancelled, .reused]
            .compactMap { status in counts[status].map { "\($0) \(status.rawValue)" } }.joined(separator: ", ")
        let time = DurationFormatting.seconds(summary.duration)
        let failing = summary.steps.filter { $0.status.isFailure && !$0.continuedOnError }.map(\.name.displaySafe)
        let lane = summary.lane.displaySafe
        switch summary.status {
        case .succeeded:
            let verb = summary.isDryRun ? "planned" : "succeeded"
            line(style.paint("✓ lane '\(lane)' \(verb) in \(time)", .green) + (detail.isEmpty ? "" : " (\(detail))"))
        case .failed where summary.isDryRun && !failing.isEmpty:
            line(style.paint("✗ lane '\(lane)': the dry run found \(failing.count) step(s) that would fail (\(failing.joined(separator: ", ")))", .red)
                 + "; nothing was changed. Fix them, then run the lane.")
        case .failed:
            line(style.paint("✗ lane '\(lane)' failed after \(time)", .red) + (detail.isEmpty ? "" : " (\(detail))")
                 + (summary.isDryRun ? "" : "\n  fix the problem, then continue with: slipway run \(lane) --resume"))
        case .cancelled:
            line(style.paint("⊘ lane '\(lane)' interrupted after \(time)", .yellow) + (detail.isEmpty ? "" : " (\(detail))"))
        }
    }
}

/// "0.42s", "3m 05s".
enum DurationFormatting {
    static func seconds(_ value: Double) -> String {
        if value < 60 { return String(format: "%.2fs", value) }
        let whole = Int(value)
        return String(format: "%dm %02ds", whole / 60, whole % 60)
    }
}

/// The table at the end of a run: one row per step with its status and time.
enum SummaryTable {
    static func render(_ summary: RunSummary, style: TerminalStyle) -> String {
        let header = ["#", "Step", "Kind", "Status", "Time"]
        var counters: [String: Int] = [:]
        let rows = summary.steps.map { step -> [String] in
            counters[step.section, default: 0] += 1
            let position = counters[step.section] ?? 0
            let status = step.continuedOnError ? "\(step.status.rawValue) (continued)" : step.status.rawValue
            let time = step.status == .skipped || step.status == .reused ? "-" : DurationFormatting.seconds(step.duration)
            let number = step.section == "finally" ? "f\(position)" : "\(position)"
            return [number, step.name.displaySafe, step.kind.displaySafe, status, time]
        }
        var widths = header.map(\.count)
        for row in rows { for (index, cell) in row.enumerated() { widths[index] = max(widths[index], cell.count) } }
        let rule = "+" + widths.map { String(repeating: "-", count: $0 + 2) }.joined(separator: "+") + "+"
        func format(_ cells: [String]) -> String {
            "|" + cells.enumerated().map { " " + $1.padding(toLength: widths[$0], withPad: " ", startingAt: 0) + " " }.joined(separator: "|") + "|"
        }
        var lines = [rule, format(header), rule]
        for (row, step) in zip(rows, summary.steps) {
            let text = format(row)
            let color: TerminalStyle.Color? = step.status.isFailure && !step.continuedOnError ? .red
                : step.status == .succeeded || step.status == .planned ? nil : .yellow
            lines.append(color.map { style.paint(text, $0) } ?? text)
        }
        lines.append(rule)
        return lines.joined(separator: "\n")
    }
}
