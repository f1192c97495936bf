import Basics
import Foundation
import Sync
import Testing
import TestSupport
import TestThreads

/// Issue 23: a sync journal is trusted only when this user's Slipway wrote it for this project.
/// Each test plants the journal of the issue (it writes chosen bytes over a file outside the
/// project through `gitIndex`, moves a committed `payload.sh` to `.git/hooks/post-commit`, and
/// pulls a file from outside into the project), runs the real code path, and checks the exact
/// error and that nothing changed: not the victims beside the project, not `.git/hooks`, not
/// anything in the repository (`.git` included).
@Suite("Sync journals from the checkout are never trusted", .dedicatedThreads)
struct SyncJournalTrustTests {
    static let victimText = "precious, outside the project\n"
    static let backupText = "ATTACKER CHOSEN BYTES\n"

    /// A git repository with a project to sync, a committed `payload.sh`, and a folder beside it
    /// holding the victims.
    struct Scene {
        let repository: SyntheticRepository
        let outside: TemporaryDirectory
        var victim: String { outside.path + "/victim.txt" }
        var root: String { repository.root }
        var bundle: String { repository.bundle }
        var state: SyncState { repository.syncState }
        /// The victim folder's path from the project folder, through `..`.
        var outsideFromRoot: String { "../" + URL(fileURLWithPath: outside.path).lastPathComponent }

        init() throws {
            repository = try SyntheticRepository(files: 4, groups: 2)
            outside = try TemporaryDirectory(prefix: "sync-victim")
            try outside.write("victim.txt", SyncJournalTrustTests.victimText)
            try outside.write("secret.txt", "outside secret\n")
            try Data("#!/bin/sh\ntouch pwned\n".utf8).write(to: URL(fileURLWithPath: root + "/payload.sh"))
            chmod(root + "/payload.sh", 0o755)
            try commit("payload")
        }

        func commit(_ message: String) throws {
            try GitFixture.run(["add", "-A"], in: root)
            try GitFixture.run(["commit", "--quiet", "-m", message], in: root)
        }

        /// The moves of the attack: rolled back, they move payload.sh into the hooks and the
        /// secret from outside into the project.
        var hostileMoves: [SyncMove] {
            [SyncMove(source: ".git/hooks/post-commit", destination: "payload.sh", reason: .reference),
             SyncMove(source: "App/stolen.txt", destination: outsideFromRoot + "/secret.txt", reason: .reference)]
        }

        /// The journal text: header (signed for `signedFor` when given) and the events that
        /// make recovery restore the "index" and undo both moves.
        func journal(moves: [SyncMove]? = nil, gitIndex: String? = nil, signedFor: SyncState? = nil, extraEvents: String = "") throws -> String {
            let header = try SyncJournalHeaderFixture.header(
                moves: moves ?? hostileMoves, pbxproj: fileBytes(repository.pbxprojPath), gitIndex: gitIndex ?? victim, signedFor: signedFor)
            let saved = SyncJournal.sha256(Array(SyncJournalTrustTests.backupText.utf8))
            return header + "\n{\"event\":\"indexSaved\",\"path\":\"\(saved)\"}\n{\"event\":\"stagingStarted\"}\n" + extraEvents
                + "{\"event\":\"moved\",\"index\":1}\n"
        }

        /// Plants `text` as the journal (and the attacker's index backup) in the state folder.
        func plantInStateFolder(_ text: String) throws {
            try SyncJournalHeaderFixture.plant(text, in: state)
            try Data(SyncJournalTrustTests.backupText.utf8).write(to: URL(fileURLWithPath: state.indexBackupPath))
        }

        /// Everything that must not change: the repository (with `.git`) and the victims.
        func snapshot() -> [String: String] {
            var entries: [String: String] = [:]
            for (path, value) in TreeSnapshot(root, skipping: []).entries { entries["repo/" + path] = value }
            for (path, value) in TreeSnapshot(outside.path, skipping: []).entries { entries["outside/" + path] = value }
            return entries
        }

        func expectUntouched(_ before: [String: String], _ context: String, sourceLocation: Testing.SourceLocation = #_sourceLocation) {
            let after = snapshot()
            #expect(after == before, "\(context): \(Set(after.keys).union(before.keys).filter { after[$0] != before[$0] }.sorted())", sourceLocation: sourceLocation)
            #expect(fileBytes(victim) == Array(SyncJournalTrustTests.victimText.utf8), "\(context): the victim outside is byte-identical", sourceLocation: sourceLocation)
            #expect(!FileManager.default.fileExists(atPath: root + "/.git/hooks/post-commit"), "\(context): no hook", sourceLocation: sourceLocation)
        }
    }

    // MARK: The journal of the issue, at its old place in the .xcodeproj

    @Test("a journal committed at the old place in the .xcodeproj is never acted on, in any mode (binary and library)")
    func legacyJournalIsIgnored() throws {
        let scene = try Scene()
        let legacy = scene.bundle + "/" + SyncJournal.legacyFileName
        try Data(try scene.journal().utf8).write(to: URL(fileURLWithPath: legacy))
        try Data(Self.backupText.utf8).write(to: URL(fileURLWithPath: scene.bundle + "/.slipway-sync-original.index"))
        try scene.commit("hostile journal")
        let before = scene.snapshot()
        let message = "'\(legacy)' was ignored: Slipway keeps its sync journal outside the checkout (under .git/slipway, or the user's state folder without git), so this file was not written by this Slipway and may be hostile; nothing was read from it and nothing was changed. Remove it ('git rm' it if it is committed, else delete it), then run the sync again."
        for arguments in [[], ["--check"], ["--dry-run"], ["--recover"], ["--allow-dirty"]] {
            let result = try CommandResult.run(Binaries.slipway, ["sync", scene.bundle] + arguments, environment: scene.repository.binaryEnvironment)
            #expect(result.status == 2, "\(arguments): \(result.standardError)")
            #expect(result.standardError == "error: \(message)\n", "\(arguments)")
            scene.expectUntouched(before, "slipway sync \(arguments)")
        }
        let sync = ProjectSync(fileSystem: LocalFileSystem(), environment: scene.repository.environment)
        for mode in [SyncMode.apply, .check, .dryRun] {
            #expect(throws: SyncError.legacyJournal(path: legacy)) { try sync.run(scene.bundle, options: SyncOptions(groupsWithoutPath: .folder), mode: mode) }
        }
        #expect(throws: SyncError.legacyJournal(path: legacy)) { try sync.recover(scene.bundle) }
        #expect(SyncError.legacyJournal(path: legacy).errorDescription == message)
        scene.expectUntouched(before, "library")
        #expect(try FileManager.default.contentsOfDirectory(atPath: scene.repository.stateHome.path).isEmpty, "no key was made")
    }

    // MARK: Journals in the state folder that this Slipway did not write

    @Test("a journal copied into the state folder without this user's signature is refused before anything happens")
    func unsignedJournalIsRefused() throws {
        let scene = try Scene()
        try scene.plantInStateFolder(try scene.journal())
        let before = scene.snapshot()
        let error = SyncError.untrustedJournal(path: scene.state.journalPath, reason: "it carries no signature of this Slipway, so it was not written here")
        let sync = ProjectSync(fileSystem: LocalFileSystem(), environment: scene.repository.environment)
        #expect(throws: error) { try sync.recover(scene.bundle) }
        #expect(throws: error) { try sync.run(scene.bundle, options: SyncOptions(groupsWithoutPath: .folder), mode: .apply) }
        scene.expectUntouched(before, "library")
        let result = try CommandResult.run(Binaries.slipway, ["sync", scene.bundle, "--groups-without-path", "folder"], environment: scene.repository.binaryEnvironment)
        #expect(result.status == 2)
        #expect(result.standardError == "error: The sync journal '\(scene.state.journalPath)' was not used: it carries no signature of this Slipway, so it was not written here. Nothing was changed. It may be hostile: delete the folder '\(scene.state.folder)' (Slipway's sync state for this project), restore the project from git if a sync was really interrupted, and run again.\n")
        scene.expectUntouched(before, "binary")
    }

    @Test("a journal signed for another project, or by another user's key, is refused")
    func journalFromElsewhereIsRefused() throws {
        let scene = try Scene()
        let other = try SyntheticRepository(files: 2, groups: 1)
        let otherProject = SyncState(root: other.root, projectBundle: "App.xcodeproj", gitDirectory: other.root + "/.git", environment: scene.repository.environment)
        try scene.plantInStateFolder(try scene.journal(signedFor: otherProject))
        let before = scene.snapshot()
        let sync = ProjectSync(fileSystem: LocalFileSystem(), environment: scene.repository.environment)
        #expect(throws: SyncError.untrustedJournal(
            path: scene.state.journalPath, reason: "its signature does not match this user, project and state folder, so it was copied from elsewhere or edited")) {
            try sync.recover(scene.bundle)
        }
        scene.expectUntouched(before, "another project")
        // Signed by the right project, but with another user's key (another state folder).
        let otherUser = SyncState(root: scene.root, projectBundle: "App.xcodeproj", gitDirectory: scene.root + "/.git", environment: other.environment)
        try scene.plantInStateFolder(try scene.journal(signedFor: otherUser))
        let planted = scene.snapshot()
        #expect(throws: SyncError.untrustedJournal(
            path: scene.state.journalPath, reason: "its signature does not match this user, project and state folder, so it was copied from elsewhere or edited")) {
            try sync.recover(scene.bundle)
        }
        scene.expectUntouched(planted, "another user's key")
    }

    @Test("a signed journal is still checked path by path: every bad path is refused before the first operation")
    func signedJournalPathsAreChecked() throws {
        let scene = try Scene()
        try FileManager.default.createSymbolicLink(atPath: scene.root + "/App/linked", withDestinationPath: scene.outside.path)
        try scene.commit("a link out")
        let index = scene.root + "/.git/index"
        let resolvedRoot = StateFiles.resolved(scene.root) ?? scene.root
        let move = { (source: String, destination: String) in [SyncMove(source: source, destination: destination, reason: .reference)] }
        let cases: [(moves: [SyncMove]?, index: String?, events: String, reason: String)] = [
            (nil, nil, "", "it names the git index '\(scene.victim)', which is not the index of the repository holding the project ('\(index)')"),
            (move(".git/hooks/post-commit", "payload.sh"), index, "", "it names '.git/hooks/post-commit': it is inside the git directory, which a sync never touches"),
            (move("App/stolen.txt", scene.outsideFromRoot + "/secret.txt"), index, "",
             "it names '\(scene.outsideFromRoot)/secret.txt': it is not a plain relative path inside the project folder '\(resolvedRoot)'"),
            (move("App/stolen.txt", "/etc/passwd"), index, "", "it names '/etc/passwd': it is not a plain relative path inside the project folder '\(resolvedRoot)'"),
            (move("App/stolen.txt", "App/linked/secret.txt"), index, "",
             "it names 'App/linked/secret.txt': it leads outside the project folder '\(resolvedRoot)' (through a symbolic link or '..')"),
            (move("App/a.swift", "App/b.swift"), index, "{\"event\":\"createDirectory\",\"path\":\"App/linked/new\"}\n",
             "it names 'App/linked/new': it leads outside the project folder '\(resolvedRoot)' (through a symbolic link or '..')"),
        ]
        let sync = ProjectSync(fileSystem: LocalFileSystem(), environment: scene.repository.environment)
        for (moves, gitIndex, events, reason) in cases {
            try scene.plantInStateFolder(try scene.journal(moves: moves, gitIndex: gitIndex, signedFor: scene.state, extraEvents: events))
            let before = scene.snapshot()
            #expect(throws: SyncError.untrustedJournal(path: scene.state.journalPath, reason: reason)) { try sync.recover(scene.bundle) }
            scene.expectUntouched(before, reason)
        }
    }

    @Test("a journal that is a symbolic link, sits under a linked folder, or belongs to another user is refused")
    func linkedOrForeignJournalIsRefused() throws {
        let scene = try Scene()
        let sync = ProjectSync(fileSystem: LocalFileSystem(), environment: scene.repository.environment)
        // The journal itself is a link to a (validly signed) journal elsewhere.
        let elsewhere = try scene.outside.write("journal.json", try scene.journal(moves: [], gitIndex: scene.root + "/.git/index", signedFor: scene.state))
        try FileManager.default.createDirectory(atPath: scene.state.folder, withIntermediateDirectories: true)
        try FileManager.default.createSymbolicLink(atPath: scene.state.journalPath, withDestinationPath: elsewhere)
        var before = scene.snapshot()
        #expect(throws: SyncError.untrustedJournal(path: scene.state.journalPath, reason: "'\(scene.state.journalPath)' is a symbolic link")) {
            try sync.recover(scene.bundle)
        }
        scene.expectUntouched(before, "linked journal")
        // The state folder's parent is a link to a folder elsewhere.
        try FileManager.default.removeItem(atPath: scene.root + "/.git/slipway")
        let linkedState = try TemporaryDirectory(prefix: "sync-linked-state")
        try FileManager.default.createSymbolicLink(atPath: scene.root + "/.git/slipway", withDestinationPath: linkedState.path)
        try FileManager.default.createDirectory(atPath: scene.state.folder, withIntermediateDirectories: true)
        try Data(try scene.journal().utf8).write(to: URL(fileURLWithPath: scene.state.journalPath))
        before = scene.snapshot()
        #expect(throws: SyncError.untrustedJournal(path: scene.state.journalPath, reason: "'\(scene.root)/.git/slipway' is a symbolic link")) {
            try sync.recover(scene.bundle)
        }
        scene.expectUntouched(before, "linked state folder")
        // A sync that would write its journal there refuses before the first move.
        try FileManager.default.removeItem(atPath: linkedState.path + "/sync")
        let tree = TreeSnapshot(scene.root)
        do {
            _ = try sync.run(scene.bundle, options: SyncOptions(groupsWithoutPath: .folder), mode: .apply)
            Issue.record("a sync wrote its journal through a linked folder")
        } catch SyncError.applyFailed(let step, let reason, let restored, _) {
            #expect(step == "preparing the sync state folder '\(scene.state.folder)'")
            #expect(reason.hasPrefix("'\(scene.root)/.git/slipway' is a symbolic link where Slipway keeps its own state"), "\(reason)")
            #expect(restored)
        }
        #expect(TreeSnapshot(scene.root) == tree)
        #expect(try FileManager.default.contentsOfDirectory(atPath: linkedState.path).isEmpty, "nothing was written through the link")
        try FileManager.default.removeItem(atPath: scene.root + "/.git/slipway")
    }

    @Test("a journal owned by another user is refused", .enabled(if: geteuid() == 0, "needs root to give a file away"))
    func foreignJournalIsRefused() throws {
        let scene = try Scene()
        try scene.plantInStateFolder(try scene.journal(moves: [], gitIndex: scene.root + "/.git/index", signedFor: scene.state))
        chown(scene.state.journalPath, 65534, 65534)
        let before = scene.snapshot()
        #expect(throws: SyncError.untrustedJournal(path: scene.state.journalPath, reason: "'\(scene.state.journalPath)' belongs to another user (uid 65534)")) {
            try ProjectSync(fileSystem: LocalFileSystem(), environment: scene.repository.environment).recover(scene.bundle)
        }
        scene.expectUntouched(before, "foreign journal")
    }

    // MARK: Read-only modes, and where a real sync keeps its state

    @Test("--check and --dry-run write nothing at all: not in the repository, not in the user's state folder")
    func readOnlyModesWriteNothing() throws {
        let scene = try Scene()
        let before = scene.snapshot()
        for mode in ["--check", "--dry-run"] {
            let result = try CommandResult.run(Binaries.slipway, ["sync", scene.bundle, "--groups-without-path", "folder", mode], environment: scene.repository.binaryEnvironment)
            #expect(result.status == (mode == "--check" ? 1 : 0), "\(mode): \(result.standardError)")
            scene.expectUntouched(before, mode)
        }
        #expect(try FileManager.default.contentsOfDirectory(atPath: scene.repository.stateHome.path).isEmpty)
    }

    @Test("an interrupted sync keeps its journal under .git/slipway, signed; nothing of it is in the checkout; recovery works")
    func journalLivesInGitDirectory() throws {
        let scene = try Scene()
        let before = scene.repository.state()
        let killed = try CommandResult.run(
            Binaries.slipway, ["sync", scene.bundle, "--groups-without-path", "folder", "--quiet"],
            environment: scene.repository.binaryEnvironment.merging([SyncApplier.testStopAfterMovesVariable: "2"]) { $1 })
        #expect(killed.status == SIGKILL)
        let journal = try SyncJournal.read(scene.state.journalPath)
        #expect(journal.header.runID?.count == 32)
        #expect(journal.header.authenticator?.count == 64)
        #expect(scene.state.folder.hasPrefix(scene.root + "/.git/slipway/sync/"))
        let key = scene.repository.stateHome.path + "/slipway/" + StateFiles.keyName
        var info = stat()
        #expect(stat(key, &info) == 0 && info.st_mode & 0o777 == 0o600, "the key is private")
        let untracked = try GitFixture.run(["status", "--porcelain", "--untracked-files=all", "--ignored"], in: scene.root)
        #expect(!untracked.contains("slipway-sync"), "\(untracked)")
        let recover = try CommandResult.run(Binaries.slipway, ["sync", scene.bundle, "--recover"], environment: scene.repository.binaryEnvironment)
        #expect(recover.status == 0, "\(recover.standardError)")
        #expect(scene.repository.state().tree == before.tree)
        #expect(!FileManager.default.fileExists(atPath: scene.root + "/.git/slipway"), "the state folder is removed when empty")
    }

    @Test("in a linked git worktree the journal goes to the worktree's own git directory and recovery works")
    func linkedWorktree() throws {
        let scene = try Scene()
        let worktrees = try TemporaryDirectory(prefix: "sync-worktree")
        let tree = worktrees.path + "/wt"
        try GitFixture.run(["worktree", "add", "--quiet", "-b", "wt", tree], in: scene.root)
        defer { _ = try? GitFixture.run(["worktree", "remove", "--force", tree], in: scene.root) }
        let bundle = tree + "/App.xcodeproj"
        let gitDirectory = try GitFixture.run(["rev-parse", "--absolute-git-dir"], in: tree).trimmingCharacters(in: .whitespacesAndNewlines)
        #expect(gitDirectory.hasPrefix(scene.root + "/.git/worktrees/"))
        let state = SyncState(root: tree, projectBundle: "App.xcodeproj", gitDirectory: gitDirectory, environment: scene.repository.environment)
        let before = TreeSnapshot(tree)
        let killed = try CommandResult.run(
            Binaries.slipway, ["sync", bundle, "--groups-without-path", "folder", "--quiet"],
            environment: scene.repository.binaryEnvironment.merging([SyncApplier.testStopAfterMovesVariable: "1"]) { $1 })
        #expect(killed.status == SIGKILL)
        #expect(FileManager.default.fileExists(atPath: state.journalPath))
        let recover = try CommandResult.run(Binaries.slipway, ["sync", bundle, "--recover"], environment: scene.repository.binaryEnvironment)
        #expect(recover.status == 0, "\(recover.standardError)")
        #expect(TreeSnapshot(tree) == before)
    }
}
