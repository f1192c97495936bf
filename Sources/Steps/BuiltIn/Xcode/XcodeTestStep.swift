import Basics
import Foundation
import Xcode

/// `xcode.test`: `xcodebuild test` with retries, parallel testing and coverage; the results are
/// read from the result bundle (counts, failures with file:line, flaky tests) into the step's
/// outputs, the lane's JUnit report and GitHub annotations.
public struct XcodeTestStep: Step, ProjectCheckedStep {
    public static let description = StepDescription(
        id: "xcode.test",
        summary: "Run an Xcode scheme's tests on a simulator or device and read the result bundle (macOS only)",
        discussion: """
            Runs 'xcodebuild test' (or 'test-without-building'), then reads the result bundle with \
            'xcrun xcresulttool' (Xcode 16's test-results commands, or the legacy object graph of \
            Xcode 15): counts, failures with file:line, tests that failed and then passed on a \
            retry (flaky, not failed), durations. Every test becomes a test case in the lane's \
            JUnit report and each failure a GitHub annotation. With coverage, 'xcrun xccov' gives \
            the line coverage per target.
            """,
        options: XcodeSchemeOptions.specs + [
            .optional("without-building", .bool, default: .bool(false), "Run test-without-building (after a build-for-testing)."),
            .optional("test-plan", .string, "The test plan to run (-testPlan)."),
            .optional("only-testing", .list(.string), "Run only these tests: Bundle, Bundle/Class or Bundle/Class/method."),
            .optional("skip-testing", .list(.string), "Skip these tests (same forms)."),
            .optional("retries", .int, default: .int(0), "Re-run a failing test up to this many times (-retry-tests-on-failure); one that then passes is flaky."),
            .optional("parallel", .bool, "Parallel testing on or off (-parallel-testing-enabled); default: the scheme's."),
            .optional("coverage", .bool, default: .bool(false), "Gather code coverage and report it per target."),
            .optional("result-bundle", .string, "Where the result bundle goes (default .slipway/results/LANE-STEP.xcresult; replaced when it exists)."),
        ],
        outputs: [
            OutputSpec("total", "Tests run."), OutputSpec("passed", "Tests that passed (flaky ones included)."),
            OutputSpec("failed", "Tests that failed."), OutputSpec("skipped", "Tests skipped."),
            OutputSpec("flaky", "Tests that failed, then passed on a retry."),
            OutputSpec("coverage", "Line coverage in percent, when coverage is on."),
            OutputSpec("result-bundle", "The .xcresult bundle.", file: true), OutputSpec("log", "The raw xcodebuild log.", file: true),
        ],
        examples: [
            StepExample("Test on a simulator, retrying flaky tests once", """
                - xcode.test:
                    project: App.xcodeproj
                    scheme: App
                    destinations: ["platform=iOS Simulator,name=iPhone 16,OS=18.2"]
                    retries: 1
                """),
            StepExample("One test class, with coverage", """
                - xcode.test: { workspace: App.xcworkspace, scheme: App, only-testing: [AppTests/LoginTests], coverage: true }
                """),
        ],
        platforms: [.macOS]
    )

    let scheme: XcodeSchemeOptions
    let withoutBuilding: Bool
    let testPlan: String?
    let onlyTesting: [String]
    let skipTesting: [String]
    let retries: Int
    let parallel: Bool?
    let coverage: Bool
    let resultBundle: String?

    public init(options: StepOptions) throws {
        scheme = try XcodeSchemeOptions(options: options)
        withoutBuilding = try options.bool("without-building")
        testPlan = try options.string("test-plan")
        onlyTesting = try options.strings("only-testing")
        skipTesting = try options.strings("skip-testing")
        retries = try options.requiredInt("retries")
        guard (0...20).contains(retries) else {
            throw StepError.invalidOption(name: "retries", problem: "is \(retries); give 0 (no retries) to 20.")
        }
        parallel = options.values["parallel"] == nil ? nil : try options.bool("parallel")
        coverage = try options.bool("coverage")
        resultBundle = try options.string("result-bundle")
    }

    public func checkProject(in projectDirectory: String, fileSystem: any FileSystem) throws {
        try scheme.checkProject(in: projectDirectory, fileSystem: fileSystem)
    }

    public func projectNotes(in projectDirectory: String, fileSystem: any FileSystem) -> [String] {
        scheme.projectNotes(in: projectDirectory, fileSystem: fileSystem)
    }

    func bundlePath(in context: StepContext) -> String {
        context.resolve(resultBundle ?? ".slipway/results/\(context.laneName)-\(context.stepID).xcresult")
    }

    func invocation(in context: StepContext) -> XcodebuildInvocation {
        var invocation = scheme.invocation(withoutBuilding ? .testWithoutBuilding : .test, in: context)
        invocation.testPlan = testPlan
        invocation.onlyTesting = onlyTesting
        invocation.skipTesting = skipTesting
        if retries > 0 {
            invocation.retryTestsOnFailure = true
            invocation.testIterations = retries + 1
        }
        invocation.parallelTestingEnabled = parallel
        invocation.enableCodeCoverage = coverage ? true : nil
        invocation.resultBundlePath = bundlePath(in: context)
        return invocation
    }

    public func plan(in context: StepContext) throws -> [Effect] {
        scheme.run.plan(try invocation(in: context).arguments(), name: "test", in: context)
            + [Effect(.process, "xcrun xcresulttool get test-results summary|tests --path \(bundlePath(in: context)) (read the results)")]
    }

    /// The project or workspace (options resolved) exists and has the scheme.
    public func check(in context: StepContext) async throws {
        try scheme.checkProject(in: context.workingDirectory, fileSystem: context.fileSystem, validating: false)
    }

    public func run(in context: StepContext) async throws -> StepOutputs {
        let invocation = invocation(in: context)
        let bundle = bundlePath(in: context)
        // xcodebuild refuses to write over an existing bundle.
        try context.fileSystem.remove(bundle)
        try context.fileSystem.createDirectory((bundle as NSString).deletingLastPathComponent)
        let runner = XcodebuildRunner(options: scheme.run, context: context)
        let outcome = try await runner.run(try invocation.arguments(), name: "test")
        guard context.fileSystem.exists(bundle) else {
            if !outcome.status.isSuccess { throw XcodebuildRunner.buildFailure(outcome, action: "test") }
            throw StepError.failed("xcodebuild test exited with \(outcome.status) but wrote no result bundle at '\(runner.display(bundle))'; the raw log is \(outcome.log).")
        }
        let reader = ResultBundleReader(fileSystem: context.fileSystem, xcrun: XcrunTool(runner: runner).run)
        let results: TestResults
        do {
            results = try await reader.testResults(bundle: bundle)
        } catch {
            throw StepError.failed("\(errorText(error)) The raw log is \(outcome.log).")
        }
        context.events.testResults(results.junitTestCases)
        context.events.log(results.totals.failed > 0 ? .error : .info, results.summaryLine)
        var outputs: StepOutputs = [
            "total": String(results.totals.total), "passed": String(results.totals.passed),
            "failed": String(results.totals.failed), "skipped": String(results.totals.skipped),
            "flaky": String(results.totals.flaky), "coverage": "",
            "result-bundle": runner.display(bundle), "log": outcome.log,
        ]
        if coverage {
            let summary = try await reader.coverage(bundle: bundle)
            outputs["coverage"] = String(format: "%.1f", summary.lineCoverage * 100)
            for line in summary.lines { context.events.log(.info, line) }
        }
        try Self.verdict(results, outcome: outcome)
        return outputs
    }

    /// Throws unless the tests passed and xcodebuild agreed.
    static func verdict(_ results: TestResults, outcome: XcodebuildRunner.Outcome) throws {
        if results.totals.failed > 0 {
            let list = results.failedTests.prefix(10).map { test in
                "  \(test.identifier.suite).\(test.identifier.name)" + (test.failures.first.map { ": \($0.described)" } ?? "")
            }.joined(separator: "\n")
            let more = results.totals.failed > 10 ? "\n  ... and \(results.totals.failed - 10) more" : ""
            throw StepError.failed("\(results.totals.failed) test(s) failed:\n\(list)\(more)\nThe raw log is \(outcome.log).")
        }
        if !outcome.status.isSuccess {
            let errors = outcome.summary.errorMessages.prefix(5).map { "  " + $0 }.joined(separator: "\n")
            throw StepError.failed("the tests passed (\(results.totals.passed) of \(results.totals.total)), but xcodebuild exited with \(outcome.status)\(errors.isEmpty ? "" : ":\n" + errors)\nThe raw log is \(outcome.log).")
        }
    }
}

/// Runs `xcrun TOOL ...` with the step's Xcode, returning standard output; throws
/// `XcrunFailure` when it exits non-zero (what `ResultBundleReader` expects).
struct XcrunTool: Sendable {
    let runner: XcodebuildRunner

    @Sendable func run(_ arguments: [String]) async throws -> Data {
        var spec = runner.context.processSpec("xcrun", arguments)
        spec.environment = try runner.environment()
        let result: ProcessResult
        do {
            result = try await runner.context.processRunner.run(spec, output: nil)
        } catch ProcessError.notFound {
            throw StepError.failed("xcrun was not found on PATH. It comes with Xcode's command-line tools: install Xcode, or set DEVELOPER_DIR.")
        }
        switch result.status {
        case .exited(0): return Data(result.standardOutput)
        case .exited(let code): throw XcrunFailure(status: code, standardError: result.errorText)
        case .signalled(let signal): throw XcrunFailure(status: -signal, standardError: result.errorText)
        }
    }
}
