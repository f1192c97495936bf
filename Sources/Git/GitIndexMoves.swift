import CLibgit2
import Foundation

/// A file or folder moved in the working directory, to be recorded in the index.
public struct GitIndexMove: Hashable, Sendable {
    /// The old path, relative to the repository root or absolute inside it.
    public var from: String
    /// The new path, where the file or folder is now.
    public var to: String

    /// A move from `from` to `to`.
    public init(from: String, to: String) {
        self.from = from
        self.to = to
    }
}

extension GitRepository {
    /// Records moves already made on disk in the index the way `git mv` does: each index entry
    /// at `from` (or below it, for a folder) is re-used under the new path with its object id and
    /// mode, so no file is read or hashed. Its stat data is refreshed from the moved file when
    /// the entry was up to date with the file before the move (same size, modification time and
    /// inode, and not "racily clean"), so that `git status` need not hash it either.
    ///
    /// A file the index does not know, or whose entry no longer matches it (edited since it was
    /// staged), a conflicted path, and every path in `alsoStaging` are staged by content as
    /// `stage(paths:)` does, so the index ends up exactly as `git add -A` of the old and new
    /// paths would leave it. The index is read once and written once. A regular file in
    /// `alsoStaging` that the index holds already (the project file) is hashed and written to
    /// the object database on a thread of its own while the moves are recorded (see
    /// `GitBlobPrehash`); the caller's thread waits for it, so do not call this on a thread of
    /// the cooperative pool.
    /// - Returns: The paths (old or new, relative to the root) that were neither in the index
    ///   nor on disk, which are skipped; `stage(paths:)` would throw `pathNotFound` for them.
    /// - Throws: `GitError.pathOutsideWorkingDirectory`, `.bareRepository`, `.operationFailed`.
    public func stageMoves(_ moves: [GitIndexMove], alsoStaging paths: [String] = []) throws -> [String] {
        let workdir = try requireWorkingDirectory(for: "stage moves")
        let relativeMoves = try moves.map {
            (from: try relativePath($0.from, workdir: workdir), to: try relativePath($0.to, workdir: workdir))
        }
        let others = try paths.map { try relativePath($0, workdir: workdir) }
        var skipped: [String] = []
        try withIndex { repo, index in
            let racyLimit = Self.indexModificationTime(gitDirectory + "/index")
            // The project file is hashed and compressed on a thread of its own meanwhile.
            let prehash = GitBlobPrehash(paths: GitBlobPrehash.candidates(others, index: index, workdir: workdir), workdir: workdir)
            var byContent: [String] = []
            for move in relativeMoves {
                let moved = try moveEntries(from: move.from, to: move.to, index: index, workdir: workdir, racyLimit: racyLimit)
                if !moved {
                    byContent += [move.from, move.to]
                } else if Self.isDirectory(workdir + "/" + move.to) {
                    // Files in a moved folder that git does not track yet are added, as before.
                    try stageDirectory(move.to, workdir: workdir, repo: repo, index: index, onlyUntracked: true)
                }
            }
            var stagedAhead: Set<String> = []
            for hashed in prehash.results() where try addPrehashed(hashed, index: index) {
                stagedAhead.insert(hashed.path)
            }
            for path in byContent + others.filter({ !stagedAhead.contains($0) }) {
                do {
                    try stage(path, workdir: workdir, repo: repo, index: index)
                } catch GitError.pathNotFound {
                    skipped.append(path)
                }
            }
        }
        return skipped
    }

    /// Moves the stage-0 entries at or below `from` to `to`; false (and nothing changed) when
    /// there are none, when any of them is conflicted, or when one no longer matches its file.
    private func moveEntries(from: String, to: String, index: OpaquePointer, workdir: String,
                             racyLimit: (seconds: Int32, nanoseconds: UInt32)?) throws -> Bool {
        guard !Self.hasConflict(index, from) else { return false }
        let single = git_index_get_bypath(index, from, 0)
        let oldPaths = single != nil ? [from] : Self.indexPaths(index, under: from + "/")
        guard !oldPaths.isEmpty else { return false }
        var replacements: [(old: String, new: String, entry: git_index_entry)] = []
        for old in oldPaths {
            guard !Self.hasConflict(index, old), let pointer = git_index_get_bypath(index, old, 0) else { return false }
            let new = to + old.dropFirst(from.count)
            guard let refreshed = Self.refreshedEntry(pointer.pointee, file: workdir + "/" + new, racyLimit: racyLimit)
            else { return false }
            replacements.append((old, new, refreshed))
        }
        // Each entry is re-added with the object id it already had in this index, as `git mv`
        // does, so libgit2's check that the object exists (a header read per entry: a third of
        // the staging time of a thousand moves) is switched off meanwhile. The option is
        // process-wide; another thread's tree or commit made in that window goes unchecked
        // too, which costs it a safety net, never a wrong result.
        _ = slipway_git_set_strict_object_creation(0)
        defer { _ = slipway_git_set_strict_object_creation(1) }
        for replacement in replacements {
            try check(git_index_remove(index, replacement.old, 0)) {
                .operationFailed(operation: "unstage", subject: replacement.old, libgit2: $0.message)
            }
            var entry = replacement.entry
            let length = replacement.new.utf8.count
            entry.flags = (entry.flags & ~UInt16(0x0fff)) | UInt16(min(length, 0x0fff))
            try replacement.new.withCString { path in
                entry.path = path
                try check(git_index_add(index, &entry)) {
                    .operationFailed(operation: "stage", subject: replacement.new, libgit2: $0.message)
                }
            }
        }
        return true
    }

    /// `entry` with the stat data of `file` (its new place), or nil when the entry did not
    /// describe the file as it is: another size, modification time, inode or type, or a
    /// modification time in the second the index was last written, when the entry may be
    /// racily clean (the file changed after it was hashed, within the same second).
    private static func refreshedEntry(_ entry: git_index_entry, file: String,
                                       racyLimit: (seconds: Int32, nanoseconds: UInt32)?) -> git_index_entry? {
        var info = stat()
        guard lstat(file, &info) == 0 else { return nil }
        let isLink = (info.st_mode & S_IFMT) == S_IFLNK, isFile = (info.st_mode & S_IFMT) == S_IFREG
        let entryIsLink = entry.mode == GIT_FILEMODE_LINK.rawValue
        guard entry.mode != GIT_FILEMODE_COMMIT.rawValue, isLink == entryIsLink, isFile || isLink else { return nil }
        let modified = Self.time(Self.modificationTime(info))
        guard entry.file_size == UInt32(truncatingIfNeeded: info.st_size),
              entry.mtime.seconds == modified.seconds, entry.mtime.nanoseconds == modified.nanoseconds,
              entry.ino == UInt32(truncatingIfNeeded: info.st_ino)
        else { return nil }
        // Whole seconds, as git does when built without USE_NSEC (the default).
        if let racyLimit, modified.seconds >= racyLimit.seconds { return nil }
        if !entryIsLink {
            // The executable bit is the only mode change git records for a regular file.
            let executable = info.st_mode & 0o100 != 0
            guard executable == (entry.mode == GIT_FILEMODE_BLOB_EXECUTABLE.rawValue) else { return nil }
        }
        var refreshed = entry
        let changed = Self.time(Self.changeTime(info))
        refreshed.ctime.seconds = changed.seconds
        refreshed.ctime.nanoseconds = changed.nanoseconds
        refreshed.dev = UInt32(truncatingIfNeeded: info.st_dev)
        return refreshed
    }

    /// True for a directory (not a link to one).
    private static func isDirectory(_ path: String) -> Bool {
        var info = stat()
        return lstat(path, &info) == 0 && (info.st_mode & S_IFMT) == S_IFDIR
    }

    /// The index file's modification time: entries modified at or after it may have changed
    /// after they were hashed without their stat data showing it ("racy git").
    static func indexModificationTime(_ path: String) -> (seconds: Int32, nanoseconds: UInt32)? {
        var info = stat()
        guard stat(path, &info) == 0 else { return nil }
        return time(modificationTime(info))
    }

    /// A time as the index stores it: 32-bit seconds and nanoseconds.
    static func time(_ spec: timespec) -> (seconds: Int32, nanoseconds: UInt32) {
        (Int32(truncatingIfNeeded: spec.tv_sec), UInt32(truncatingIfNeeded: spec.tv_nsec))
    }

    #if canImport(Darwin)
    static func modificationTime(_ info: stat) -> timespec { info.st_mtimespec }
    static func changeTime(_ info: stat) -> timespec { info.st_ctimespec }
    #else
    static func modificationTime(_ info: stat) -> timespec { info.st_mtim }
    static func changeTime(_ info: stat) -> timespec { info.st_ctim }
    #endif
}
