import CLibgit2
import Foundation

/// A commit, copied out of the object database.
public struct GitCommit: Sendable, Hashable {
    /// The commit's id.
    public let oid: GitOID
    /// The full message, as written (normally ending in a newline).
    public let message: String
    /// The message's first paragraph on one line, as `git log --oneline` shows it (made from
    /// the message on each call, as libgit2's `git_commit_summary` makes it).
    public var summary: String { GitCommitParser.summary(of: message) }
    /// Who wrote the change.
    public let author: GitSignature
    /// Who made the commit (differs from the author after a rebase or `git am`).
    public let committer: GitSignature
    /// The parents' ids: none for a root commit, two or more for a merge.
    public let parents: [GitOID]

    /// The abbreviated id, seven characters.
    public var shortOID: String { oid.short }

    /// Creates a commit record.
    public init(oid: GitOID, message: String, author: GitSignature, committer: GitSignature, parents: [GitOID]) {
        self.oid = oid
        self.message = message
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
        try walk(from: from, until: until).commits
    }

    /// `commits(from:until:)`, and how many of the commits came straight from pack files
    /// (`GitPackReader`) rather than through libgit2.
    func walk(from: String, until: String?) throws -> (commits: [GitCommit], readFromPacks: Int) {
        try withHandle { repo in
            if from == "HEAD", isHeadUnborn(repo) { return ([], 0) }
            let start = try resolveCommit(from, in: repo)
            let stop = try until.map { try resolveCommit($0, in: repo) }
            // Each commit is read once: from the pack files directly when it is stored whole
            // there, from libgit2's object database (past its cache) otherwise.
            var database: OpaquePointer?
            try check(git_repository_odb(&database, repo)) {
                .operationFailed(operation: "open the object database of", subject: self.displayPath, libgit2: $0.message)
            }
            defer { git_odb_free(database) }
            let packs = GitPackReader(objectsDirectory: commonDirectory + "/objects")
            let displayPath = self.displayPath
            var walk = GitHistoryWalk(shallowBoundary: shallowBoundary(repo)) { oid in
                if let commit = packs.commit(oid) { return commit }
                var raw = oid.raw
                return try Self.readCommit(&raw, database: database, repo: repo, displayPath: displayPath)
            }
            let commits = try walk.commits(from: start, hiding: stop.map { [$0] } ?? [])
            return (commits, packs.commitsRead)
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

    /// The commit from its raw text (read past the object cache) when `GitCommitParser` reads
    /// it; from libgit2's commit object otherwise.
    /// - Throws: `GitError.operationFailed` when the object is missing or not a commit.
    static func readCommit(
        _ oid: inout git_oid, database: OpaquePointer?, repo: OpaquePointer, displayPath: String
    ) throws -> GitCommit {
        var data: UnsafeMutableRawPointer?
        var length = 0
        var type = GIT_OBJECT_INVALID
        var backend: UnsafeMutablePointer<git_odb_backend>?
        if slipway_git_odb_read_uncached(&data, &length, &type, &backend, database, &oid) == 0, let data {
            defer { git_odb_backend_data_free(backend, data) }
            if type == GIT_OBJECT_COMMIT,
               let commit = GitCommitParser.parse(UnsafeRawBufferPointer(start: data, count: length), oid: GitOID(oid)) {
                return commit
            }
        }
        return try loadCommit(&oid, repo: repo, displayPath: displayPath)
    }

    static func loadCommit(
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
            author: git_commit_author(commit).map { GitSignature($0.pointee) } ?? fallback,
            committer: git_commit_committer(commit).map { GitSignature($0.pointee) } ?? fallback,
            parents: parents
        )
    }
}

extension GitRepository {
    /// For tests of `GitCommitParser`: each commit as the parser reads it from the raw text (nil
    /// where it declines) and as libgit2's commit object has it, with libgit2's summary.
    func parserComparison(_ oids: [GitOID]) throws -> [(parsed: GitCommit?, libgit2: GitCommit, libgit2Summary: String)] {
        try withHandle { repo in
            var database: OpaquePointer?
            try check(git_repository_odb(&database, repo)) {
                .operationFailed(operation: "open the object database of", subject: self.displayPath, libgit2: $0.message)
            }
            defer { git_odb_free(database) }
            return try oids.map { oid in
                var raw = oid.raw
                var object: OpaquePointer?
                try check(git_odb_read(&object, database, &raw)) {
                    .operationFailed(operation: "read \(oid.hex) in", subject: self.displayPath, libgit2: $0.message)
                }
                defer { git_odb_object_free(object) }
                let bytes = UnsafeRawBufferPointer(start: git_odb_object_data(object), count: git_odb_object_size(object))
                let parsed = GitCommitParser.parse(bytes, oid: oid)
                var commit: OpaquePointer?
                try check(git_commit_lookup(&commit, repo, &raw)) {
                    .operationFailed(operation: "read commit \(oid.hex) in", subject: self.displayPath, libgit2: $0.message)
                }
                defer { git_commit_free(commit) }
                return (parsed, try Self.loadCommit(&raw, repo: repo, displayPath: displayPath),
                        string(git_commit_summary(commit)) ?? "")
            }
        }
    }
}

extension GitRepository {
    /// For tests of `GitHistoryWalk`: the ids libgit2's own walk gives for `commits(from:until:)`
    /// (`git_revwalk`, topological and time order), the reference the walk is checked against.
    func libgit2WalkIDs(from: GitOID, until: GitOID?) throws -> [GitOID] {
        try withHandle { repo in
            var walker: OpaquePointer?
            try check(git_revwalk_new(&walker, repo)) {
                .operationFailed(operation: "walk the history of", subject: self.displayPath, libgit2: $0.message)
            }
            defer { git_revwalk_free(walker) }
            git_revwalk_sorting(walker, GIT_SORT_TOPOLOGICAL.rawValue | GIT_SORT_TIME.rawValue)
            var start = from.raw
            try check(git_revwalk_push(walker, &start)) {
                .revisionNotFound(revision: from.hex, repository: self.displayPath, libgit2: $0.message)
            }
            if let until {
                var stop = until.raw
                try check(git_revwalk_hide(walker, &stop)) {
                    .revisionNotFound(revision: until.hex, repository: self.displayPath, libgit2: $0.message)
                }
            }
            var result: [GitOID] = []
            var oid = git_oid()
            while git_revwalk_next(&oid, walker) == 0 { result.append(GitOID(oid)) }
            return result
        }
    }
}
