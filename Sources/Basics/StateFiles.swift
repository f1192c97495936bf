import Foundation

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Safe access to the files Slipway keeps for itself (locks, journals, hand-over records, keys).
///
/// The checkout Slipway works in may be written by an attacker (a pull request in CI), so a
/// state file or any folder on the way to it may be a committed symbolic link pointing at a
/// victim file, or a file someone else owns. Every helper here refuses those: the folders from
/// a trusted base down to the file are checked with `lstat` (no symbolic link), and files are
/// opened with `O_NOFOLLOW` (new ones created with `O_EXCL`) and must be regular files owned by
/// this user. Folders may belong to someone else: a CI job running as root in a checkout made by
/// another user is normal, and a folder cannot redirect a write the way a link can.
public enum StateFiles {
    /// The largest state file Slipway reads (64 MiB): journals and records are far smaller, a
    /// bigger one is not Slipway's.
    public static let readLimit = 64 << 20

    /// Checks every component of `path` below `base` (`base` itself is trusted: the project
    /// folder, the `.git` folder, the user's state folder): none may be a symbolic link, `.` or
    /// `..`. Missing components are fine (they will be created by Slipway).
    /// - Throws: `StateFileError.symbolicLink`, `.outside`.
    public static func checkPath(_ path: String, below base: String) throws {
        let base = trimmingSlash(base), path = trimmingSlash(path)
        guard path == base || path.hasPrefix(base + "/") else { throw StateFileError.outside(path: path, base: base) }
        var current = base
        for component in path.dropFirst(base.count).split(separator: "/") {
            guard component != "..", component != "." else { throw StateFileError.outside(path: path, base: base) }
            current += "/" + component
            var info = stat()
            guard lstat(current, &info) == 0 else { return }
            if (info.st_mode & S_IFMT) == S_IFLNK { throw StateFileError.symbolicLink(path: current) }
        }
    }

    /// Creates the folder `path` (and missing folders between `base` and it, mode 0700 when
    /// `private`), after `checkPath(path, below: base)`; returns the folders it created,
    /// outermost first.
    /// - Throws: what `checkPath` throws; `StateFileError.unusable` when a folder cannot be made.
    @discardableResult
    public static func createFolder(_ path: String, below base: String, private isPrivate: Bool = false) throws -> [String] {
        try checkPath(path, below: base)
        let base = trimmingSlash(base)
        var created: [String] = []
        var current = base
        for component in trimmingSlash(path).dropFirst(base.count).split(separator: "/") {
            current += "/" + component
            if mkdir(current, isPrivate ? 0o700 : 0o755) == 0 {
                created.append(current)
                continue
            }
            let code = errno
            guard code == EEXIST else { throw StateFileError.unusable(path: current, reason: String(cString: strerror(code))) }
            var info = stat()
            guard lstat(current, &info) == 0, (info.st_mode & S_IFMT) == S_IFDIR else {
                if (info.st_mode & S_IFMT) == S_IFLNK { throw StateFileError.symbolicLink(path: current) }
                throw StateFileError.unusable(path: current, reason: "it is not a folder")
            }
        }
        // A component swapped for a link between the check and mkdir is caught here.
        try checkPath(path, below: base)
        return created
    }

    /// Opens the state file at `path` without following a symbolic link, creating it
    /// (`O_EXCL`, mode `mode`) when missing. An existing file must be a regular file owned by
    /// this user. Returns the descriptor (the caller closes it).
    /// - Throws: `StateFileError.symbolicLink`, `.foreignOwner`, `.notAFile`, `.unusable`.
    public static func openOrCreate(_ path: String, flags: Int32 = O_RDWR, mode: mode_t = 0o644) throws -> Int32 {
        for _ in 0..<10 {
            let created = open(path, flags | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, mode)
            if created >= 0 { return created }
            guard errno == EEXIST else { throw error(errno, path: path) }
            let existing = open(path, flags | O_NOFOLLOW | O_CLOEXEC | O_NONBLOCK)
            if existing < 0 {
                if errno == ENOENT { continue } // removed in between: create it again
                throw error(errno, path: path)
            }
            do {
                try checkOpened(existing, path: path)
            } catch {
                close(existing)
                throw error
            }
            return existing
        }
        throw StateFileError.unusable(path: path, reason: "it kept being replaced by other processes")
    }

    /// Reads the state file at `path` without following a symbolic link: a regular file owned
    /// by this user (any user's when `requireOwner` is false: a checkout's files, such as a
    /// signing storage's, may belong to another uid), at most `limit` bytes. Nil when nothing
    /// is at `path`.
    /// - Throws: `StateFileError.symbolicLink`, `.foreignOwner`, `.notAFile`, `.tooLarge` (with
    ///   the size found), `.unusable`.
    public static func read(_ path: String, limit: Int = readLimit, requireOwner: Bool = true) throws -> [UInt8]? {
        let fd = open(path, O_RDONLY | O_NOFOLLOW | O_CLOEXEC | O_NONBLOCK)
        if fd < 0 {
            if errno == ENOENT { return nil }
            throw error(errno, path: path)
        }
        defer { close(fd) }
        let size = try checkOpened(fd, path: path, requireOwner: requireOwner)
        guard size <= limit else { throw StateFileError.tooLarge(path: path, size: size, limit: limit) }
        var bytes = [UInt8](repeating: 0, count: size + 1)
        var count = 0
        while count < bytes.count {
            let got: Int
            do {
                got = try bytes.withUnsafeMutableBytes { try FileDescriptorIO.read(fd, into: UnsafeMutableRawBufferPointer(rebasing: $0[count...])) }
            } catch let failure as FileDescriptorIO.Failure {
                throw error(failure.code, path: path)
            }
            if got == 0 { break }
            count += got
        }
        // Grown since fstat: more than it said, possibly without end (a device, a FIFO swapped in).
        guard count <= size else { throw StateFileError.tooLarge(path: path, size: count, limit: limit) }
        return Array(bytes[0..<count])
    }

    /// Checks an open state file: regular, owned by this user (unless `requireOwner` is false).
    /// Returns its size.
    @discardableResult
    static func checkOpened(_ fd: Int32, path: String, requireOwner: Bool = true) throws -> Int {
        var info = stat()
        guard fstat(fd, &info) == 0 else { throw error(errno, path: path) }
        guard (info.st_mode & S_IFMT) == S_IFREG else { throw StateFileError.notAFile(path: path) }
        guard !requireOwner || info.st_uid == geteuid() else { throw StateFileError.foreignOwner(path: path, owner: info.st_uid) }
        return Int(info.st_size)
    }

    static func error(_ code: Int32, path: String) -> StateFileError {
        // O_NOFOLLOW on a link: ELOOP on Linux and macOS (EMLINK on FreeBSD).
        if code == ELOOP || code == EMLINK { return .symbolicLink(path: path) }
        return .unusable(path: path, reason: String(cString: strerror(code)))
    }

    /// The user's state folder for Slipway: `$XDG_STATE_HOME/slipway`, else
    /// `~/.local/state/slipway` (`~/Library/Application Support/Slipway` on macOS).
    ///
    /// An environment that names neither (one built from scratch for a step or a test) falls
    /// back to the process's own variables, then to the home folder the system reports.
    public static func userStateDirectory(environment: Environment) -> String {
        userStateDirectory(environment: environment, macOS: runsOnMacOS)
    }

    /// `userStateDirectory(environment:)` as it is on macOS (`macOS` true) or elsewhere, so that
    /// the Mac's choice is tested on Linux too.
    static func userStateDirectory(environment: Environment, macOS: Bool) -> String {
        for candidate in [environment, Environment.current] {
            if let xdg = candidate["XDG_STATE_HOME"], xdg.hasPrefix("/") { return trimmingSlash(xdg) + "/slipway" }
            if let home = candidate["HOME"], home.hasPrefix("/") { return stateFolder(home: trimmingSlash(home), macOS: macOS) }
        }
        return stateFolder(home: NSHomeDirectory(), macOS: macOS)
    }

    /// True in the macOS build: the one platform question, asked of the compiler.
    static var runsOnMacOS: Bool {
        #if os(macOS)
        return true
        #else
        return false
        #endif
    }

    private static func stateFolder(home: String, macOS: Bool) -> String {
        macOS ? home + "/Library/Application Support/Slipway" : home + "/.local/state/slipway"
    }

    /// The canonical absolute path of `path` (symbolic links and `..` resolved) or, when it does
    /// not exist, of its deepest existing ancestor with the rest appended. Nil for a relative path.
    public static func resolved(_ path: String) -> String? {
        guard path.hasPrefix("/") else { return nil }
        var existing = trimmingSlash(path)
        var rest: [Substring] = []
        while !existing.isEmpty {
            if let real = realpath(existing, nil) {
                defer { free(real) }
                let base = trimmingSlash(String(cString: real))
                return rest.isEmpty ? base : base + "/" + rest.reversed().joined(separator: "/")
            }
            guard let slash = existing.lastIndex(of: "/") else { break }
            rest.append(existing[existing.index(after: slash)...])
            existing = String(existing[..<slash])
        }
        guard let real = realpath("/", nil) else { return nil }
        free(real)
        return "/" + rest.reversed().joined(separator: "/")
    }

    static func trimmingSlash(_ path: String) -> String {
        var path = path
        while path.count > 1 && path.hasSuffix("/") { path.removeLast() }
        return path
    }
}

/// Why a state file (or a folder on the way to it) was refused.
public enum StateFileError: Error, LocalizedError, Sendable, Equatable {
    /// A symbolic link where Slipway keeps its own state (possibly committed to point elsewhere).
    case symbolicLink(path: String)
    /// A state file or folder owned by another user.
    case foreignOwner(path: String, owner: UInt32)
    /// Something other than a regular file.
    case notAFile(path: String)
    /// Larger than any file Slipway writes there: `size` bytes (at least that many, for a file
    /// that grew while read) where at most `limit` are expected.
    case tooLarge(path: String, size: Int, limit: Int)
    /// A path that leaves the folder it must stay in.
    case outside(path: String, base: String)
    /// It cannot be opened, read or created.
    case unusable(path: String, reason: String)

    /// The problem alone, in a few words, for messages that say what to do themselves.
    public var reason: String {
        switch self {
        case .symbolicLink(let path): return "'\(path)' is a symbolic link"
        case .foreignOwner(let path, let owner): return "'\(path)' belongs to another user (uid \(owner))"
        case .notAFile(let path): return "'\(path)' is not a regular file"
        case .tooLarge(let path, _, let limit): return "'\(path)' is larger than \(limit) bytes"
        case .outside(let path, let base): return "'\(path)' is not inside '\(base)'"
        case .unusable(let path, let reason): return "'\(path)' cannot be used: \(reason)"
        }
    }

    public var errorDescription: String? {
        switch self {
        case .symbolicLink(let path):
            return "'\(path)' is a symbolic link where Slipway keeps its own state; it was not followed (it may have been committed to point elsewhere) and nothing was written. Remove the link (and, if it is in git, the commit that adds it), then run again."
        case .foreignOwner(let path, let owner):
            return "'\(path)' belongs to another user (uid \(owner)), so Slipway does not trust it as its own state; nothing was written. Remove it, or run as its owner."
        case .notAFile(let path):
            return "'\(path)' is not a regular file, so it is not Slipway's state file; nothing was written. Remove it and run again."
        case .tooLarge(let path, _, let limit):
            return "'\(path)' is larger than \(limit) bytes, so it was not written by Slipway; it was not read. Remove it and run again."
        case .outside(let path, let base):
            return "'\(path)' is not inside '\(base)', where Slipway keeps this state; nothing was written. Check the path."
        case .unusable(let path, let reason):
            return "'\(path)' cannot be used: \(reason). Check that its folder exists and is writable."
        }
    }
}
