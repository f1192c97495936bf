import Basics
import Foundation
import Networking
import ProjectLint
@testable import Steps
import TestSupport
import TestThreads
import Testing

@Suite("lint step", .dedicatedThreads)
struct LintStepTests {
    final class Collector: StepEventSink, @unchecked Sendable {
        let lock = NSLock()
        var lines: [String] = []
        func log(_ level: LogLevel, _ message: String) { lock.withLock { lines.append("\(level): \(message)") } }
        func progress(fraction: Double?, message: String) {}
        func processOutput(_ stream: ProcessStream, line: String) {}
    }

    func context(_ directory: String, _ events: Collector) -> StepContext {
        StepContext(laneName: "test", stepID: "lint", workingDirectory: directory, environment: .current,
                    fileSystem: LocalFileSystem(), processRunner: LocalProcessRunner(), events: events,
                    services: StepServices(httpClient: SystemHTTPClient()))
    }

    func project(_ rule: any LintRule) throws -> TemporaryDirectory {
        let folder = try TemporaryDirectory(prefix: "slipway-lint-step")
        let example = try #require(rule.examples.first)
        try folder.write("App.xcodeproj/project.pbxproj", example.project)
        for file in example.files { try folder.write(file, "") }
        try folder.write(".slipway/lint.yml", "rules:\n  non-canonical-format: off\n")
        return folder
    }

    @Test func registered() {
        #expect(StepRegistry.builtInTypes.contains { $0.description.id == "lint" })
    }

    @Test func warningsPassByDefaultAndFailWithFailOnWarning() async throws {
        let folder = try project(EmptyGroupRule())
        let events = Collector()
        let outputs = try await LintStep(options: StepOptions(["project": .string("App.xcodeproj")], for: LintStep.description)).run(in: context(folder.path, events))
        #expect(outputs == ["errors": "0", "warnings": "1", "notes": "0", "findings": "1"])
        #expect(events.lines == ["warning: App.xcodeproj/project.pbxproj:8: group 'Leftovers' is empty; remove it [empty-group]"])
        let strict = try LintStep(options: StepOptions(["project": .string("App.xcodeproj"), "fail-on": .string("warning"),
                                                        "sarif": .string("build/lint.sarif")], for: LintStep.description))
        await #expect(throws: StepError.failed("0 errors, 1 warning, 0 notes in \(folder.path)/App.xcodeproj/project.pbxproj (fail-on: warning)")) {
            _ = try await strict.run(in: context(folder.path, Collector()))
        }
        #expect(FileManager.default.fileExists(atPath: folder.path + "/build/lint.sarif"))
    }

    @Test func badConfigurationNamesTheOption() async throws {
        let folder = try project(EmptyGroupRule())
        try folder.write(".slipway/lint.yml", "rules:\n  orphan: off\n")
        await #expect(throws: StepError.invalidOption(
            name: "config",
            problem: "\(folder.path)/.slipway/lint.yml:2:3: error: unknown rule 'orphan'; 'slipway xcodeproj lint --rules' lists them.")) {
            _ = try await LintStep(options: StepOptions(["project": .string("App.xcodeproj")], for: LintStep.description)).run(in: context(folder.path, Collector()))
        }
    }
}
