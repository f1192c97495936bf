import Foundation

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

// The operations `slipway sync` needs to move files as a transaction. Each has a default built on
// the older requirements, so that fakes written before them keep compiling; the defaults are
// correct but not atomic (a check, then the call), which is good enough for a fake.

extension FileSystem {
    /// Default: refuses when something exists at `destination`, then moves.
    public func moveWithoutReplacing(_ source: String, to destination: String) throws {
        guard kind(of: destination) == nil else {
            throw FileSystemError.failed(path: destination, operation: "move '\(source)' onto", reason: "something is already there")
        }
        try move(source, to: destination)
    }

    /// Default: removes the directory when listing it shows no entries.
    public func removeEmptyDirectory(_ path: String) throws {
        guard kind(of: path) == .directory else { throw FileSystemError.notFound(path: path) }
        guard try contents(ofDirectory: path).isEmpty else {
            throw FileSystemError.failed(path: path, operation: "remove the directory", reason: "it is not empty")
        }
        try remove(path)
    }

    /// Default: unknown (nil).
    public func destinationOfSymbolicLink(_ path: String) -> String? { nil }

    /// Default: nothing to flush.
    public func synchronizeDirectory(_ path: String) throws {}

    /// Default: reads the file and writes it back longer (fine for small files and fakes).
    public func append(_ bytes: [UInt8], to path: String, synchronize: Bool) throws {
        let existing = exists(path) ? try read(path) : []
        try writeAtomically(existing + bytes, to: path)
    }
}

extension LocalFileSystem {
    /// `renameat2(RENAME_NOREPLACE)` on Linux, `renamex_np(RENAME_EXCL)` on macOS: the check and
    /// the rename are one step, so nothing can appear at `destination` in between. Falls back to
    /// a check and `rename` on file systems that support neither.
    public func moveWithoutReplacing(_ source: String, to destination: String) throws {
        if let result = NoReplaceRename.rename(source, destination) {
            guard result != 0 else { return }
            let code = errno
            if code != EINVAL && code != ENOSYS && code != ENOTSUP {
                if code == EEXIST {
                    throw FileSystemError.failed(path: destination, operation: "move '\(source)' onto", reason: "something is already there")
                }
                throw FileSystemError.from(errno: code, path: source, operation: "move")
            }
        }
        guard kind(of: destination) == nil else {
            throw FileSystemError.failed(path: destination, operation: "move '\(source)' onto", reason: "something is already there")
        }
        try move(source, to: destination)
    }

    /// `rmdir`: the kernel refuses a directory that has entries.
    public func removeEmptyDirectory(_ path: String) throws {
        guard rmdir(path) == 0 else {
            let code = errno
            if code == ENOTEMPTY || code == EEXIST {
                throw FileSystemError.failed(path: path, operation: "remove the directory", reason: "it is not empty")
            }
            throw FileSystemError.from(errno: code, path: path, operation: "remove the directory")
        }
    }

    /// `readlink`.
    public func destinationOfSymbolicLink(_ path: String) -> String? {
        var buffer = [CChar](repeating: 0, count: Int(PATH_MAX) + 1)
        let count = readlink(path, &buffer, buffer.count - 1)
        guard count >= 0 else { return nil }
        return String(decoding: buffer[0..<count].map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }

    /// `fsync` on the directory's descriptor.
    public func synchronizeDirectory(_ path: String) throws {
        let descriptor = open(path, O_RDONLY | O_CLOEXEC)
        guard descriptor >= 0 else { throw FileSystemError.from(errno: errno, path: path, operation: "open the directory") }
        defer { close(descriptor) }
        guard fsync(descriptor) == 0 else {
            let code = errno
            // Some file systems cannot flush a directory; their entries are as durable as they get.
            if code == EINVAL || code == EBADF { return }
            throw FileSystemError.from(errno: code, path: path, operation: "flush the directory")
        }
    }

    /// `open(O_APPEND)`, `write`, and `fsync` when asked.
    public func append(_ bytes: [UInt8], to path: String, synchronize: Bool) throws {
        let descriptor = open(path, O_WRONLY | O_APPEND | O_CREAT | O_NOFOLLOW | O_CLOEXEC, 0o644)
        guard descriptor >= 0 else { throw FileSystemError.from(errno: errno, path: path, operation: "write") }
        defer { close(descriptor) }
        do {
            try FileDescriptorIO.writeAll(descriptor, bytes)
        } catch let failure as FileDescriptorIO.Failure {
            throw FileSystemError.from(errno: failure.code, path: path, operation: "write")
        }
        if synchronize && fsync(descriptor) != 0 {
            throw FileSystemError.from(errno: errno, path: path, operation: "write")
        }
    }
}

/// A rename that never replaces its destination, looked up once.
private enum NoReplaceRename {
    #if canImport(Darwin)
    static func rename(_ source: String, _ destination: String) -> Int32? {
        renamex_np(source, destination, UInt32(RENAME_EXCL))
    }
    #else
    private typealias Renameat2 = @convention(c) (Int32, UnsafePointer<CChar>, Int32, UnsafePointer<CChar>, UInt32) -> Int32

    /// glibc's `renameat2`, which Swift's Glibc module does not export (nil before glibc 2.28).
    private static let renameat2: Renameat2? = {
        guard let handle = dlopen(nil, RTLD_NOW), let symbol = dlsym(handle, "renameat2") else { return nil }
        return unsafeBitCast(symbol, to: Renameat2.self)
    }()

    /// `RENAME_NOREPLACE` from `<linux/fs.h>`.
    private static let noReplace: UInt32 = 1

    static func rename(_ source: String, _ destination: String) -> Int32? {
        guard let renameat2 else { return nil }
        return renameat2(AT_FDCWD, source, AT_FDCWD, destination, noReplace)
    }
    #endif
}
