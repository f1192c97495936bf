import Basics
import Foundation

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// How a directory storage (and the clone of a git storage) touches its files: never through a
/// symbolic link, never more than `maximumFileBytes` into memory.
///
/// A storage can be checkout content (`.slipway/signing` by default) or a clone of someone
/// else's repository, and git stores symbolic links. Followed, a link named like a storage file
/// would let a write create files, or a delete remove them, outside the storage, and a link to
/// `/dev/zero` would be read forever. The root and every component below it are checked with
/// `lstat` (`StateFiles.checkPath`), and files are opened with `O_NOFOLLOW`. Unlike Slipway's own
/// state, a storage's files may belong to another user (a checkout made by another uid).
enum StorageFileAccess {
    /// Certificates, keys and profiles are a few KB; a storage file this large is not one.
    static let maximumFileBytes = 16 << 20

    /// Throws `SigningStorageError.unsafeLink` when the root, or any existing component of
    /// `relative` below it, is a symbolic link. Components that do not exist yet end the check.
    static func checkNoLinks(root: String, relative: String) throws {
        var info = stat()
        if lstat(root, &info) == 0, (info.st_mode & S_IFMT) == S_IFLNK {
            throw SigningStorageError.unsafeLink(storage: root, path: ".")
        }
        do {
            try StateFiles.checkPath(relative.isEmpty ? root : root + "/" + relative, below: root)
        } catch StateFileError.symbolicLink(let path) {
            throw SigningStorageError.unsafeLink(storage: root, path: String(path.dropFirst(root.count + 1)))
        } catch {
            throw SigningStorageError.invalidPath(path: relative)
        }
    }

    /// The bytes of the regular file at `root/relative`, nil when it does not exist: the same
    /// read as Slipway's own state files (`StateFiles.read`), without the owner check.
    /// - Throws: `SigningStorageError.unsafeLink`, `.unreachable` (not a regular file, too large,
    ///   unreadable).
    static func read(root: String, relative: String) throws -> [UInt8]? {
        try checkNoLinks(root: root, relative: relative)
        let path = root + "/" + relative
        do {
            return try StateFiles.read(path, limit: maximumFileBytes, requireOwner: false)
        } catch let error as StateFileError {
            switch error {
            case .symbolicLink:
                throw SigningStorageError.unsafeLink(storage: root, path: relative)
            case .notAFile:
                throw SigningStorageError.unreachable(storage: root, detail: "'\(relative)' is not a regular file")
            case let .tooLarge(_, size, limit) where size > limit:
                throw SigningStorageError.unreachable(
                    storage: root, detail: "'\(relative)' is \(size) bytes; storage files are at most \(limit)")
            case .tooLarge:
                throw SigningStorageError.unreachable(storage: root, detail: "'\(relative)' changed while it was read")
            case let .unusable(_, reason):
                // A component that is a file, not a folder (ENOTDIR): nothing is at the path.
                if isBelowNonFolder(root: root, relative: relative) { return nil }
                throw SigningStorageError.unreachable(storage: root, detail: "'\(relative)' cannot be read: \(reason)")
            case .foreignOwner, .outside:
                throw SigningStorageError.unreachable(storage: root, detail: error.reason)
            }
        }
    }

    /// True when a folder on the way from `root` to `relative` is something other than a folder.
    private static func isBelowNonFolder(root: String, relative: String) -> Bool {
        var current = root
        for component in relative.split(separator: "/").dropLast() {
            current += "/" + component
            var info = stat()
            guard lstat(current, &info) == 0 else { return false }
            if (info.st_mode & S_IFMT) != S_IFDIR { return true }
        }
        return false
    }
}
