import CLibgit2
import Foundation

/// A commit, copied out of the object database.
public struct GitCommit: Sendable, Hashable {
    /// The commit's id.
    public let oid: GitOID
    /// The full message, as written (normally ending in a newline).
    public let message: String
    /// The message's first paragraph on one line, as `git log --oneline` shows it.
    public let summary: String
    /// Who wrote the change.
    public let author: GitSignature
    /// Who made the commit (differs from the author after a rebase or `git am`).
    public let committer: GitSignature
    /// The parents' ids: none for a root commit, two or more for a merge.
    public let parents: [GitOID]

    /// The abbreviated id, seven characters.
    public var shortOID: String { oid.short }

    /// Creates a commit record.
    public init(
        oid: GitOID, message: String, summary: String, author: GitSignature, committer: GitSignature,
        parents: [GitOID]
    ) {
        self.oid = oid
        self.message = message
        self.summary = summary
        self.author = author
        self.committer = committer
        self.parents = parents
    }
}

extension GitRepository {
    /// The commits reachable from `from` and not from `until`, newest first in topological
    /// order (a commit always before its parents, ties broken by commit time), like
    /// `git log --topo-order until..from`.
    /// - Parameters:
    ///   - from: where to start, any revision (`HEAD`, a branch, a tag, an id). An unborn
    ///     `HEAD` has no commits and gives an empty list.
    ///   - until: where to stop (excluded), typically the last release tag; nil for all history.
    /// - Throws: `GitError.revisionNotFound` when a revision does not name a commit,
    ///   `.operationFailed` when the history cannot be read.
    public func commits(from: String = "HEAD", until: String? = nil) throws -> [GitCommit] {
        try withHandle { repo in
            if from == "HEAD", isHeadUnborn(repo) { return [] }
            let start = try resolveCommit(from, in: repo)
            let stop = try until.map { try resolveCommit($0, in: repo) }
            var walker: OpaquePointer?
            try check(git_revwalk_new(&walker, repo)) {
                .operationFailed(operation: "walk the history of", subject: self.displayPath, libgit2: $0.message)
            }
            defer { git_revwalk_free(walker) }
            git_revwalk_sorting(walker, GIT_SORT_TOPOLOGICAL.rawValue | GIT_SORT_TIME.rawValue)
            var startRaw = start.raw
            try check(git_revwalk_push(walker, &startRaw)) {
                .revisionNotFound(revision: from, repository: self.displayPath, libgit2: $0.message)
            }
            if let stop {
                var stopRaw = stop.raw
                try check(git_revwalk_hide(walker, &stopRaw)) {
                    .revisionNotFound(revision: until ?? stop.hex, repository: self.displayPath, libgit2: $0.message)
                }
            }
            var result: [GitCommit] = []
            var oid = git_oid()
            while true {
                let code = git_revwalk_next(&oid, walker)
                if code == GIT_ITEROVER.rawValue { break }
                try check(code) {
                    .operationFailed(operation: "walk the history of", subject: self.displayPath, libgit2: $0.message)
                }
                result.append(try Self.loadCommit(&oid, repo: repo, displayPath: displayPath))
            }
            return result
        }
    }

    /// The commit that `revision` names.
    /// - Throws: `GitError.revisionNotFound`.
    public func commit(_ revision: String) throws -> GitCommit {
        try withHandle { repo in
            var raw = try resolveCommit(revision, in: repo).raw
            return try Self.loadCommit(&raw, repo: repo, displayPath: displayPath)
        }
    }

    private static func loadCommit(
        _ oid: inout git_oid, repo: OpaquePointer, displayPath: String
    ) throws -> GitCommit {
        var commit: OpaquePointer?
        try check(git_commit_lookup(&commit, repo, &oid)) {
            .operationFailed(operation: "read commit \(GitOID(oid).hex) in", subject: displayPath, libgit2: $0.message)
        }
        defer { git_commit_free(commit) }
        let parents = (0..<git_commit_parentcount(commit)).compactMap { index in
            git_commit_parent_id(commit, index).map(GitOID.init(pointer:))
        }
        let fallback = GitSignature(name: "", email: "", date: Date(timeIntervalSince1970: 0), timeZoneOffsetMinutes: 0)
        return GitCommit(
            oid: GitOID(oid),
            message: string(git_commit_message(commit)) ?? "",
            summary: string(git_commit_summary(commit)) ?? "",
            author: git_commit_author(commit).map { GitSignature($0.pointee) } ?? fallback,
            committer: git_commit_committer(commit).map { GitSignature($0.pointee) } ?? fallback,
            parents: parents
        )
    }
}
