import Basics
import Crypto
import Foundation
import PBXProj

/// Where Slipway keeps the state of one project's sync (the journal and the saved pbxproj and
/// git index), and how it tells a journal it wrote from one planted by someone else.
///
/// The checkout may be hostile (a pull request in CI), so nothing of this lives in it: the
/// folder is `.git/slipway/sync/<hash>/` in the git directory of the repository holding the
/// project (a linked worktree's own git directory), or, without git, `sync/<hash>/` in the
/// user's state folder (`StateFiles.userStateDirectory`), `<hash>` naming the project. A journal
/// is trusted only when its header carries an HMAC made with this user's key (kept in the
/// user's state folder, mode 0600) over the header, this state folder and the project folder,
/// so a journal copied from another project, machine or user is refused; and every path in it
/// must stay inside the project folder (see `SyncJournalCheck`).
public struct SyncState: Sendable {
    /// The journal's file name in `folder`.
    public static let journalName = "journal.json"
    /// The saved original pbxproj.
    public static let pbxprojBackupName = "original.pbxproj"
    /// The saved original git index.
    public static let indexBackupName = "original.index"

    /// The folder holding this project's sync state.
    public let folder: String
    /// The trusted folder `folder` lies in (the git directory or the user's state folder).
    let base: String
    /// The folder holding the `.xcodeproj`, as given.
    let root: String
    /// `root` with symbolic links resolved: every path of a journal must stay inside it.
    public let projectRoot: String
    /// The git index a journal may name (the repository's own), nil without git.
    public let gitIndex: String?
    /// The git directory with symbolic links resolved, which no journal path may enter.
    let resolvedGitDirectory: String?
    /// The user's state folder (holds the key).
    let userState: String
    /// For the user's state folder and key.
    let environment: Environment

    /// The state of the project whose `.xcodeproj` is `projectBundle` in `root`.
    ///
    /// - Parameters:
    ///   - gitDirectory: The git directory of the repository holding the project (nil: none).
    ///   - environment: For the user's state folder (`XDG_STATE_HOME`, `HOME`).
    public init(root: String, projectBundle: String, gitDirectory: String?, environment: Environment) {
        self.root = root
        self.environment = environment
        let resolvedRoot = StateFiles.resolved(root) ?? root
        projectRoot = resolvedRoot
        userState = StateFiles.userStateDirectory(environment: environment)
        let name = SHA256.hash(data: Array((resolvedRoot + "/" + projectBundle).utf8)).hexString.prefix(16)
        if let gitDirectory {
            base = gitDirectory
            folder = gitDirectory + "/slipway/sync/" + name
            gitIndex = gitDirectory + "/index"
            resolvedGitDirectory = StateFiles.resolved(gitDirectory)
        } else {
            base = userState
            folder = userState + "/sync/" + name
            gitIndex = nil
            resolvedGitDirectory = nil
        }
    }

    /// The journal's path.
    public var journalPath: String { folder + "/" + Self.journalName }
    /// The saved pbxproj's path.
    public var pbxprojBackupPath: String { folder + "/" + Self.pbxprojBackupName }
    /// The saved git index's path.
    public var indexBackupPath: String { folder + "/" + Self.indexBackupName }
    /// The saved copy of the `index`-th file of `SyncJournal.Header.fileEdits`.
    public func fileBackupPath(_ index: Int) -> String { folder + "/" + Self.fileBackupPrefix + String(index) }
    /// The names of saved copies of edited files start with this.
    public static let fileBackupPrefix = "original-file-"

    /// True when something is at the journal's path (checked without following links).
    public func hasJournal(fileSystem: any FileSystem) -> Bool { fileSystem.kind(of: journalPath) != nil }

    /// Creates `folder` (private to this user) after checking that no folder on the way is a
    /// symbolic link.
    /// - Throws: `StateFileError`.
    func createFolder() throws {
        if base == userState { try StateFiles.createUserStateDirectory(environment: environment) }
        try StateFiles.createFolder(folder, below: base, private: true)
    }

    /// Removes `folder` and the empty folders above it up to `base`, once the sync is over.
    func removeFolderIfEmpty() {
        var path = folder
        while path.count > base.count, path.hasPrefix(base + "/"), rmdir(path) == 0 {
            path = ProjectPath.parent(path)
        }
    }

    // MARK: Signing

    /// Gives `header` a fresh run id and the HMAC that ties it to this user, this state folder
    /// and this project (the key is created on first use).
    /// - Throws: `StateFileError` when the key cannot be read or created safely.
    public func sign(_ header: inout SyncJournal.Header) throws {
        var random = SystemRandomNumberGenerator()
        header.runID = (0..<16).map { _ in UInt8.random(in: 0...255, using: &random) }.hexString
        header.authenticator = nil
        guard let key = try key(create: true) else { throw StateFileError.unusable(path: userState, reason: "no key could be made") }
        header.authenticator = try authenticator(header, key: key)
    }

    /// Nil when `header`'s HMAC is right, else why it is not trusted.
    func verify(_ header: SyncJournal.Header) throws -> String? {
        guard let claimed = header.authenticator, header.runID != nil else {
            return "it carries no signature of this Slipway, so it was not written here"
        }
        guard let key = try key(create: false) else {
            return "this user has no Slipway key ('\(userState)/\(StateFiles.keyName)'), so it was not written by this user's Slipway"
        }
        var unsigned = header
        unsigned.authenticator = nil
        let expected = try authenticator(unsigned, key: key)
        guard Self.constantTimeEqual(Array(expected.utf8), Array(claimed.utf8)) else {
            return "its signature does not match this user, project and state folder, so it was copied from elsewhere or edited"
        }
        return nil
    }

    private func authenticator(_ header: SyncJournal.Header, key: SymmetricKey) throws -> String {
        // Resolved, so that the same folder reached through another spelling signs the same.
        let text = try JSONFormatting.line(header) + "\n" + (StateFiles.resolved(folder) ?? folder) + "\n" + projectRoot
        return Array(HMAC<SHA256>.authenticationCode(for: Array(text.utf8), using: key)).hexString
    }

    private static func constantTimeEqual(_ left: [UInt8], _ right: [UInt8]) -> Bool {
        guard left.count == right.count else { return false }
        return zip(left, right).reduce(UInt8(0)) { $0 | ($1.0 ^ $1.1) } == 0
    }

    /// This user's key (see `StateFiles.userKey`).
    private func key(create: Bool) throws -> SymmetricKey? {
        try StateFiles.userKey(environment: environment, create: create).map { SymmetricKey(data: $0) }
    }

    // MARK: Paths

    /// Nil when `relative` (a path from a journal or plan, relative to the project folder) names
    /// a place inside the project folder, after resolving `..` and symbolic links in its
    /// folders, and outside the git directory; else why not.
    func problem(with relative: String) -> String? {
        let parts = relative.split(separator: "/", omittingEmptySubsequences: false)
        guard !relative.isEmpty, !relative.utf8.contains(0),
            parts.allSatisfy({ !$0.isEmpty && $0 != "." && $0 != ".." })
        else { return "it is not a plain relative path inside the project folder '\(projectRoot)'" }
        guard !parts.contains(where: { $0.lowercased() == ".git" }) else {
            return "it is inside the git directory, which a sync never touches"
        }
        let parent = parts.dropLast().joined(separator: "/")
        guard let resolved = StateFiles.resolved(parent.isEmpty ? root : root + "/" + parent),
            resolved == projectRoot || resolved.hasPrefix(projectRoot == "/" ? "/" : projectRoot + "/")
        else { return "it leads outside the project folder '\(projectRoot)' (through a symbolic link or '..')" }
        if let git = resolvedGitDirectory, resolved == git || resolved.hasPrefix(git + "/") {
            return "it is inside the git directory, which a sync never touches"
        }
        return nil
    }
}
