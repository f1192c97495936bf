import Basics
import Foundation
import Lanes
import Steps
import Testing
import TestSupport
import TestThreads

/// The git hand-over of `run --only` and the `artifacts:` check, in real repositories.
@Suite("run --only: git hand-over and artifacts", .dedicatedThreads) struct OnlyRunGitTests {
    typealias S = OnlyRunSupport

    static let releaseLane = """
        steps:
          - run: echo 1.1.0 > VERSION
            id: bump
          - git.commit: { message: "chore(release): 1.1.0", paths: [VERSION] }
            id: commit
          - git.tag: { name: v1.1.0 }
            id: tag
        finally:
          - run: echo "described=$(git describe --tags)" >> "$SLIPWAY_OUTPUT"
            id: describe
        """

    @Test func aTagJobTagsTheCommitAnotherJobMade() async throws {
        let origin = try S.origin(Self.releaseLane, files: ["VERSION": "1.0.0\n"])
        let base = try S.git(origin, "rev-parse", "HEAD")
        let jobA = try S.clone(origin)
        let one = try await jobA.run("l") { $0.only = ["bump", "commit"] }
        #expect(one.summary.status == .succeeded)
        let commit = try S.git(jobA, "rev-parse", "HEAD")
        #expect(commit != base)
        #expect(try S.record(jobA, "bump").git == nil)
        let record = try S.record(jobA, "commit")
        #expect(record.baseCommit == base)
        #expect(record.git == HandOverRecord.GitState(head: commit, branch: "main", tags: [:]))
        #expect(S.handOverFiles(jobA) == ["bump.json", "bump.tree", "commit.json", "commit.pack"])
        #expect(try S.record(jobA, "bump").worktree == HandOverRecord.WorktreeState(changed: ["VERSION"], deleted: []))
        #expect(try S.record(jobA, "commit").worktree == HandOverRecord.WorktreeState(changed: [], deleted: []))

        let jobB = try S.clone(origin)
        try S.handOver(from: jobA, to: jobB)
        let two = try await jobB.run("l") { $0.only = ["tag"] }
        #expect(two.summary.status == .succeeded, "\(two.console)")
        #expect(try S.git(jobB, "rev-parse", "HEAD") == commit)
        #expect(try S.git(jobB, "rev-parse", "main") == commit)
        #expect(try S.git(jobB, "symbolic-ref", "HEAD") == "refs/heads/main")
        #expect(try S.git(jobB, "rev-parse", "v1.1.0^{commit}") == commit)
        #expect(try S.git(jobB, "log", "-1", "--format=%s") == "chore(release): 1.1.0")
        #expect(try String(contentsOfFile: jobB.path + "/VERSION", encoding: .utf8) == "1.1.0\n")
        #expect(try S.git(jobB, "status", "--porcelain").isEmpty)
        #expect(try S.git(jobB, "fsck", "--strict", "--no-dangling").isEmpty)
        let tagObject = try S.git(jobB, "rev-parse", "v1.1.0")
        #expect(try S.record(jobB, "tag").git == HandOverRecord.GitState(head: commit, branch: "main", tags: ["v1.1.0": tagObject]))

        // A third runner gets both jobs' changes, in lane order.
        let jobC = try S.clone(origin)
        try S.handOver(from: jobA, to: jobC)
        try S.handOver(from: jobB, to: jobC)
        let three = try await jobC.run("l") { $0.only = ["describe"] }
        #expect(three.outputs("describe")["described"] == "v1.1.0")
        #expect(try S.git(jobC, "rev-parse", "v1.1.0") == tagObject)
        #expect(try S.git(jobC, "fsck", "--strict", "--no-dangling").isEmpty)
        // Run again in the same checkout: the hand-over is already there and is not redone.
        let again = try await jobC.run("l") { $0.only = ["describe"] }
        #expect(again.outputs("describe")["described"] == "v1.1.0")
    }

    static let splitLane = """
        steps:
          - run: printf '1.1.0\\n' > VERSION && rm OLD
            id: bump
          - git.commit: { message: "chore(release): 1.1.0" }
            id: commit
        """

    @Test func uncommittedChangesTravelToTheNextJob() async throws {
        let origin = try S.origin(Self.splitLane, files: ["VERSION": "1.0.0\n", "OLD": "x\n"])
        let jobA = try S.clone(origin)
        let one = try await jobA.run("l") { $0.only = ["bump"] }
        #expect(one.summary.status == .succeeded, "\(one.console)")
        #expect(try S.record(jobA, "bump").worktree == HandOverRecord.WorktreeState(changed: ["VERSION"], deleted: ["OLD"]))

        let jobB = try S.clone(origin)
        try S.handOver(from: jobA, to: jobB)
        let two = try await jobB.run("l") { $0.only = ["commit"] }
        #expect(two.summary.status == .succeeded, "\(two.console)")
        #expect(try S.git(jobB, "show", "HEAD:VERSION") == "1.1.0")
        #expect(try S.git(jobB, "ls-tree", "--name-only", "HEAD").split(separator: "\n").contains("OLD") == false)
        #expect(try S.git(jobB, "status", "--porcelain").isEmpty)
    }

    @Test func aHandedOverPathOutsideTheTrackedFilesIsRefused() async throws {
        let origin = try S.origin(Self.splitLane, files: ["VERSION": "1.0.0\n", "OLD": "x\n"])
        let jobA = try S.clone(origin)
        _ = try await jobA.run("l") { $0.only = ["bump"] }
        let jobB = try S.clone(origin)
        try S.handOver(from: jobA, to: jobB)
        for (path, reason) in [("../escape", "'../escape' is not a path inside the working tree"),
                               (".git/config", "'.git/config' is not a path inside the working tree"),
                               ("untracked.txt", "'untracked.txt' is not a file git tracks here")] {
            let file = jobB.path + "/.slipway/ci/bump.json"
            let original = try String(contentsOfFile: file, encoding: .utf8)
            try original.replacingOccurrences(of: "\"changed\" : [\n      \"VERSION\"", with: "\"changed\" : [\n      \"\(path)\"")
                .write(toFile: file, atomically: true, encoding: .utf8)
            let before = try Snapshot.of(jobB.path)
            #expect(await S.refusal(jobB, only: ["commit"]) == "hand-over record '.slipway/ci/bump.json' was not used: \(reason); it may be hostile, and nothing ran. Delete .slipway/ci/ and restore it only from the hand-over artifacts of this pipeline's earlier jobs.")
            #expect(try Snapshot.of(jobB.path) == before)
            try original.write(toFile: file, atomically: true, encoding: .utf8)
        }
    }

    @Test func aMissingPackIsRefusedBeforeAnythingRuns() async throws {
        let origin = try S.origin(Self.releaseLane, files: ["VERSION": "1.0.0\n"])
        let jobA = try S.clone(origin)
        _ = try await jobA.run("l") { $0.only = ["bump", "commit"] }
        let jobB = try S.clone(origin)
        try S.handOver(from: jobA, to: jobB)
        try FileManager.default.removeItem(atPath: jobB.path + "/.slipway/ci/commit.pack")
        let state = try S.git(jobB, "for-each-ref")
        #expect(await S.refusal(jobB, only: ["tag"])
                == "hand-over record of step 'commit' says it changed git, but its pack '.slipway/ci/commit.pack' is missing; restore the hand-over artifacts of its job completely.")
        #expect(try S.git(jobB, "for-each-ref") == state)
        #expect(S.handOverFiles(jobB) == ["bump.json", "bump.tree", "commit.json"])
    }

    @Test func artifactPatternsMustMatchAndTheMatchesAreRecorded() async throws {
        let project = try S.clone(try S.origin("""
            steps:
              - run: mkdir -p build/deep/er App.xcarchive && touch build/App.ipa build/deep/er/App.dSYM.zip
                id: export
                artifacts: [build/*.ipa, "build/**/*.zip", App.xcarchive]
              - run: touch build/app.aab
                id: bundle
                artifacts: build/*.apk
              - run: touch ran-after
                id: after
            """))
        let outcome = try await project.run("l")
        #expect(outcome.status("export") == .succeeded)
        #expect(outcome.summary.steps.first { $0.id == "export" }?.artifacts == ["App.xcarchive", "build/App.ipa", "build/deep/er/App.dSYM.zip"])
        #expect(outcome.status("bundle") == .failed)
        #expect(outcome.summary.steps.first { $0.id == "bundle" }?.error
                == "artifact pattern 'build/*.apk' of step 'bundle' matched no file; make the step produce it, or fix the pattern under 'artifacts:' (paths are relative to the project)")
        #expect(outcome.status("after") == .skipped)
        let only = try await project.run("l") { $0.only = ["export"] }
        #expect(only.summary.status == .succeeded)
        #expect(try S.record(project, "export").artifacts == ["App.xcarchive", "build/App.ipa", "build/deep/er/App.dSYM.zip"])
        let failed = try await project.run("l") { $0.only = ["bundle"] }
        #expect(failed.summary.status == .failed)
        #expect(try S.record(project, "bundle").status == .failed)
    }
}
