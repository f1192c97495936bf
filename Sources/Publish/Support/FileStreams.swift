import Archives
import Basics
import Foundation

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// What Publish needs from the disk beyond Basics' `FileSystem`: files read and written in
/// chunks, never whole (a release artifact may be hundreds of megabytes). Behind a protocol so
/// that tests can inject faults.
public protocol FileStreams: Sendable {
    /// Opens a file to read it in chunks.
    /// - Throws: `FileSystemError` naming the path.
    func openForReading(_ path: String) throws -> any ReadableFile
    /// Creates a temporary file beside `path` that replaces `path` only on `commit()`; dropped
    /// uncommitted, it is removed, so a failure never leaves a half-written file at `path`.
    /// - Throws: `FileSystemError` naming the path.
    func createAtomically(_ path: String, permissions: UInt16) throws -> any AtomicWritableFile
    /// The size and permissions of what `path` names (links followed).
    /// - Throws: `FileSystemError.notFound` when nothing is there.
    func info(_ path: String) throws -> FileInfo
    /// The target of the symbolic link at `path`.
    /// - Throws: `FileSystemError` naming the path.
    func linkTarget(_ path: String) throws -> String
    /// Creates a new private (0700) folder under the system's temporary folder.
    /// - Throws: `FileSystemError`.
    func makeTemporaryDirectory(prefix: String) throws -> String
}

/// Size and permission bits of a file.
public struct FileInfo: Sendable, Hashable {
    /// Size in bytes.
    public var size: Int64
    /// Permission bits (e.g. 0o755).
    public var permissions: UInt16
    /// True for a directory.
    public var isDirectory: Bool

    /// Creates a value.
    public init(size: Int64, permissions: UInt16, isDirectory: Bool) {
        self.size = size
        self.permissions = permissions
        self.isDirectory = isDirectory
    }

    /// True when anyone may execute it (how archives decide between 0755 and 0644).
    public var isExecutable: Bool { permissions & 0o111 != 0 }
}

/// A file open for reading. Sequential `read(into:)` calls are for one task at a time;
/// `read(at:count:)` may be called from several tasks at once.
public protocol ReadableFile: AnyObject, Sendable {
    /// The path it was opened from.
    var path: String { get }
    /// Its size when it was opened.
    var size: Int64 { get }
    /// Reads the next bytes into `buffer`; returns how many, 0 at the end.
    func read(into buffer: UnsafeMutableRawBufferPointer) throws -> Int
    /// Up to `count` bytes starting at `offset` (fewer only at the end of the file).
    func read(at offset: Int64, count: Int) throws -> [UInt8]
    /// Calls `body` with the whole file mapped into memory (pages are loaded on demand and
    /// belong to the page cache, so even a large file costs little resident memory).
    func withMappedBytes<R>(_ body: (UnsafeRawBufferPointer) throws -> R) throws -> R
}

/// A file being written beside its final path; see `FileStreams.createAtomically`. Appending,
/// the offset and patching bytes in place (zip headers) come from `ArchiveOutput`.
public protocol AtomicWritableFile: ArchiveOutput {
    /// The final path.
    var path: String { get }
    /// Flushes to disk and renames the file into place.
    func commit() throws
}

extension ReadableFile {
    /// Reads the whole file in chunks of `chunkSize`, calling `body` with each.
    public func forEachChunk(size chunkSize: Int = 1 << 20, _ body: (UnsafeRawBufferPointer) throws -> Void) throws {
        let buffer = UnsafeMutableRawBufferPointer.allocate(byteCount: chunkSize, alignment: 16)
        defer { buffer.deallocate() }
        while true {
            let count = try read(into: buffer)
            if count == 0 { return }
            try body(UnsafeRawBufferPointer(rebasing: buffer[0..<count]))
        }
    }
}

/// `FileStreams` over POSIX calls.
public struct LocalFileStreams: FileStreams {
    /// Creates the value.
    public init() {}

    public func openForReading(_ path: String) throws -> any ReadableFile {
        try LocalReadableFile(path: path)
    }

    public func createAtomically(_ path: String, permissions: UInt16) throws -> any AtomicWritableFile {
        try LocalAtomicFile(path: path, permissions: permissions)
    }

    public func info(_ path: String) throws -> FileInfo {
        var status = stat()
        guard stat(path, &status) == 0 else { throw FileSystemError.from(errno: errno, path: path, operation: "read") }
        return FileInfo(size: Int64(status.st_size), permissions: UInt16(status.st_mode & 0o7777),
                        isDirectory: (status.st_mode & S_IFMT) == S_IFDIR)
    }

    public func linkTarget(_ path: String) throws -> String {
        var buffer = [CChar](repeating: 0, count: Int(PATH_MAX) + 1)
        let count = readlink(path, &buffer, buffer.count - 1)
        guard count >= 0 else { throw FileSystemError.from(errno: errno, path: path, operation: "read the link") }
        return String(decoding: buffer[0..<count].map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }

    public func makeTemporaryDirectory(prefix: String) throws -> String {
        let base = NSTemporaryDirectory().hasSuffix("/") ? NSTemporaryDirectory() : NSTemporaryDirectory() + "/"
        var template = Array("\(base)\(prefix)-XXXXXX".utf8CString)
        guard mkdtemp(&template) != nil else {
            throw FileSystemError.from(errno: errno, path: base + prefix, operation: "create the directory")
        }
        return String(decoding: template.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }
}

/// A read-only file descriptor, closed when the value is released.
final class LocalReadableFile: ReadableFile, @unchecked Sendable {
    let path: String
    let size: Int64
    private let descriptor: Int32

    init(path: String) throws {
        let descriptor = open(path, O_RDONLY | O_CLOEXEC)
        guard descriptor >= 0 else { throw FileSystemError.from(errno: errno, path: path, operation: "read") }
        var status = stat()
        guard fstat(descriptor, &status) == 0 else {
            let code = errno
            close(descriptor)
            throw FileSystemError.from(errno: code, path: path, operation: "read")
        }
        if (status.st_mode & S_IFMT) == S_IFDIR {
            close(descriptor)
            throw FileSystemError.failed(path: path, operation: "read", reason: "it is a directory")
        }
        self.path = path
        self.size = Int64(status.st_size)
        self.descriptor = descriptor
    }

    deinit { close(descriptor) }

    func read(into buffer: UnsafeMutableRawBufferPointer) throws -> Int {
        do {
            return try FileDescriptorIO.read(descriptor, into: buffer)
        } catch let failure as FileDescriptorIO.Failure {
            throw FileSystemError.from(errno: failure.code, path: path, operation: "read")
        }
    }

    func read(at offset: Int64, count: Int) throws -> [UInt8] {
        var failure: (any Error)?
        // Uninitialised storage: zero-filling a part buffer first would touch every page twice.
        let result = [UInt8](unsafeUninitializedCapacity: count) { buffer, initialized in
            initialized = 0
            guard let base = buffer.baseAddress else { return }
            while initialized < count {
                let got: Int
                do {
                    got = try FileDescriptorIO.read(descriptor, into: UnsafeMutableRawBufferPointer(start: base + initialized, count: count - initialized),
                                                    at: offset + Int64(initialized))
                } catch {
                    failure = FileSystemError.from(errno: (error as? FileDescriptorIO.Failure)?.code ?? EIO, path: path, operation: "read")
                    return
                }
                if got == 0 { return }
                initialized += got
            }
        }
        if let failure { throw failure }
        return result
    }

    func withMappedBytes<R>(_ body: (UnsafeRawBufferPointer) throws -> R) throws -> R {
        guard size > 0 else { return try body(UnsafeRawBufferPointer(start: nil, count: 0)) }
        let mapped = mmap(nil, Int(size), PROT_READ, MAP_PRIVATE, descriptor, 0)
        guard let mapped, mapped != UnsafeMutableRawPointer(bitPattern: -1) else {
            throw FileSystemError.from(errno: errno, path: path, operation: "map")
        }
        defer { munmap(mapped, Int(size)) }
        return try body(UnsafeRawBufferPointer(start: mapped, count: Int(size)))
    }
}

/// A temporary file beside its final path; renamed into place by `commit()`, removed otherwise.
final class LocalAtomicFile: AtomicWritableFile {
    let path: String
    private(set) var offset: Int64 = 0
    private let temporary: String
    private var descriptor: Int32
    private var committed = false

    init(path: String, permissions: UInt16) throws {
        let directory = (path as NSString).deletingLastPathComponent
        let base = (path as NSString).lastPathComponent
        var template = Array("\(directory.isEmpty ? "." : directory)/.\(base).slipway-XXXXXX".utf8CString)
        let descriptor = mkstemp(&template)
        guard descriptor >= 0 else { throw FileSystemError.from(errno: errno, path: path, operation: "write") }
        fchmod(descriptor, mode_t(permissions))
        self.path = path
        self.temporary = String(decoding: template.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
        self.descriptor = descriptor
    }

    deinit {
        if descriptor >= 0 { close(descriptor) }
        if !committed { unlink(temporary) }
    }

    func write(_ bytes: UnsafeRawBufferPointer) throws {
        try writeAll(bytes, at: nil)
        offset += Int64(bytes.count)
    }

    func overwrite(_ bytes: [UInt8], at position: Int64) throws {
        try bytes.withUnsafeBytes { try writeAll($0, at: position) }
    }

    private func writeAll(_ bytes: UnsafeRawBufferPointer, at position: Int64?) throws {
        do {
            try FileDescriptorIO.writeAll(descriptor, bytes, at: position)
        } catch let failure as FileDescriptorIO.Failure {
            throw FileSystemError.from(errno: failure.code, path: path, operation: "write")
        }
    }

    func commit() throws {
        guard fsync(descriptor) == 0 else { throw FileSystemError.from(errno: errno, path: path, operation: "write") }
        close(descriptor)
        descriptor = -1
        guard rename(temporary, path) == 0 else { throw FileSystemError.from(errno: errno, path: path, operation: "write") }
        committed = true
    }
}
