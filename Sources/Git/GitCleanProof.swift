import Basics
import CLibgit2
import Foundation

/// What a caller already knows about a folder of the working directory from its own walk of
/// it, so that `GitRepository.isProvablyClean(_:)` need not walk it again.
public struct GitWalkedFolder: Sendable {
    /// The folder, relative to the repository root ("" for the root itself).
    public var prefix: String
    /// Every regular file and symbolic link found below the folder, relative to the folder.
    public var files: [String]
    /// Folders below it (relative to it) whose contents the walk did not list: they are walked
    /// here, unless git ignores them.
    public var unlistedFolders: [String]
    /// Paths (relative to the folder) that are not changes, whatever git would say of them.
    public var isExcluded: @Sendable (String) -> Bool
    /// What the walk's `lstat` said of a path (relative to the folder), when it kept that; a
    /// path it has nothing for is looked at again.
    public var details: @Sendable (String) -> FileStatus.Details? = { _ in nil }

    /// A walked folder.
    public init(prefix: String, files: [String], unlistedFolders: [String], isExcluded: @escaping @Sendable (String) -> Bool = { _ in false }) {
        self.prefix = prefix
        self.files = files
        self.unlistedFolders = unlistedFolders
        self.isExcluded = isExcluded
    }
}

extension GitRepository {
    /// True when `git status` (untracked files included, ignored ones not) would report nothing
    /// under the folder, proven cheaply from data at hand: HEAD's tree against the index, each
    /// index entry's stat data against `lstat` of its file, and the walk's files against the
    /// index and the ignore rules. No file is read or hashed.
    ///
    /// False means "not proven", not "dirty": a file whose stat data differ from its entry (a
    /// copied tree, a touched file), a racily clean entry, a submodule, a conflict, an entry
    /// marked skip-worktree or intent-to-add, an unborn HEAD or an unreadable folder are left to
    /// `status(includeUntracked:includeIgnored:)`, which hashes what it must. A caller asks this
    /// first and runs `status` only when it answers false.
    /// - Throws: `GitError.bareRepository`, `.operationFailed`.
    public func isProvablyClean(_ walked: GitWalkedFolder) throws -> Bool {
        let workdir = try requireWorkingDirectory(for: "read the status")
        let prefix = walked.prefix.isEmpty ? "" : walked.prefix + "/"
        return try withHandle { repo in
            let index = try reloadIndex(repo, workdir: workdir)
            defer { git_index_free(index) }
            guard git_index_has_conflicts(index) == 0, try headMatchesIndex(repo, index: index, prefix: walked.prefix) else {
                return false
            }
            let racyLimit = Self.indexModificationTime(gitDirectory + "/index")?.seconds
            guard let tracked = Self.trackedEntriesMatchFiles(index, prefix: prefix, workdir: workdir, racyLimit: racyLimit,
                                                              known: walked.details)
            else { return false }
            var candidates = walked.files.filter { !walked.isExcluded($0) }
            for folder in walked.unlistedFolders where !walked.isExcluded(folder) {
                let path = prefix + folder
                if path == ".git" { continue }  // the repository's own
                // Another repository inside this one: git status reports its folder as untracked.
                if path.hasSuffix("/.git") { return false }
                if try isIgnored(repo, path + "/") { continue }
                // A repository nested in it is listed as an item, so it counts as untracked.
                guard let inner = LocalFileSystem.itemsBelow(workdir + "/" + path, unentered: [".git"]) else { return false }
                candidates += inner.map { folder + "/" + $0 }.filter { !walked.isExcluded($0) }
            }
            for file in candidates where !tracked.contains(prefix + file) && prefix + file != ".git" {
                if file == ".git" || file.hasSuffix("/.git") { return false }  // a repository nested here
                guard try isIgnored(repo, prefix + file) else { return false }
            }
            return true
        }
    }

    /// True when the index holds, under `prefix`, exactly HEAD's tree: the tree the index
    /// describes is computed as `git write-tree` would (re-using the index's cached tree ids, so a
    /// fresh commit or checkout costs nothing) into an in-memory object store that reads the
    /// repository's objects but writes nothing to it, and compared by id with HEAD's.
    private func headMatchesIndex(_ repo: OpaquePointer, index: OpaquePointer, prefix: String) throws -> Bool {
        var head: OpaquePointer?
        guard git_revparse_single(&head, repo, "HEAD^{tree}") == 0, let head else { return false }
        defer { git_object_free(head) }
        var odb: OpaquePointer?, scratch: OpaquePointer?, memory: UnsafeMutablePointer<git_odb_backend>?
        guard git_odb_new(&odb) == 0, let odb else { return false }
        defer { git_odb_free(odb) }
        guard git_mempack_new(&memory) == 0, let memory else { return false }
        guard git_odb_add_backend(odb, memory, 1_000) == 0 else {
            memory.pointee.free?(memory)
            return false
        }
        let objects = (string(git_repository_commondir(repo)).map(Self.trimmingSlash) ?? gitDirectory) + "/objects"
        guard git_odb_add_disk_alternate(odb, objects) == 0, git_repository_wrap_odb(&scratch, odb) == 0, let scratch
        else { return false }
        defer { git_repository_free(scratch) }
        var indexTree = git_oid()
        guard git_index_write_tree_to(&indexTree, index, scratch) == 0 else { return false }
        guard var headTree = git_object_id(head)?.pointee else { return false }
        if prefix.isEmpty { return git_oid_equal(&indexTree, &headTree) != 0 }
        // The project folder's subtree on each side (nil when it has none).
        func subtree(_ repository: OpaquePointer, _ root: git_oid) -> git_oid?? {
            var root = root, tree: OpaquePointer?, entry: OpaquePointer?
            guard git_tree_lookup(&tree, repository, &root) == 0, let tree else { return .none }
            defer { git_tree_free(tree) }
            let code = git_tree_entry_bypath(&entry, tree, prefix)
            if code == GIT_ENOTFOUND.rawValue { return .some(nil) }
            guard code == 0, let entry else { return .none }
            defer { git_tree_entry_free(entry) }
            return .some(git_tree_entry_id(entry).pointee)
        }
        guard case .some(let fromIndex) = subtree(scratch, indexTree), case .some(let fromHead) = subtree(repo, headTree)
        else { return false }
        switch (fromIndex, fromHead) {
        case (nil, nil): return true
        case (var a?, var b?): return git_oid_equal(&a, &b) != 0
        default: return false
        }
    }

    /// The index's paths under `prefix` when every entry there describes its file as it is
    /// (type, executable bit, size, modification and change times, inode) and none is racily
    /// clean, a submodule, or marked skip-worktree / intent-to-add; nil otherwise.
    private static func trackedEntriesMatchFiles(_ index: OpaquePointer, prefix: String, workdir: String,
                                                 racyLimit: Int32?, known: (String) -> FileStatus.Details?) -> Set<String>? {
        guard let racyLimit else { return nil }
        var position = 0
        if !prefix.isEmpty, git_index_find_prefix(&position, index, prefix) != 0 { return [] }
        let count = git_index_entrycount(index)
        let special = UInt16(GIT_INDEX_ENTRY_SKIP_WORKTREE.rawValue | GIT_INDEX_ENTRY_INTENT_TO_ADD.rawValue)
        var paths = Set<String>()
        while position < count, let pointer = git_index_get_byindex(index, position) {
            let entry = pointer.pointee
            guard let path = string(entry.path), path.hasPrefix(prefix) else { break }
            position += 1
            guard entry.flags_extended & special == 0, entry.mode != GIT_FILEMODE_COMMIT.rawValue,
                  let file = known(String(path.dropFirst(prefix.count))) ?? lstatDetails(workdir + "/" + path)
            else { return nil }
            let type = mode_t(file.mode) & S_IFMT
            let isLink = type == S_IFLNK, isFile = type == S_IFREG
            guard isFile || isLink, isLink == (entry.mode == GIT_FILEMODE_LINK.rawValue),
                  isLink || (file.mode & 0o100 != 0) == (entry.mode == GIT_FILEMODE_BLOB_EXECUTABLE.rawValue),
                  entry.file_size == UInt32(truncatingIfNeeded: file.size),
                  entry.ino == UInt32(truncatingIfNeeded: file.inode),
                  entry.mtime.seconds == Int32(truncatingIfNeeded: file.modifiedSeconds),
                  entry.mtime.nanoseconds == UInt32(truncatingIfNeeded: file.modifiedNanoseconds),
                  entry.ctime.seconds == Int32(truncatingIfNeeded: file.changedSeconds),
                  entry.ctime.nanoseconds == UInt32(truncatingIfNeeded: file.changedNanoseconds),
                  // Modified in the second the index was written, or later: racily clean.
                  entry.mtime.seconds < racyLimit
            else { return nil }
            paths.insert(path)
        }
        return paths
    }

    private static func lstatDetails(_ path: String) -> FileStatus.Details? {
        LocalFileSystem().status(of: path)?.details
    }

    private func isIgnored(_ repo: OpaquePointer, _ path: String) throws -> Bool {
        var ignored: Int32 = 0
        try check(git_ignore_path_is_ignored(&ignored, repo, path)) {
            .operationFailed(operation: "read the ignore rules for", subject: path, libgit2: $0.message)
        }
        return ignored != 0
    }

}
