import CLibgit2
import Foundation

extension GitRepository {
    /// A git pack of the objects reachable from `tips` (commits, or annotated tag objects, which
    /// are packed with everything they lead to) and not from `excluding` (commits), as
    /// `git pack-objects --revs` would write for `tips --not excluding`. Not thin: every object
    /// it holds is whole, so any repository that has `excluding` can index it.
    /// - Throws: `GitError.revisionNotFound` for a tip or an excluded commit that is not in the
    ///   repository, `GitError.operationFailed` when libgit2 cannot build the pack.
    public func packObjects(reachableFrom tips: [GitOID], excluding: [GitOID]) throws -> [UInt8] {
        try withHandle { repo in
            var builder: OpaquePointer?
            try check(git_packbuilder_new(&builder, repo)) {
                .operationFailed(operation: "start a pack in", subject: self.displayPath, libgit2: $0.message)
            }
            defer { git_packbuilder_free(builder) }
            var walk: OpaquePointer?
            try check(git_revwalk_new(&walk, repo)) {
                .operationFailed(operation: "walk the history of", subject: self.displayPath, libgit2: $0.message)
            }
            defer { git_revwalk_free(walk) }
            for tip in tips {
                var raw = tip.raw
                if try objectType(of: tip, repo: repo) == GIT_OBJECT_TAG {
                    try check(git_packbuilder_insert(builder, &raw, nil)) {
                        .operationFailed(operation: "pack tag object \(tip.hex) of", subject: self.displayPath, libgit2: $0.message)
                    }
                }
                try check(git_revwalk_push(walk, &raw)) {
                    .revisionNotFound(revision: tip.hex, repository: self.displayPath, libgit2: $0.message)
                }
            }
            for commit in excluding {
                var raw = commit.raw
                try check(git_revwalk_hide(walk, &raw)) {
                    .revisionNotFound(revision: commit.hex, repository: self.displayPath, libgit2: $0.message)
                }
            }
            try check(git_packbuilder_insert_walk(builder, walk)) {
                .operationFailed(operation: "pack the new commits of", subject: self.displayPath, libgit2: $0.message)
            }
            var buffer = git_buf()
            defer { git_buf_dispose(&buffer) }
            try check(git_packbuilder_write_buf(&buffer, builder)) {
                .operationFailed(operation: "write a pack of", subject: self.displayPath, libgit2: $0.message)
            }
            guard let pointer = buffer.ptr else { return [] }
            return pointer.withMemoryRebound(to: UInt8.self, capacity: buffer.size) {
                Array(UnsafeBufferPointer(start: $0, count: buffer.size))
            }
        }
    }

    /// Indexes the pack `bytes` (as `packObjects` writes it) into the repository's object
    /// database, as `git index-pack` in a fetch does; objects already there are harmless.
    /// - Throws: `GitError.operationFailed` naming `source` when the pack is damaged or cannot be
    ///   stored.
    public func indexPack(_ bytes: [UInt8], source: String) throws {
        try withHandle { repo in
            let fail: (LibGit2Failure) -> GitError = {
                .operationFailed(operation: "index the git pack '\(source)' into", subject: self.displayPath, libgit2: $0.message)
            }
            var database: OpaquePointer?
            try check(git_repository_odb(&database, repo), fail)
            defer { git_odb_free(database) }
            var writer: UnsafeMutablePointer<git_odb_writepack>?
            try check(git_odb_write_pack(&writer, database, nil, nil), fail)
            guard let writer else { throw fail(LibGit2Failure(code: -1)) }
            defer { writer.pointee.free(writer) }
            var progress = git_indexer_progress()
            _ = try bytes.withUnsafeBytes { raw in
                try check(writer.pointee.append(writer, raw.baseAddress, raw.count, &progress), fail)
            }
            try check(writer.pointee.commit(writer, &progress), fail)
        }
    }

    /// Points the reference `name` (e.g. `refs/tags/v1.2.0`) at `target`, creating or moving it.
    /// - Throws: `GitError.operationFailed` when the object is missing or the name is invalid.
    public func setReference(_ name: String, to target: GitOID, reason: String) throws {
        try withHandle { repo in
            var raw = target.raw
            var reference: OpaquePointer?
            try check(git_reference_create(&reference, repo, name, &raw, 1, reason)) {
                .operationFailed(operation: "point '\(name)' at \(target.hex) in", subject: self.displayPath, libgit2: $0.message)
            }
            git_reference_free(reference)
        }
    }

    /// Moves HEAD to `commit`: on `branch` (created or moved there, HEAD attached to it) or,
    /// without one, detached; then checks the working tree and index out forcibly, as
    /// `git checkout -f` does (untracked files stay).
    /// - Throws: `GitError.operationFailed` when the commit is missing or the checkout fails.
    public func moveHead(to commit: GitOID, branch: String?, reason: String) throws {
        let workdir = try requireWorkingDirectory(for: "check out \(commit.hex)")
        // The tree is checked out while HEAD still names the old commit: libgit2 compares the
        // target with HEAD's tree, so moving HEAD first would leave the index and files as they were.
        try withHandle { repo in
            let fail: (LibGit2Failure) -> GitError = {
                .operationFailed(operation: "check out \(commit.hex) in", subject: workdir, libgit2: $0.message)
            }
            var raw = commit.raw
            var object: OpaquePointer?
            try check(git_object_lookup(&object, repo, &raw, GIT_OBJECT_COMMIT), fail)
            defer { git_object_free(object) }
            var options = git_checkout_options()
            git_checkout_options_init(&options, UInt32(GIT_CHECKOUT_OPTIONS_VERSION))
            options.checkout_strategy = GIT_CHECKOUT_FORCE.rawValue
            try check(git_checkout_tree(repo, object, &options), fail)
        }
        if let branch { try setReference("refs/heads/" + branch, to: commit, reason: reason) }
        try withHandle { repo in
            let fail: (LibGit2Failure) -> GitError = {
                .operationFailed(operation: "move HEAD to \(commit.hex) in", subject: workdir, libgit2: $0.message)
            }
            if let branch {
                try check(git_repository_set_head(repo, "refs/heads/" + branch), fail)
            } else {
                var raw = commit.raw
                try check(git_repository_set_head_detached(repo, &raw), fail)
            }
        }
    }

    /// The type of object `id`. Call with the lock held.
    private func objectType(of id: GitOID, repo: OpaquePointer) throws -> git_object_t {
        var raw = id.raw
        var object: OpaquePointer?
        try check(git_object_lookup(&object, repo, &raw, GIT_OBJECT_ANY)) {
            .revisionNotFound(revision: id.hex, repository: self.displayPath, libgit2: $0.message)
        }
        defer { git_object_free(object) }
        return git_object_type(object)
    }
}
