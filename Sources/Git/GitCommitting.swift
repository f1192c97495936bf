import CLibgit2
import Foundation

extension GitRepository {
    /// Commits what is staged on the current branch (or on the detached HEAD) and moves it
    /// forward, like `git commit`. Works on an unborn branch, making the first commit.
    /// - Parameters:
    ///   - message: the commit message, cleaned up as `git commit -m` does (trailing white
    ///     space and surplus blank lines removed, one final newline).
    ///   - signature: author and committer; nil uses the identity `defaultSignature(environment:)`
    ///     finds (`GIT_AUTHOR_*` in `environment`, else `user.name`/`user.email` from git's config).
    ///   - allowEmpty: commit even when the staged tree equals HEAD's.
    ///   - environment: the committer's environment, read only when `signature` is nil; empty
    ///     by default (git's configuration alone).
    /// - Returns: the new commit's id.
    /// - Throws: `GitError.nothingToCommit`, `.emptyCommitMessage`, `.signatureUnavailable`,
    ///   `.bareRepository`, `.operationFailed` (e.g. a merge in progress, unresolved conflicts).
    @discardableResult
    public func commit(message: String, signature: GitSignature? = nil, allowEmpty: Bool = false,
                       environment: [String: String] = [:]) throws -> GitOID {
        let workdir = try requireWorkingDirectory(for: "commit")
        let text = cleanedMessage(message)
        guard !text.isEmpty else { throw GitError.emptyCommitMessage(repository: workdir) }
        return try withHandle { repo in
            let state = git_repository_state(repo)
            if state != Int32(GIT_REPOSITORY_STATE_NONE.rawValue) {
                throw GitError.operationFailed(
                    operation: "commit in", subject: workdir,
                    libgit2: "a merge, rebase, cherry-pick or revert is in progress (state \(state)); finish or abort it first")
            }
            let index = try reloadIndex(repo, workdir: workdir)
            defer { git_index_free(index) }
            var treeID = git_oid()
            try check(git_index_write_tree(&treeID, index)) {
                .operationFailed(operation: "write the staged tree of", subject: workdir, libgit2: $0.message)
            }
            var parent: OpaquePointer?
            if !isHeadUnborn(repo) {
                var headID = try resolveCommit("HEAD", in: repo).raw
                try check(git_commit_lookup(&parent, repo, &headID)) {
                    .operationFailed(operation: "read HEAD of", subject: workdir, libgit2: $0.message)
                }
            }
            defer { git_commit_free(parent) }
            if !allowEmpty {
                let unchanged = parent.map { git_oid_equal(git_commit_tree_id($0), &treeID) == 1 }
                    ?? (git_index_entrycount(index) == 0)
                if unchanged { throw GitError.nothingToCommit(repository: workdir) }
            }
            var tree: OpaquePointer?
            try check(git_tree_lookup(&tree, repo, &treeID)) {
                .operationFailed(operation: "read the staged tree of", subject: workdir, libgit2: $0.message)
            }
            defer { git_tree_free(tree) }
            let identity = try signature ?? defaultSignature(repo, environment: environment)
            var parents: [OpaquePointer?] = parent.map { [$0] } ?? []
            var newID = git_oid()
            try identity.withRaw { raw in
                _ = try check(git_commit_create(
                    &newID, repo, "HEAD", raw, raw, nil, text, tree, parents.count, &parents)
                ) {
                    .operationFailed(operation: "create a commit in", subject: workdir, libgit2: $0.message)
                }
            }
            return GitOID(newID)
        }
    }

    /// Stages `paths` (see `stage(paths:)`) and commits them with whatever else is staged.
    /// - Returns: the new commit's id.
    /// - Throws: what `stage(paths:)` and `commit(message:signature:allowEmpty:environment:)` throw.
    @discardableResult
    public func commit(
        message: String, paths: [String], signature: GitSignature? = nil, allowEmpty: Bool = false,
        environment: [String: String] = [:]
    ) throws -> GitOID {
        try stage(paths: paths)
        return try commit(message: message, signature: signature, allowEmpty: allowEmpty, environment: environment)
    }

    /// Stages every change to tracked files and commits, like `git commit -a`. Untracked files
    /// are not added.
    /// - Returns: the new commit's id.
    /// - Throws: what `stageAllTracked()` and `commit(message:signature:allowEmpty:environment:)` throw.
    @discardableResult
    public func commitAll(message: String, signature: GitSignature? = nil, allowEmpty: Bool = false,
                          environment: [String: String] = [:]) throws -> GitOID {
        try stageAllTracked()
        return try commit(message: message, signature: signature, allowEmpty: allowEmpty, environment: environment)
    }
}
