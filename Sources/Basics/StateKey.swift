import Foundation

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

extension StateFiles {
    /// The file name of this user's key in the user's state folder.
    public static let keyName = "state.key"

    /// This user's secret key (32 random bytes, `state.key` in the user's state folder, mode
    /// 0600), which signs the state Slipway must later trust (sync journals, run journals), so
    /// that a file copied from another machine, user or checkout is told apart from one this
    /// user's Slipway wrote. Nil when there is none and `create` is false.
    /// - Throws: `StateFileError` when the key or its folder is a link, another user's, or not a key.
    public static func userKey(environment: Environment, create: Bool) throws -> [UInt8]? {
        let folder = userStateDirectory(environment: environment)
        let path = folder + "/" + keyName
        try checkPath(path, below: parentFolder(folder))
        if let bytes = try read(path, limit: 1024) {
            guard bytes.count == 32 else { throw StateFileError.unusable(path: path, reason: "it is not a Slipway key (32 bytes); remove it") }
            return bytes
        }
        guard create else { return nil }
        try createUserStateDirectory(environment: environment)
        var random = SystemRandomNumberGenerator()
        let bytes = (0..<32).map { _ in UInt8.random(in: 0...255, using: &random) }
        // Written whole under a temporary name (mkstemp: 0600, O_EXCL) and linked into place, so
        // that two first runs at once agree on one key and no one reads half a key.
        var template = Array("\(folder)/.\(keyName).XXXXXX".utf8CString)
        let fd = mkstemp(&template)
        guard fd >= 0 else { throw StateFileError.unusable(path: path, reason: String(cString: strerror(errno))) }
        let temporary = String(decoding: template.dropLast().map { UInt8(bitPattern: $0) }, as: UTF8.self)
        defer { unlink(temporary) }
        let written = bytes.withUnsafeBytes { write(fd, $0.baseAddress, $0.count) }
        let synced = fsync(fd) == 0
        close(fd)
        guard written == bytes.count, synced else { throw StateFileError.unusable(path: path, reason: "it could not be written") }
        if link(temporary, path) != 0 && errno != EEXIST {
            throw StateFileError.unusable(path: path, reason: String(cString: strerror(errno)))
        }
        guard let stored = try read(path, limit: 1024), stored.count == 32 else {
            throw StateFileError.unusable(path: path, reason: "it is not a Slipway key (32 bytes); remove it")
        }
        return stored
    }

    /// Creates the user's state folder (mode 0700) when missing; refuses a link there.
    /// - Throws: `StateFileError`.
    public static func createUserStateDirectory(environment: Environment) throws {
        let folder = userStateDirectory(environment: environment)
        // The disk itself, as everywhere in StateFiles (the lstat checks below look at it, not
        // at an injected file system); the same call as `FileManager.createDirectory` with 0700.
        do {
            try LocalFileSystem().createDirectory(folder, permissions: 0o700)
        } catch FileSystemError.failed(_, _, let reason) {
            throw StateFileError.unusable(path: folder, reason: reason)
        } catch {
            throw StateFileError.unusable(path: folder, reason: error.localizedDescription)
        }
        try checkPath(folder, below: parentFolder(folder))
    }

    static func parentFolder(_ path: String) -> String {
        guard let slash = path.lastIndex(of: "/"), slash != path.startIndex else { return "/" }
        return String(path[..<slash])
    }
}
