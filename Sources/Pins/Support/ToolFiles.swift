import Basics
import Crypto
import Foundation

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// What identifies one version of a file without reading it: if none of these changed, the
/// contents did not either (the verify cache relies on it). `ctime` is included because no
/// user-level call can set it back, unlike `mtime`.
public struct FileIdentity: Sendable, Hashable, Codable {
    /// Size in bytes.
    public var size: Int64
    /// Modification time, nanoseconds since 1970.
    public var mtime: Int64
    /// Status-change time, nanoseconds since 1970.
    public var ctime: Int64
    /// Inode number.
    public var inode: UInt64
    /// Device number (an inode is unique per device only).
    public var device: UInt64

    /// Creates an identity.
    public init(size: Int64, mtime: Int64, ctime: Int64, inode: UInt64, device: UInt64) {
        self.size = size
        self.mtime = mtime
        self.ctime = ctime
        self.inode = inode
        self.device = device
    }
}

/// The file operations Pins needs beyond `FileSystem`: file identities, streaming SHA-256,
/// copying and the executable bit. Behind a protocol like every side effect.
public protocol ToolFiles: Sendable {
    /// The identity of the file at `path` (following symbolic links); nil when absent.
    func identity(of path: String) -> FileIdentity?
    /// The lowercase hexadecimal SHA-256 of the file's contents, read in 1 MiB chunks.
    /// - Throws: `FileSystemError` when the file cannot be read.
    func sha256(ofFile path: String) throws -> String
    /// Copies a file or folder (links are copied as links).
    func copy(_ source: String, to destination: String) throws
    /// Adds the executable bits (`chmod +x`) to a file.
    func makeExecutable(_ path: String) throws
}

extension ToolFiles {
    /// The SHA-256 of each file (nil where it cannot be read), hashed in parallel: one file per
    /// thread at a time, as many threads as cores, in the order given (put the biggest first).
    /// The threads are their own, so that tasks waiting meanwhile (version probes) run at once.
    public func sha256(ofFiles paths: [String]) async -> [String?] {
        await BlockingWork.map(paths) { path in try? self.sha256(ofFile: path) }
    }
}

/// The real implementation, with POSIX calls (copies through a `FileSystem`).
public struct LocalToolFiles: ToolFiles {
    /// The chunk size for hashing: big enough that system calls cost nothing, small enough to
    /// stay in the CPU's cache.
    public static let chunkSize = 1 << 20

    let fileSystem: any FileSystem

    /// Creates the implementation; `fileSystem` makes the copies (the caller's: the CLI's goes
    /// through the door for paths inside the project, a default would not).
    public init(fileSystem: any FileSystem) {
        self.fileSystem = fileSystem
    }

    public func identity(of path: String) -> FileIdentity? {
        var info = stat()
        guard stat(path, &info) == 0 else { return nil }
        #if canImport(Darwin)
        let mtime = Int64(info.st_mtimespec.tv_sec) * 1_000_000_000 + Int64(info.st_mtimespec.tv_nsec)
        let ctime = Int64(info.st_ctimespec.tv_sec) * 1_000_000_000 + Int64(info.st_ctimespec.tv_nsec)
        #else
        let mtime = Int64(info.st_mtim.tv_sec) * 1_000_000_000 + Int64(info.st_mtim.tv_nsec)
        let ctime = Int64(info.st_ctim.tv_sec) * 1_000_000_000 + Int64(info.st_ctim.tv_nsec)
        #endif
        return FileIdentity(size: Int64(info.st_size), mtime: mtime, ctime: ctime,
                            inode: UInt64(info.st_ino), device: UInt64(info.st_dev))
    }

    public func sha256(ofFile path: String) throws -> String {
        // door: hashes executables in the tools cache (Slipway installed them) or on PATH, streamed; never a project file.
        let fd = open(path, O_RDONLY | O_CLOEXEC)
        guard fd >= 0 else { throw FileSystemError.from(errno: errno, path: path, operation: "read") }
        defer { close(fd) }
        var hasher = SHA256()
        let buffer = UnsafeMutableRawBufferPointer.allocate(byteCount: Self.chunkSize, alignment: 64)
        defer { buffer.deallocate() }
        while true {
            let count: Int
            do {
                count = try FileDescriptorIO.read(fd, into: buffer)
            } catch let failure as FileDescriptorIO.Failure {
                throw FileSystemError.from(errno: failure.code, path: path, operation: "read")
            }
            if count == 0 { break }
            hasher.update(bufferPointer: UnsafeRawBufferPointer(rebasing: buffer[0..<count]))
        }
        return hasher.finalize().hexString
    }

    public func copy(_ source: String, to destination: String) throws {
        try fileSystem.copyItem(source, to: destination)
    }

    public func makeExecutable(_ path: String) throws {
        var info = stat()
        guard stat(path, &info) == 0 else { throw FileSystemError.from(errno: errno, path: path, operation: "change the mode of") }
        let mode = (info.st_mode & 0o7777) | 0o111
        guard chmod(path, mode) == 0 else { throw FileSystemError.from(errno: errno, path: path, operation: "change the mode of") }
    }
}

/// SHA-256 of bytes in memory, for small things (manifests, lockfiles).
enum Digest256 {
    static func hex(_ bytes: [UInt8]) -> String { SHA256.hash(data: bytes).hexString }
}
