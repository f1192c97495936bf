import Basics
import Foundation
import Lanes
import Networking
import Steps
import TestThreads
import Testing

/// `requires:` is checked before step one through the injected `ToolRequirements` (the Pins
/// module's verifier in the real binary; its own tests drive the real verification).
@Suite(.dedicatedThreads) struct RequiresTests {
    struct Tools: ToolRequirements {
        let verified: Set<String>
        func requireVerified(names: [String]) async throws {
            let bad = names.filter { !verified.contains($0) }
            if !bad.isEmpty { throw StepError.failed(bad.map { "'\($0)': not installed" }.joined(separator: "\n")) }
        }
        func executableDirectories() throws -> [String] { [] }
    }

    func run(_ fixture: LaneFixture, tools: Tools?) async throws -> RunSummary {
        let workspace = LaneWorkspace(projectDirectory: fixture.path, fileSystem: LocalFileSystem(),
                                      processRunner: LocalProcessRunner(), environment: fixture.environment,
                                      stepServices: StepServices(httpClient: SystemHTTPClient()), tools: tools)
        return try await workspace.run("l", options: LaneRunner.Options(), reporters: [])
    }

    @Test func verifiedToolsLetTheLaneRun() async throws {
        let fixture = try LaneFixture(["l": "requires: [swiftlint, swiftformat]\nsteps:\n  - run: touch ran\n"])
        let summary = try await run(fixture, tools: Tools(verified: ["swiftlint", "swiftformat"]))
        #expect(summary.status == .succeeded)
    }

    @Test func driftStopsTheLaneBeforeStepOne() async throws {
        let fixture = try LaneFixture(["l": "requires: [swiftlint, swiftformat]\nsteps:\n  - run: touch ran\n"])
        do {
            _ = try await run(fixture, tools: Tools(verified: ["swiftlint"]))
            Issue.record("expected an error")
        } catch {
            #expect(errorText(error) == "lane 'l' cannot start: its required tools do not match the lock.\n'swiftformat': not installed\nRun 'slipway tools install' (or 'slipway tools verify' for details).")
        }
        #expect(!FileManager.default.fileExists(atPath: fixture.path + "/ran"))
        await #expect(throws: LaneRunError.toolsUnavailable(lane: "l", tools: ["swiftlint", "swiftformat"])) {
            _ = try await run(fixture, tools: nil)
        }
    }

    @Test func requiresMustBeAList() async throws {
        let fixture = try LaneFixture(["l": "requires: swiftlint\nsteps:\n  - run: 'true'\n"])
        #expect(await fixture.problems("l") == ["lanes/l.yml:1:11: error: 'requires' must be a list of tool names from the Toolfile, but it is a string"])
    }
}
