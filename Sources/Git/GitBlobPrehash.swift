import Basics
import CLibgit2
import Foundation

/// Files whose content `stageMoves` writes to the object database on a thread of its own while
/// the calling thread re-records the moves, so that hashing and compressing them (the project
/// file: a megabyte or more, deflated) costs no time of its own. Only a plain regular file that
/// the index already holds as a regular file with the same executable bit qualifies: its new
/// entry is then the old one with the new object id and stat data, exactly what
/// `git_index_add_bypath` would record. Anything else is staged by `stage(_:)` as before.
final class GitBlobPrehash: Sendable {
    /// A file hashed on the worker thread: its object id and the stat data taken before.
    struct Hashed: @unchecked Sendable {
        var path: String
        var id: git_oid
        var info: stat
    }

    private let work: JoinableWork<[Hashed]>

    /// Starts hashing `paths` (relative to `workdir`) on a new thread, through a repository
    /// handle of its own (libgit2 handles are not shared between threads).
    init(paths: [String], workdir: String) {
        work = JoinableWork(name: "slipway-git-prehash") { Self.hashAll(paths, workdir: workdir) }
    }

    /// The paths among `candidates` worth hashing ahead: regular files whose single index entry
    /// is a plain regular-file entry (no conflict, no intent-to-add or skip-worktree flag) with
    /// the file's executable bit.
    static func candidates(_ candidates: [String], index: OpaquePointer, workdir: String) -> [String] {
        candidates.filter { path in
            guard !GitRepository.hasConflict(index, path), let entry = git_index_get_bypath(index, path, 0) else { return false }
            var info = stat()
            guard lstat(workdir + "/" + path, &info) == 0, (info.st_mode & S_IFMT) == S_IFREG,
                  entry.pointee.flags_extended == 0 else { return false }
            let executable = info.st_mode & 0o100 != 0
            let mode = entry.pointee.mode
            return mode == (executable ? GIT_FILEMODE_BLOB_EXECUTABLE.rawValue : GIT_FILEMODE_BLOB.rawValue)
        }
    }

    /// Waits for the worker and returns what it hashed (paths it could not hash are missing:
    /// the caller stages those by content itself). Blocks: stageMoves runs on the sync's own
    /// thread (SyncCommand and the sync step call ProjectSync through BlockingWork).
    func results() -> [Hashed] {
        (try? work.join()) ?? []
    }

    private static func hashAll(_ paths: [String], workdir: String) -> [Hashed] {
        guard !paths.isEmpty else { return [] }
        var repo: OpaquePointer?
        guard git_repository_open_ext(&repo, workdir, GIT_REPOSITORY_OPEN_NO_SEARCH.rawValue, nil) == 0, let repo else { return [] }
        defer { git_repository_free(repo) }
        return paths.compactMap { path in
            var info = stat()
            guard lstat(workdir + "/" + path, &info) == 0, (info.st_mode & S_IFMT) == S_IFREG else { return nil }
            var id = git_oid()
            // The same call `git_index_add_bypath` makes: the clean filters (.gitattributes,
            // core.autocrlf) apply, and the object is written to the repository.
            guard git_blob_create_from_workdir(&id, repo, path) == 0 else { return nil }
            return Hashed(path: path, id: id, info: info)
        }
    }
}

extension GitRepository {
    /// Records a pre-hashed file: its current entry with the new object id and stat data
    /// (libgit2's own rules for stat data: `git_index_entry__init_from_stat`). False when the
    /// entry went away meanwhile; the caller then stages the path by content.
    func addPrehashed(_ hashed: GitBlobPrehash.Hashed, index: OpaquePointer) throws -> Bool {
        guard let current = git_index_get_bypath(index, hashed.path, 0) else { return false }
        var entry = current.pointee
        let info = hashed.info
        entry.id = hashed.id
        let modified = Self.time(Self.modificationTime(info)), changed = Self.time(Self.changeTime(info))
        entry.mtime.seconds = modified.seconds
        entry.mtime.nanoseconds = modified.nanoseconds
        entry.ctime.seconds = changed.seconds
        entry.ctime.nanoseconds = changed.nanoseconds
        entry.dev = UInt32(truncatingIfNeeded: info.st_dev)
        entry.ino = UInt32(truncatingIfNeeded: info.st_ino)
        entry.uid = UInt32(truncatingIfNeeded: info.st_uid)
        entry.gid = UInt32(truncatingIfNeeded: info.st_gid)
        entry.file_size = UInt32(truncatingIfNeeded: info.st_size)
        try hashed.path.withCString { path in
            entry.path = path
            try check(git_index_add(index, &entry)) {
                .operationFailed(operation: "stage", subject: hashed.path, libgit2: $0.message)
            }
        }
        return true
    }
}
