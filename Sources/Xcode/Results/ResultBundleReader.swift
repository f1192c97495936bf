import Basics
import Foundation

/// Reads the test results (and optionally the code coverage) of an `.xcresult` bundle through
/// `xcrun xcresulttool` and `xcrun xccov`, which the caller runs (`xcrun`).
///
/// It asks Xcode 16+'s `xcresulttool get test-results summary` and `... tests` first. When the
/// `summary` command fails with an `XcrunFailure` whose standard error is a usage error about
/// the arguments (what an `xcresulttool` from Xcode 15 or older prints for the unknown
/// `test-results` subcommand), it reads the legacy object graph instead: `get --format json`
/// for the invocation record, then `get --format json --id` for each test plan run summary and
/// for the summary of each test that did not pass. Any other failure is reported.
public struct ResultBundleReader: Sendable {
    /// Runs `xcrun` with these arguments (`["xcresulttool", "get", ...]`) and returns its standard
    /// output; throws `XcrunFailure` when it exits non-zero.
    public typealias Xcrun = @Sendable (_ arguments: [String]) async throws -> Data

    /// The most output of one xcresulttool/xccov command that is decoded by default. The result
    /// bundle may come from an untrusted branch's build; a report of 100,000 tests is tens of MB.
    public static let defaultMaximumOutputBytes = 256 << 20

    private let fileSystem: any FileSystem
    private let xcrun: Xcrun
    private let maximumOutputBytes: Int

    /// A reader that checks bundles on `fileSystem` and runs the tools through `xcrun`; output
    /// larger than `maximumOutputBytes` is refused before it is decoded.
    public init(fileSystem: any FileSystem = LocalFileSystem(), maximumOutputBytes: Int = Self.defaultMaximumOutputBytes,
                xcrun: @escaping Xcrun) {
        self.fileSystem = fileSystem
        self.maximumOutputBytes = maximumOutputBytes
        self.xcrun = xcrun
    }

    /// The test results in the bundle at `bundle`.
    /// - Throws: `ResultBundleError` when the bundle is missing, a tool fails, or its output is
    ///   not the JSON expected.
    public func testResults(bundle: String) async throws -> TestResults {
        guard fileSystem.kind(of: bundle) != nil else { throw ResultBundleError.bundleMissing(path: bundle) }
        let summaryArguments = ["xcresulttool", "get", "test-results", "summary", "--path", bundle, "--format", "json"]
        let summaryData: Data
        do {
            summaryData = try await xcrun(summaryArguments)
        } catch let failure as XcrunFailure where failure.refusedSubcommand {
            return try await legacyResults(bundle: bundle)
        } catch {
            throw failed(bundle, summaryArguments, error)
        }
        let summary = try decode(TestResultsJSON.Summary.self, summaryData, bundle, summaryArguments)
        let testsArguments = ["xcresulttool", "get", "test-results", "tests", "--path", bundle, "--format", "json"]
        let tests = try decode(TestResultsJSON.Tests.self, try await run(testsArguments, bundle), bundle, testsArguments)
        let results: TestResults
        do {
            results = try TestNodeTree.results(tests, summary: summary)
        } catch let error as TestNodeTree.Unreadable {
            throw ResultBundleError.malformedOutput(path: bundle, command: Self.command(testsArguments), reason: "at '\(error.path)': \(error.reason)")
        }
        if let mismatch = summary.mismatch(with: results.totals) {
            throw ResultBundleError.countsDisagree(path: bundle, summary: Self.command(summaryArguments), tests: Self.command(testsArguments),
                                                   detail: mismatch)
        }
        return results
    }

    /// The line coverage of each target, from `xcrun xccov view --report --json`.
    /// - Throws: `ResultBundleError`, as `testResults(bundle:)`.
    public func coverage(bundle: String) async throws -> CoverageSummary {
        guard fileSystem.kind(of: bundle) != nil else { throw ResultBundleError.bundleMissing(path: bundle) }
        let arguments = ["xccov", "view", "--report", "--json", bundle]
        return try decode(CoverageSummary.self, try await run(arguments, bundle), bundle, arguments)
    }

    /// Xcode 15 and older: the invocation record, then each run's tests and failed tests' summaries.
    private func legacyResults(bundle: String) async throws -> TestResults {
        let recordArguments = ["xcresulttool", "get", "--format", "json", "--path", bundle]
        let record = try decode(LegacyValue.self, try await run(recordArguments, bundle), bundle, recordArguments)
        let recordFailures = LegacyResults.recordFailures(record)
        var tests: [TestResult] = []
        var devices: [String] = []
        var configurations: [String] = []
        for reference in LegacyResults.testReferences(record) {
            if let device = reference.device, !devices.contains(device) { devices.append(device) }
            let arguments = recordArguments + ["--id", reference.id]
            let summaries = try decode(LegacyValue.self, try await run(arguments, bundle), bundle, arguments)
            for leaves in LegacyResults.grouped(LegacyResults.leaves(summaries, configurations: &configurations)) {
                var failures: [TestResult.Failure] = []
                for leaf in leaves where leaf.status != "Success" {
                    guard let id = leaf.summaryID else { continue }
                    let summaryArguments = recordArguments + ["--id", id]
                    let summary = try decode(LegacyValue.self, try await run(summaryArguments, bundle), bundle, summaryArguments)
                    for failure in LegacyResults.failures(summary) where !failures.contains(failure) { failures.append(failure) }
                }
                if failures.isEmpty, leaves.contains(where: { $0.status == "Failure" }) {
                    failures = LegacyResults.failures(of: leaves[0], in: recordFailures)
                }
                do {
                    tests.append(try LegacyResults.result(leaves, failures: failures, device: reference.device))
                } catch let error as TestNodeTree.Unreadable {
                    throw ResultBundleError.malformedOutput(path: bundle, command: Self.command(arguments), reason: "at '\(error.path)': \(error.reason)")
                }
            }
        }
        if tests.isEmpty, let counted = record["metrics"]?["testsCount"]?.string.flatMap(Int.init), counted > 0 {
            throw ResultBundleError.malformedOutput(path: bundle, command: Self.command(recordArguments),
                                                    reason: "its 'metrics.testsCount' is \(counted), but no test was found under 'actions[].actionResult.testsRef'")
        }
        return TestResults(tests: tests, devices: devices, configurations: configurations)
    }

    private func run(_ arguments: [String], _ bundle: String) async throws -> Data {
        do {
            return try await xcrun(arguments)
        } catch {
            throw failed(bundle, arguments, error)
        }
    }

    private func failed(_ bundle: String, _ arguments: [String], _ error: any Error) -> ResultBundleError {
        let detail = (error as? XcrunFailure)?.firstLine ?? error.localizedDescription
        return .toolFailed(path: bundle, command: Self.command(arguments), detail: detail)
    }

    private func decode<Value: Decodable>(_ type: Value.Type, _ data: Data, _ bundle: String, _ arguments: [String]) throws -> Value {
        guard data.count <= maximumOutputBytes else {
            throw ResultBundleError.malformedOutput(
                path: bundle, command: Self.command(arguments),
                reason: "it is \(data.count) bytes, more than the \(maximumOutputBytes) bytes slipway decodes; the result bundle may be hostile")
        }
        do {
            return try JSONDecoder().decode(type, from: data)
        } catch let error as DecodingError {
            throw ResultBundleError.malformedOutput(path: bundle, command: Self.command(arguments), reason: error.briefReason)
        } catch {
            throw ResultBundleError.malformedOutput(path: bundle, command: Self.command(arguments), reason: "\(error)")
        }
    }

    /// The command as a person would type it (bundle path included).
    static func command(_ arguments: [String]) -> String {
        (["xcrun"] + arguments).joined(separator: " ")
    }
}
