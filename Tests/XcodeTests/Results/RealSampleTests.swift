import Foundation
import TestReports
import Testing
import TestSupport
import TestThreads
@testable import Xcode

/// Real `xcresulttool` output committed by public tools (see Fixtures/xcresult/real/MANIFEST.md).
/// The expected counts are NOT written down: they are counted here from each sample's own JSON by
/// a generic walk that shares no code with the parser.
@Suite("Real xcresulttool samples: counts and failures as the bundle gives them", .dedicatedThreads)
struct RealSampleTests {
    /// The samples the MANIFEST lists, by kind: `tests` (`get test-results tests`), `record`
    /// (legacy `get --format json`), `summaries` (legacy `get --format json --id <testsRef>`).
    static let samples: [String] = RealSamples.listed()

    @Test("the MANIFEST lists every file in real/, each with its Xcode version")
    func manifest() throws {
        let files = try FileManager.default.contentsOfDirectory(atPath: RealSamples.directory.path).filter { $0.hasSuffix(".json") }
        #expect(Set(files) == Set(Self.samples))
        #expect(Self.samples.count >= 5)
        let manifest = try String(contentsOf: RealSamples.directory.appendingPathComponent("MANIFEST.md"), encoding: .utf8)
        for sample in Self.samples {
            let row = manifest.split(separator: "\n").first { $0.contains("`\(sample)`") }
            #expect(row?.contains("Xcode") == true, "no Xcode version for \(sample)")
            #expect(row.map { $0.contains("MIT") || $0.contains("Apache-2.0") } == true, "no license for \(sample)")
        }
    }

    @Test("totals equal the sample's own; every failure message reaches the results and the JUnit file", arguments: samples)
    func sample(_ name: String) async throws {
        let data = try Data(contentsOf: RealSamples.directory.appendingPathComponent(name))
        let raw = try #require(try JSONSerialization.jsonObject(with: data) as? [String: Any])
        if name.hasSuffix(".tests.json") {
            try await checkTests(name, data: data, raw: raw)
        } else if name.hasSuffix(".record.json") {
            try checkRecord(data: data, raw: raw)
        } else {
            try checkSummaries(data: data, raw: raw)
        }
    }

    /// Xcode 16+: through the reader, as `xcode.test` reads a bundle (the sources committed no
    /// `summary` output, so the stand-in answers `summary` with `{}`).
    private func checkTests(_ name: String, data: Data, raw: [String: Any]) async throws {
        let directory = try TemporaryDirectory()
        let bundle = try ResultFixtures.bundle(in: directory)
        let reader = ResultBundleReader { arguments in
            arguments.contains("summary") ? Data("{}".utf8) : data
        }
        let results = try await reader.testResults(bundle: bundle)
        let expected = RealSamples.countTestCases(raw)
        #expect(results.totals == expected.totals, "\(name)")
        #expect(results.tests.map(\.identifier.name) == expected.names)
        #expect(results.tests.count == expected.durations.count)
        for (test, seconds) in zip(results.tests, expected.durations) {
            #expect(test.duration.map { ($0 * 1e6).rounded() } == seconds.map { ($0 * 1e6).rounded() }, "\(name): \(test.identifier.name)")
        }
        #expect(expected.durations.contains { $0 != nil })
        let devices = (raw["devices"] as? [[String: Any]] ?? []).map { "\($0["deviceName"] ?? "") (\($0["osVersion"] ?? ""))" }
        let configurations = (raw["testPlanConfigurations"] as? [[String: Any]] ?? []).compactMap { $0["configurationName"] as? String }
        #expect(results.devices == devices && !devices.isEmpty)
        #expect(results.configurations == configurations && !configurations.isEmpty)
        let junit = JUnitXML.render(results.junitTestCases, name: "sample")
        #expect(expected.failures.count > 0)
        for (index, messages) in expected.failures where index < results.tests.count {
            let test = results.tests[index]
            for message in messages {
                let located = RealSamples.split(message)
                let found = test.failures.contains { failure in
                    failure.file == located.file && failure.line == located.line && failure.message.hasSuffix(located.message)
                }
                #expect(found, "\(name): '\(message)' missing from \(test.identifier.name)")
                // A skipped test's JUnit element holds one reason: its first.
                guard test.outcome != .skipped || message == messages.first else { continue }
                let firstLine = String(located.message.split(separator: "\n").first ?? "")
                #expect(junit.contains(JUnitXML.escape(firstLine)), "\(name): '\(message)' missing from the JUnit file")
            }
        }
    }

    /// Legacy test plan run summaries: the leaves as the reader groups and folds them.
    private func checkSummaries(data: Data, raw: [String: Any]) throws {
        let value = try JSONDecoder().decode(LegacyValue.self, from: data)
        var configurations: [String] = []
        let tests = try LegacyResults.grouped(LegacyResults.leaves(value, configurations: &configurations)).map {
            try LegacyResults.result($0, failures: [], device: nil)
        }
        #expect(TestResults(tests: tests).totals == RealSamples.countLegacyLeaves(raw))
        #expect(configurations == ["Configuration 1"])
    }

    /// Legacy invocation record: the test references and every `testFailureSummaries` entry.
    private func checkRecord(data: Data, raw: [String: Any]) throws {
        let value = try JSONDecoder().decode(LegacyValue.self, from: data)
        let expected = RealSamples.recordFailures(raw)
        let parsed = LegacyResults.recordFailures(value)
        #expect(parsed.count == expected.count)
        #expect(expected.count > 0)
        for (entry, want) in zip(parsed, expected) {
            #expect(entry.testCaseName == want.test)
            #expect(entry.failure.message == want.message)
            #expect(entry.failure.file == want.file && entry.failure.line == want.line)
        }
        #expect(LegacyResults.testReferences(value).map(\.device) == ["iPhone 11"])
    }
}
