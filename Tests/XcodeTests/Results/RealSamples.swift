import Foundation
import Xcode

/// An independent reading of the real samples in Fixtures/xcresult/real: a generic walk over
/// `JSONSerialization` objects, sharing no code with `TestNodeTree` or `LegacyResults`, so the
/// counts it gives are what the sample itself says.
enum RealSamples {
    static let directory = ResultFixtures.directory.appendingPathComponent("real")

    /// The sample files named in the MANIFEST's table (`| \`name.json\` | ...`).
    static func listed() -> [String] {
        guard let manifest = try? String(contentsOf: directory.appendingPathComponent("MANIFEST.md"), encoding: .utf8) else { return [] }
        return manifest.split(separator: "\n").compactMap { line in
            guard line.hasPrefix("| `"), let end = line.dropFirst(3).firstIndex(of: "`") else { return nil }
            let name = String(line[line.index(line.startIndex, offsetBy: 3)..<end])
            return name.hasSuffix(".json") ? name : nil
        }
    }

    /// `get test-results tests`: every "Test Case" node in document order, its own `result`
    /// counted (flaky when "Passed" with a failed "Repetition" below it), and the "Failure
    /// Message" names below each, by the test's index.
    static func countTestCases(_ root: [String: Any])
        -> (totals: TestResults.Totals, names: [String], durations: [Double?], failures: [Int: [String]]) {
        var totals = TestResults.Totals()
        var names: [String] = []
        var durations: [Double?] = []
        var failures: [Int: [String]] = [:]
        func descendants(_ node: [String: Any]) -> [[String: Any]] {
            let children = node["children"] as? [[String: Any]] ?? []
            return children + children.flatMap(descendants)
        }
        func visit(_ node: [String: Any]) {
            guard node["nodeType"] as? String == "Test Case" else {
                (node["children"] as? [[String: Any]] ?? []).forEach(visit)
                return
            }
            let below = descendants(node)
            totals.total += 1
            switch node["result"] as? String {
            case "Passed":
                totals.passed += 1
                let failedRun = below.contains { $0["nodeType"] as? String == "Repetition" && $0["result"] as? String == "Failed" }
                if failedRun { totals.flaky += 1 }
            case "Failed": totals.failed += 1
            case "Skipped": totals.skipped += 1
            case "Expected Failure": totals.expectedFailures += 1
            default: totals.failed += 1
            }
            let messages = below.filter { $0["nodeType"] as? String == "Failure Message" }.compactMap { $0["name"] as? String }
            if !messages.isEmpty { failures[names.count] = messages }
            names.append(node["name"] as? String ?? "")
            // `durationInSeconds` (Xcode 26), else the string: `6s`, `0,012s` (a comma locale), `0.25s`.
            let text = (node["duration"] as? String).flatMap { $0.hasSuffix("s") ? String($0.dropLast()) : nil }
            durations.append(node["durationInSeconds"] as? Double ?? text.flatMap { Double($0.replacingOccurrences(of: ",", with: ".")) })
        }
        (root["testNodes"] as? [[String: Any]] ?? []).forEach(visit)
        return (totals, names, durations, failures)
    }

    /// `File.swift:12: message` split by a regular expression (not by the parser's code).
    static func split(_ text: String) -> (file: String?, line: Int?, message: String) {
        let pattern = try? NSRegularExpression(pattern: #"^([^\s:]+\.[A-Za-z]+):([0-9]+): (.*)$"#, options: [.dotMatchesLineSeparators])
        let range = NSRange(text.startIndex..., in: text)
        guard let match = pattern?.firstMatch(in: text, range: range), let file = Range(match.range(at: 1), in: text),
              let line = Range(match.range(at: 2), in: text), let message = Range(match.range(at: 3), in: text)
        else { return (nil, nil, text) }
        return (String(text[file]), Int(text[line]), String(text[message]))
    }

    /// The legacy format's `{"_value": x}` / `{"_values": [...]}` wrappers removed.
    static func unwrap(_ value: Any) -> Any {
        if let object = value as? [String: Any] {
            if let values = object["_values"] as? [Any] { return values.map(unwrap) }
            if let inner = object["_value"] { return unwrap(inner) }
            var fields: [String: Any] = [:]
            for (key, field) in object where key != "_type" { fields[key] = unwrap(field) }
            return fields
        }
        return value
    }

    /// Legacy `ActionTestPlanRunSummaries`: one test per configuration, target and test
    /// identifier; its outcome is its last run's status, flaky when an earlier run failed.
    static func countLegacyLeaves(_ root: [String: Any]) -> TestResults.Totals {
        var statuses: [String: [String]] = [:]
        func visit(_ node: [String: Any], prefix: String) {
            if let status = node["testStatus"] as? String {
                statuses[prefix + ((node["identifier"] as? String) ?? ""), default: []].append(status)
            }
            (node["subtests"] as? [[String: Any]] ?? []).forEach { visit($0, prefix: prefix) }
        }
        let summaries = (unwrap(root) as? [String: Any])?["summaries"] as? [[String: Any]] ?? []
        for (index, summary) in summaries.enumerated() {
            for testable in summary["testableSummaries"] as? [[String: Any]] ?? [] {
                let prefix = "\(index)|\(testable["targetName"] as? String ?? "")|"
                (testable["tests"] as? [[String: Any]] ?? []).forEach { visit($0, prefix: prefix) }
            }
        }
        var totals = TestResults.Totals()
        for runs in statuses.values {
            totals.total += 1
            switch runs.last {
            case "Success":
                totals.passed += 1
                if runs.contains("Failure") { totals.flaky += 1 }
            case "Skipped": totals.skipped += 1
            case "Expected Failure": totals.expectedFailures += 1
            default: totals.failed += 1
            }
        }
        return totals
    }

    /// Legacy `ActionsInvocationRecord.issues.testFailureSummaries`, with the location's
    /// 0-based `StartingLineNumber` made 1-based.
    static func recordFailures(_ root: [String: Any]) -> [(test: String, message: String, file: String?, line: Int?)] {
        let issues = (unwrap(root) as? [String: Any])?["issues"] as? [String: Any]
        return (issues?["testFailureSummaries"] as? [[String: Any]] ?? []).map { summary in
            let url = (summary["documentLocationInCreatingWorkspace"] as? [String: Any])?["url"] as? String ?? ""
            let components = URLComponents(string: url)
            let line = components?.fragment?.split(separator: "&").first { $0.hasPrefix("StartingLineNumber=") }
                .flatMap { Int($0.dropFirst("StartingLineNumber=".count)) }.map { $0 + 1 }
            return (summary["testCaseName"] as? String ?? "", summary["message"] as? String ?? "", components?.path, line)
        }
    }
}
