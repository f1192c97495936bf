import Basics
import Foundation
import Testing
import TestSupport
import TestThreads

/// A second slipway on the same project, lane journal or tools cache exits 75 ("busy"), names
/// the holder's pid, and changes nothing. The holder is this test process, holding the lock
/// through the Basics API: deterministic, where two racing real processes would not be.
@Suite(.dedicatedThreads) struct BusyTests {
    /// A synthetic project in git whose files are all out of place (a sync would move them).
    struct Project {
        let folder: TemporaryDirectory
        var bundle: String { folder.path + "/App.xcodeproj" }

        init() throws {
            folder = try TemporaryDirectory(prefix: "slipway-busy")
            try SyntheticXcodeProject.write(files: 6, groups: 2, in: folder.path)
            try GitFixture.run(["init", "--quiet", "--initial-branch=main"], in: folder.path)
            try GitFixture.run(["add", "-A"], in: folder.path)
            try GitFixture.run(["commit", "--quiet", "-m", "synthetic"], in: folder.path)
        }

        /// Every file (with `.git/index`, without the rest of `.git`) and its contents.
        func state() throws -> [String: String] {
            var files = try Snapshot.of(folder.path).filter { !$0.key.hasPrefix(".git/") && $0.key != ".git" }
            files[".git/index"] = try Data(contentsOf: URL(fileURLWithPath: folder.path + "/.git/index")).base64EncodedString()
            return files
        }
    }

    static let projectCommands: [[String]] = [
        ["sync", "App.xcodeproj"],
        ["sync", "App.xcodeproj", "--check"],
        ["sync", "App.xcodeproj", "--recover"],
        ["xcodeproj", "set-setting", "App.xcodeproj", "MARKETING_VERSION", "9.9"],
        ["xcodeproj", "format", "App.xcodeproj"],
    ]

    @Test(arguments: projectCommands)
    func projectCommandIsRefusedWhileAnotherHoldsTheProject(_ arguments: [String]) async throws {
        let project = try Project()
        let lock = try #require(try ExclusiveLock.acquireProject(pbxproj: project.bundle + "/project.pbxproj", command: "slipway sync App.xcodeproj"))
        let before = try project.state()
        let result = try await Binaries.runSlipway(arguments, in: project.folder.path)
        #expect(result.status == .exited(75), "\(arguments): \(result.errorText)")
        #expect(result.errorText == "error: another slipway (pid \(getpid()), `slipway sync App.xcodeproj`) is working on "
            + "'\(project.bundle)'; wait for it to finish, then try again.\n", "\(arguments)")
        #expect(try project.state() == before, "\(arguments) changed the disk")
        lock.release()
        // The same command goes through once the lock is free (the lock file is gone again).
        let after = try await Binaries.runSlipway(arguments, in: project.folder.path)
        #expect(after.status != .exited(75), "\(arguments): \(after.errorText)")
        #expect(!FileManager.default.fileExists(atPath: lock.path))
    }

    @Test func syncInALaneStepFailsWhileAnotherHoldsTheProject() async throws {
        let project = try Project()
        try project.folder.write("lanes/tidy.yml", "steps:\n  - sync: { project: App.xcodeproj }\n")
        let lock = try #require(try ExclusiveLock.acquireProject(pbxproj: project.bundle + "/project.pbxproj", command: "slipway sync App.xcodeproj"))
        let outsideJournal = { (state: [String: String]) in state.filter { $0.key != ".slipway" && !$0.key.hasPrefix(".slipway/") } }
        let before = outsideJournal(try project.state())
        let result = try await Binaries.runSlipway(["run", "tidy"], in: project.folder.path)
        #expect(result.status == .exited(1), "\(result.outputText)\(result.errorText)")
        #expect(result.outputText.contains("another slipway (pid \(getpid()), `slipway sync App.xcodeproj`) is working on '\(project.bundle)'"),
                "\(result.outputText)")
        #expect(outsideJournal(try project.state()) == before)
        lock.release()
    }

    @Test func secondRunOfALaneIsRefusedWithoutRunningAStep() async throws {
        let folder = try TemporaryDirectory(prefix: "slipway-busy")
        try folder.write("lanes/release.yml", "steps:\n  - run: touch ran\n")
        try FileManager.default.createDirectory(atPath: folder.path + "/.slipway/runs/release", withIntermediateDirectories: true)
        let lock = try ExclusiveLock.acquire(
            at: folder.path + "/.slipway/runs/release/" + ExclusiveLock.fileName, activity: "running lane 'release'", command: "slipway run release")
        let before = try Snapshot.of(folder.path)
        let result = try await Binaries.runSlipway(["run", "release"], in: folder.path)
        #expect(result.status == .exited(75), "\(result.outputText)\(result.errorText)")
        #expect(result.errorText == "error: another slipway (pid \(getpid()), `slipway run release`) is running lane 'release' in "
            + "'\(folder.path)'; wait for it to finish, then try again.\n")
        #expect(try Snapshot.of(folder.path) == before)
        // A dry run takes no lock; another lane has a lock of its own.
        let dry = try await Binaries.runSlipway(["run", "release", "--dry-run"], in: folder.path)
        #expect(dry.status == .exited(0), "\(dry.errorText)")
        lock.release()
        let run = try await Binaries.runSlipway(["run", "release"], in: folder.path)
        #expect(run.status == .exited(0), "\(run.errorText)")
        #expect(FileManager.default.fileExists(atPath: folder.path + "/ran"))
        #expect(!FileManager.default.fileExists(atPath: lock.path))
    }

    @Test func refusedRunLeavesNoJournalFolderBehind() async throws {
        let folder = try TemporaryDirectory(prefix: "slipway-busy")
        try folder.write("lanes/release.yml", "inputs:\n  product: { type: string }\nsteps:\n  - run: touch ran\n")
        let before = try Snapshot.of(folder.path)
        let result = try await Binaries.runSlipway(["run", "release"], in: folder.path)
        #expect(result.status == .exited(2), "\(result.errorText)")
        #expect(try Snapshot.of(folder.path) == before)
    }
}
