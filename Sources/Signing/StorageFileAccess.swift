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

    /// The bytes of the regular file at `root/relative`, nil when it does not exist.
    /// - Throws: `SigningStorageError.unsafeLink`, `.unreachable` (not a regular file, too large,
    ///   unreadable).
    static func read(root: String, relative: String) throws -> [UInt8]? {
        try checkNoLinks(root: root, relative: relative)
        let path = root + "/" + relative
        let descriptor = open(path, O_RDONLY | O_NOFOLLOW | O_CLOEXEC | O_NONBLOCK)
        guard descriptor >= 0 else {
            if errno == ENOENT || errno == ENOTDIR { return nil }
            if errno == ELOOP { throw SigningStorageError.unsafeLink(storage: root, path: relative) }
            throw SigningStorageError.unreachable(storage: root, detail: "'\(relative)' cannot be read: \(String(cString: strerror(errno)))")
        }
        defer { close(descriptor) }
        var info = stat()
        guard fstat(descriptor, &info) == 0, (info.st_mode & S_IFMT) == S_IFREG else {
            throw SigningStorageError.unreachable(storage: root, detail: "'\(relative)' is not a regular file")
        }
        guard info.st_size <= maximumFileBytes else {
            throw SigningStorageError.unreachable(
                storage: root, detail: "'\(relative)' is \(info.st_size) bytes; storage files are at most \(maximumFileBytes)")
        }
        var bytes = [UInt8](repeating: 0, count: Int(info.st_size))
        var offset = 0
        while offset < bytes.count {
            let count = bytes.withUnsafeMutableBytes { Foundation.read(descriptor, $0.baseAddress! + offset, $0.count - offset) }
            if count < 0 && errno == EINTR { continue }
            guard count > 0 else { break }
            offset += count
        }
        return Array(bytes[0..<offset])
    }
}
