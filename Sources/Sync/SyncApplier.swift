import Basics
import Foundation
import Git
import PBXProj

/// Applies a plan as a transaction: the original pbxproj is saved and the journal written before
/// the first move; the moves run one by one (each a rename that never replaces anything) with
/// the journal updated after each; the new pbxproj is written atomically (temporary file and
/// rename) with only the planned edits; the moves and the pbxproj are staged in the git index;
/// then the journal records the commit and is removed. If anything fails before the commit,
/// everything is rolled back before the error is reported.
public struct SyncApplier: Sendable {
    /// What an apply did.
    public struct Result: Codable, Sendable, Equatable {
        /// Moves done.
        public var moved = 0
        /// Whether the pbxproj was rewritten.
        public var pbxprojWritten = false
        /// Paths staged in the git index (sources and destinations), nil without git.
        public var staged: Int?
        /// Paths git did not know (moved files that were ignored), not staged.
        public var notStaged: [String] = []
        /// Folders the sync created.
        public var createdFolders: [String] = []
        /// Folders the moves emptied, removed afterwards.
        public var removedFolders: [String] = []
        /// Clean-up that failed after the sync was complete.
        public var warnings: [String] = []
        /// Files rewritten besides the pbxproj (xcconfigs), at their place after the moves.
        public var editedFiles: [String] = []
    }

    /// The environment variable that makes the applier kill its own process (SIGKILL) right
    /// after that many moves. For Slipway's own crash-recovery tests only.
    public static let testStopAfterMovesVariable = "SLIPWAY_SYNC_TEST_STOP_AFTER_MOVES"
    /// The environment variable that makes the applier kill its own process right after it
    /// rewrote the files besides the pbxproj (xcconfigs). For Slipway's own crash-recovery tests only.
    public static let testStopAfterFileEditsVariable = "SLIPWAY_SYNC_TEST_STOP_AFTER_FILE_EDITS"

    let fileSystem: any FileSystem
    let root: String
    let projectBundle: String
    let git: (any SyncGit)?
    let stopAfterMoves: Int?
    let stopAfterFileEdits: Bool
    let progress: (@Sendable (Int, Int) -> Void)?
    let flushInterval: Int
    /// Where the journal and the saved copies go (outside the checkout).
    let state: SyncState

    /// An applier for the project whose `.xcodeproj` is `projectBundle` inside `root`.
    ///
    /// - Parameters:
    ///   - git: Where to stage the moves (nil: no git).
    ///   - environment: Read for `testStopAfterMovesVariable`, and for the user's state folder
    ///     when `state` is nil.
    ///   - state: Where the journal goes; nil: in `git`'s git directory, else the user's state folder.
    ///   - progress: Called after each move with (done, total).
    ///   - flushInterval: Moves between two flushes of the journal to the disk.
    public init(
        fileSystem: any FileSystem, root: String, projectBundle: String, git: (any SyncGit)?, environment: Environment,
        state: SyncState? = nil, progress: (@Sendable (Int, Int) -> Void)? = nil, flushInterval: Int = 64
    ) {
        self.state = state ?? SyncState(
            root: root, projectBundle: projectBundle, gitDirectory: git.map { ProjectPath.parent($0.indexPath) }, environment: environment)
        self.fileSystem = fileSystem
        self.root = root
        self.projectBundle = projectBundle
        self.git = git
        stopAfterMoves = environment[Self.testStopAfterMovesVariable].flatMap { Int($0) }
        stopAfterFileEdits = environment[Self.testStopAfterFileEditsVariable] == "1"
        self.progress = progress
        self.flushInterval = max(1, flushInterval)
    }

    var bundlePath: String { root + "/" + projectBundle }
    func absolute(_ path: String) -> String { path.isEmpty ? root : root + "/" + path }

    /// Applies `plan` to the disk and writes `project` with the plan's edits.
    ///
    /// - Parameters:
    ///   - originalBytes: The pbxproj's bytes as they are on disk (saved for recovery).
    ///   - fileEdits: Other files to rewrite (xcconfigs naming moved files): saved in the
    ///     journal's folder before the first move, written after the moves, restored by a rollback.
    /// - Throws: `SyncError.conflicts` for a plan with conflicts (nothing is touched),
    ///   `SyncError.applyFailed` when a step fails (saying whether everything was restored).
    public func apply(_ plan: SyncPlan, to project: PBXProject, originalBytes: [UInt8], fileEdits: [PathReferenceEdit] = []) throws -> Result {
        guard plan.conflicts.isEmpty else { throw SyncError.conflicts(plan.conflicts) }
        var edited = project
        let newBytes: [UInt8]?
        do {
            try plan.applyEdits(to: &edited)
            newBytes = plan.edits.isEmpty ? nil : try edited.serialized()
        } catch {
            throw SyncError.applyFailed(step: "editing the project", reason: errorText(error), restored: true, journal: "")
        }
        guard !plan.moves.isEmpty || newBytes != nil || !fileEdits.isEmpty else { return Result() }
        try state.checkPlan(plan.moves)
        try state.checkEdits(fileEdits)
        var header = SyncJournal.Header(
            version: SyncJournal.currentVersion, kind: "slipway-sync", projectBundle: projectBundle,
            pbxprojSHA256: SyncJournal.sha256(originalBytes), moves: plan.moves, gitIndex: git?.indexPath)
        if !fileEdits.isEmpty {
            header.fileEdits = fileEdits.map { SyncJournal.FileEdit(path: $0.path, finalPath: $0.finalPath, originalSHA256: $0.originalSHA256) }
        }
        do {
            try state.createFolder()
            try state.sign(&header)
        } catch {
            throw SyncError.applyFailed(step: "preparing the sync state folder '\(state.folder)'", reason: errorText(error), restored: true, journal: "")
        }
        var writer = JournalWriter(fileSystem: fileSystem, path: state.journalPath, header: header, flushInterval: flushInterval)
        var result = Result()
        var stage = "saving a copy of the original project"
        do {
            try fileSystem.writeAtomically(originalBytes, to: state.pbxprojBackupPath)
            for (index, edit) in fileEdits.enumerated() {
                stage = "saving a copy of '\(edit.path)'"
                try saveOriginal(edit, to: state.fileBackupPath(index))
            }
            stage = "writing the journal"
            try writer.start()
            stage = "moving files"
            try moveAll(plan.moves, writer: &writer, result: &result, stage: &stage)
            if !fileEdits.isEmpty {
                for edit in fileEdits {
                    stage = "rewriting '\(edit.finalPath)'"
                    try fileSystem.writeAtomically(Array(edit.newText.utf8), to: absolute(edit.finalPath))
                    result.editedFiles.append(edit.finalPath)
                }
                try writer.record(.init(.filesEdited))
                if stopAfterFileEdits { TestHooks.killProcess() }
            }
            if let newBytes {
                stage = "writing '\(projectBundle)/project.pbxproj'"
                try fileSystem.writeAtomically(newBytes, to: bundlePath + "/project.pbxproj")
                try writer.record(.init(.pbxprojWritten))
                result.pbxprojWritten = true
            }
            if let git {
                stage = "staging the moves in the git index"
                try stageMoves(plan, git: git, writer: &writer, result: &result)
            }
            stage = "recording the end of the sync in the journal"
            try writer.record(.init(.committed))
        } catch {
            let recovery = SyncRecovery(fileSystem: fileSystem, root: root, projectBundle: projectBundle, state: state)
            let restored = (try? recovery.rollBack(writer.journal)) != nil
            throw SyncError.applyFailed(step: stage, reason: errorText(error), restored: restored, journal: writer.path)
        }
        let cleanup = SyncRecovery(fileSystem: fileSystem, root: root, projectBundle: projectBundle, state: state).finish(writer.journal)
        result.removedFolders = cleanup.removedFolders
        result.warnings = cleanup.warnings
        return result
    }

    private func moveAll(_ moves: [SyncMove], writer: inout JournalWriter, result: inout Result, stage: inout String) throws {
        var folders: Set<String> = []
        for (index, move) in moves.enumerated() {
            stage = "moving '\(move.source)' to '\(move.destination)'"
            try ensureFolder(ProjectPath.parent(move.destination), known: &folders, writer: &writer, result: &result)
            try fileSystem.moveWithoutReplacing(absolute(move.source), to: absolute(move.destination))
            try writer.record(.init(.moved, index: index))
            result.moved += 1
            progress?(index + 1, moves.count)
            if let stopAfterMoves, index + 1 == stopAfterMoves { TestHooks.killProcess() }
        }
    }

    /// Saves the original of a file to rewrite; it must still be what the scan read.
    private func saveOriginal(_ edit: PathReferenceEdit, to backup: String) throws {
        let bytes = try fileSystem.read(absolute(edit.path), as: .buildSettings)
        guard SyncJournal.sha256(bytes) == edit.originalSHA256 else {
            throw FileSystemError.failed(path: absolute(edit.path), operation: "save a copy", reason: "it changed since the sync read it; run the sync again")
        }
        try fileSystem.writeAtomically(bytes, to: backup)
    }

    /// Creates a missing folder (and its missing parents), recording each in the journal first.
    private func ensureFolder(_ folder: String, known: inout Set<String>, writer: inout JournalWriter, result: inout Result) throws {
        guard !folder.isEmpty, !known.contains(folder) else { return }
        switch fileSystem.kind(of: absolute(folder)) {
        case .directory?:
            known.insert(folder)
            return
        case nil:
            break
        default:
            throw FileSystemError.failed(path: absolute(folder), operation: "create the folder", reason: "a file is in the way")
        }
        try ensureFolder(ProjectPath.parent(folder), known: &known, writer: &writer, result: &result)
        try writer.record(.init(.createDirectory, path: folder))
        try fileSystem.createDirectory(absolute(folder))
        result.createdFolders.append(folder)
        known.insert(folder)
    }

    /// Saves the index, then stages every move (and the pbxproj) so `git status` shows renames.
    private func stageMoves(_ plan: SyncPlan, git: any SyncGit, writer: inout JournalWriter, result: inout Result) throws {
        let saved = fileSystem.exists(git.indexPath) ? try fileSystem.read(git.indexPath) : nil
        if let saved { try fileSystem.writeAtomically(saved, to: state.indexBackupPath) }
        try writer.record(.init(.indexSaved, path: saved.map(SyncJournal.sha256) ?? "absent"))
        try writer.record(.init(.stagingStarted))
        var moves: [GitIndexMove] = [], paths: [String] = []
        for move in plan.moves {
            if move.reason == .pruned {
                paths.append(move.source)
            } else {
                moves.append(GitIndexMove(from: move.source, to: move.destination))
            }
        }
        if !plan.edits.isEmpty { paths.append(projectBundle + "/project.pbxproj") }
        paths += result.editedFiles
        result.notStaged = try git.stage(moves: moves, paths: paths)
        result.staged = moves.count * 2 + paths.count - result.notStaged.count
        try writer.record(.init(.staged))
    }
}

/// Hooks for Slipway's own tests.
enum TestHooks {
    /// Ends the process the way a crash or `kill -9` does: no clean-up, no buffers flushed.
    static func killProcess() -> Never {
        kill(getpid(), SIGKILL)
        while true { pause() }
    }
}
