import Basics
import Foundation
import Git

/// What Pins needs from git: the tags of a remote (ls-remote) and a checkout of one commit.
/// Behind a protocol so that tests can count calls and inject failures.
public protocol GitAccess: Sendable {
    /// Tag name → the commit it points at (annotated tags peeled), without cloning.
    /// - Throws: `GitError` when the remote cannot be read.
    func remoteTags(url: String) async throws -> [String: GitOID]
    /// Clones `url` into `directory` (absent or empty) with `commit` checked out.
    /// - Throws: `GitError` when cloning fails or the commit is not in the repository.
    func clone(url: String, commit: GitOID, into directory: String) async throws
}

/// `GitAccess` through the Git module (libgit2).
public struct LibGit2Access: GitAccess {
    /// Creates the accessor.
    public init() {}

    public func remoteTags(url: String) async throws -> [String: GitOID] {
        // off-pool: ls-remote waits on the network, on a thread of its own.
        try await BlockingWork.run { try GitRepository.listRemoteTags(url: url) }
    }

    public func clone(url: String, commit: GitOID, into directory: String) async throws {
        // off-pool: cloning waits on the network, on a thread of its own.
        _ = try await BlockingWork.run { try GitRepository.clone(url: url, to: directory, checkout: commit.hex) }
    }
}
