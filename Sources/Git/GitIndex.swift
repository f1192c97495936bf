import Basics
import CLibgit2
import Foundation

extension GitRepository {
    /// Records `paths` in the index as they are in the working directory, like `git add -A`
    /// for those paths: changed and new files are added, missing ones removed. A directory
    /// stages every file below it that is tracked or not ignored. Paths are relative to the
    /// repository root, or absolute inside it. The index is written to disk.
    /// - Throws: `GitError.pathNotFound` for a path missing from both the working directory and
    ///   the index, `.pathOutsideWorkingDirectory`, `.bareRepository`, `.operationFailed`.
    public func stage(paths: [String]) throws {
        let workdir = try requireWorkingDirectory(for: "stage files")
        let relative = try paths.map { try relativePath($0, workdir: workdir) }
        try withIndex { repo, index in
            for path in relative {
                try stage(path, workdir: workdir, repo: repo, index: index)
            }
        }
    }

    /// Stages every change to tracked files, like `git add -u`: modified files are updated,
    /// deleted ones removed; untracked files are left alone.
    /// - Throws: `GitError.bareRepository`, `.operationFailed`.
    public func stageAllTracked() throws {
        let workdir = try requireWorkingDirectory(for: "stage files")
        try withIndex { _, index in
            try check(git_index_update_all(index, nil, nil, nil)) {
                .operationFailed(operation: "stage tracked changes in", subject: workdir, libgit2: $0.message)
            }
        }
    }

    /// Takes `paths` out of the staging area again, like `git restore --staged`: their index
    /// entries go back to HEAD's version (or disappear when HEAD lacks them or is unborn).
    /// The working directory is not touched.
    /// - Throws: `GitError.pathOutsideWorkingDirectory`, `.bareRepository`, `.operationFailed`.
    public func unstage(paths: [String]) throws {
        let workdir = try requireWorkingDirectory(for: "unstage files")
        let relative = try paths.map { try relativePath($0, workdir: workdir) }
        guard !relative.isEmpty else { return }
        try withHandle { repo in
            try reloadIndex(repo, workdir: workdir)
            var target: OpaquePointer?
            if !isHeadUnborn(repo) {
                var oid = try resolveCommit("HEAD", in: repo).raw
                try check(git_object_lookup(&target, repo, &oid, GIT_OBJECT_COMMIT)) {
                    .operationFailed(operation: "read HEAD of", subject: workdir, libgit2: $0.message)
                }
            }
            defer { git_object_free(target) }
            try withStrArray(relative) { pathspec in
                _ = try check(git_reset_default(repo, target, &pathspec)) {
                    .operationFailed(operation: "unstage files in", subject: workdir, libgit2: $0.message)
                }
            }
        }
    }

    /// Records in the index that `from` was moved to `to` (already moved on disk): the old
    /// path's entries are removed and the new path is added, so that `git status` shows a
    /// rename (`R`). Works for single files and for whole directories.
    /// - Throws: `GitError.pathNotFound` when `from` is not in the index or `to` is not in the
    ///   working directory, `.pathOutsideWorkingDirectory`, `.bareRepository`, `.operationFailed`.
    public func stageRename(from: String, to: String) throws {
        let workdir = try requireWorkingDirectory(for: "stage a rename")
        let old = try relativePath(from, workdir: workdir)
        let new = try relativePath(to, workdir: workdir)
        guard Self.itemExists(atPath: workdir + "/" + new) else {
            throw GitError.pathNotFound(path: new, repository: workdir)
        }
        try withIndex { repo, index in
            guard try removeFromIndex(old, index: index, workdir: workdir) else {
                throw GitError.pathNotFound(path: old, repository: workdir)
            }
            try stage(new, workdir: workdir, repo: repo, index: index)
        }
    }

    // MARK: - Helpers

    /// Runs `body` on the repository's index, freshly read from disk, and writes it back.
    func withIndex(_ body: (OpaquePointer, OpaquePointer) throws -> Void) throws {
        let workdir = displayPath
        try withHandle { repo in
            let index = try reloadIndex(repo, workdir: workdir)
            defer { git_index_free(index) }
            try body(repo, index)
            try check(git_index_write(index)) {
                .operationFailed(operation: "write the index of", subject: workdir, libgit2: $0.message)
            }
        }
    }

    /// The repository's index, re-read from disk when the file changed since it was last read
    /// (another size, modification time or inode: git and libgit2 replace the file through a
    /// lock file, so every write shows), so that changes made by other tools count. A forced
    /// re-read would parse an unchanged index twice on every call. The caller frees the
    /// returned pointer.
    @discardableResult
    func reloadIndex(_ repo: OpaquePointer, workdir: String) throws -> OpaquePointer {
        var index: OpaquePointer?
        try check(git_repository_index(&index, repo)) {
            .operationFailed(operation: "open the index of", subject: workdir, libgit2: $0.message)
        }
        guard let index else {
            throw GitError.operationFailed(operation: "open the index of", subject: workdir, libgit2: "no index")
        }
        let code = git_index_read(index, 0)
        if code < 0 {
            let failure = LibGit2Failure(code: code)
            git_index_free(index)
            throw GitError.operationFailed(operation: "read the index of", subject: workdir, libgit2: failure.message)
        }
        return index
    }

    func stage(_ path: String, workdir: String, repo: OpaquePointer, index: OpaquePointer) throws {
        let full = workdir + "/" + path
        var isDirectory: ObjCBool = false
        let exists = FileManager.default.fileExists(atPath: full, isDirectory: &isDirectory)
        let isSymlink = (try? FileManager.default.destinationOfSymbolicLink(atPath: full)) != nil
        if isSymlink || (exists && !isDirectory.boolValue) {
            try check(git_index_add_bypath(index, path)) {
                .operationFailed(operation: "stage", subject: path, libgit2: $0.message)
            }
        } else if exists {
            try stageDirectory(path, workdir: workdir, repo: repo, index: index)
        } else if try !removeFromIndex(path, index: index, workdir: workdir) {
            throw GitError.pathNotFound(path: path, repository: workdir)
        }
    }

    /// Stages a directory's files (tracked or not ignored) and drops entries whose files vanished.
    /// With `onlyUntracked`, files the index already holds are left as they are (neither
    /// re-hashed nor looked for: the caller has just checked them).
    func stageDirectory(_ path: String, workdir: String, repo: OpaquePointer, index: OpaquePointer,
                        onlyUntracked: Bool = false) throws {
        let prefix = path.isEmpty ? "" : path + "/"
        if !onlyUntracked {
            for tracked in Self.indexPaths(index, under: prefix) where !Self.itemExists(atPath: workdir + "/" + tracked) {
                try check(git_index_remove_bypath(index, tracked)) {
                    .operationFailed(operation: "unstage", subject: tracked, libgit2: $0.message)
                }
            }
        }
        let folder = path.isEmpty ? workdir : workdir + "/" + path
        for item in LocalFileSystem.itemsBelow(folder, unentered: [".git"]) ?? [] {
            // A repository nested here is not staged (git would record it as a submodule).
            if item == ".git" || item.hasSuffix("/.git") { continue }
            let relative = prefix + item
            let tracked = git_index_get_bypath(index, relative, 0) != nil
            if tracked && onlyUntracked { continue }
            // A Slipway lock file exists only while some slipway works there: never new content.
            if !tracked && ExclusiveLock.isLockFile(relative) { continue }
            var ignored: Int32 = 0
            if !tracked {
                try check(git_ignore_path_is_ignored(&ignored, repo, relative)) {
                    .operationFailed(operation: "check ignore rules for", subject: relative, libgit2: $0.message)
                }
            }
            if tracked || ignored == 0 {
                try check(git_index_add_bypath(index, relative)) {
                    .operationFailed(operation: "stage", subject: relative, libgit2: $0.message)
                }
            }
        }
    }

    /// Removes `path` (a file, or every entry below a directory) from the index; false when
    /// the index has nothing there.
    private func removeFromIndex(_ path: String, index: OpaquePointer, workdir: String) throws -> Bool {
        if git_index_get_bypath(index, path, 0) != nil || Self.hasConflict(index, path) {
            try check(git_index_remove_bypath(index, path)) {
                .operationFailed(operation: "unstage", subject: path, libgit2: $0.message)
            }
            return true
        }
        let below = Self.indexPaths(index, under: path + "/")
        guard !below.isEmpty else { return false }
        for entry in below {
            try check(git_index_remove_bypath(index, entry)) {
                .operationFailed(operation: "unstage", subject: entry, libgit2: $0.message)
            }
        }
        return true
    }

    static func hasConflict(_ index: OpaquePointer, _ path: String) -> Bool {
        (1...3).contains { git_index_get_bypath(index, path, Int32($0)) != nil }
    }

    /// The index's paths that start with `prefix` (all paths for an empty prefix).
    static func indexPaths(_ index: OpaquePointer, under prefix: String) -> [String] {
        var position = 0
        if !prefix.isEmpty, git_index_find_prefix(&position, index, prefix) != 0 { return [] }
        var paths: [String] = []
        let count = git_index_entrycount(index)
        while position < count, let entry = git_index_get_byindex(index, position),
              let path = string(entry.pointee.path), path.hasPrefix(prefix) {
            if paths.last != path { paths.append(path) }
            position += 1
        }
        return paths
    }

    /// True for anything at `path`, including a dangling symbolic link.
    static func itemExists(atPath path: String) -> Bool {
        var info = stat()
        return lstat(path, &info) == 0
    }

    /// `path` relative to the working directory; absolute paths must lie inside it.
    func relativePath(_ path: String, workdir: String) throws -> String {
        // A relative path without `.`, `..` or doubled slashes is already what the index holds:
        // no need to ask the file system (realpath costs a system call per component).
        if !path.hasPrefix("/"), !path.isEmpty, Self.isPlainRelative(path) { return path }
        let absolute = path.hasPrefix("/") ? path : workdir + "/" + path
        let standardized = Self.normalize(absolute)
        var roots = [workdir]
        if let real = realpath(workdir, nil) {
            roots.append(String(cString: real))
            free(real)
        }
        var candidates = [standardized]
        let parent = (standardized as NSString).deletingLastPathComponent
        if let real = realpath(parent, nil) {
            candidates.append(String(cString: real) + "/" + (standardized as NSString).lastPathComponent)
            free(real)
        }
        for root in roots {
            for candidate in candidates {
                if candidate == root { return "" }
                if candidate.hasPrefix(root + "/") { return String(candidate.dropFirst(root.count + 1)) }
            }
        }
        throw GitError.pathOutsideWorkingDirectory(path: path, workingDirectory: workdir)
    }

    /// True when no component of `path` is empty, `.` or `..`.
    static func isPlainRelative(_ path: String) -> Bool {
        path.utf8.split(separator: UInt8(ascii: "/"), omittingEmptySubsequences: false).allSatisfy { component in
            !component.isEmpty && !component.elementsEqual(".".utf8) && !component.elementsEqual("..".utf8)
        }
    }

    /// Removes `.`, `..` and repeated slashes without touching the file system.
    private static func normalize(_ path: String) -> String {
        var parts: [Substring] = []
        for part in path.split(separator: "/", omittingEmptySubsequences: true) {
            if part == "." { continue }
            if part == ".." { if !parts.isEmpty { parts.removeLast() }; continue }
            parts.append(part)
        }
        return "/" + parts.joined(separator: "/")
    }
}
