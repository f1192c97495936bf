import Foundation
import Testing
import TestThreads
import Xcode

/// The formatter over every log of the real-log corpus (Fixtures/real-logs, listed in MANIFEST.tsv):
/// its counts equal the log's own totals and a count made by `RawLogCounter`, which reads the raw
/// lines with plain regular expressions and shares no code with the parser; and every error,
/// warning and test failure line of the raw log shows in the output.
@Suite("real xcodebuild logs", .dedicatedThreads)
struct RealLogCorpusTests {
    /// The files MANIFEST.tsv lists (its first column), with the four columns that say where they come from.
    static let manifest: [[String]] = {
        guard let text = try? String(contentsOfFile: LogFixtures.realLogs + "/MANIFEST.tsv", encoding: .utf8) else { return [] }
        return text.split(separator: "\n").filter { !$0.hasPrefix("#") }.map { $0.split(separator: "\t").map(String.init) }
    }()

    @Test("MANIFEST.tsv lists every log in the folder with repository, path, a 40-hex commit and a licence")
    func manifestIsComplete() throws {
        let files = try FileManager.default.contentsOfDirectory(atPath: LogFixtures.realLogs).filter { $0.hasSuffix(".log") }
        #expect(Set(files) == Set(Self.manifest.map { $0[0] }))
        #expect(Self.manifest.count >= 9)
        for row in Self.manifest {
            #expect(row.count == 6, "\(row)")
            #expect(row[3].count == 40 && row[3].allSatisfy(\.isHexDigit), "\(row)")
            #expect(["MIT", "Apache-2.0", "BSD-3-Clause"].contains(row[4]), "\(row)")
        }
    }

    @Test("counts equal the log's totals and an independent count; no error, warning or failure is lost",
          arguments: manifest.map { $0[0] })
    func corpusLog(_ name: String) throws {
        let text = try LogFixtures.text(name, in: LogFixtures.realLogs)
        let raw = RawLogCounter(text)
        let (lines, summary) = try LogFixtures.rendered(name, in: LogFixtures.realLogs)
        #expect(summary.totalsMismatches == [], "\(name): \(summary.totalsMismatches.map(\.message))")
        #expect(summary.reportedXCTestTotals?.tests == raw.xctestTotals?.tests && summary.reportedXCTestTotals?.failures == raw.xctestTotals?.failures, "\(name) XCTest totals read")
        #expect(summary.reportedSwiftTestingTotals?.tests == raw.swiftTestingTotals?.tests && summary.reportedSwiftTestingTotals?.failures == raw.swiftTestingTotals?.failures, "\(name) Swift Testing totals read")
        #expect(summary.errors == raw.errors.count, "\(name) errors")
        #expect(summary.warnings == raw.warnings.count, "\(name) warnings")
        #expect(summary.testCases.count == raw.testRuns, "\(name) tests (one per run: nothing folded by name)")
        #expect(summary.testsFailed == raw.failedRuns, "\(name) failed tests")
        #expect(summary.failures.count == raw.failureMessages.count, "\(name) failure lines")
        if let totals = raw.xctestTotals { #expect(raw.xctestRuns == totals.tests && raw.xctestFailures == totals.failures, "\(name) XCTest totals") }
        if let totals = raw.swiftTestingTotals { #expect(raw.swiftTestingRuns == totals.tests && raw.swiftTestingIssues == totals.failures, "\(name) Swift Testing totals") }
        let output = lines.joined(separator: "\n")
        for message in raw.errors + raw.warnings + raw.failureMessages {
            #expect(output.contains(message), "\(name): not in the output: \(message)")
        }
        let failedResult = raw.resultLines.contains { $0.hasSuffix("FAILED **") }
        #expect(summary.failed == (failedResult || !raw.errors.isEmpty || raw.failedRuns > 0), "\(name) failed")
        if failedResult && !raw.errors.isEmpty { #expect(!lines.last!.contains(" 0 errors")) }
    }

    @Test("the issue's log: Specta's shared examples run 24 names more than once; 922 tests, 1 failed, as xcodebuild says")
    func sharedExamples() throws {
        let (lines, summary) = try LogFixtures.rendered("xcpretty-raw_specta_fail.log", in: LogFixtures.realLogs)
        #expect(summary.testCases.count == 922 && summary.testsFailed == 1 && summary.testsFlaky == 0 && summary.failed)
        #expect(summary.reportedXCTestTotals?.tests == 922 && summary.reportedXCTestTotals?.failures == 1)
        #expect(lines.last == "✖ Failed: 0 errors, 0 warnings, tests: 921 passed, 1 failed, 0 skipped")
    }

    @Test("the corpus covers what it is for: build errors, <unknown>:0:, XCTest, Swift Testing, parallel testing")
    func corpusVariety() throws {
        let texts = try Self.manifest.map { try LogFixtures.text($0[0], in: LogFixtures.realLogs) }.joined(separator: "\n")
        let raw = RawLogCounter(texts)
        #expect(raw.errors.count >= 2 && raw.warnings.count >= 12 && raw.failedRuns >= 5)
        #expect(texts.contains("<unknown>:0: warning: ") && texts.contains(" on 'Clone 1 of ") && texts.contains("Test run with "))
    }
}

/// A deliberately simple reading of a raw log, line by line with regular expressions, written
/// apart from the parser (no shared code) to check its counts.
struct RawLogCounter {
    var errors: [String] = []
    var warnings: [String] = []
    var failureMessages: [String] = []
    var testRuns = 0, failedRuns = 0
    var xctestRuns = 0, xctestFailures = 0, swiftTestingRuns = 0, swiftTestingIssues = 0
    var xctestTotals: (tests: Int, failures: Int)?
    var swiftTestingTotals: (tests: Int, failures: Int)?
    var resultLines: [String] = []

    init(_ text: String) {
        let diagnostic = /^(\/[^:]*|<unknown>|[^ \t:][^:]*(?::\d+)?|[A-Za-z0-9_.+-]+)(?::\d+)*: (fatal error|error|warning): (.*)$/
        let bare = /^(error|warning|fatal error): (.*)$/
        let xctestFailure = /^(?:-\[\S+ \S+\]|\S+\.\S+) : (.*)$/
        let xctestCase = /^Test [Cc]ase '[^']*' (passed|failed|skipped)/
        let swiftTestingCase = /^\S{1,2} +Test (?!run with ).*? (passed after|failed after|skipped(?=\.$|: "|$))/
        // Issue messages may run over several lines: the test's name is what must show.
        let swiftTestingIssue = /^\S{1,2} +Test "?(.*?)"? recorded an issue/
        let swiftTestingRun = /^\S{1,2} +Test run with (\d+) tests?(?: in \d+ suites?)? (?:passed|failed) after [\d.]+ seconds(?: with (\d+) issues?)?/
        let executed = /^\s*Executed (\d+) tests?, with (\d+) failures?/
        var lastLineEndedOutermostSuite = false
        var depth = 0
        for line in text.split(separator: "\n", omittingEmptySubsequences: false).map({ $0.hasSuffix("\r") ? $0.dropLast() : $0 }) {
            let endedSuite = lastLineEndedOutermostSuite
            lastLineEndedOutermostSuite = false
            if line.hasPrefix("Test Suite '") {
                if line.contains("' started at ") { depth += 1 } else if line.contains("' passed at ") || line.contains("' failed at ") || line.contains("' finished at ") {
                    depth -= 1
                    lastLineEndedOutermostSuite = depth == 0
                }
            } else if let match = line.wholeMatch(of: executed) ?? line.prefixMatch(of: executed), endedSuite {
                let previous = xctestTotals ?? (0, 0)
                xctestTotals = (previous.tests + Int(match.1)!, previous.failures + Int(match.2)!)
            } else if let match = line.prefixMatch(of: xctestCase) {
                testRuns += 1; xctestRuns += 1
                if match.1 == "failed" { failedRuns += 1 }
            } else if let match = line.prefixMatch(of: swiftTestingRun) {
                let previous = swiftTestingTotals ?? (0, 0)
                swiftTestingTotals = (previous.tests + Int(match.1)!, previous.failures + (match.2.map { Int($0)! } ?? 0))
            } else if let match = line.prefixMatch(of: swiftTestingIssue) {
                failureMessages.append(String(match.1)); swiftTestingIssues += 1
            } else if let match = line.prefixMatch(of: swiftTestingCase) {
                testRuns += 1; swiftTestingRuns += 1
                if match.1 == "failed after" { failedRuns += 1 }
            } else if line.hasPrefix("** ") {
                resultLines.append(String(line))
            } else if line.hasPrefix("Undefined symbols for architecture ") || line.hasPrefix("ld: ") && !line.hasPrefix("ld: warning: ") {
                errors.append(String(line.hasSuffix(":") ? line.dropLast() : line))
            } else if let match = line.wholeMatch(of: diagnostic) {
                if match.2 != "warning", let failure = match.3.wholeMatch(of: xctestFailure) {
                    failureMessages.append(String(failure.1)); xctestFailures += 1
                } else if match.2 == "warning" { warnings.append(String(match.3)) } else { errors.append(String(match.3)) }
            } else if let match = line.wholeMatch(of: bare) {
                if match.1 == "warning" { warnings.append(String(match.2)) } else { errors.append(String(match.2)) }
            }
        }
    }
}
