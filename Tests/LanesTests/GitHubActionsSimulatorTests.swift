import Basics
import Foundation
import Testing
import TestSupport
import TestThreads

/// The GitHub Actions SIMULATION (TestSupport's GitHubActionsSimulator: not GitHub) on
/// hand-written workflows that follow the CI job contract, with plain `run:` steps standing where
/// `slipway run --only` will: each job in a fresh clone, artifacts through the local stand-in for
/// GitHub's artifact store, skips, `always()`, re-runs, secrets and inputs per job, and refusals.
@Suite("GitHub Actions simulation (not GitHub)", .dedicatedThreads)
struct GitHubActionsSimulatorTests {
    /// An origin repository with one commit.
    static func origin() throws -> GitFixture {
        let origin = try GitFixture(prefix: "slipway-gha-origin")
        try origin.commit("initial", files: ["README.md": "hello\n", "Toolfile.lock": "{}\n"])
        return origin
    }

    static func simulator(_ workflow: String, origin: GitFixture) throws -> GitHubActionsSimulator {
        try GitHubActionsSimulator(workflow: workflow, origin: origin.path)
    }

    /// The steps every contract job has around its work: checkout, downloads, upload always.
    static func job(_ id: String, needs: [String] = [], downloads: [String] = [], run: String, env: String = "",
                    artifacts: [String] = [], condition: String? = nil) -> String {
        var text = "  \(id):\n    runs-on: ubuntu-latest\n"
        if !needs.isEmpty { text += "    needs: [\(needs.joined(separator: ", "))]\n" }
        if let condition { text += "    if: \(condition)\n" }
        if !env.isEmpty { text += "    env:\n" + env }
        text += "    steps:\n      - uses: actions/checkout@v4\n        with:\n          fetch-depth: 0\n"
        // "job@folder" downloads into folder: a hand-over uploaded without other files is stored
        // without its '.slipway/ci/' prefix (v4's root rule), so it goes back into that folder.
        for download in downloads {
            let parts = download.split(separator: "@", maxSplits: 1).map(String.init)
            text += "      - uses: actions/download-artifact@v4\n        with:\n          name: slipway-\(parts[0])\n          path: \(parts.count > 1 ? parts[1] : ".")\n"
        }
        text += "      - name: work\n        shell: bash\n        run: |\n"
        text += run.split(separator: "\n").map { "          \($0)\n" }.joined()
        text += """
                  - uses: actions/upload-artifact@v4
                    if: always()
                    with:
                      name: slipway-\(id)
                      include-hidden-files: true
                      path: |
                        .slipway/ci/
            """
        return text + "\n" + artifacts.map { "            \($0)\n" }.joined()
    }

    static func workflow(_ jobs: String...) -> String {
        """
        name: release
        on:
          workflow_dispatch:
            inputs:
              version:
                type: string
                required: false
        jobs:

        """ + jobs.joined()
    }

    @Test func threeJobChainPassesAFileThroughArtifacts() async throws {
        let origin = try Self.origin()
        let simulator = try Self.simulator(Self.workflow(
            Self.job("build", run: "mkdir -p .slipway/ci out\necho build > .slipway/ci/build.json\necho one > out/a.txt",
                     artifacts: ["out/*.txt"]),
            Self.job("test", needs: ["build"], downloads: ["build"],
                     run: "mkdir -p .slipway/ci\ntest -f .slipway/ci/build.json\necho test > .slipway/ci/test.json\necho two >> out/a.txt",
                     artifacts: ["out/"]),
            Self.job("package", needs: ["test"], downloads: ["build", "test"],
                     run: "mkdir -p .slipway/ci\ncat out/a.txt\necho package > .slipway/ci/package.json")), origin: origin)
        let result = try await simulator.run()

        #expect(result.statuses == ["build": .succeeded, "test": .succeeded, "package": .succeeded])
        #expect(result.order == ["build", "test", "package"])
        let package = try #require(result["package"]?.workspace)
        #expect(try String(contentsOfFile: package + "/out/a.txt", encoding: .utf8) == "one\ntwo\n")
        #expect(FileManager.default.fileExists(atPath: package + "/.slipway/ci/build.json"))
        #expect(FileManager.default.fileExists(atPath: package + "/.slipway/ci/test.json"))
        // Each runner is its own clone: the build runner never saw what later jobs wrote.
        let build = try #require(result["build"]?.workspace)
        #expect(build != package)
        #expect(try String(contentsOfFile: build + "/out/a.txt", encoding: .utf8) == "one\n")
        #expect(!FileManager.default.fileExists(atPath: build + "/.slipway/ci/test.json"))
        #expect(FileManager.default.fileExists(atPath: simulator.artifactStorePath + "/slipway-test/out/a.txt"))
        #expect(FileManager.default.fileExists(atPath: build + "/.git"))
    }

    @Test func aParallelPairRunsBetweenItsNeighbours() async throws {
        let origin = try Self.origin()
        let simulator = try Self.simulator(Self.workflow(
            Self.job("setup", run: "mkdir -p .slipway/ci\necho s > .slipway/ci/setup.json"),
            Self.job("linux", needs: ["setup"], downloads: ["setup@.slipway/ci"], run: "mkdir -p out\necho linux > out/linux.txt",
                     artifacts: ["out/"]),
            Self.job("macos", needs: ["setup"], downloads: ["setup@.slipway/ci"], run: "mkdir -p out\necho macos > out/macos.txt",
                     artifacts: ["out/"]),
            Self.job("upload", needs: ["linux", "macos"], downloads: ["setup@.slipway/ci", "linux", "macos"],
                     run: "test -f .slipway/ci/setup.json\ncat out/linux.txt out/macos.txt > both.txt")), origin: origin)
        let result = try await simulator.run()

        #expect(result.succeeded)
        #expect(result.order == ["setup", "linux", "macos", "upload"])
        let upload = try #require(result["upload"]?.workspace)
        #expect(try String(contentsOfFile: upload + "/both.txt", encoding: .utf8) == "linux\nmacos\n")
    }

    @Test func aFailingJobSkipsItsDependantsButNotAnAlwaysJob() async throws {
        let origin = try Self.origin()
        let simulator = try Self.simulator(Self.workflow(
            Self.job("build", run: "mkdir -p .slipway/ci\necho failed > .slipway/ci/build.json\nexit 3"),
            Self.job("test", needs: ["build"], downloads: ["build@.slipway/ci"], run: "echo never"),
            Self.job("finally", needs: ["test"], downloads: ["build@.slipway/ci"], run: "cat .slipway/ci/build.json",
                     condition: "${{ always() }}")), origin: origin)
        let result = try await simulator.run()

        #expect(result.statuses == ["build": .failed, "test": .skipped, "finally": .succeeded])
        #expect(result["build"]?.steps.map(\.status) == [.succeeded, .failed, .succeeded])
        #expect(result["build"]?.log.contains("##[error]Process completed with exit code 3.") == true)
        #expect(result["test"]?.workspace == nil)
        #expect(result["finally"]?.log.contains("failed") == true)
    }

    @Test func aFailedJobIsReRunAloneOnceItsSecretIsSet() async throws {
        let origin = try Self.origin()
        let secret = "s3cr3t-token-value"
        let simulator = try Self.simulator(Self.workflow(
            Self.job("build", run: "mkdir -p out\necho built > out/app.zip", artifacts: ["out/"]),
            Self.job("upload", needs: ["build"], downloads: ["build"],
                     run: "mkdir -p .slipway/ci\necho \"attempt $GITHUB_RUN_ATTEMPT\" > .slipway/ci/upload.json\ntest -n \"$TOKEN\"\necho \"token $TOKEN\"\ncat out/app.zip",
                     env: "      TOKEN: ${{ secrets.TOKEN }}\n")), origin: origin)
        let first = try await simulator.run()
        #expect(first.statuses == ["build": .succeeded, "upload": .failed])

        let second = try await simulator.rerun(job: "upload", secrets: ["TOKEN": secret])
        #expect(second.statuses == ["build": .succeeded, "upload": .succeeded])
        #expect(second["upload"]?.attempt == 2)
        #expect(second["build"]?.attempt == 1)
        #expect(second.order == ["build", "upload", "upload"])
        let log = try #require(second["upload"]?.log)
        #expect(log.contains("token ***"))
        #expect(!log.contains(secret))
        // The re-run uploaded its hand-over again under the same name, replacing attempt 1's
        // (stored without '.slipway/ci/': a single folder is the artifact's root in v4).
        let record = try String(contentsOfFile: simulator.artifactStorePath + "/slipway-upload/upload.json", encoding: .utf8)
        #expect(record == "attempt 2\n")
    }

    @Test func secretsAndInputsReachOnlyTheJobsThatMapThem() async throws {
        let origin = try Self.origin()
        let report = "echo \"token=${TOKEN:-unset} version=${SLIPWAY_INPUT_VERSION:-unset} event=${{ github.event.inputs.version }}\""
        let simulator = try Self.simulator(Self.workflow(
            Self.job("sign", run: report,
                     env: "      TOKEN: ${{ secrets.TOKEN }}\n      SLIPWAY_INPUT_VERSION: ${{ inputs.version }}\n"),
            Self.job("test", run: report)), origin: origin)
        let result = try await simulator.run(inputs: ["version": "1.2.0"], secrets: ["TOKEN": "abc-123"])

        #expect(result["sign"]?.log.contains("token=*** version=1.2.0 event=1.2.0") == true)
        #expect(result["test"]?.log.contains("token=unset version=unset event=1.2.0") == true)
    }

    @Test func anArtifactNameIsUniquePerRunAsInV4() async throws {
        let origin = try Self.origin()
        let upload = "      - uses: actions/upload-artifact@v4\n        with:\n          name: shared\n          path: README.md\n"
        let workflow = "on: workflow_dispatch\njobs:\n"
            + "  a:\n    runs-on: ubuntu-latest\n    steps:\n      - uses: actions/checkout@v4\n" + upload
            + "  b:\n    runs-on: ubuntu-latest\n    needs: a\n    steps:\n      - uses: actions/checkout@v4\n" + upload
        let result = try await Self.simulator(workflow, origin: origin).run()

        #expect(result.statuses == ["a": .succeeded, "b": .failed])
        #expect(result["b"]?.log.contains("(409) Conflict: an artifact with this name already exists on the workflow run (artifact 'shared' was uploaded by job 'a')") == true)
    }

    @Test func uploadPathsFollowV4RootsExclusionsAndHiddenFiles() async throws {
        let origin = try Self.origin()
        let workflow = """
            on: workflow_dispatch
            jobs:
              make:
                runs-on: ubuntu-latest
                steps:
                  - run: mkdir -p dist/.hidden && touch dist/a.zip dist/b.tmp dist/.hidden/c dist/.d
                  - uses: actions/upload-artifact@v4
                    with:
                      name: dist
                      path: |
                        dist/
                        !dist/*.tmp
                  - uses: actions/upload-artifact@v4
                    with:
                      name: none
                      path: missing/
                      if-no-files-found: error
              read:
                runs-on: ubuntu-latest
                needs: make
                if: always()
                steps:
                  - uses: actions/download-artifact@v4
                    with:
                      name: dist
                      path: got
                  - run: ls -A got
            """
        let result = try await Self.simulator(workflow, origin: origin).run()

        #expect(result["make"]?.steps.map(\.status) == [.succeeded, .succeeded, .failed])
        #expect(result["make"]?.log.contains("##[error]No files were found with the provided path: missing/. No artifacts will be uploaded.") == true)
        let read = try #require(result["read"])
        #expect(read.status == .succeeded)
        #expect(read.log.contains("a.zip\n"))
        #expect(!read.log.contains("b.tmp"))
        #expect(!read.log.contains(".hidden"))
        #expect(!read.log.contains(".d\n"))
    }

    @Test(arguments: [
        ("    strategy:\n      matrix:\n        os: [a]\n", "workflow.yml:5:5: job 'build': 'strategy' is not supported (supported: defaults, env, if, name, needs, permissions, runs-on, steps, timeout-minutes) by the GitHub Actions simulation (SIMULATION — not GitHub). Use the supported subset or extend GitHubActionsSimulator."),
        ("    steps:\n      - uses: actions/setup-node@v4\n", "workflow.yml:6:15: job 'build' step 1: 'uses: actions/setup-node@v4' is not supported (supported: actions/cache@v4..v5, actions/checkout@v4..v6, actions/download-artifact@v4..v8, actions/upload-artifact@v4..v7) by the GitHub Actions simulation (SIMULATION — not GitHub). Use the supported subset or extend GitHubActionsSimulator."),
        ("    steps:\n      - run: echo ${{ steps.a.outputs.b }}\n", "workflow.yml:6:14: job 'build' step 1 'run': in expression 'steps.a.outputs.b': 'steps.a.outputs.b' is not supported (supported: inputs.*, github.event.inputs.*, secrets.*, env.*, runner.{arch,name,os,temp}, github.{actor,event_name,job,ref,ref_name,repository,run_attempt,run_id,run_number,sha,workspace}) by the GitHub Actions simulation (SIMULATION — not GitHub). Use the supported subset or extend GitHubActionsSimulator."),
    ])
    func unsupportedSyntaxIsRefusedWithItsPlace(job: String, message: String) throws {
        let origin = try Self.origin()
        let workflow = "on: workflow_dispatch\njobs:\n  build:\n    runs-on: ubuntu-latest\n" + job
        #expect(throws: GitHubActionsSimulationError.self) { try Self.simulator(workflow, origin: origin) }
        do {
            _ = try Self.simulator(workflow, origin: origin)
        } catch {
            #expect(error.localizedDescription == message)
        }
    }

    @Test func aDispatchWithAnUndeclaredInputRunsNothing() async throws {
        let origin = try Self.origin()
        let simulator = try Self.simulator(Self.workflow(Self.job("build", run: "echo hi")), origin: origin)
        await #expect(throws: GitHubActionsSimulationError.invalidDispatch("Unexpected inputs provided: [\"versoin\"] (declared: version)")) {
            try await simulator.run(inputs: ["versoin": "1.0.0"])
        }
        #expect(!FileManager.default.fileExists(atPath: simulator.root + "/runners"))
    }
}
