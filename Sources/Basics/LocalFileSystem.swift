import Foundation

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// The real file system, through POSIX calls (fast, and errors keep their `errno`).
public struct LocalFileSystem: FileSystem {
    /// Creates the file system.
    public init() {}

    public func read(_ path: String) throws -> [UInt8] {
        try read(path, limit: Int.max - 1)
    }

    public func read(_ path: String, limit: Int) throws -> [UInt8] {
        // O_NONBLOCK: opening a FIFO must not wait for a writer; it is refused below anyway.
        let fd = open(path, O_RDONLY | O_CLOEXEC | O_NONBLOCK)
        guard fd >= 0 else { throw FileSystemError.from(errno: errno, path: path, operation: "read") }
        defer { close(fd) }
        var info = stat()
        guard fstat(fd, &info) == 0 else {
            throw FileSystemError.from(errno: errno, path: path, operation: "read")
        }
        switch info.st_mode & S_IFMT {
        case S_IFREG: break
        case S_IFDIR: throw FileSystemError.failed(path: path, operation: "read", reason: "it is a directory")
        default:
            // A device (/dev/zero, /dev/urandom) never ends, a FIFO blocks: neither is a file.
            throw FileSystemError.failed(path: path, operation: "read",
                                         reason: "it is not a regular file (a device, a FIFO or a socket)")
        }
        let size = Int(info.st_size)
        guard size <= limit else { throw FileSystemError.tooLarge(path: path, limit: limit) }
        var result = [UInt8]()
        result.reserveCapacity(size)
        var buffer = [UInt8](repeating: 0, count: min(max(65_536, size + 1), 16 << 20))
        while true {
            let count: Int
            do {
                count = try buffer.withUnsafeMutableBytes { try FileDescriptorIO.read(fd, into: $0) }
            } catch let failure as FileDescriptorIO.Failure {
                throw FileSystemError.from(errno: failure.code, path: path, operation: "read")
            }
            if count == 0 { break }
            // Grown since fstat past the cap: stop before holding more than limit + 1 bytes.
            guard result.count + count <= limit else { throw FileSystemError.tooLarge(path: path, limit: limit) }
            result.append(contentsOf: buffer[0..<count])
        }
        return result
    }

    public func writeAtomically(_ bytes: [UInt8], to path: String, permissions: Int?) throws {
        let directory = (path as NSString).deletingLastPathComponent
        let base = (path as NSString).lastPathComponent
        var template = Array("\(directory.isEmpty ? "." : directory)/.\(base).slipway-XXXXXX".utf8CString)
        let fd = mkstemp(&template)
        guard fd >= 0 else { throw FileSystemError.from(errno: errno, path: path, operation: "write") }
        let temporary = String(cString: template)
        var ok = false
        defer {
            if !ok { unlink(temporary) }
        }
        do {
            // Given permissions are set before the bytes are written: the file is never more
            // open than asked, even while incomplete.
            if let permissions, fchmod(fd, mode_t(permissions)) != 0 {
                throw FileSystemError.from(errno: errno, path: path, operation: "write")
            }
            try writeAll(fd: fd, bytes: bytes, path: path)
            if permissions == nil {
                // Keep the permissions of the file being replaced (a script stays executable).
                var existing = stat()
                let mode: mode_t = stat(path, &existing) == 0 ? existing.st_mode & 0o7777 : 0o644
                fchmod(fd, mode)
            }
            guard fsync(fd) == 0 else { throw FileSystemError.from(errno: errno, path: path, operation: "write") }
            close(fd)
        } catch {
            close(fd)
            throw error
        }
        guard rename(temporary, path) == 0 else {
            throw FileSystemError.from(errno: errno, path: path, operation: "write")
        }
        ok = true
    }

    private func writeAll(fd: Int32, bytes: [UInt8], path: String) throws {
        do {
            try FileDescriptorIO.writeAll(fd, bytes)
        } catch let failure as FileDescriptorIO.Failure {
            throw FileSystemError.from(errno: failure.code, path: path, operation: "write")
        }
    }

    public func createDirectory(_ path: String, permissions: Int?) throws {
        do {
            try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true,
                                                    attributes: permissions.map { [.posixPermissions: $0] })
        } catch {
            throw FileSystemError.failed(path: path, operation: "create the directory",
                                         reason: (error as NSError).localizedDescription)
        }
    }

    public func copyItem(_ source: String, to destination: String) throws {
        do {
            try FileManager.default.copyItem(atPath: source, toPath: destination)
        } catch {
            throw FileSystemError.failed(path: source, operation: "copy", reason: (error as NSError).localizedDescription)
        }
    }

    public var currentDirectoryPath: String { FileManager.default.currentDirectoryPath }

    public func contents(ofDirectory path: String) throws -> [String] {
        guard let dir = opendir(path) else {
            throw FileSystemError.from(errno: errno, path: path, operation: "list")
        }
        defer { closedir(dir) }
        var names: [String] = []
        while let entry = readdir(dir) {
            let name = withUnsafePointer(to: entry.pointee.d_name) {
                $0.withMemoryRebound(to: CChar.self, capacity: 256) { String(cString: $0) }
            }
            if name != "." && name != ".." { names.append(name) }
        }
        return names.sorted()
    }

    public func kinds(ofDirectory path: String) throws -> [(name: String, kind: FileKind?)] {
        guard let dir = opendir(path) else {
            throw FileSystemError.from(errno: errno, path: path, operation: "list")
        }
        defer { closedir(dir) }
        var result: [(name: String, kind: FileKind?)] = []
        while let entry = readdir(dir) {
            let name = withUnsafePointer(to: entry.pointee.d_name) {
                $0.withMemoryRebound(to: CChar.self, capacity: 256) { String(cString: $0) }
            }
            guard name != "." && name != ".." else { continue }
            // d_type values are the same on Linux and Darwin: 8 file, 4 directory, 10 link,
            // 0 unknown (some file systems never say: ask lstat then).
            switch entry.pointee.d_type {
            case 8: result.append((name, .file))
            case 4: result.append((name, .directory))
            case 10: result.append((name, .symbolicLink))
            case 0: result.append((name, kind(of: path + "/" + name)))
            default: result.append((name, .other))
            }
        }
        return result.sorted { $0.name < $1.name }
    }

    public func move(_ source: String, to destination: String) throws {
        guard rename(source, destination) == 0 else {
            throw FileSystemError.from(errno: errno, path: source, operation: "move")
        }
    }

    public func remove(_ path: String) throws {
        guard kind(of: path) != nil else { return }
        do {
            try FileManager.default.removeItem(atPath: path)
        } catch {
            throw FileSystemError.failed(path: path, operation: "remove",
                                         reason: (error as NSError).localizedDescription)
        }
    }

    public func kind(of path: String) -> FileKind? {
        var info = stat()
        guard lstat(path, &info) == 0 else { return nil }
        return Self.kind(info.st_mode)
    }

    public func status(of path: String) -> FileStatus? {
        var info = stat()
        guard lstat(path, &info) == 0 else { return nil }
        #if canImport(Darwin)
        let modified = info.st_mtimespec, changed = info.st_ctimespec
        #else
        let modified = info.st_mtim, changed = info.st_ctim
        #endif
        return FileStatus(kind: Self.kind(info.st_mode), details: FileStatus.Details(
            size: Int64(info.st_size), inode: UInt64(info.st_ino), mode: UInt32(info.st_mode),
            modifiedSeconds: Int64(modified.tv_sec), modifiedNanoseconds: Int64(modified.tv_nsec),
            changedSeconds: Int64(changed.tv_sec), changedNanoseconds: Int64(changed.tv_nsec)))
    }

    private static func kind(_ mode: mode_t) -> FileKind {
        switch mode & S_IFMT {
        case S_IFREG: return .file
        case S_IFDIR: return .directory
        case S_IFLNK: return .symbolicLink
        default: return .other
        }
    }

    public func isExecutable(_ path: String) -> Bool {
        var info = stat()
        guard stat(path, &info) == 0, (info.st_mode & S_IFMT) == S_IFREG else { return false }
        return access(path, X_OK) == 0
    }
}

extension LocalFileSystem {
    /// Everything below `folder` that is not a directory (files, symbolic links, others), as
    /// paths relative to it, in no particular order; a directory whose name is in `unentered`
    /// is listed as an item itself and not entered. One `readdir` pass per directory, using the
    /// entry type it reports (`lstat` only where the file system does not say). Nil when a
    /// directory in it cannot be read.
    public static func itemsBelow(_ folder: String, unentered: Set<String> = []) -> [String]? {
        var items: [String] = []
        var pending: [String] = [""]
        while let relative = pending.popLast() {
            let absolute = relative.isEmpty ? folder : folder + "/" + relative
            guard let dir = opendir(absolute) else { return nil }
            defer { closedir(dir) }
            while let entry = readdir(dir) {
                let name = withUnsafePointer(to: entry.pointee.d_name) {
                    $0.withMemoryRebound(to: CChar.self, capacity: 256) { String(cString: $0) }
                }
                if name == "." || name == ".." { continue }
                let path = relative.isEmpty ? name : relative + "/" + name
                var isDirectory = Int32(entry.pointee.d_type) == Int32(DT_DIR)
                if Int32(entry.pointee.d_type) == Int32(DT_UNKNOWN) {
                    var info = stat()
                    isDirectory = lstat(absolute + "/" + name, &info) == 0 && (info.st_mode & S_IFMT) == S_IFDIR
                }
                if isDirectory && !unentered.contains(name) {
                    pending.append(path)
                } else {
                    items.append(path)
                }
            }
        }
        return items
    }
}
