import Basics
import Foundation

/// A keychain made for one CI run (what fastlane's `setup_ci` and `create_keychain` make):
/// created with a password, kept unlocked for six hours, put first in the user's search list and
/// made the default, then removed by `signing.cleanup` in the lane's `finally:` block, which puts
/// the search list and the default back as they were.
///
/// What to put back is recorded before anything changes, in a JSON state file beside the
/// keychain (`<keychain>.slipway-state.json`, mode 0600).
public enum TemporaryKeychain {
    /// What the state file holds.
    public struct State: Codable, Sendable, Equatable {
        /// The keychain's path as given.
        public var keychain: String
        /// The user's search list before the keychain was added.
        public var previousSearchList: [String]
        /// The user's default keychain before, if there was one.
        public var previousDefault: String?

        /// Creates a state.
        public init(keychain: String, previousSearchList: [String], previousDefault: String?) {
            self.keychain = keychain
            self.previousSearchList = previousSearchList
            self.previousDefault = previousDefault
        }
    }

    /// What `remove` did.
    public struct Removal: Sendable, Equatable {
        /// False when the keychain was already gone (a second cleanup): nothing to delete.
        public var deletedKeychain: Bool
        /// The search list after removal.
        public var searchList: [String]
        /// The default keychain set back, when the temporary one was the default.
        public var restoredDefault: String?
        /// True when a state file was found and used.
        public var usedStateFile: Bool
        /// False when the keychain was not in this machine's search list (it was made on another
        /// runner, or removed before): there was nothing to restore.
        public var wasInSearchList: Bool = true

        /// Creates a removal report.
        public init(deletedKeychain: Bool, searchList: [String], restoredDefault: String?, usedStateFile: Bool) {
            self.deletedKeychain = deletedKeychain
            self.searchList = searchList
            self.restoredDefault = restoredDefault
            self.usedStateFile = usedStateFile
        }
    }

    /// The state file for `keychain`.
    public static func statePath(for keychain: String) -> String { keychain + ".slipway-state.json" }

    /// Removes the temporary keychain at `path`: its search-list entry and default-ness are
    /// replaced by what the state file recorded, then it is deleted. Running it again when the
    /// keychain is already gone succeeds (`deletedKeychain` is false).
    /// - Parameters:
    ///   - security: the `security` executable (a path, or a name looked up in `environment`'s PATH).
    ///   - environment: the variables `security` runs with (the lane's, not necessarily the process's).
    ///   - fileSystem: where the state file is read and removed.
    /// - Throws: `SigningInstallError.securityFailed` naming the subcommand,
    ///   `.unreadableKeychainState` for a state file Slipway did not write.
    public static func remove(path: String, runner: any ProcessRunner, security: String = "/usr/bin/security",
                              environment: [String: String], fileSystem: any FileSystem) async throws -> Removal {
        let tool = SecurityTool(executable: security, runner: runner, environment: environment, redactor: .none)
        let state = try readState(for: path, fileSystem: fileSystem)
        let current = try await tool.searchList()
        let wasInSearchList = current.contains(where: { isSame($0, path) })
        var restored = current.filter { !isSame($0, path) }
        // The state file's search list is this machine's only while the keychain is in this
        // machine's search list: a state read from another runner (a shared disk, a hand-over)
        // must not replace it.
        if let state, wasInSearchList {
            let previous = state.previousSearchList.filter { !isSame($0, path) }
            restored = previous + restored.filter { entry in !previous.contains { isSame($0, entry) } }
        }
        if restored != current { try await tool.setSearchList(restored) }
        var restoredDefault: String?
        if let currentDefault = try await tool.defaultKeychain(), isSame(currentDefault, path),
           let previous = state?.previousDefault ?? restored.first {
            try await tool.setDefaultKeychain(previous)
            restoredDefault = previous
        }
        let arguments: [SecurityArgument] = [SecurityArgument(path)]
        let deletion = try await tool.attempt("delete-keychain", arguments)
        let deleted: Bool
        if deletion.status.isSuccess {
            deleted = true
        } else if isNotFound(deletion) {
            deleted = false
        } else {
            throw tool.failure("delete-keychain", arguments, deletion)
        }
        try? fileSystem.remove(statePath(for: path))
        var removal = Removal(deletedKeychain: deleted, searchList: restored, restoredDefault: restoredDefault,
                              usedStateFile: state != nil && wasInSearchList)
        removal.wasInSearchList = wasInSearchList
        return removal
    }

    /// Creates (unless an earlier run of Slipway did), configures and unlocks the keychain, and
    /// puts it first in the search list and as the default. Returns true when it was created now.
    static func prepare(path: String, password: String, tool: SecurityTool, fileSystem: any FileSystem) async throws -> Bool {
        let exists = keychainFileExists(path, fileSystem: fileSystem)
        let state = try readState(for: path, fileSystem: fileSystem)
        if exists && state == nil {
            throw SigningInstallError.foreignKeychain(path: path, stateFile: statePath(for: path))
        }
        let folder = (path as NSString).deletingLastPathComponent
        if !folder.isEmpty && !fileSystem.existsFollowingLinks(folder) {
            do { try fileSystem.createDirectory(folder) } catch {
                throw SigningInstallError.cannotWrite(path: folder, detail: AtomicFile.reason(error))
            }
        }
        let searchList = try await tool.searchList().filter { !isSame($0, path) }
        if state == nil {
            let previousDefault = try await tool.defaultKeychain().flatMap { isSame($0, path) ? nil : $0 }
            try writeState(State(keychain: path, previousSearchList: searchList, previousDefault: previousDefault),
                           fileSystem: fileSystem)
        }
        let password = SecurityArgument.secret(password)
        let keychain = SecurityArgument(path)
        if !exists { try await tool.run("create-keychain", ["-p", password, keychain]) }
        try await tool.run("set-keychain-settings", ["-lut", "21600", keychain])
        try await tool.run("unlock-keychain", ["-p", password, keychain])
        try await tool.setSearchList([path] + searchList)
        try await tool.setDefaultKeychain(path)
        return !exists
    }

    /// True when `listed` (as `security` prints it) names the keychain `path`: macOS stores
    /// `NAME.keychain` as `NAME.keychain-db` and may print folders through their symbolic links.
    static func isSame(_ listed: String, _ path: String) -> Bool {
        normalized(listed) == normalized(path)
    }

    private static func normalized(_ path: String) -> String {
        var trimmed = path.hasSuffix("-db") ? String(path.dropLast(3)) : path
        if !trimmed.hasSuffix(".keychain") { trimmed += ".keychain" }
        let folder = (trimmed as NSString).deletingLastPathComponent
        let resolved = URL(fileURLWithPath: folder).resolvingSymlinksInPath().path
        return resolved + "/" + (trimmed as NSString).lastPathComponent
    }

    static func keychainFileExists(_ path: String, fileSystem: any FileSystem) -> Bool {
        let candidates = [path, path + "-db", path + ".keychain-db"]
        return candidates.contains { fileSystem.existsFollowingLinks($0) }
    }

    private static func isNotFound(_ result: ProcessResult) -> Bool {
        let text = (result.errorText + result.outputText).lowercased()
        return text.contains("could not be found")
    }

    static func readState(for keychain: String, fileSystem: any FileSystem) throws -> State? {
        let path = statePath(for: keychain)
        guard let bytes = try? fileSystem.read(path) else { return nil }
        do {
            return try JSONDecoder().decode(State.self, from: Data(bytes))
        } catch {
            throw SigningInstallError.unreadableKeychainState(path: path, detail: "\(error)")
        }
    }

    private static func writeState(_ state: State, fileSystem: any FileSystem) throws {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
        let data: Data
        do { data = try encoder.encode(state) } catch {
            throw SigningInstallError.cannotWrite(path: statePath(for: state.keychain), detail: "\(error)")
        }
        try AtomicFile.store(Array(data), at: statePath(for: state.keychain), mode: 0o600, fileSystem: fileSystem)
    }
}
