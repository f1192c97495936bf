import CLibgit2

extension GitRepository {
    /// The bytes of the file at `path` (relative to the repository root) in the commit that
    /// `revision` names, read from the object database (the working copy is not looked at).
    ///
    /// - Throws: `GitError.revisionNotFound` when `revision` names no commit,
    ///   `.pathNotInRevision` when that commit has no file at `path`.
    public func fileContents(_ path: String, at revision: String) throws -> [UInt8] {
        try withHandle { repo in
            var commitID = try resolveCommit(revision, in: repo).raw
            let fail: (LibGit2Failure) -> GitError = {
                .operationFailed(operation: "read '\(path)' at \(revision) in", subject: self.displayPath, libgit2: $0.message)
            }
            var commit: OpaquePointer?
            try check(git_commit_lookup(&commit, repo, &commitID), fail)
            defer { git_commit_free(commit) }
            var tree: OpaquePointer?
            try check(git_commit_tree(&tree, commit), fail)
            defer { git_tree_free(tree) }
            var entry: OpaquePointer?
            let code = git_tree_entry_bypath(&entry, tree, path)
            if code == GIT_ENOTFOUND.rawValue {
                throw GitError.pathNotInRevision(path: path, revision: revision, repository: self.displayPath)
            }
            try check(code, fail)
            defer { git_tree_entry_free(entry) }
            guard git_tree_entry_type(entry) == GIT_OBJECT_BLOB else {
                throw GitError.pathNotInRevision(path: path, revision: revision, repository: self.displayPath)
            }
            var blob: OpaquePointer?
            try check(git_blob_lookup(&blob, repo, git_tree_entry_id(entry)), fail)
            defer { git_blob_free(blob) }
            let size = Int(git_blob_rawsize(blob))
            guard size > 0, let content = git_blob_rawcontent(blob) else { return [] }
            return Array(UnsafeRawBufferPointer(start: content, count: size))
        }
    }
}
