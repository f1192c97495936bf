import Basics
import Foundation
import Lanes
import Steps
import Testing
import TestSupport
import TestThreads

/// `slipway run LANE --only STEP`: each job of an exported pipeline runs its steps in its own
/// fresh clone; outputs and statuses travel through the hand-over records in `.slipway/ci/`.
@Suite("run --only", .dedicatedThreads) struct OnlyRunTests {
    typealias S = OnlyRunSupport

    static let lane = """
        secrets:
          SLIPWAY_ONLY_TOKEN: { required: false }
        steps:
          - run: |
              touch ran-first
              echo "msg=hello from job one" >> "$SLIPWAY_OUTPUT"
              echo "token=$SLIPWAY_ONLY_TOKEN" >> "$SLIPWAY_OUTPUT"
            id: first
          - run: |
              touch ran-second
              echo "echo=${{ steps.first.outputs.msg }}" >> "$SLIPWAY_OUTPUT"
            id: second
          - run: touch ran-third
            id: third
        """

    @Test func outputsTravelFromOneJobToTheNext() async throws {
        let origin = try S.origin(Self.lane)
        let jobOne = try S.clone(origin)
        jobOne.environment = jobOne.environment.merging(["SLIPWAY_ONLY_TOKEN": "s3cr3t-value"])
        let one = try await jobOne.run("l") { $0.only = ["first"] }
        #expect(one.summary.status == .succeeded)
        #expect(one.summary.steps.map(\.id) == ["first"], "exactly the selected step ran")
        #expect(!FileManager.default.fileExists(atPath: jobOne.path + "/ran-second"))
        let record = try S.record(jobOne, "first")
        let base = try S.git(jobOne, "rev-parse", "HEAD")
        #expect(record == HandOverRecord(lane: "l", laneDigest: try S.laneDigest(jobOne), baseCommit: base, stepID: "first",
                                         status: .succeeded, outputs: ["msg": "hello from job one", "token": Redactor.mask, "exit-code": "0"],
                                         git: nil, artifacts: [], worktree: HandOverRecord.WorktreeState(changed: [], deleted: [])))
        let text = try String(contentsOfFile: jobOne.path + "/.slipway/ci/first.json", encoding: .utf8)
        #expect(!text.contains("s3cr3t-value"))
        #expect(text.contains("\"git\" : null"), "every key is written, null included: \(text)")

        let jobTwo = try S.clone(origin)
        try S.handOver(from: jobOne, to: jobTwo)
        let two = try await jobTwo.run("l") { $0.only = ["second"] }
        #expect(two.summary.steps.map(\.id) == ["second"])
        #expect(two.outputs("second")["echo"] == "hello from job one")
        #expect(!FileManager.default.fileExists(atPath: jobTwo.path + "/ran-first"))
        #expect(try S.record(jobTwo, "second").outputs == ["echo": "hello from job one", "exit-code": "0"])
        #expect(try S.git(jobTwo, "status", "--porcelain") == "?? ran-second", "the records are ignored like .slipway/")
    }

    @Test func aStepWhoseInputWasNotHandedOverIsRefusedBeforeAnythingRuns() async throws {
        let project = try S.clone(try S.origin(Self.lane))
        let message = await S.refusal(project, only: ["third", "second"])
        #expect(message == "step 'second' uses 'steps.first.outputs.msg', but step 'first' is neither selected with --only before it nor recorded in .slipway/ci/; run first first, or restore the hand-over artifacts of its job.")
        #expect(!FileManager.default.fileExists(atPath: project.path + "/ran-third"))
        #expect(S.handOverFiles(project).isEmpty)
        // Selected together, in lane order, it is fine.
        let both = try await project.run("l") { $0.only = ["second,first"] }
        #expect(both.summary.steps.map(\.id) == ["first", "second"])
    }

    @Test func unknownStepsAndResumeAreRefused() async throws {
        let project = try S.clone(try S.origin(Self.lane))
        #expect(await S.refusal(project, only: ["frist"])
                == "--only: the lane has no step 'frist'. Did you mean 'first'? Its steps are first, second, third.")
        #expect(await S.refusal(project, only: ["first", "nope", "zap"])
                == "--only: the lane has no step 'nope', 'zap'. Its steps are first, second, third.")
        #expect(await S.refusal(project, only: ["first"]) { $0.fromStep = "first" }
                == "--only cannot be combined with --resume or --from: --only takes earlier steps from the hand-over records in .slipway/ci/, --resume and --from from the last run's journal. Use one of them.")
        #expect(!FileManager.default.fileExists(atPath: project.path + "/ran-first"))
        #expect(S.handOverFiles(project).isEmpty)
    }

    @Test func recordsOfAnotherLaneLaneVersionCommitOrFormatAreRefused() async throws {
        let origin = try S.origin(Self.lane)
        let jobOne = try S.clone(origin)
        _ = try await jobOne.run("l") { $0.only = ["first"] }
        let base = try S.git(jobOne, "rev-parse", "HEAD")
        let recordPath = "/.slipway/ci/first.json"
        let original = try String(contentsOfFile: jobOne.path + recordPath, encoding: .utf8)

        func refusal(_ edit: (LaneFixture) throws -> Void) async throws -> String? {
            let job = try S.clone(origin)
            try S.handOver(from: jobOne, to: job)
            try edit(job)
            let before = try job.snapshot()
            let message = await S.refusal(job, only: ["second"])
            #expect(try job.snapshot() == before, "nothing ran, nothing was written")
            return message
        }
        let otherLane = try await refusal { try $0.write(".slipway/ci/first.json", original.replacingOccurrences(of: "\"lane\" : \"l\"", with: "\"lane\" : \"deploy\"")) }
        #expect(otherLane == "hand-over record '.slipway/ci/first.json' belongs to lane 'deploy', not to lane 'l'; remove .slipway/ci/ and restore only the hand-over artifacts of this lane's jobs.")
        let changed = try await refusal { try $0.write("lanes/l.yml", Self.lane + "\n  - run: echo added\n") }
        #expect(changed == "hand-over record '.slipway/ci/first.json' was written for another version of lanes/l.yml (the lane file changed since); run the whole pipeline again so that every job runs the same lane.")
        var later = ""
        let otherCommit = try await refusal { job in
            try job.write("NEWS", "later\n")
            try S.git(job, "add", "NEWS")
            try S.git(job, "commit", "--quiet", "-m", "docs: news")
            later = try S.git(job, "rev-parse", "HEAD")
        }
        #expect(otherCommit == "hand-over record '.slipway/ci/first.json' was written on commit \(base), but this checkout is commit \(later); every job of a pipeline must check out the same commit (run the whole pipeline again).")
        let version = try await refusal { try $0.write(".slipway/ci/first.json", original.replacingOccurrences(of: "\"version\" : 1", with: "\"version\" : 7")) }
        #expect(version == "hand-over record '.slipway/ci/first.json' has format version 7, but this Slipway reads version 1; use the same Slipway version in every job of the pipeline.")
    }

    @Test func aDryRunPlansWithRecordedOutputsAndWritesNoRecord() async throws {
        let project = try S.clone(try S.origin(Self.lane))
        _ = try await project.run("l") { $0.only = ["first"] }
        let plan = try await project.run("l") { options in
            options.only = ["second"]
            options.isDryRun = true
        }
        #expect(plan.status("second") == .planned)
        #expect(plan.console.contains("hello from job one"), "\(plan.console)")
        #expect(S.handOverFiles(project) == ["first.json"])
        #expect(!FileManager.default.fileExists(atPath: project.path + "/ran-second"))
    }

    @Test func aFinallyJobSeesTheFailedRecordOfAnotherJob() async throws {
        let origin = try S.origin("""
            steps:
              - run: echo ok
                id: build
              - run: exit 4
                id: test
            finally:
              - run: touch reported-failure
                id: report
                if: failure()
              - run: touch cleaned
                id: cleanup
              - run: touch celebrated
                id: celebrate
                if: success()
            """)
        let runner = try S.clone(origin)
        _ = try await runner.run("l") { $0.only = ["build"] }
        let failed = try await runner.run("l") { $0.only = ["test"] }
        #expect(failed.summary.status == .failed)
        #expect(try S.record(runner, "test").status == .failed)
        let finallyJob = try S.clone(origin)
        try S.handOver(from: runner, to: finallyJob)
        let outcome = try await finallyJob.run("l") { $0.only = ["report", "cleanup", "celebrate"] }
        #expect(outcome.status("report") == .succeeded)
        #expect(outcome.status("cleanup") == .succeeded)
        #expect(outcome.status("celebrate") == .skipped)
        #expect(outcome.summary.status == .failed, "the lane failed, as on one machine")
        #expect(FileManager.default.fileExists(atPath: finallyJob.path + "/reported-failure"))
        #expect(!FileManager.default.fileExists(atPath: finallyJob.path + "/celebrated"))
        #expect(try S.record(finallyJob, "celebrate").status == .skipped)
    }

    @Test func selectedMembersOfAParallelGroupRunTogether() async throws {
        let project = try S.clone(try S.origin("""
            steps:
              - run: echo "n=7" >> "$SLIPWAY_OUTPUT"
                id: prep
              - parallel:
                  - run: echo "a=${{ steps.prep.outputs.n }}" >> "$SLIPWAY_OUTPUT"
                    id: a
                  - run: echo "b=${{ steps.prep.outputs.n }}" >> "$SLIPWAY_OUTPUT"
                    id: b
                  - run: touch ran-c
                    id: c
            """))
        _ = try await project.run("l") { $0.only = ["prep"] }
        let outcome = try await project.run("l") { $0.only = ["a,b"] }
        #expect(Set(outcome.summary.steps.map(\.id)) == ["a", "b"])
        #expect(outcome.outputs("a")["a"] == "7")
        #expect(outcome.outputs("b")["b"] == "7")
        let groups = outcome.events.filter { $0.event == .stepStarted }.map(\.parallelGroup)
        #expect(groups == ["parallel", "parallel"])
        #expect(!FileManager.default.fileExists(atPath: project.path + "/ran-c"))
        #expect(S.handOverFiles(project) == ["a.json", "b.json", "prep.json"])
    }

    @Test func onlyTheSelectedStepsMustRunOnThisPlatform() async throws {
        let origin = try S.origin("""
            steps:
              - run: echo "built=yes" >> "$SLIPWAY_OUTPUT"
                id: build
              - apple.staple: { file: App.app }
                id: staple
            """)
        let project = try S.clone(origin)
        project.platform = .linux
        let problems = await project.problems("l")
        #expect(problems.contains { $0.contains("step 'apple.staple' runs only on macos, not on linux") }, "\(problems)")
        let outcome = try await project.run("l") { $0.only = ["build"] }
        #expect(outcome.summary.status == .succeeded)
        let refusal = await S.refusal(project, only: ["staple"])
        #expect(refusal?.contains("step 'apple.staple' runs only on macos, not on linux") == true, "\(refusal ?? "ran")")
    }
}
