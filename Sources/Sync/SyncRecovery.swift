import PBXProj
import Basics

/// Undoes an interrupted sync from its journal, or finishes one that passed its commit point.
///
/// Rolling back undoes the moves in reverse order, each only when its destination exists and
/// its source does not (so a move that never ran, or ran without being recorded, is handled
/// alike), removes the folders the sync created if they are empty, restores the git index and
/// the pbxproj byte for byte from the saved copies, and removes the journal last. Every step
/// looks at the disk first, so a recovery that is itself interrupted can simply run again.
///
/// Nothing is done before the journal has been proven to be this Slipway's for this project
/// (`SyncState.check`): it is read from the state folder outside the checkout, without
/// following symbolic links, its signature is checked, and every path in it must stay inside
/// the project folder.
public struct SyncRecovery: Sendable {
    /// What recovery did.
    public enum Outcome: String, Codable, Sendable {
        /// The sync had not finished: everything was put back as it was.
        case rolledBack
        /// The sync had finished its work: the leftover clean-up was done.
        case rolledForward
    }

    /// What recovery did, in numbers.
    public struct Report: Codable, Sendable, Equatable {
        /// Rolled back or forward.
        public var outcome: Outcome
        /// Moves undone.
        public var movesUndone: Int = 0
        /// Whether the pbxproj was rewritten from the saved copy.
        public var pbxprojRestored = false
        /// Whether the git index was rewritten from the saved copy.
        public var indexRestored = false
        /// Files other than the pbxproj (xcconfigs) restored from their saved copies.
        public var filesRestored: [String] = []
    }

    let fileSystem: any FileSystem
    /// The absolute path of the folder holding the `.xcodeproj`.
    let root: String
    /// The `.xcodeproj` folder, relative to `root`.
    let projectBundle: String
    /// Where the journal and the saved copies are.
    let state: SyncState

    /// Recovery for the project whose `.xcodeproj` is `projectBundle` inside `root`, whose
    /// sync state is in `state`.
    public init(fileSystem: any FileSystem, root: String, projectBundle: String, state: SyncState) {
        self.fileSystem = fileSystem
        self.root = root
        self.projectBundle = projectBundle
        self.state = state
    }

    var bundlePath: String { root + "/" + projectBundle }
    /// The journal's path.
    public var journalPath: String { state.journalPath }
    /// Whether an interrupted sync left a journal.
    public var hasJournal: Bool { state.hasJournal(fileSystem: fileSystem) }

    func absolute(_ path: String) -> String { path.isEmpty ? root : root + "/" + path }

    /// Reads the journal and rolls back (or finishes) the sync it describes.
    /// - Throws: `SyncError.nothingToRecover`, `.unreadableJournal`, `.untrustedJournal`
    ///   (nothing was touched), `.recoveryFailed`, `.backupDamaged`.
    public func recover() throws -> Report {
        guard hasJournal else { throw SyncError.nothingToRecover(project: bundlePath) }
        do {
            try StateFiles.checkPath(journalPath, below: state.base)
        } catch let error as StateFileError {
            throw SyncError.untrustedJournal(path: journalPath, reason: error.reason)
        }
        let journal = try SyncJournal.read(journalPath)
        try state.check(journal, projectBundle: projectBundle)
        if journal.isCommitted {
            _ = finish(journal)
            return Report(outcome: .rolledForward)
        }
        return try rollBack(journal)
    }

    private func step<T>(_ name: String, _ body: () throws -> T) throws -> T {
        do {
            return try body()
        } catch let error as SyncError {
            throw error
        } catch {
            throw SyncError.recoveryFailed(step: name, reason: errorText(error), journal: journalPath)
        }
    }

    /// Puts everything back as it was before the sync.
    func rollBack(_ journal: SyncJournal) throws -> Report {
        var report = Report(outcome: .rolledBack)
        report.indexRestored = try step("restoring the git index") { try restoreIndex(journal) }
        let moves = journal.header.moves
        let last = min(journal.lastMoved + 1, moves.count - 1)
        if last >= 0 {
            for index in stride(from: last, through: 0, by: -1) {
                let move = moves[index]
                let source = absolute(move.source), destination = absolute(move.destination)
                guard fileSystem.kind(of: destination) != nil, fileSystem.kind(of: source) == nil else { continue }
                try step("moving '\(move.destination)' back to '\(move.source)'") {
                    let parent = ProjectPath.parent(move.source)
                    if !parent.isEmpty && fileSystem.kind(of: absolute(parent)) != .directory { try fileSystem.createDirectory(absolute(parent)) }
                    try fileSystem.moveWithoutReplacing(destination, to: source)
                }
                report.movesUndone += 1
            }
        }
        for folder in journal.createdDirectories.reversed() where fileSystem.kind(of: absolute(folder)) == .directory {
            try? fileSystem.removeEmptyDirectory(absolute(folder))
        }
        report.filesRestored = try restoreEditedFiles(journal)
        report.pbxprojRestored = try restorePBXProj(journal)
        try step("removing the journal's files") {
            let trash = bundlePath + "/" + SyncJournal.trashFolderName
            if fileSystem.kind(of: trash) == .directory { try fileSystem.removeEmptyDirectory(trash) }
            try removeBackups()
            try fileSystem.remove(journalPath)
        }
        state.removeFolderIfEmpty()
        return report
    }

    private func restoreIndex(_ journal: SyncJournal) throws -> Bool {
        guard let indexPath = journal.header.gitIndex,
            let saved = journal.events.first(where: { $0.event == .indexSaved })
        else { return false }
        let started = journal.events.contains { $0.event == .stagingStarted }
        let finished = journal.events.contains { $0.event == .staged }
        if started && !finished {
            // A lock left by a staging that was killed; nobody else holds it mid-recovery.
            try? fileSystem.remove(indexPath + ".lock")
        }
        let backup = state.indexBackupPath
        if saved.path == "absent" {
            guard fileSystem.exists(indexPath) else { return false }
            try fileSystem.remove(indexPath)
            return true
        }
        guard let bytes = try StateFiles.read(backup) else { throw SyncError.backupDamaged(path: backup) }
        guard SyncJournal.sha256(bytes) == saved.path else { throw SyncError.backupDamaged(path: backup) }
        if fileSystem.exists(indexPath), try fileSystem.read(indexPath) == bytes { return false }
        try fileSystem.writeAtomically(bytes, to: indexPath)
        removeStrayTemporaries(in: ProjectPath.parent(indexPath), names: ["index"])
        return true
    }

    private func restorePBXProj(_ journal: SyncJournal) throws -> Bool {
        let pbxproj = bundlePath + "/project.pbxproj"
        let current = try? fileSystem.read(pbxproj)
        removeStrayTemporaries(in: bundlePath, names: ["project.pbxproj"])
        removeStrayTemporaries(in: state.folder, names: [SyncState.journalName, SyncState.pbxprojBackupName, SyncState.indexBackupName])
        if let current, SyncJournal.sha256(current) == journal.header.pbxprojSHA256 { return false }
        let backup = state.pbxprojBackupPath
        guard let saved = try? StateFiles.read(backup), SyncJournal.sha256(saved) == journal.header.pbxprojSHA256 else {
            throw SyncError.backupDamaged(path: backup)
        }
        try step("restoring '\(pbxproj)'") { try fileSystem.writeAtomically(saved, to: pbxproj) }
        return true
    }

    private func removeBackups() throws {
        for path in [state.pbxprojBackupPath, state.indexBackupPath] where fileSystem.exists(path) {
            try fileSystem.remove(path)
        }
        for name in (try? fileSystem.contents(ofDirectory: state.folder)) ?? [] where name.hasPrefix(SyncState.fileBackupPrefix) {
            try fileSystem.remove(state.folder + "/" + name)
        }
    }

    /// Puts back, at its place before the sync (the moves are undone first), every file the
    /// sync rewrote besides the pbxproj, from the copy saved before the first move.
    private func restoreEditedFiles(_ journal: SyncJournal) throws -> [String] {
        var restored: [String] = []
        for (index, edit) in (journal.header.fileEdits ?? []).enumerated() {
            let target = absolute(edit.path)
            if let current = try? fileSystem.read(target), SyncJournal.sha256(current) == edit.originalSHA256 { continue }
            let backup = state.fileBackupPath(index)
            guard let saved = try? StateFiles.read(backup), SyncJournal.sha256(saved) == edit.originalSHA256 else {
                throw SyncError.backupDamaged(path: backup)
            }
            try step("restoring '\(edit.path)'") { try fileSystem.writeAtomically(saved, to: target) }
            restored.append(edit.path)
        }
        return restored
    }

    /// Removes the temporary files an atomic write killed half-way leaves (`.NAME.slipway-XXXXXX`).
    private func removeStrayTemporaries(in folder: String, names: [String]) {
        guard let entries = try? fileSystem.contents(ofDirectory: folder) else { return }
        for entry in entries where names.contains(where: { entry.hasPrefix("." + $0 + ".slipway-") }) {
            try? fileSystem.remove(folder + "/" + entry)
        }
    }

    /// Finishes a committed sync: deletes what `--prune` set aside, removes the folders the moves
    /// emptied, the saved copies and the journal. Returns the folders removed and what could not
    /// be done (warnings: the sync itself is complete).
    func finish(_ journal: SyncJournal) -> (removedFolders: [String], warnings: [String]) {
        var warnings: [String] = []
        var removed: [String] = []
        let trash = bundlePath + "/" + SyncJournal.trashFolderName
        do { try fileSystem.remove(trash) } catch { warnings.append(errorText(error)) }
        var folders: Set<String> = []
        for move in journal.header.moves { for folder in ProjectPath.ancestors(move.source) { folders.insert(folder) } }
        let deepestFirst = folders.sorted { $0.split(separator: "/").count > $1.split(separator: "/").count }
        for folder in deepestFirst where !ProjectPath.isWithin(folder, projectBundle) {
            let path = absolute(folder)
            if fileSystem.kind(of: path) == .directory, (try? fileSystem.contents(ofDirectory: path))?.isEmpty == true,
                (try? fileSystem.removeEmptyDirectory(path)) != nil {
                removed.append(folder)
            }
        }
        do { try removeBackups() } catch { warnings.append(errorText(error)) }
        do { try fileSystem.remove(journalPath) } catch { warnings.append(errorText(error)) }
        state.removeFolderIfEmpty()
        return (removed, warnings)
    }
}
