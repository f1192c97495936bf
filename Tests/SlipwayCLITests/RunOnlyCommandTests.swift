import Foundation
import Testing
import TestSupport
import TestThreads

/// `slipway run LANE --only STEP` through the real binary, one fresh clone per "runner".
@Suite("slipway run --only", .dedicatedThreads) struct RunOnlyCommandTests {
    static let lane = """
        steps:
          - run: echo 2.0.0 > VERSION
            id: bump
          - git.commit: { message: "chore(release): 2.0.0", paths: [VERSION] }
            id: commit
          - git.tag: { name: v2.0.0 }
            id: tag
        """

    func origin() throws -> GitFixture {
        let origin = try GitFixture(prefix: "slipway-only-origin")
        try origin.write("lanes/release.yml", Self.lane)
        try origin.write(".gitignore", "/.slipway/\n")
        try origin.commit("chore: start", files: ["VERSION": "1.0.0\n"])
        return origin
    }

    func clone(_ origin: GitFixture) throws -> TemporaryDirectory {
        let folder = try TemporaryDirectory(prefix: "slipway-only-runner")
        try GitFixture.run(["clone", "--quiet", "file://" + origin.path, folder.path], in: origin.path)
        try GitFixture.run(["config", "user.name", "Release Bot"], in: folder.path)
        try GitFixture.run(["config", "user.email", "bot@example.com"], in: folder.path)
        return folder
    }

    @Test func twoRunnersHandOverACommit() throws {
        let origin = try origin()
        let runnerA = try clone(origin)
        let first = try CommandResult.run(Binaries.slipway, ["run", "release", "--only", "bump,commit"], in: runnerA.path)
        #expect(first.status == 0, "\(first.standardError)")
        let commit = try GitFixture.run(["rev-parse", "HEAD"], in: runnerA.path)
        let runnerB = try clone(origin)
        try FileManager.default.createDirectory(atPath: runnerB.path + "/.slipway", withIntermediateDirectories: true)
        try FileManager.default.copyItem(atPath: runnerA.path + "/.slipway/ci", toPath: runnerB.path + "/.slipway/ci")
        let second = try CommandResult.run(Binaries.slipway, ["run", "release", "--only", "tag"], in: runnerB.path)
        #expect(second.status == 0, "\(second.standardError)")
        #expect(try GitFixture.run(["rev-parse", "HEAD", "v2.0.0^{commit}"], in: runnerB.path) == commit + "\n" + commit)
        #expect(try GitFixture.run(["status", "--porcelain"], in: runnerB.path).isEmpty)
        #expect(try GitFixture.run(["fsck", "--strict", "--no-dangling"], in: runnerB.path).isEmpty)
    }

    @Test func badSelectionsExitWithoutRunningAnything() throws {
        let origin = try origin()
        let runner = try clone(origin)
        let before = try Snapshot.of(runner.path)
        let usage = try CommandResult.run(Binaries.slipway, ["run", "release", "--only", "tag", "--resume"], in: runner.path)
        #expect(usage.status == 64)
        #expect(usage.standardError.contains("--only cannot be combined with --resume or --from"))
        let unknown = try CommandResult.run(Binaries.slipway, ["run", "release", "--only", "tga"], in: runner.path)
        #expect(unknown.status == 2)
        #expect(unknown.standardError.contains("--only: the lane has no step 'tga'. Did you mean 'tag'? Its steps are bump, commit, tag."))
        #expect(try Snapshot.of(runner.path) == before, "nothing ran, nothing was written")
    }
}
