import Foundation

/// One ref that a remote refused during a push, with the server's reason.
public struct GitPushRejection: Sendable, Hashable {
    /// The remote ref that was not updated, e.g. `refs/tags/v9.0.0`.
    public let reference: String
    /// The server's reason, e.g. `hook declined` or `non-fast-forward`.
    public let message: String

    /// Creates a rejection record.
    public init(reference: String, message: String) {
        self.reference = reference
        self.message = message
    }
}

/// Everything the Git module can throw. Each case carries the subject it is about and, where
/// libgit2 failed, libgit2's own message; `errorDescription` says what to do about it.
public enum GitError: Error, Equatable, Sendable {
    /// `path` is not (inside) a git repository.
    case notARepository(path: String, libgit2: String)
    /// The repository at `path` is owned by another user and git's `safe.directory` does not
    /// list it.
    case unsafeRepositoryOwner(path: String, libgit2: String)
    /// The operation needs a working directory, and the repository at `path` is bare.
    case bareRepository(path: String, operation: String)
    /// `revision` (a branch, tag, commit id or revision expression) does not name a commit.
    case revisionNotFound(revision: String, repository: String, libgit2: String)
    /// `name` is not a valid name for a `kind` (tag, branch, reference, remote).
    case invalidName(kind: String, name: String, libgit2: String)
    /// Tag `name` already exists on commit `existing`, and the request was for `requested`.
    case tagConflict(name: String, existing: GitOID, requested: GitOID)
    /// The index has no changes compared with HEAD, so a commit would be empty.
    case nothingToCommit(repository: String)
    /// A commit message with no text.
    case emptyCommitMessage(repository: String)
    /// `path` lies outside the repository's working directory.
    case pathOutsideWorkingDirectory(path: String, workingDirectory: String)
    /// `path` exists neither in the working directory nor in the index.
    case pathNotFound(path: String, repository: String)
    /// The commit that `revision` names has no file at `path`.
    case pathNotInRevision(path: String, revision: String, repository: String)
    /// No author/committer identity was passed and git's configuration has none.
    case signatureUnavailable(repository: String, libgit2: String)
    /// The repository has no remote called `name`.
    case remoteNotFound(name: String, repository: String)
    /// The server at `url` refused the credentials (or asked for some and none were given).
    case authenticationFailed(url: String, libgit2: String)
    /// Talking to the remote at `url` failed (unreachable, not a repository, protocol error).
    case remoteFailed(operation: String, url: String, libgit2: String)
    /// The remote accepted the push call but refused some refs; `updated` were pushed.
    case pushRejected(remote: String, rejections: [GitPushRejection], updated: [String], serverOutput: String)
    /// The push would drop commits from `references` on the remote (not a fast-forward); nothing
    /// was pushed.
    case pushNotFastForward(remote: String, references: [String], libgit2: String)
    /// Cloning `url` into `destination` failed.
    case cloneFailed(url: String, destination: String, libgit2: String)
    /// Any other libgit2 failure: `operation` on `subject`.
    case operationFailed(operation: String, subject: String, libgit2: String)
    /// The repository is a shallow clone, and `needed` (the commits since the last release,
    /// say) reaches past the commits it has. `detail` says what was missing.
    case shallowHistory(repository: String, needed: String, detail: String)
}

extension GitError: LocalizedError {
    /// A one-paragraph message: what failed, on what, libgit2's words, and what to do.
    public var errorDescription: String? {
        switch self {
        case let .notARepository(path, libgit2):
            return "'\(path)' is not a git repository (libgit2: \(libgit2)). Run 'git init' or pass --no-git."
        case let .unsafeRepositoryOwner(path, libgit2):
            return "The repository at '\(path)' belongs to another user (libgit2: \(libgit2)). "
                + "If you trust it, run: git config --global --add safe.directory '\(path)'"
        case let .bareRepository(path, operation):
            return "Cannot \(operation) in '\(path)': it is a bare repository without a working "
                + "directory. Run the command in a clone that has one."
        case let .revisionNotFound(revision, repository, libgit2):
            return "Revision '\(revision)' was not found in '\(repository)' (libgit2: \(libgit2)). "
                + "Check the name with 'git rev-parse \(revision)'; fetch tags and branches if it lives on a remote."
        case let .invalidName(kind, name, libgit2):
            return "'\(name)' is not a valid \(kind) name (libgit2: \(libgit2)). "
                + "Use letters, digits, '.', '-', '_' and '/', without spaces, '..', '~', '^', ':' or a trailing '.lock'."
        case let .tagConflict(name, existing, requested):
            return "Tag '\(name)' already exists on commit \(existing.short) (\(existing.hex)), not on the requested "
                + "commit \(requested.short) (\(requested.hex)). Pick a new version, or delete the old tag "
                + "with 'git tag -d \(name)' if it was never published."
        case let .nothingToCommit(repository):
            return "Nothing to commit in '\(repository)': the staged tree is identical to HEAD. "
                + "Stage changes first, or skip the commit step when nothing changed."
        case let .emptyCommitMessage(repository):
            return "Refusing to commit in '\(repository)' with an empty message. Pass a commit message."
        case let .pathOutsideWorkingDirectory(path, workingDirectory):
            return "'\(path)' is outside the working directory '\(workingDirectory)'. "
                + "Pass paths relative to the repository root, or absolute paths inside it."
        case let .pathNotFound(path, repository):
            return "'\(path)' exists neither in the working directory nor in the index of '\(repository)'. "
                + "Check the path (it is relative to the repository root)."
        case let .pathNotInRevision(path, revision, repository):
            return "'\(path)' does not exist at revision '\(revision)' in '\(repository)'. "
                + "Check the path with 'git ls-tree \(revision) -- \(path)' (it is relative to the repository root)."
        case let .signatureUnavailable(repository, libgit2):
            return "No author identity for commits in '\(repository)' (libgit2: \(libgit2)). "
                + "Set one with 'git config user.name \"Your Name\"' and 'git config user.email you@example.com'."
        case let .remoteNotFound(name, repository):
            return "Remote '\(name)' is not configured in '\(repository)'. "
                + "Add it with 'git remote add \(name) URL', or pass a URL instead of a remote name."
        case let .authenticationFailed(url, libgit2):
            return "Authentication to '\(url)' failed (libgit2: \(libgit2)). "
                + "Check the token or password and that it has write access to this repository."
        case let .remoteFailed(operation, url, libgit2):
            return "Could not \(operation) '\(url)' (libgit2: \(libgit2)). "
                + "Check that the URL is right, the server is reachable and you have access."
        case let .pushRejected(remote, rejections, updated, serverOutput):
            let refs = rejections.map { "'\($0.reference)' (\($0.message))" }.joined(separator: ", ")
            var text = "Remote '\(remote)' rejected \(refs)."
            if !updated.isEmpty {
                text += " These refs were pushed: \(updated.map { "'\($0)'" }.joined(separator: ", "))."
            }
            let output = serverOutput.trimmingCharacters(in: .whitespacesAndNewlines)
            if !output.isEmpty { text += " Server said: \(output)." }
            return text + " Check the server's rules for these refs (protected branches, hooks), then push again."
        case let .pushNotFastForward(remote, references, libgit2):
            let refs = references.map { "'\($0)'" }.joined(separator: ", ")
            return "Remote '\(remote)' has commits on \(refs) that your history lacks, so nothing was pushed "
                + "(libgit2: \(libgit2)). Fetch and integrate them (e.g. 'git pull --rebase'), then push again."
        case let .cloneFailed(url, destination, libgit2):
            return "Could not clone '\(url)' into '\(destination)' (libgit2: \(libgit2)). "
                + "Check the URL and your access, and that the destination is empty or absent."
        case let .operationFailed(operation, subject, libgit2):
            return "Could not \(operation) '\(subject)' (libgit2: \(libgit2)). "
                + "Check the repository with 'git status' and 'git fsck', then try again."
        case let .shallowHistory(repository, needed, detail):
            return "'\(repository)' is a shallow clone, and \(needed) reaches past the commits it has (\(detail)). "
                + "Fetch the whole history with 'git fetch --unshallow --tags' (in GitHub Actions: "
                + "actions/checkout with 'fetch-depth: 0'), then try again."
        }
    }
}
