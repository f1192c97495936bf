import Basics
import Foundation

/// When `GITHUB_ACTIONS=true`: folds each step's output into a log group and annotates failed
/// steps with `::error file=…,line=…::` so they show on the pull request.
public final class GitHubActionsReporter: RunReporter, @unchecked Sendable {
    private let output: any TextOutput
    private var openGroup: String?
    private var file = ""

    /// A reporter writing workflow commands to `output` (standard output).
    public init(output: any TextOutput) {
        self.output = output
    }

    public func receive(_ event: RunEvent) {
        switch event.event {
        case .laneStarted:
            file = event.file ?? ""
        case .stepStarted where event.parallelGroup == nil:
            closeGroup()
            openGroup = event.step
            output.write("::group::\(Self.escapeData(event.name ?? event.step ?? "")) (\(event.stepKind ?? ""))\n")
        case .stepFinished:
            if openGroup == event.step { closeGroup() }
            guard let status = event.status, status == "failed" || status == "timed-out" else { return }
            var properties = "file=\(Self.escapeProperty(file))"
            if let line = event.sourceLine { properties += ",line=\(line)" }
            if let column = event.sourceColumn { properties += ",col=\(column)" }
            properties += ",title=\(Self.escapeProperty("Step '\(event.name ?? event.step ?? "")' \(status)"))"
            output.write("::error \(properties)::\(Self.escapeData(event.error ?? status))\n")
        case .tests:
            // Each failed test at its source line, on the pull request's diff.
            for test in event.tests ?? [] {
                guard case .failed(let message, _) = test.outcome else { continue }
                output.write(GitHubAnnotation(.error, message, file: test.file, line: test.line,
                                              title: "\(test.className).\(test.name) failed").rendered + "\n")
            }
        case .laneFinished:
            closeGroup()
        default:
            break
        }
    }

    private func closeGroup() {
        if openGroup != nil { output.write("::endgroup::\n") }
        openGroup = nil
    }

    /// Escapes a workflow command's message.
    public static func escapeData(_ text: String) -> String {
        GitHubAnnotation.escapeData(text)
    }

    /// Escapes a workflow command's property value.
    public static func escapeProperty(_ text: String) -> String {
        GitHubAnnotation.escapeProperty(text)
    }

    /// The annotation for a validation diagnostic.
    public static func annotation(for diagnostic: Diagnostic) -> String {
        let level = diagnostic.severity == .warning ? "warning" : "error"
        var properties: [String] = []
        if let location = diagnostic.location {
            properties = ["file=\(escapeProperty(location.file))", "line=\(location.line)", "col=\(location.column)"]
        }
        let joined = properties.isEmpty ? "" : " " + properties.joined(separator: ",")
        return "::\(level)\(joined)::\(escapeData(diagnostic.message))\n"
    }
}
