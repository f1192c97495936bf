#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// Where a project's files are, from a path to the `.xcodeproj` folder or to the
/// `project.pbxproj` inside it.
public struct ProjectFile: Hashable, Sendable {
    /// The `project.pbxproj` file.
    public let pbxprojPath: String
    /// The project's name: the `.xcodeproj` folder's name without the extension (for a lone
    /// `.pbxproj` file, its own name without the extension).
    public let projectName: String
    /// The folder holding the `.xcodeproj` (what `SOURCE_ROOT` paths are relative to).
    public let projectDirectory: String

    /// Locates the project from `path` (a `.xcodeproj` folder or a pbxproj file; relative paths
    /// are taken from the current directory, so `project.pbxproj` inside `App.xcodeproj` works).
    public init(path: String) {
        var trimmed = path
        while trimmed.count > 1 && trimmed.hasSuffix("/") { trimmed.removeLast() }
        let absolute = ProjectFile.absolute(trimmed)
        if FileIO.isDirectory(trimmed) || trimmed.hasSuffix(".xcodeproj") {
            pbxprojPath = trimmed + "/project.pbxproj"
            projectName = ProjectFile.stem(of: ProjectFile.lastComponent(absolute))
            projectDirectory = ProjectFile.parent(of: absolute)
            return
        }
        pbxprojPath = trimmed
        let folder = ProjectFile.parent(of: absolute)
        if folder.hasSuffix(".xcodeproj") {
            projectName = ProjectFile.stem(of: ProjectFile.lastComponent(folder))
            projectDirectory = ProjectFile.parent(of: folder)
        } else {
            projectName = ProjectFile.stem(of: ProjectFile.lastComponent(absolute))
            projectDirectory = folder
        }
    }

    /// `path` made absolute and lexically normalized.
    private static func absolute(_ path: String) -> String {
        if path.hasPrefix("/") { return ProjectPath.normalize(path) }
        var buffer = [CChar](repeating: 0, count: 4096)
        guard getcwd(&buffer, buffer.count) != nil else { return path }
        let directory = String(decoding: buffer.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
        return ProjectPath.normalize(directory + "/" + path)
    }

    private static func lastComponent(_ path: String) -> String {
        String(path.split(separator: "/").last ?? Substring(path))
    }

    private static func parent(of path: String) -> String {
        guard let slash = path.lastIndex(of: "/") else { return "." }
        return slash == path.startIndex ? "/" : String(path[..<slash])
    }

    private static func stem(of name: String) -> String {
        guard let dot = name.lastIndex(of: "."), dot != name.startIndex else { return name }
        return String(name[..<dot])
    }
}

extension PBXProject {
    /// Reads the project at `path` (the `.xcodeproj` folder or its `project.pbxproj`); the
    /// project's name comes from the folder's name.
    /// - Throws: `PBXProjError.unreadable`, or what `init(bytes:projectName:)` throws.
    public init(contentsOf path: String) throws {
        let file = ProjectFile(path: path)
        try self.init(bytes: try FileIO.read(file.pbxprojPath), projectName: file.projectName)
    }

    /// Writes `serialized()` to `path` atomically (a temporary file renamed over the old one),
    /// keeping the old file's permissions.
    /// - Throws: `PBXProjError.unwritable`, or what `serialized()` throws.
    public func write(to path: String) throws {
        try FileIO.writeAtomically(try serialized(), to: path)
    }
}

/// The few file operations the module needs, in POSIX terms so that large files are read
/// straight into one buffer.
enum FileIO {
    static func isDirectory(_ path: String) -> Bool {
        var info = stat()
        return stat(path, &info) == 0 && (info.st_mode & S_IFMT) == S_IFDIR
    }

    /// The most read of a project file: 64 MiB (the largest real one seen is under 10 MiB), as
    /// Basics' `FileBudget.projectFile`.
    static let maximumSize = 64 << 20

    static func read(_ path: String) throws -> [UInt8] {
        // Non-blocking, so that a FIFO in a hostile checkout cannot hang the open; only a
        // regular file is read, at most `maximumSize` bytes (`/dev/zero` never ends).
        let descriptor = open(path, O_RDONLY | O_NONBLOCK)
        guard descriptor >= 0 else { throw PBXProjError.unreadable(path: path, reason: errorText()) }
        defer { close(descriptor) }
        var info = stat()
        guard fstat(descriptor, &info) == 0 else { throw PBXProjError.unreadable(path: path, reason: errorText()) }
        guard (info.st_mode & S_IFMT) != S_IFDIR else {
            throw PBXProjError.unreadable(path: path, reason: "it is a folder, not a project.pbxproj file")
        }
        guard (info.st_mode & S_IFMT) == S_IFREG else {
            throw PBXProjError.unreadable(path: path, reason: "it is not a regular file (a device, a FIFO or a socket); replace it with the project's own project.pbxproj")
        }
        let tooLarge = "it is larger than \(maximumSize) bytes, the most Slipway reads of a project file"
        guard info.st_size <= maximumSize else { throw PBXProjError.unreadable(path: path, reason: tooLarge) }
        let size = max(Int(info.st_size), 0)
        var failure: Int32 = 0
        var result = [UInt8](unsafeUninitializedCapacity: size) { buffer, count in
            count = 0
            guard let base = buffer.baseAddress else { return }
            while count < size {
                let got = Glue.read(descriptor, base + count, size - count)
                if got < 0 && errno == EINTR { continue }
                if got < 0 { failure = errno }
                if got <= 0 { return }
                count += got
            }
        }
        guard failure == 0 else { throw PBXProjError.unreadable(path: path, reason: String(cString: strerror(failure))) }
        // The size can be stale (a file that grows, a pipe): read whatever else there is (asked
        // first for one byte, so that a file read whole costs no buffer).
        var first: UInt8 = 0
        while true {
            let got = Glue.read(descriptor, &first, 1)
            if got < 0 && errno == EINTR { continue }
            guard got >= 0 else { throw PBXProjError.unreadable(path: path, reason: errorText()) }
            if got == 0 { return result }
            guard result.count + 1 <= maximumSize else { throw PBXProjError.unreadable(path: path, reason: tooLarge) }
            result.append(first)
            break
        }
        var chunk = [UInt8](repeating: 0, count: 65536)
        while true {
            let got = chunk.withUnsafeMutableBytes { Glue.read(descriptor, $0.baseAddress, $0.count) }
            if got < 0 && errno == EINTR { continue }
            guard got >= 0 else { throw PBXProjError.unreadable(path: path, reason: errorText()) }
            if got == 0 { return result }
            guard result.count + got <= maximumSize else { throw PBXProjError.unreadable(path: path, reason: tooLarge) }
            result.append(contentsOf: chunk[0..<got])
        }
    }

    /// Writes through a temporary file renamed over `path`. `durable`: the data is flushed to
    /// the disk before the rename (a project file the user keeps); git's merge driver passes
    /// false for the temporary file git reads back at once (git does not flush what it writes
    /// to the work tree either).
    static func writeAtomically(_ bytes: [UInt8], to path: String, durable: Bool = true) throws {
        let temporary = path + ".slipway-\(getpid())"
        let descriptor = open(temporary, O_WRONLY | O_CREAT | O_TRUNC, 0o644)
        guard descriptor >= 0 else { throw PBXProjError.unwritable(path: path, reason: errorText()) }
        var info = stat()
        if stat(path, &info) == 0 { _ = fchmod(descriptor, info.st_mode & 0o7777) }
        var written = 0
        var failure: String?
        bytes.withUnsafeBytes { raw in
            guard let base = raw.baseAddress else { return }
            while written < raw.count {
                let result = Glue.write(descriptor, base + written, raw.count - written)
                if result < 0 && errno == EINTR { continue }
                guard result > 0 else {
                    failure = errorText()
                    return
                }
                written += result
            }
        }
        if failure == nil && durable && fsync(descriptor) != 0 { failure = errorText() }
        if close(descriptor) != 0 && failure == nil { failure = errorText() }
        if failure == nil && rename(temporary, path) != 0 { failure = errorText() }
        if let failure {
            unlink(temporary)
            throw PBXProjError.unwritable(path: path, reason: failure)
        }
    }

    private static func errorText() -> String {
        String(cString: strerror(errno))
    }
}

/// Unambiguous names for the C calls that clash with Swift methods.
private enum Glue {
    static func read(_ descriptor: Int32, _ buffer: UnsafeMutableRawPointer?, _ count: Int) -> Int {
        #if canImport(Darwin)
        return Darwin.read(descriptor, buffer, count)
        #elseif canImport(Musl)
        return Musl.read(descriptor, buffer, count)
        #else
        return Glibc.read(descriptor, buffer, count)
        #endif
    }

    static func write(_ descriptor: Int32, _ buffer: UnsafeRawPointer?, _ count: Int) -> Int {
        #if canImport(Darwin)
        return Darwin.write(descriptor, buffer, count)
        #elseif canImport(Musl)
        return Musl.write(descriptor, buffer, count)
        #else
        return Glibc.write(descriptor, buffer, count)
        #endif
    }
}
