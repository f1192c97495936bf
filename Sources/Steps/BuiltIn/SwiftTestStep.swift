import Basics
import Foundation
import Xcode
import TestReports

/// `swift.test`: runs a package's tests and reports counts and failures.
public struct SwiftTestStep: Step {
    public static let description = StepDescription(
        id: "swift.test",
        summary: "Run a Swift package's tests (swift test) and report counts and failures",
        discussion: """
            Runs `swift test`, reading XCTest and Swift Testing output as it streams. Sets the \
            outputs passed, failed, skipped and total; on failure the error lists the failing \
            tests and their first assertion messages.
            """,
        options: SwiftPackageOptions.specs(command: "swift test", between: [
            .optional("filter", .string, "Run only tests matching this regular expression."),
            .optional("parallel", .bool, default: .bool(false), "Run tests in parallel processes."),
        ]),
        outputs: [
            OutputSpec("passed", "Number of tests that passed.", type: .int),
            OutputSpec("failed", "Number of tests that failed.", type: .int),
            OutputSpec("skipped", "Number of tests skipped.", type: .int),
            OutputSpec("total", "Number of tests run.", type: .int),
        ],
        examples: [
            StepExample("All tests", "- swift.test"),
            StepExample("A subset, in release mode", "- swift.test: { configuration: release, filter: LanesTests }"),
        ]
    )

    let package: SwiftPackageOptions
    let filter: String?
    let parallel: Bool

    public init(options: StepOptions) throws {
        package = try SwiftPackageOptions(options: options)
        filter = try options.string("filter")
        parallel = try options.bool("parallel")
    }

    func commandArguments(_ context: StepContext) -> [String] {
        var args = ["test"] + package.packageArguments(context)
        if let filter { args += ["--filter", filter] }
        if parallel { args.append("--parallel") }
        return args + package.arguments
    }

    public func plan(in context: StepContext) throws -> [Effect] {
        [Effect(.process, context.processSpec("swift", commandArguments(context)).commandLine)]
    }

    public func run(in context: StepContext) async throws -> StepOutputs {
        let counter = TestOutputCounter(forwardingTo: context.events)
        var counting = context
        counting.events = counter
        let spec = context.processSpec("swift", commandArguments(context))
        let result = try await context.withPrivateTemporaryDirectory(spec) { try await counting.runProcess($0) }
        let parser = counter.parser
        let outputs: StepOutputs = [
            "passed": String(parser.passed), "failed": String(parser.failed),
            "skipped": String(parser.skipped), "total": String(parser.total),
        ]
        context.events.log(.info, "\(parser.passed) passed, \(parser.failed) failed, \(parser.skipped) skipped")
        guard result.status.isSuccess else {
            if parser.failures.isEmpty {
                throw StepError.failed("swift test failed with \(result.status) before reporting a failing test (a build error?)")
            }
            let list = parser.failures.prefix(10).map { failure in
                "  \(failure.test)" + (failure.messages.first.map { ": \($0)" } ?? "")
            }.joined(separator: "\n")
            let more = parser.failures.count > 10 ? "\n  ... and \(parser.failures.count - 10) more" : ""
            throw StepError.failed("\(parser.failed) test(s) failed:\n\(list)\(more)")
        }
        return outputs
    }
}

/// Passes events through while feeding output lines to a `SwiftTestOutputParser`.
final class TestOutputCounter: StepEventSink, Sendable {
    private let next: any StepEventSink
    private let state = Locked(SwiftTestOutputParser())

    init(forwardingTo next: any StepEventSink) { self.next = next }

    var parser: SwiftTestOutputParser { state.value }

    func log(_ level: LogLevel, _ message: String) { next.log(level, message) }
    func progress(fraction: Double?, message: String) { next.progress(fraction: fraction, message: message) }
    func processOutput(_ stream: ProcessStream, line: String) {
        state.withLock { $0.consume(line) }
        next.processOutput(stream, line: line)
    }
    func testResults(_ cases: [JUnitTestCase]) { next.testResults(cases) }
}
