import Basics
import Foundation
import Git

/// Uncommitted changes to tracked files, handed from one CI job to the next (a version bump
/// written into the project by one job and committed by a later one, for instance): each
/// step's record lists the tracked files that differ from HEAD when it ends, with their
/// contents in `.slipway/ci/<step>.tree/`; the next job writes the last earlier record's files
/// into its checkout after the git hand-over.
///
/// The records come from the checkout's `.slipway/ci/` (restored from earlier jobs' artifacts):
/// every path is checked before anything is written: relative, inside the working tree, not
/// through a symbolic link, not in `.git`, and tracked by HEAD (or the index) after the git
/// hand-over; sizes are bounded.
enum WorktreeHandOver {
    /// The most a record's files may hold together (project files, not build products).
    static let totalLimit = 256 << 20

    /// Records the tracked files that differ from HEAD now and keeps their contents.
    static func capture(_ repository: GitRepository, step: String, store: HandOverStore) throws -> HandOverRecord.WorktreeState {
        guard let root = repository.workingDirectory else { return HandOverRecord.WorktreeState(changed: [], deleted: []) }
        var changed: [String] = []
        var deleted: [String] = []
        var total = 0
        for entry in try repository.status(includeUntracked: false) {
            guard entry.index != nil || entry.workTree != nil, entry.index != .ignored, entry.workTree != .conflicted,
                  !entry.path.hasPrefix(".slipway/") else { continue }
            let path = root + "/" + entry.path
            if entry.workTree == .deleted || (entry.index == .deleted && entry.workTree == nil) {
                deleted.append(entry.path)
                continue
            }
            guard store.fileSystem.kind(of: path) == .file else { continue }
            let bytes = try store.fileSystem.read(path)
            total += bytes.count
            guard total <= totalLimit else {
                throw HandOverError.unsafeRecord(file: store.displayPath(step: step, suffix: "tree"),
                                                 reason: "the uncommitted changes are larger than \(totalLimit >> 20) MiB; commit them in the step that makes them")
            }
            try store.writeTreeFile(bytes, step: step, path: entry.path)
            changed.append(entry.path)
        }
        return HandOverRecord.WorktreeState(changed: changed, deleted: deleted)
    }

    /// Writes `record`'s files into the working tree and deletes its deleted ones.
    static func apply(_ record: HandOverRecord, store: HandOverStore, repository: GitRepository) throws {
        guard let worktree = record.worktree, let root = repository.workingDirectory else { return }
        let display = store.displayPath(step: record.stepID)
        // Everything is read and checked first, so a bad record changes nothing.
        var files: [(String, [UInt8])] = []
        var total = 0
        for path in worktree.changed + worktree.deleted {
            try check(path, root: root, repository: repository, display: display)
        }
        for path in worktree.changed {
            let bytes = try store.readTreeFile(step: record.stepID, path: path)
            total += bytes.count
            guard total <= totalLimit else {
                throw HandOverError.unsafeRecord(file: display, reason: "its files are larger than \(totalLimit >> 20) MiB")
            }
            files.append((path, bytes))
        }
        for (path, bytes) in files {
            try store.fileSystem.writeAtomically(bytes, to: root + "/" + path)
        }
        for path in worktree.deleted where store.fileSystem.kind(of: root + "/" + path) == .file {
            try store.fileSystem.remove(root + "/" + path)
        }
    }

    private static func check(_ path: String, root: String, repository: GitRepository, display: String) throws {
        let parts = path.split(separator: "/", omittingEmptySubsequences: false)
        guard !path.isEmpty, !path.hasPrefix("/"), !parts.contains(where: { $0.isEmpty || $0 == "." || $0 == ".." }),
              parts.first != ".git", !path.contains("\0") else {
            throw HandOverError.unsafeRecord(file: display, reason: "'\(LaneNames.escaped(path))' is not a path inside the working tree")
        }
        do { try StateFiles.checkPath(root + "/" + path, below: root) } catch let error as StateFileError {
            throw HandOverError.unsafeRecord(file: display, reason: error.reason)
        }
        guard (try? repository.tracks(root + "/" + path)) == true else {
            throw HandOverError.unsafeRecord(file: display, reason: "'\(LaneNames.escaped(path))' is not a file git tracks here")
        }
    }
}

extension HandOverStore {
    /// Keeps a changed tracked file's contents as `<step>.tree/<path>`.
    func writeTreeFile(_ bytes: [UInt8], step: String, path: String) throws {
        let destination = directory + "/\(step).tree/" + path
        do {
            try StateFiles.createFolder((destination as NSString).deletingLastPathComponent, below: projectDirectory)
        } catch let error as StateFileError {
            throw HandOverError.unsafeRecord(file: displayPath(step: step, suffix: "tree"), reason: error.reason)
        }
        try fileSystem.writeAtomically(bytes, to: destination)
    }

    /// A kept file's contents. - Throws: `HandOverError.unsafeRecord` when it is missing or unsafe.
    func readTreeFile(step: String, path: String) throws -> [UInt8] {
        let source = directory + "/\(step).tree/" + path
        let display = displayPath(step: step, suffix: "tree/") + path
        do {
            try StateFiles.checkPath(source, below: projectDirectory)
            guard let bytes = try StateFiles.read(source, limit: WorktreeHandOver.totalLimit) else {
                throw HandOverError.unsafeRecord(file: display, reason: "the file is missing from the hand-over")
            }
            return bytes
        } catch let error as StateFileError {
            throw HandOverError.unsafeRecord(file: display, reason: error.reason)
        }
    }
}
