import Foundation

extension LegacyResults {
    /// One entry of the invocation record's `issues.testFailureSummaries`: the failures of the
    /// whole run, with the test they belong to.
    struct RecordFailure: Sendable, Equatable {
        /// `testCaseName` as the record gives it: `Suite.test()` or `-[Suite test]`.
        var testCaseName: String
        var failure: TestResult.Failure
    }

    /// `issues.testFailureSummaries[]` of an `ActionsInvocationRecord`: message, test case and
    /// location (`documentLocationInCreatingWorkspace.url`, `file:///path#...StartingLineNumber=41`).
    static func recordFailures(_ record: LegacyValue) -> [RecordFailure] {
        (record["issues"]?["testFailureSummaries"]?.values ?? []).map { summary in
            let location = summary["documentLocationInCreatingWorkspace"]?["url"]?.string.map(Self.location)
            let failure = TestResult.Failure(message: summary["message"]?.string ?? "(no message)", file: location?.file,
                                             line: location?.line)
            return RecordFailure(testCaseName: summary["testCaseName"]?.string ?? "", failure: failure)
        }
    }

    /// The record's failures of the test `identifier` names (`Suite/test()` in the test tree is
    /// `Suite.test()` or `-[Suite test]` in the record).
    static func failures(of leaf: Leaf, in recordFailures: [RecordFailure]) -> [TestResult.Failure] {
        let suite = leaf.identifier.suite.split(separator: ".").last.map(String.init) ?? ""
        let name = leaf.identifier.name
        let bare = name.hasSuffix("()") ? String(name.dropLast(2)) : name
        let names: Set<String> = [suite + "." + name, suite + "." + bare, "-[" + suite + " " + bare + "]", leaf.identifier.suite + "." + name]
        var failures: [TestResult.Failure] = []
        for entry in recordFailures where names.contains(entry.testCaseName) && !failures.contains(entry.failure) {
            failures.append(entry.failure)
        }
        return failures
    }

    /// The file and line of a `DVTTextDocumentLocation` URL. Its `StartingLineNumber` counts from
    /// 0 (as the xcresulttool GitHub Action and danger-xcode_summary read it), so 1 is added.
    static func location(_ url: String) -> (file: String?, line: Int?) {
        let parts = url.split(separator: "#", maxSplits: 1).map(String.init)
        var file = parts.first ?? url
        if file.hasPrefix("file://") { file = String(file.dropFirst("file://".count)) }
        file = file.removingPercentEncoding ?? file
        var line: Int?
        if parts.count > 1 {
            for field in parts[1].split(separator: "&") {
                let pair = field.split(separator: "=", maxSplits: 1)
                if pair.count == 2, pair[0] == "StartingLineNumber", let value = Int(pair[1]) { line = value + 1 }
            }
        }
        return (file.isEmpty ? nil : file, line)
    }
}
