import Basics
import CLibgit2
import Foundation

/// Where HEAD points: a branch (possibly without commits yet) or, detached, a commit.
public struct GitHead: Sendable, Hashable {
    /// The full name of the branch HEAD refers to, e.g. `refs/heads/main`; nil when detached.
    public let referenceName: String?
    /// The commit HEAD resolves to; nil on an unborn branch (a fresh `git init`).
    public let commit: GitOID?

    /// Creates a HEAD description.
    public init(referenceName: String?, commit: GitOID?) {
        self.referenceName = referenceName
        self.commit = commit
    }

    /// The branch's short name, e.g. `main`; nil when HEAD is detached.
    public var branch: String? {
        guard let referenceName else { return nil }
        let prefix = "refs/heads/"
        return referenceName.hasPrefix(prefix) ? String(referenceName.dropFirst(prefix.count)) : referenceName
    }

    /// True when HEAD refers to a branch that has no commit yet.
    public var isUnborn: Bool { commit == nil }

    /// True when HEAD points at a commit directly rather than through a branch.
    public var isDetached: Bool { referenceName == nil }
}

/// An open git repository: owns libgit2's `git_repository` handle and frees it when released.
///
/// libgit2 handles must not be used from two threads at once, so every call that reaches the
/// handle goes through one lock; that is what makes sharing a repository between tasks safe.
public final class GitRepository: Sendable {
    private let handle: Locked<OpaquePointer>

    /// The working directory, without a trailing slash; nil for a bare repository.
    public let workingDirectory: String?
    /// The `.git` directory (or the bare repository's directory), without a trailing slash.
    public let gitDirectory: String
    /// The directory shared by all worktrees (objects, refs, `shallow`), without a trailing
    /// slash: `gitDirectory` except in a linked worktree.
    let commonDirectory: String

    /// Takes ownership of an open libgit2 handle.
    init(handle: OpaquePointer) {
        self.handle = Locked(handle)
        workingDirectory = string(git_repository_workdir(handle)).map(Self.trimmingSlash)
        gitDirectory = Self.trimmingSlash(string(git_repository_path(handle)) ?? "")
        commonDirectory = string(git_repository_commondir(handle)).map(Self.trimmingSlash) ?? gitDirectory
    }

    deinit {
        git_repository_free(handle.value)
    }

    /// Opens the repository whose working directory, `.git` directory or bare directory is
    /// exactly `path` (no search upwards; see `discover(from:)`). A repository owned by another
    /// user is refused unless git's `safe.directory` lists it; `safe.directory = *`, which
    /// libgit2 1.5 ignores, is honoured here as git honours it.
    /// - Throws: `GitError.notARepository`, `.unsafeRepositoryOwner`, `.operationFailed`.
    public static func open(at path: String) throws -> GitRepository {
        try open(path, flags: GIT_REPOSITORY_OPEN_NO_SEARCH.rawValue)
    }

    /// Opens the repository that contains `path`, walking up the parent directories as `git`
    /// does (stopping at file-system boundaries).
    /// - Throws: `GitError.notARepository`, `.unsafeRepositoryOwner`, `.operationFailed`.
    public static func discover(from path: String) throws -> GitRepository {
        try open(path, flags: 0)
    }

    private static func open(_ path: String, flags: UInt32, retrying: Bool = true) throws -> GitRepository {
        LibGit2.ensureInitialized()
        var pointer: OpaquePointer?
        let code = git_repository_open_ext(&pointer, path, flags, nil)
        guard code == 0, let pointer else {
            let failure = LibGit2Failure(code: code)
            // libgit2 1.5.1 reports a foreign owner as GIT_ENOTFOUND "config value
            // 'safe.directory' was not found" when no safe.directory is configured at all.
            if code == GIT_EOWNER.rawValue || failure.message.contains("safe.directory") {
                if retrying, LibGit2.configurationTrustsAllDirectories(), LibGit2.ownerValidationDisabled {
                    return try open(path, flags: flags, retrying: false)
                }
                let detail = code == GIT_EOWNER.rawValue ? failure.message
                    : "repository path '\(path)' is not owned by current user; \(failure.message)"
                throw GitError.unsafeRepositoryOwner(path: path, libgit2: detail)
            }
            if failure.isNotFound || !FileManager.default.fileExists(atPath: path) {
                throw GitError.notARepository(path: path, libgit2: failure.message)
            }
            throw GitError.operationFailed(operation: "open the repository at", subject: path, libgit2: failure.message)
        }
        return GitRepository(handle: pointer)
    }

    /// True for a repository without a working directory.
    public var isBare: Bool { workingDirectory == nil }

    /// What HEAD points at; works on an unborn branch and on a detached HEAD.
    /// - Throws: `GitError.operationFailed` when HEAD is missing or unreadable.
    public func head() throws -> GitHead {
        try withHandle { repo in
            var reference: OpaquePointer?
            try check(git_reference_lookup(&reference, repo, "HEAD")) {
                .operationFailed(operation: "read HEAD of", subject: self.displayPath, libgit2: $0.message)
            }
            defer { git_reference_free(reference) }
            var oid = git_oid()
            let resolved = git_reference_name_to_id(&oid, repo, "HEAD")
            let commit = resolved == 0 ? GitOID(oid) : nil
            if git_reference_type(reference) == GIT_REFERENCE_SYMBOLIC {
                return GitHead(referenceName: string(git_reference_symbolic_target(reference)), commit: commit)
            }
            return GitHead(referenceName: nil, commit: commit)
        }
    }

    /// The URL configured for remote `name`, as `git remote get-url` prints it.
    /// - Throws: `GitError.remoteNotFound` when there is no such remote.
    public func remoteURL(name: String = "origin") throws -> String {
        try withHandle { repo in
            var remote: OpaquePointer?
            let code = git_remote_lookup(&remote, repo, name)
            guard code == 0, let remote else {
                let failure = LibGit2Failure(code: code)
                if failure.isNotFound { throw GitError.remoteNotFound(name: name, repository: self.displayPath) }
                throw GitError.invalidName(kind: "remote", name: name, libgit2: failure.message)
            }
            defer { git_remote_free(remote) }
            return string(git_remote_url(remote)) ?? ""
        }
    }

    // MARK: - Internals shared by the extensions

    /// The path to name in messages: the working directory, or the git directory when bare.
    public var displayPath: String { workingDirectory ?? gitDirectory }

    /// True for a shallow clone (`git clone --depth N`): its oldest commits' parents are not
    /// in it.
    public var isShallow: Bool { withHandle { git_repository_is_shallow($0) == 1 } }

    /// The commits whose parents a shallow clone leaves out (its `shallow` file), which a history
    /// walk treats as having none, as git does.
    func shallowBoundary(_ repo: OpaquePointer) -> Set<GitOID> {
        guard git_repository_is_shallow(repo) == 1,
              let text = try? String(contentsOfFile: commonDirectory + "/shallow", encoding: .utf8) else { return [] }
        return Set(text.split(whereSeparator: \.isNewline).compactMap { GitOID(hex: String($0)) })
    }

    /// Runs `body` with the raw handle while holding the repository's lock.
    func withHandle<T>(_ body: (OpaquePointer) throws -> T) rethrows -> T {
        try handle.withLock { try body($0) }
    }

    /// The working directory, or `bareRepository` naming `operation` when there is none.
    func requireWorkingDirectory(for operation: String) throws -> String {
        guard let workingDirectory else {
            throw GitError.bareRepository(path: gitDirectory, operation: operation)
        }
        return workingDirectory
    }

    /// Resolves `revision` to the commit it names, peeling annotated tags.
    /// Call with the lock held (inside `withHandle`).
    func resolveCommit(_ revision: String, in repo: OpaquePointer) throws -> GitOID {
        var object: OpaquePointer?
        try check(git_revparse_single(&object, repo, revision)) {
            .revisionNotFound(revision: revision, repository: self.displayPath, libgit2: $0.message)
        }
        defer { git_object_free(object) }
        var commit: OpaquePointer?
        try check(git_object_peel(&commit, object, GIT_OBJECT_COMMIT)) {
            .revisionNotFound(revision: revision, repository: self.displayPath, libgit2: $0.message)
        }
        defer { git_object_free(commit) }
        return GitOID(pointer: git_object_id(commit))
    }

    /// True when HEAD's branch has no commit. Call with the lock held.
    func isHeadUnborn(_ repo: OpaquePointer) -> Bool {
        git_repository_head_unborn(repo) == 1
    }

    static func trimmingSlash(_ path: String) -> String {
        path.count > 1 && path.hasSuffix("/") ? String(path.dropLast()) : path
    }
}
