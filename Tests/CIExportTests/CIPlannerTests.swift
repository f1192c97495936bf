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
        try folder.write("App.xcodeproj/project.pbxproj", SyntheticXcodeProject.pbxproj(files: 1, groups: 1))
        return try CIPlanner.plan(try await CIExportSupport.exporter(projectDirectory: folder.path).validate("l"))
    }

    @Test func matrixLaneJobs() async throws {
        let folder = try CIExportSupport.matrixProject()
        let plan = try CIPlanner.plan(try await CIExportSupport.exporter(projectDirectory: folder.path).validate("ios-matrix"))
        #expect(plan.jobs.map(\.id) == ["linux-tests", "ios-tests", "xcarchive", "publish", "finally"])
        #expect(plan.jobs.map(\.steps) == [["linux-tests"], ["ios-tests"], ["xcarchive", "package"], ["publish"], ["summary"]])
        #expect(plan.jobs.map(\.needs) == [[], [], ["linux-tests", "ios-tests"], ["xcarchive"],
                                           ["linux-tests", "ios-tests", "xcarchive", "publish"]])
        #expect(plan.jobs[3].ancestors == ["linux-tests", "ios-tests", "xcarchive"])
        #expect(plan.jobs.map(\.runner) == [.platform(.linux), .platform(.macOS), .platform(.macOS), .platform(.linux), .platform(.linux)])
        #expect(plan.jobs.map(\.secrets) == [[], [], ["SIGNING_PASSWORD"], ["UPLOAD_TOKEN"], []])
        #expect(plan.jobs.map(\.artifacts) == [[], [], ["build/App.xcarchive", "dist/App.tar.gz"], [], []])
        #expect(plan.jobs.map(\.runsAlways) == [false, false, false, false, true])
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
        // The second step runs anywhere, so it stays on the machine of the first.
        #expect(plan.jobs.map(\.runner) == [.label("gpu-runner")])
        #expect(plan.jobs.map(\.steps) == [["run", "run-2"]])
        #expect(plan.jobs.map(\.secrets) == [["TOKEN", "OTHER"]])
    }

    static let iosRelease = """
        secrets: [MATCH_PASSWORD]
        steps:
          - git.ensure-clean
          - version.bump: { strategy: "1.2.0", xcodeproj: App.xcodeproj, build-number: "7" }
            id: version
          - signing.sync: { type: app-store, bundle-ids: [com.example.app], passphrase: "${{ secrets.MATCH_PASSWORD }}" }
            id: signing
          - xcode.archive: { project: App.xcodeproj, scheme: App }
            id: archive
          - xcode.export: { archive: "${{ steps.archive.outputs.archive }}", signing: "${{ steps.signing }}" }
            id: export
          - git.commit: { message: "Release ${{ steps.version.outputs.version }}" }
          - git.tag: { name: "${{ steps.version.outputs.tag }}" }
        """

    @Test func stepsThatShareTheMachineRunInOneJob() async throws {
        let plan = try await plan(Self.iosRelease)
        // Signing, the version bump and the archive and export share one macOS job; the commit
        // and tag after them stay there too, where the changed files are.
        #expect(plan.jobs.map(\.steps) == [["git.ensure-clean", "version", "signing", "archive", "export", "git.commit", "git.tag"]])
        #expect(plan.jobs.map(\.runner) == [.platform(.macOS)])
        #expect(plan.jobs.map(\.name) == ["git.ensure-clean, version, signing, archive, export, git.commit, git.tag"])
    }

    @Test func ciJobsPerStepAndRunsOnSplit() async throws {
        // One job per step: the archive must then travel to the export's machine.
        // (With install: none: split from its signing.sync, the archive would sign on a machine without it.)
        let withArtifacts = Self.iosRelease.replacingOccurrences(of: "    id: archive", with: "    id: archive\n    artifacts: [build/App.xcarchive]")
            .replacingOccurrences(of: "MATCH_PASSWORD }}\" }", with: "MATCH_PASSWORD }}\", install: none }")
        let perStep = try await plan("ci-jobs: per-step\n" + withArtifacts)
        #expect(perStep.jobs.map(\.steps) == [["git.ensure-clean"], ["version"], ["signing"], ["archive"], ["export"], ["git.commit"], ["git.tag"]])
        #expect(perStep.jobs.map(\.runner) == [.platform(.linux), .platform(.linux), .platform(.linux), .platform(.macOS),
                                                .platform(.macOS), .platform(.linux), .platform(.linux)])
        let split = try await plan(Self.iosRelease.replacingOccurrences(of: "  - git.tag:", with: "  - runs-on: linux\n    git.tag:"))
        // The commit goes with the next step that has a fixed runner: the tag's Linux job, where
        // the version bump's uncommitted files arrive through the hand-over.
        #expect(split.jobs.map(\.steps) == [["git.ensure-clean", "version", "signing", "archive", "export"], ["git.commit", "git.tag"]])
        #expect(split.jobs.map(\.runner) == [.platform(.macOS), .platform(.linux)])
    }

    @Test func aFileUsedInAnotherJobNeedsArtifacts() async throws {
        let lane = """
            steps:
              - xcode.archive: { project: App.xcodeproj, scheme: App }
                id: archive
              - archive: { files: ["${{ steps.archive.outputs.archive }}"], output: dist/App.tar.gz }
                id: package
                runs-on: linux
            """
        await #expect {
            _ = try await plan(lane)
        } throws: { error in
            (error as? CIExportError)?.description == "lanes/l.yml:4:5: step 'package' uses 'steps.archive.outputs.archive', a file that step "
                + "'archive' writes in job 'archive', but 'package' runs in job 'package' on another machine; add 'artifacts:' with the "
                + "file's path to step 'archive' so that it travels, or keep both steps in one job (the same 'runs-on:', or 'ci-jobs: per-runner')"
        }
        let carried = try await plan(lane.replacingOccurrences(of: "    id: archive", with: "    id: archive\n    artifacts: [build/App.xcarchive]"))
        #expect(carried.jobs.map(\.steps) == [["archive"], ["package"]])
        // Outputs that are not files (a version, a bundle id) need no artifacts.
        let text = try await plan(lane.replacingOccurrences(of: "outputs.archive", with: "outputs.bundle-id"))
        #expect(text.jobs.count == 2)
    }

    @Test func anArchiveOrExportInAnotherJobThanItsSigningIsRefused() async throws {
        let perStep = "ci-jobs: per-step\n" + Self.iosRelease.replacingOccurrences(
            of: "    id: archive", with: "    id: archive\n    artifacts: [build/App.xcarchive]")
        await #expect {
            _ = try await plan(perStep)
        } throws: { error in
            (error as? CIExportError)?.description == "lanes/l.yml:9:5: step 'archive' (xcode.archive) signs with the certificate and "
                + "profiles that step 'signing' (signing.sync) installs in job 'signing', but 'archive' runs in job 'archive' on "
                + "another machine, where they are not installed; keep both steps in one job (no 'ci-jobs: per-step', and no "
                + "'runs-on:' that puts them on different runners), or give 'signing' 'install: none' if nothing signs with its install"
        }
        // A keychain install on a macOS runner, split from the export by runs-on: refused too.
        let split = Self.iosRelease.replacingOccurrences(of: "  - xcode.export:", with: "  - runs-on: my-mac\n    xcode.export:")
            .replacingOccurrences(of: "    id: archive", with: "    id: archive\n    artifacts: [build/App.xcarchive]")
        await #expect {
            _ = try await plan(split)
        } throws: { error in
            (error as? CIExportError)?.description.contains("step 'export' (xcode.export) signs with the certificate and profiles "
                + "that step 'signing' (signing.sync) installs in job 'git-ensure-clean'") == true
        }
        // A directory install whose files travel as artifacts, or no install, may be split.
        for signing in ["install: directory, install-directory: build/signing }\n    artifacts: [\"build/signing/**\"]\n    id: signing",
                        "install: none }\n    id: signing"] {
            let lane = perStep.replacingOccurrences(of: "MATCH_PASSWORD }}\" }\n    id: signing", with: "MATCH_PASSWORD }}\", \(signing)")
            #expect(lane != perStep)
            #expect(try await plan(lane).jobs.count == 7)
        }
    }

    @Test func aKeychainInstallPutsSigningOnAMac() async throws {
        let lane = """
            secrets: [MATCH_PASSWORD]
            ci-jobs: per-step
            steps:
              - signing.sync: { type: app-store, bundle-ids: [com.example.app], passphrase: "${{ secrets.MATCH_PASSWORD }}", install: keychain }
                id: signing
              - run: echo signed
                id: after
            """
        #expect(try await plan(lane).jobs.map(\.runner) == [.platform(.macOS), .platform(.linux)])
        await #expect {
            _ = try await plan(lane.replacingOccurrences(of: "    id: signing", with: "    id: signing\n    runs-on: linux"))
        } throws: { error in
            (error as? CIExportError)?.description == "lanes/l.yml:4:5: step 'signing' (signing.sync) runs only on macos, but "
                + "'runs-on: linux' puts it on a linux runner; set 'runs-on: macos' or remove 'runs-on:' to let its platforms choose"
        }
        // Without install: keychain it runs anywhere (a directory install on Linux).
        #expect(try await plan(lane.replacingOccurrences(of: ", install: keychain", with: "")).jobs.map(\.runner) == [.platform(.linux), .platform(.linux)])
    }

    /// signing.cleanup removes the keychain its signing.sync made: it runs at the end of that job,
    /// whatever happened, on that machine; other finally steps keep their finally job.
    @Test func aKeychainCleanupRunsOnTheMachineThatHasTheKeychain() async throws {
        let lane = """
            secrets: [MATCH_PASSWORD]
            steps:
              - signing.sync: { type: app-store, bundle-ids: [com.example.app], passphrase: "${{ secrets.MATCH_PASSWORD }}", install: keychain }
                id: signing
              - xcode.archive: { project: App.xcodeproj, scheme: App }
                id: archive
              - run: echo published
                id: publish
                runs-on: linux
            finally:
              - signing.cleanup: { keychain: "${{ steps.signing.outputs.keychain }}" }
                id: cleanup
              - run: echo done
                id: notify
            """
        let plan = try await plan(lane)
        #expect(plan.jobs.map(\.id) == ["signing", "publish", "finally"])
        #expect(plan.jobs.map(\.cleanupSteps) == [["cleanup"], [], []])
        #expect(plan.jobs.last?.steps == ["notify"])
        let options = CIExportOptions(slipwayOnPath: true)
        let github = try CIExporter.render(plan, engine: .githubActions, options: options)
        #expect(github.contains("""
                  - name: 'Clean up: cleanup'
                    if: always()
                    run: |
                      slipway run l --only cleanup
            """), "\(github)")
        let gitlab = try CIExporter.render(plan, engine: .gitlab, options: options)
        #expect(gitlab.contains("  after_script:\n    - slipway run l --only cleanup\n"), "\(gitlab)")
        let buildkite = try CIExporter.render(plan, engine: .buildkite, options: options)
        #expect(buildkite.contains("trap 'slipway run l --only cleanup' EXIT\n      slipway run l --only signing --only archive\n"), "\(buildkite)")

        // Alone in finally, the cleanup leaves no finally job.
        let alone = try await self.plan(lane.replacingOccurrences(of: "\n  - run: echo done\n    id: notify", with: ""))
        #expect(alone.jobs.map(\.id) == ["signing", "publish"])
    }

    @Test func aBadCIJobsValueIsAnError() async throws {
        await #expect {
            _ = try await plan("ci-jobs: per-job\nsteps:\n  - run: echo hi\n")
        } throws: { error in
            "\(error)".contains("lanes/l.yml:1:10: error: 'ci-jobs' must be 'per-runner' or 'per-step', not 'per-job'")
        }
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
