import Basics
import Foundation
import Sync
import Testing
import TestSupport
import TestThreads

/// Interrupted syncs: killed after k moves (the test hook and a real SIGKILL), failing writes
/// at every point, and a recovery that is itself interrupted. Recovery must restore the tree,
/// the pbxproj and the git index byte for byte.
@Suite("Sync recovery", .dedicatedThreads)
struct RecoveryTests {
    static let hook = SyncApplier.testStopAfterMovesVariable

    @Test("killed (SIGKILL) after move k, for several k: --recover restores the tree, pbxproj and index byte for byte", arguments: [1, 5, 11, 12])
    func killedAfterMoves(k: Int) throws {
        let repository = try SyntheticRepository(files: 12, groups: 3)
        let before = repository.state()
        let environment = repository.binaryEnvironment
        let killed = try CommandResult.run(
            Binaries.slipway, ["sync", repository.bundle, "--groups-without-path", "folder", "--quiet"], environment: environment.merging([Self.hook: String(k)]) { $1 })
        #expect(killed.status == SIGKILL, "the process should die by SIGKILL, got \(killed.status): \(killed.standardError)")
        #expect(FileManager.default.fileExists(atPath: repository.syncState.journalPath))
        #expect(!FileManager.default.fileExists(atPath: repository.bundle + "/" + SyncJournal.legacyFileName), "nothing in the checkout")
        #expect(repository.state().tree != before.tree, "some files had moved")
        let check = try CommandResult.run(Binaries.slipway, ["sync", repository.bundle, "--groups-without-path", "folder", "--check"], environment: environment)
        #expect(check.status == 2 && check.standardError.contains("--recover"), "\(check.standardError)")
        let recover = try CommandResult.run(Binaries.slipway, ["sync", repository.bundle, "--recover"], environment: environment)
        #expect(recover.status == 0, "\(recover.standardError)")
        #expect(recover.standardOutput.contains("Rolled back the interrupted sync: \(k) move(s) undone"), "\(recover.standardOutput)")
        let after = repository.state()
        #expect(after.tree == before.tree, "\(after.tree.difference(from: before.tree))")
        #expect(after.index == before.index)
        #expect(!FileManager.default.fileExists(atPath: repository.syncState.folder), "the state folder is removed")
        let again = try CommandResult.run(Binaries.slipway, ["sync", repository.bundle, "--recover"], environment: environment)
        #expect(again.status == 0 && again.standardOutput.contains("nothing to recover"), "\(again.standardOutput)")
    }

    @Test("the next sync recovers an interrupted one by itself, then syncs")
    func nextSyncRecovers() throws {
        let repository = try SyntheticRepository(files: 12, groups: 3)
        let environment = repository.binaryEnvironment
        _ = try CommandResult.run(Binaries.slipway, ["sync", repository.bundle, "--groups-without-path", "folder", "--quiet"], environment: environment.merging([Self.hook: "6"]) { $1 })
        let sync = try CommandResult.run(Binaries.slipway, ["sync", repository.bundle, "--groups-without-path", "folder"], environment: environment)
        #expect(sync.status == 0, "\(sync.standardError)")
        #expect(sync.standardOutput.contains("Recovered an interrupted sync first"))
        #expect(try CommandResult.run(Binaries.slipway, ["sync", repository.bundle, "--groups-without-path", "folder", "--check"], environment: environment).status == 0)
        #expect(try porcelainStatus(repository.root).filter { $0.hasPrefix("R  ") }.count == 12)
    }

    @Test("a real SIGKILL at an arbitrary moment of a long apply: --recover restores everything byte for byte")
    func realSIGKILL() throws {
        let repository = try SyntheticRepository(files: 3000, groups: 300)
        let before = repository.state()
        let process = Process()
        process.executableURL = URL(fileURLWithPath: Binaries.slipway)
        process.arguments = ["sync", repository.bundle, "--groups-without-path", "folder", "--quiet"]
        process.standardOutput = FileHandle.nullDevice
        process.standardError = FileHandle.nullDevice
        process.environment = ProcessInfo.processInfo.environment.merging(["XDG_STATE_HOME": repository.stateHome.path]) { $1 }
        try process.run()
        let journal = repository.syncState.journalPath
        let deadline = ContinuousClock.now + .seconds(60)
        while !FileManager.default.fileExists(atPath: journal) && process.isRunning && ContinuousClock.now < deadline {
            usleep(200)
        }
        usleep(UInt32.random(in: 1_000...20_000))
        kill(process.processIdentifier, SIGKILL)
        process.waitUntilExit()
        guard process.terminationReason == .uncaughtSignal else {
            Issue.record("the sync finished before it could be killed; make the project larger")
            return
        }
        let recover = try CommandResult.run(Binaries.slipway, ["sync", repository.bundle, "--recover"], environment: repository.binaryEnvironment)
        #expect(recover.status == 0, "\(recover.standardError)")
        print("real SIGKILL: \(recover.standardOutput.trimmingCharacters(in: .whitespacesAndNewlines))")
        let after = repository.state()
        #expect(after.tree == before.tree, "\(after.tree.difference(from: before.tree))")
        #expect(after.index == before.index)
    }

    @Test("a write failing at every single point of the sync (disk full) rolls everything back")
    func diskFullAtEveryWrite() throws {
        let template = try SyntheticRepository(files: 6, groups: 2)
        let counting = FaultyFileSystem()
        let environment = template.environment
        let probe = try TemporaryDirectory(prefix: "sync-probe")
        try GitFixture.run(["clone", "--quiet", template.root, probe.path + "/repo"], in: probe.path)
        _ = try ProjectSync(fileSystem: counting, environment: environment).run(probe.path + "/repo/App.xcodeproj", options: SyncOptions(groupsWithoutPath: .folder), mode: .apply)
        let writes = counting.writeCount
        #expect(writes >= 10, "every phase writes: backup, journal, events, pbxproj, index")
        for failing in 1...writes {
            let copy = try TemporaryDirectory(prefix: "sync-full")
            try GitFixture.run(["clone", "--quiet", template.root, copy.path + "/repo"], in: copy.path)
            let root = copy.path + "/repo"
            let before = (TreeSnapshot(root), fileBytes(root + "/.git/index"))
            let fileSystem = FaultyFileSystem(failingWrite: failing)
            do {
                _ = try ProjectSync(fileSystem: fileSystem, environment: environment).run(root + "/App.xcodeproj", options: SyncOptions(groupsWithoutPath: .folder), mode: .apply)
                Issue.record("write \(failing) of \(writes) failed and the sync still succeeded")
            } catch SyncError.applyFailed(_, let reason, let restored, _) {
                #expect(restored, "write \(failing)")
                #expect(reason.contains("No space left on the device"), "\(reason)")
            }
            #expect(TreeSnapshot(root) == before.0, "write \(failing): \(TreeSnapshot(root).difference(from: before.0))")
            #expect(fileBytes(root + "/.git/index") == before.1, "write \(failing)")
        }
    }

    @Test("a recovery that fails half-way keeps its journal and completes when run again")
    func recoveryIsIdempotent() throws {
        let repository = try SyntheticRepository(files: 12, groups: 3)
        let before = repository.state()
        _ = try CommandResult.run(
            Binaries.slipway, ["sync", repository.bundle, "--groups-without-path", "folder", "--quiet"], environment: repository.binaryEnvironment.merging([Self.hook: "9"]) { $1 })
        let blocked = FaultyFileSystem(readOnlyFolder: repository.root + "/App/Module0002")
        let sync = ProjectSync(fileSystem: blocked, environment: repository.environment)
        #expect(throws: (any Error).self) { try sync.recover(repository.bundle) }
        #expect(FileManager.default.fileExists(atPath: repository.syncState.journalPath))
        let report = try ProjectSync(fileSystem: LocalFileSystem(), environment: repository.environment).recover(repository.bundle)
        #expect(report.outcome == .rolledBack)
        #expect(repository.state().tree == before.tree)
        #expect(repository.state().index == before.index)
    }

    @Test("a journal that reached its commit is finished, not undone")
    func committedJournalRollsForward() throws {
        let repository = try SyntheticRepository(files: 4, groups: 2, git: false)
        let sync = ProjectSync(fileSystem: LocalFileSystem(), environment: repository.environment)
        let report = try sync.run(repository.bundle, options: SyncOptions(useGit: false, groupsWithoutPath: .folder), mode: .apply)
        let synced = TreeSnapshot(repository.root)
        let trash = repository.bundle + "/" + SyncJournal.trashFolderName
        try FileManager.default.createDirectory(atPath: trash, withIntermediateDirectories: true)
        try Data("pruned\n".utf8).write(to: URL(fileURLWithPath: trash + "/0-old.swift"))
        let header = try SyncJournalHeaderFixture.header(moves: report.plan.moves, pbxproj: fileBytes(repository.pbxprojPath), signedFor: repository.syncState)
        try SyncJournalHeaderFixture.plant(header + "\n{\"event\":\"committed\"}\n", in: repository.syncState)
        #expect(try sync.recover(repository.bundle).outcome == .rolledForward)
        #expect(TreeSnapshot(repository.root) == synced)
    }

    @Test("a journal written by a newer Slipway is refused, not guessed at")
    func newerJournal() throws {
        let repository = try SyntheticRepository(files: 2, groups: 1, git: false)
        let path = repository.syncState.journalPath
        try SyncJournalHeaderFixture.plant("{\"kind\":\"slipway-sync\",\"version\":99}\n", in: repository.syncState)
        #expect(throws: SyncError.unreadableJournal(path: path, reason: "it was written by a newer Slipway (format 99; this one reads 1); recover with that version")) {
            try ProjectSync(fileSystem: LocalFileSystem(), environment: repository.environment).recover(repository.bundle)
        }
    }
}

/// Journal headers for tests that need a journal in a given state.
enum SyncJournalHeaderFixture {
    /// A header line, signed for `state` when given (as this user's Slipway would write it).
    static func header(moves: [SyncMove], pbxproj: [UInt8], gitIndex: String? = nil, signedFor state: SyncState? = nil) throws -> String {
        var header = SyncJournal.Header(
            version: 1, kind: "slipway-sync", projectBundle: "App.xcodeproj", pbxprojSHA256: SyncJournal.sha256(pbxproj), moves: moves, gitIndex: gitIndex)
        if let state { try state.sign(&header) }
        return try JSONFormatting.line(header)
    }

    /// Writes `text` as the journal in `state`'s folder (created as the applier creates it).
    static func plant(_ text: String, in state: SyncState) throws {
        try FileManager.default.createDirectory(atPath: state.folder, withIntermediateDirectories: true)
        try Data(text.utf8).write(to: URL(fileURLWithPath: state.journalPath))
    }
}
