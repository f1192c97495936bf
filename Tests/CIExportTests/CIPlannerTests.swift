import Basics
@testable import CIExport
import Lanes
import Steps
import Testing
import TestSupport
import TestThreads

/// How a lane becomes jobs: ids, needs, ancestors, runners, secrets and artifacts.
@Suite("CI plan", .dedicatedThreads) struct CIPlannerTests {
    private func plan(_ lane: String) async throws -> CIPlan {
        let folder = try TemporaryDirectory(prefix: "slipway-ci-plan")
        try folder.write("lanes/l.yml", lane)
        return try CIPlanner.plan(try await CIExportSupport.exporter(projectDirectory: folder.path).validate("l"))
    }

    @Test func matrixLaneJobs() async throws {
        let folder = try CIExportSupport.matrixProject()
        let plan = try CIPlanner.plan(try await CIExportSupport.exporter(projectDirectory: folder.path).validate("ios-matrix"))
        #expect(plan.jobs.map(\.id) == ["linux-tests", "ios-tests", "xcarchive", "package", "publish", "finally"])
        #expect(plan.jobs.map(\.needs) == [[], [], ["linux-tests", "ios-tests"], ["xcarchive"], ["package"],
                                           ["linux-tests", "ios-tests", "xcarchive", "package", "publish"]])
        #expect(plan.jobs[4].ancestors == ["linux-tests", "ios-tests", "xcarchive", "package"])
        #expect(plan.jobs.map(\.runner) == [.platform(.linux), .platform(.macOS), .platform(.macOS), .platform(.macOS),
                                            .platform(.linux), .platform(.linux)])
        #expect(plan.jobs.map(\.secrets) == [[], [], ["SIGNING_PASSWORD"], [], ["UPLOAD_TOKEN"], []])
        #expect(plan.jobs.map(\.artifacts) == [[], [], ["build/App.xcarchive"], ["dist/App.tar.gz"], [], []])
        #expect(plan.jobs.map(\.runsAlways) == [false, false, false, false, false, true])
        #expect(plan.inputs.map(\.kind) == [.choice, .boolean])
        #expect(plan.inputs.map(\.environmentVariable) == ["SLIPWAY_INPUT_CONFIGURATION", "SLIPWAY_INPUT_PUBLISH"])
    }

    @Test func jobIDs() {
        #expect(CIPlanner.jobID(for: "swift.test") == "swift-test")
        #expect(CIPlanner.jobID(for: "2fast") == "s-2fast")
        #expect(CIPlanner.jobID(for: "_ok") == "_ok")
        var allocator = JobIDAllocator()
        #expect(["a.b", "a-b", "a_b", "a.b"].map { allocator.allocate($0) } == ["a-b", "a-b-2", "a_b", "a-b-3"])
    }

    @Test func labelsPassThroughAndLaneEnvironmentSecretsGoToEveryJob() async throws {
        let plan = try await plan("""
            secrets: [TOKEN, OTHER]
            env: { SHARED: "${{ secrets.TOKEN }}" }
            steps:
              - run: echo one
                runs-on: gpu-runner
              - run: echo "${{ secrets.OTHER }}"
                working-directory: .
            """)
        #expect(plan.jobs.map(\.runner) == [.label("gpu-runner"), .platform(.linux)])
        #expect(plan.jobs.map(\.secrets) == [["TOKEN"], ["TOKEN", "OTHER"]])
    }

    @Test func finallyStepsShareOneRunner() async throws {
        let plan = try await plan("""
            steps:
              - run: echo main
            finally:
              - run: echo a
              - xcode.select: { version: "16.2" }
            """)
        #expect(plan.jobs.last?.steps == ["run-2", "xcode.select"])
        #expect(plan.jobs.last?.runner == .platform(.macOS))
    }

    @Test func macOSOnlyStepsValidateOnLinux() async throws {
        // Exporting is platform-agnostic: the xcode.* steps of the fixture validate here.
        let folder = try CIExportSupport.matrixProject()
        let validated = try await CIExportSupport.exporter(projectDirectory: folder.path).validate("ios-matrix")
        #expect(validated.kinds["ios-tests"]?.description.platforms == [.macOS])
    }
}
