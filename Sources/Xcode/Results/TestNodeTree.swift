import Foundation

/// Turns Xcode 16+'s `testNodes` tree into `TestResult`s.
///
/// - A "Test Case" becomes one result, or one per "Device" / "Test Case Run" child when the
///   run used several devices or configurations.
/// - "Repetition" nodes below it are its runs (`-test-iterations`, `-retry-tests-on-failure`):
///   when an earlier run failed and the last one passed, the test is flaky, not failed.
/// - "Failure Message" nodes below it are its failures, wherever they sit (under a Repetition or
///   an "Arguments" node of a parameterized Swift Testing test, whose arguments then prefix the
///   message); "Expected Failure", "Attachment" and "Runtime Warning" nodes are not failures.
/// - Any other node type, known or not, is looked through for test cases.
enum TestNodeTree {
    struct Context {
        var bundle = ""
        var suites: [String] = []
    }

    /// The results in `tests` (`get test-results tests`), with the run's duration and device
    /// list taken from `summary` when given.
    static func results(_ tests: TestResultsJSON.Tests, summary: TestResultsJSON.Summary?) -> TestResults {
        var results: [TestResult] = []
        for node in tests.testNodes { collect(node, Context(), into: &results) }
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

    private static func collect(_ node: TestResultsJSON.Node, _ context: Context, into results: inout [TestResult]) {
        var context = context
        switch node.nodeType {
        case "Unit test bundle", "UI test bundle":
            context.bundle = node.name
        case "Test Suite":
            context.suites.append(node.name)
        case "Test Case":
            results += testCase(node, context)
            return
        case "Failure Message", "Source Code Reference", "Attachment", "Expected Failure", "Runtime Warning":
            return
        default:
            break
        }
        for child in node.children { collect(child, context, into: &results) }
    }

    private static func testCase(_ node: TestResultsJSON.Node, _ context: Context) -> [TestResult] {
        let identifier = TestResult.Identifier(bundle: context.bundle, suite: context.suites.joined(separator: "."), name: node.name)
        let runs = node.children.filter { $0.nodeType == "Device" || $0.nodeType == "Test Case Run" }
        guard !runs.isEmpty else { return [result(identifier, node, device: nil, duration: node.seconds)] }
        return runs.map { result(identifier, $0, device: $0.name, duration: $0.seconds ?? node.seconds) }
    }

    private static func result(_ identifier: TestResult.Identifier, _ node: TestResultsJSON.Node, device: String?,
                               duration: Double?) -> TestResult {
        var repetitions: [TestResultsJSON.Node] = []
        var failures: [TestResult.Failure] = []
        gather(node, arguments: nil, repetitions: &repetitions, failures: &failures)
        var outcome = self.outcome(node.result)
        if let last = repetitions.last {
            let failedBefore = repetitions.dropLast().contains { $0.result == "Failed" }
            switch last.result {
            case "Passed": outcome = failedBefore ? .flaky : .passed
            case "Failed": outcome = .failed
            default: break
            }
        }
        if outcome == nil {
            outcome = .failed
            if failures.isEmpty { failures.append(TestResult.Failure(message: "The result bundle gives no result for this test (it may have crashed or been cut off).")) }
        }
        return TestResult(identifier: identifier, outcome: outcome ?? .failed, duration: duration, failures: failures,
                          runs: max(repetitions.count, 1), device: device)
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
