import Foundation

/// Turns Xcode 16+'s `testNodes` tree into `TestResult`s.
///
/// - A "Test Case" becomes one result, or one per "Device" / "Test Case Run" child when the
///   run used several devices or configurations.
/// - Its outcome is its own `result`, which xcodebuild computed. "Repetition" nodes below it
///   (directly, or under each "Arguments" node of a parameterized test) are its runs
///   (`-test-iterations`, `-retry-tests-on-failure`): a test whose `result` is "Passed" although
///   one of its repetitions failed is flaky. Nothing else makes a test flaky.
/// - A `result` slipway does not know is an error naming the node's JSON path (`Unreadable`),
///   never a silent count.
/// - "Failure Message" nodes below it are its failures, wherever they sit (under a Repetition or
///   an "Arguments" node of a parameterized Swift Testing test, whose arguments then prefix the
///   message); "Expected Failure", "Attachment" and "Runtime Warning" nodes are not failures.
/// - Any other node type, known or not, is looked through for test cases.
enum TestNodeTree {
    struct Context {
        var bundle = ""
        var suites: [String] = []
        /// The indexes leading to the node (`[0, 2]` is `testNodes[0].children[2]`), for errors.
        var path: [Int] = []
    }

    /// `testNodes[0].children[2]` for `[0, 2]`.
    static func describe(_ path: [Int]) -> String {
        path.enumerated().map { $0.offset == 0 ? "testNodes[\($0.element)]" : ".children[\($0.element)]" }.joined()
    }

    /// A node whose content slipway cannot read; `path` is its JSON path.
    struct Unreadable: Error, Equatable {
        var path: String
        var reason: String
    }

    /// The results in `tests` (`get test-results tests`), with the run's duration and device
    /// list taken from `summary` when given.
    /// - Throws: `Unreadable` for a test whose `result` is not one xcresulttool documents.
    static func results(_ tests: TestResultsJSON.Tests, summary: TestResultsJSON.Summary?) throws -> TestResults {
        var results: [TestResult] = []
        for (index, node) in tests.testNodes.enumerated() {
            try collect(node, Context(path: [index]), into: &results)
        }
        var devices: [String] = []
        var configurations: [String] = []
        func add(_ name: String?, to list: inout [String]) {
            if let name, !name.isEmpty, !list.contains(name) { list.append(name) }
        }
        for entry in summary?.devicesAndConfigurations ?? [] {
            add(entry.device?.label, to: &devices)
            add(entry.testPlanConfiguration?.configurationName, to: &configurations)
        }
        for device in tests.devices { add(device.label, to: &devices) }
        for configuration in tests.testPlanConfigurations { add(configuration.configurationName, to: &configurations) }
        var duration: Double?
        if let start = summary?.startTime, let finish = summary?.finishTime, finish >= start { duration = finish - start }
        return TestResults(tests: results, duration: duration, devices: devices, configurations: configurations)
    }

    private static func collect(_ node: TestResultsJSON.Node, _ context: Context, into results: inout [TestResult]) throws {
        var context = context
        switch node.nodeType {
        case "Unit test bundle", "UI test bundle":
            context.bundle = node.name
        case "Test Suite":
            context.suites.append(node.name)
        case "Test Case":
            results += try testCase(node, context)
            return
        case "Failure Message", "Source Code Reference", "Attachment", "Expected Failure", "Runtime Warning":
            return
        default:
            break
        }
        for (index, child) in node.children.enumerated() {
            var inner = context
            inner.path.append(index)
            try collect(child, inner, into: &results)
        }
    }

    private static func testCase(_ node: TestResultsJSON.Node, _ context: Context) throws -> [TestResult] {
        let identifier = TestResult.Identifier(bundle: context.bundle, suite: context.suites.joined(separator: "."), name: node.name)
        let runs = node.children.enumerated().filter { $0.element.nodeType == "Device" || $0.element.nodeType == "Test Case Run" }
        guard !runs.isEmpty else { return [try result(identifier, node, path: context.path, device: nil, duration: node.seconds)] }
        return try runs.map { index, run in
            try result(identifier, run, path: context.path + [index], device: run.name, duration: run.seconds ?? node.seconds)
        }
    }

    private static func result(_ identifier: TestResult.Identifier, _ node: TestResultsJSON.Node, path: [Int], device: String?,
                               duration: Double?) throws -> TestResult {
        var repetitions: [TestResultsJSON.Node] = []
        var failures: [TestResult.Failure] = []
        gather(node, arguments: nil, repetitions: &repetitions, failures: &failures)
        // Each "Arguments" node repeats on its own: the runs are the most repetitions under one parent.
        var runs = node.children.reduce(0) { $0 + ($1.nodeType == "Repetition" ? 1 : 0) }
        for child in node.children where child.nodeType == "Arguments" {
            runs = max(runs, child.children.reduce(0) { $0 + ($1.nodeType == "Repetition" ? 1 : 0) })
        }
        if let result = node.result, result != "unknown", self.outcome(result) == nil {
            throw Unreadable(path: describe(path), reason: "test '\(identifier.name)' has the result '\(result)', which slipway does not know")
        }
        var outcome = self.outcome(node.result)
        if outcome == nil, node.result == nil, let last = repetitions.last {
            // No result of its own (older output): the last run decides.
            outcome = self.outcome(last.result)
        }
        if outcome == .passed, repetitions.contains(where: { $0.result == "Failed" }) { outcome = .flaky }
        if outcome == nil {
            outcome = .failed
            if failures.isEmpty { failures.append(TestResult.Failure(message: "The result bundle gives no result for this test (it may have crashed or been cut off).")) }
        }
        return TestResult(identifier: identifier, outcome: outcome ?? .failed, duration: duration, failures: failures,
                          runs: max(runs, 1), device: device)
    }

    /// Collects the repetitions and failure messages below `node`, in document order.
    private static func gather(_ node: TestResultsJSON.Node, arguments: String?, repetitions: inout [TestResultsJSON.Node],
                               failures: inout [TestResult.Failure]) {
        for child in node.children {
            switch child.nodeType {
            case "Repetition":
                repetitions.append(child)
                gather(child, arguments: arguments, repetitions: &repetitions, failures: &failures)
            case "Arguments":
                gather(child, arguments: child.name, repetitions: &repetitions, failures: &failures)
            case "Failure Message":
                var failure = ResultText.failure(child.name)
                if failure.file == nil, let reference = child.children.first(where: { $0.nodeType == "Source Code Reference" }) {
                    let located = ResultText.failure(reference.name + ": " + failure.message)
                    if located.file != nil { failure = located }
                }
                if let arguments { failure.message = "(arguments: \(arguments)) " + failure.message }
                if !failures.contains(failure) { failures.append(failure) }
            case "Expected Failure", "Attachment", "Runtime Warning", "Source Code Reference":
                continue
            default:
                gather(child, arguments: arguments, repetitions: &repetitions, failures: &failures)
            }
        }
    }

    /// The outcome a node's `result` names; nil for "unknown" or none.
    static func outcome(_ result: String?) -> TestResult.Outcome? {
        switch result {
        case "Passed": .passed
        case "Failed": .failed
        case "Skipped": .skipped
        case "Expected Failure": .expectedFailure
        default: nil
        }
    }
}
