import Basics
import Foundation
import Testing
import TestSupport
import TestThreads

/// The GitHub Actions SIMULATION's per-runner environments (not GitHub): what a `runs-on:
/// macos-*` job sees (a STAND-IN Mac: stand-in tools first on PATH) against an ubuntu job, and
/// a `security` stand-in whose keychains live under each job's own HOME, so that nothing one
/// macOS job installs is there in the next.
@Suite("GitHub Actions simulation: per-runner environments (not GitHub)", .dedicatedThreads)
struct GitHubActionsRunnerEnvironmentTests {
    static let workflow = """
        name: runners
        on: workflow_dispatch
        jobs:
          install:
            runs-on: macos-latest
            steps:
              - run: |
                  security create-keychain -p pw "$RUNNER_TEMP/ci.keychain"
                  security list-keychains -d user -s "$RUNNER_TEMP/ci.keychain-db"
                  echo "mac says $STANDIN_MARK; $(security list-keychains)"
          later:
            runs-on: macos-14
            needs: [install]
            steps:
              - run: |
                  echo "later mac says $STANDIN_MARK; $(security list-keychains)"
          linux:
            runs-on: ubuntu-latest
            needs: [later]
            steps:
              - run: |
                  echo "linux says ${STANDIN_MARK:-nothing}; security: $(command -v security || echo none)"
        """

    @Test func macOSJobsGetTheirEnvironmentAndEachStartsWithoutTheLastOnesKeychain() async throws {
        let origin = try GitFixture(prefix: "slipway-gha-runners")
        try origin.commit("initial", files: ["README.md": "hi\n"])
        let tools = try TemporaryDirectory(prefix: "slipway-gha-mac-tools")
        try SecurityStandIn.installScript(in: tools.path)
        let base = GitHubActionsSimulator.defaultEnvironment
        let simulator = try GitHubActionsSimulator(workflow: Self.workflow, origin: origin.path, environment: base, runnerEnvironments: [
            "macOS": ["PATH": tools.path + ":" + (base["PATH"] ?? ""), "STANDIN_MARK": "stand-in"],
        ])
        let result = try await simulator.run()
        #expect(result.succeeded, "\(result.statuses)")
        let install = try #require(result["install"]), later = try #require(result["later"]), linux = try #require(result["linux"])
        let installHome = ((try #require(install.workspace)) as NSString).deletingLastPathComponent + "/home"
        let laterHome = ((try #require(later.workspace)) as NSString).deletingLastPathComponent + "/home"
        #expect(install.log.contains("mac says stand-in; "))
        #expect(install.log.contains("/temp/ci.keychain-db\""), "\(install.log)")
        // The next macOS job has its own HOME: only its own login keychain, not the one installed before.
        #expect(later.log.contains("later mac says stand-in;     \"\(laterHome)/Library/Keychains/login.keychain-db\"\n"), "\(later.log)")
        #expect(!later.log.contains("ci.keychain"))
        #expect(FileManager.default.fileExists(atPath: SecurityStandIn.statePath(home: installHome)))
        // The ubuntu job sees the base environment only.
        #expect(linux.log.contains("linux says nothing; security: none"), "\(linux.log)")
    }

    @Test func anEnvironmentForAnUnknownRunnerOSIsRefused() throws {
        let origin = try GitFixture(prefix: "slipway-gha-runners")
        #expect {
            _ = try GitHubActionsSimulator(workflow: Self.workflow, origin: origin.path, runnerEnvironments: ["macos": [:]])
        } throws: { error in
            (error as? GitHubActionsSimulationError)?.errorDescription
                == "runnerEnvironments: 'macos' is not a runner.os; give the environment of macOS, Linux or Windows runners"
        }
    }
}
