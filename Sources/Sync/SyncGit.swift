import Basics
import Foundation
import Git

/// The git operations a sync needs, behind a protocol so that tests can run without git or
/// inject failures. Paths are relative to the folder that holds the `.xcodeproj`.
public protocol SyncGit: Sendable {
    /// The index file (`.git/index`, or the worktree's own).
    var indexPath: String { get }
    /// `git status --short`-style lines (`XY path`) for uncommitted changes under the project
    /// folder, untracked files included and ignored ones not, Slipway's lock files left out.
    func uncommittedChanges() throws -> [String]
    /// True when `uncommittedChanges()` would be empty, proven without reading files, from the
    /// sync's own listing of the project folder; false when that cannot be proven cheaply (then
    /// ask `uncommittedChanges()`).
    func isProvablyClean(listing: DirectoryListing) throws -> Bool
    /// Records `moves` (already made on disk) the way `git mv` does, re-using each index entry
    /// under its new path without reading the file, so a moved file shows as a rename; records
    /// `paths` as they are on disk now (present ones added, missing ones removed). The index is
    /// written once. Returns the paths git does not know (not on disk and not in the index, e.g.
    /// moved files that were ignored), which are skipped.
    func stage(moves: [GitIndexMove], paths: [String]) throws -> [String]
    /// The working tree's folder (absolute), where the scan for path references starts; nil
    /// to scan the project folder only.
    var workingDirectory: String? { get }
    /// The project folder relative to `workingDirectory` ("" at its root).
    var projectPrefix: String { get }
}

extension SyncGit {
    public var workingDirectory: String? { nil }
    public var projectPrefix: String { "" }
}

/// `SyncGit` over libgit2.
public struct LibGit2SyncGit: SyncGit {
    let repository: GitRepository
    /// The project folder's path relative to the repository's working directory ("" at its root).
    let prefix: String
    /// The working directory, real path.
    let root: String

    public var workingDirectory: String? { root }
    public var projectPrefix: String { prefix }

    /// The repository holding `projectFolder`, or nil when there is none (or it is bare).
    /// - Throws: `SyncError.git` when a repository is found but cannot be opened.
    public static func discover(projectFolder: String) throws -> LibGit2SyncGit? {
        let repository: GitRepository
        do {
            repository = try GitRepository.discover(from: projectFolder)
        } catch GitError.notARepository {
            return nil
        } catch {
            throw SyncError.git(operation: "open the repository holding '\(projectFolder)'", reason: errorText(error))
        }
        guard let workdir = repository.workingDirectory else { return nil }
        let real = { (path: String) -> String in
            guard let resolved = realpath(path, nil) else { return path }
            defer { free(resolved) }
            return String(cString: resolved)
        }
        let root = real(workdir), folder = real(projectFolder)
        let prefix = folder == root ? "" : (folder.hasPrefix(root + "/") ? String(folder.dropFirst(root.count + 1)) : "")
        guard folder == root || folder.hasPrefix(root + "/") else { return LibGit2SyncGit(repository: repository, prefix: "", root: folder) }
        return LibGit2SyncGit(repository: repository, prefix: prefix, root: root)
    }

    public var indexPath: String { repository.gitDirectory + "/index" }

    private func repositoryPath(_ path: String) -> String {
        prefix.isEmpty ? path : (path.isEmpty ? prefix : prefix + "/" + path)
    }

    public func uncommittedChanges() throws -> [String] {
        let entries: [GitStatusEntry]
        do {
            entries = try repository.status(includeUntracked: true)
        } catch {
            throw SyncError.git(operation: "read the status of '\(repository.workingDirectory ?? "")'", reason: errorText(error))
        }
        // The sync's own lock file (in the .xcodeproj folder while this sync runs) is not a change.
        return entries.filter { entry in
            (prefix.isEmpty || entry.path.hasPrefix(prefix + "/")) && !ExclusiveLock.isLockFile(entry.path)
                && (entry.index != nil || (entry.workTree != nil && entry.workTree != .ignored))
        }.map { "\($0.shortCode) \($0.path)" }
    }

    public func isProvablyClean(listing: DirectoryListing) throws -> Bool {
        var files: [String] = [], unlisted: [String] = []
        for entry in listing.allEntries {
            if entry.kind != .directory {
                files.append(entry.path)
            } else if !listing.isListed(entry.path) {
                unlisted.append(entry.path)
            }
        }
        var walked = GitWalkedFolder(prefix: prefix, files: files, unlistedFolders: unlisted, isExcluded: ExclusiveLock.isLockFile)
        walked.details = { listing.details($0) }
        do {
            return try repository.isProvablyClean(walked)
        } catch {
            throw SyncError.git(operation: "read the status of '\(repository.workingDirectory ?? "")'", reason: errorText(error))
        }
    }

    public func stage(moves: [GitIndexMove], paths: [String]) throws -> [String] {
        let inRepository = moves.map { GitIndexMove(from: repositoryPath($0.from), to: repositoryPath($0.to)) }
        do {
            return try repository.stageMoves(inRepository, alsoStaging: paths.map(repositoryPath))
        } catch {
            throw SyncError.git(operation: "stage the moves", reason: errorText(error))
        }
    }
}
