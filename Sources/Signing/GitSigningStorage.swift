import Basics
import Foundation
import Git

/// A signing storage in a git repository, as match keeps it: cloned with libgit2 into a cache
/// folder, read and written there, and `save(message:)` commits every change and pushes it.
///
/// Concurrent writers: a push that is not a fast-forward (someone pushed since the clone) is
/// refused with `SigningStorageError.pushConflict` and nothing is pushed; running again starts
/// from a fresh clone that has their commit. No automatic rebase: two writers racing to create
/// the same certificate must not both win.
///
/// Read-only: never commits or pushes; when the repository cannot be reached, it falls back to
/// the last clone in the cache folder, if there is one.
public struct GitSigningStorage: SigningStorage {
    /// The repository's URL or path.
    public let url: String
    /// The working clone.
    public let clonePath: String
    /// Whether writes are refused.
    public let isReadOnly: Bool
    /// The author of commits; nil uses git's configured identity, or `Slipway <slipway@localhost>`.
    public let signature: GitSignature?
    /// Where `GIT_AUTHOR_*` may name the author when `signature` is nil (see
    /// `GitRepository.defaultSignature(environment:)`).
    private let environment: [String: String]
    private let credentials: GitCredentials?
    private let files: DirectorySigningStorage
    /// The branch asked for; nil for the repository's default.
    private let branch: String?

    private init(url: String, clonePath: String, readOnly: Bool, signature: GitSignature?, environment: [String: String],
                 credentials: GitCredentials?, fileSystem: any FileSystem, branch: String? = nil) {
        self.url = url
        self.branch = branch
        self.clonePath = clonePath
        self.isReadOnly = readOnly
        self.signature = signature
        self.environment = environment
        self.credentials = credentials
        self.files = DirectorySigningStorage(root: clonePath, readOnly: readOnly, fileSystem: fileSystem)
    }

    /// Clones `url` afresh into `cacheDirectory` (replacing an earlier clone there) and opens it.
    /// - Parameter environment: where `GIT_AUTHOR_*` may name the author of `save`'s commits
    ///   when `signature` is nil (the step's or the command's environment).
    /// - Parameter branch: the branch to use; nil for the repository's default, or `main` for an
    ///   empty repository. A writable open starts a branch the repository does not have (from its
    ///   default branch, as match does); a read-only one needs it to exist.
    /// - Parameter fileSystem: where the cache folder is made and the clone put in place (the
    ///   clone itself is libgit2's, on the local disk).
    /// - Throws: `SigningStorageError.unreachable` naming the repository (a read-only open uses
    ///   the cached clone instead when there is one).
    public static func open(
        url: String, cacheDirectory: String, branch: String? = nil, readOnly: Bool,
        signature: GitSignature? = nil, environment: [String: String] = [:], credentials: GitCredentials? = nil,
        fileSystem: any FileSystem = LocalFileSystem()
    ) async throws -> GitSigningStorage {
        let clonePath = cacheDirectory + "/clone"
        let fresh = cacheDirectory + "/clone.new-\(UInt32.random(in: 0...UInt32.max))"
        do {
            try fileSystem.createDirectory(cacheDirectory)
            _ = try await BlockingWork.run(name: "slipway-signing-clone") {
                do {
                    // off-pool: inside BlockingWork.run, a thread of its own.
                    _ = try GitRepository.clone(url: url, to: fresh, checkout: branch, credentials: credentials)
                } catch GitError.revisionNotFound where branch != nil {
                    guard let branch, !readOnly else {
                        throw SigningStorageError.unreachable(storage: url, detail: "it has no branch '\(branch ?? "")'; a sync that is not read-only starts it (from the default branch, as match does), or fix git-branch")
                    }
                    // off-pool: inside BlockingWork.run, a thread of its own.
                    try GitRepository.clone(url: url, to: fresh, credentials: credentials).startBranch(branch)
                }
            }
            try? fileSystem.remove(clonePath)
            try fileSystem.move(fresh, to: clonePath)
        } catch {
            try? fileSystem.remove(fresh)
            if readOnly, fileSystem.exists(clonePath + "/.git") {
                return GitSigningStorage(url: url, clonePath: clonePath, readOnly: true, signature: signature, environment: environment,
                                         credentials: credentials, fileSystem: fileSystem, branch: branch)
            }
            if let error = error as? SigningStorageError { throw error }
            throw SigningStorageError.unreachable(storage: url, detail: Self.describe(error))
        }
        return GitSigningStorage(url: url, clonePath: clonePath, readOnly: readOnly, signature: signature, environment: environment,
                                 credentials: credentials, fileSystem: fileSystem, branch: branch)
    }

    /// The repository's URL.
    public var displayName: String { url }

    /// The clone's files, without `.git`.
    public func list() async throws -> [String] {
        try await files.list().filter { !$0.hasPrefix(".git/") && $0 != ".git" }
    }

    /// A file of the clone.
    public func read(_ path: String) async throws -> [UInt8]? {
        guard !path.hasPrefix(".git/") else { throw SigningStorageError.invalidPath(path: path) }
        return try await files.read(path)
    }

    /// Writes into the clone; `save(message:)` commits and pushes.
    public func write(_ path: String, _ bytes: [UInt8]) async throws {
        guard !path.hasPrefix(".git/"), path != ".git" else { throw SigningStorageError.invalidPath(path: path) }
        try requireWritable("write '\(path)'")
        try await files.write(path, bytes)
    }

    /// Deletes from the clone; `save(message:)` commits and pushes.
    public func delete(_ path: String) async throws {
        guard !path.hasPrefix(".git/"), path != ".git" else { throw SigningStorageError.invalidPath(path: path) }
        try requireWritable("delete '\(path)'")
        try await files.delete(path)
    }

    /// Commits every change in the clone and pushes the branch. Does nothing when read-only or
    /// when nothing changed.
    /// - Throws: `SigningStorageError.pushConflict`, `.writeFailed`.
    public func save(message: String) async throws {
        guard !isReadOnly else { return }
        let paths = try await list()
        let (url, clonePath, signature, environment, credentials, named) = (url, clonePath, signature, environment, credentials, branch != nil)
        try await BlockingWork.run(name: "slipway-signing-push") {
            let repository = try GitRepository.open(at: clonePath)
            try repository.stageAllTracked()
            if !paths.isEmpty { try repository.stage(paths: paths) }
            let author = signature ?? (try? repository.defaultSignature(environment: environment)) ?? GitSignature(name: "Slipway", email: "slipway@localhost")
            let wasEmpty = try repository.head().isUnborn
            do {
                try repository.commit(message: message, signature: author)
            } catch GitError.nothingToCommit {
                return
            }
            guard let reference = try repository.head().referenceName else {
                throw SigningStorageError.writeFailed(storage: url, detail: "the clone's HEAD is detached; name a branch")
            }
            do {
                // off-pool: a thread of its own.
                try repository.push(remote: "origin", refspecs: ["\(reference):\(wasEmpty && !named ? Self.firstBranch : reference)"],
                                    credentials: credentials)
            } catch let error as GitError {
                if case .pushNotFastForward = error {
                    throw SigningStorageError.pushConflict(storage: url, detail: "'\(reference)' moved on the remote")
                }
                throw SigningStorageError.writeFailed(storage: url, detail: Self.describe(error))
            }
        }
    }

    /// The branch the first commit of an empty repository is pushed to (libgit2 cannot see an
    /// empty remote's default branch).
    public static let firstBranch = "refs/heads/main"

    private static func describe(_ error: any Error) -> String {
        (error as? LocalizedError)?.errorDescription ?? String(describing: error)
    }
}
