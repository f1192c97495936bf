import Foundation

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// An exclusive, non-blocking lock between Slipway processes: `flock(LOCK_EX | LOCK_NB)` on a
/// lock file, so that two processes never work on the same project, lane journal or tools cache
/// at once.
///
/// The kernel drops the lock when its holder exits, however it exits (even `kill -9`): there is
/// never a stale lock to clean up, only, at worst, a stale file, which the next holder reuses.
/// The holder writes its pid and command line into the file so that a second process can say
/// who is in its way. Acquiring never waits: a held lock throws `LockError.busy` at once.
///
/// ```swift
/// let lock = try ExclusiveLock.acquire(at: bundle + "/" + ExclusiveLock.fileName, activity: "working on 'App.xcodeproj'")
/// defer { lock.release() }
/// ```
public final class ExclusiveLock: Sendable {
    /// The name every Slipway lock file has, wherever it lives (git steps and sync's clean-tree
    /// check leave files with this name alone).
    public static let fileName = ".slipway-lock"

    /// The lock file.
    public let path: String
    private let descriptor: Locked<Int32>

    private init(path: String, descriptor: Int32) {
        self.path = path
        self.descriptor = Locked(descriptor)
    }

    deinit { release() }

    /// True when `path` names a Slipway lock file (its last component is `fileName`).
    public static func isLockFile(_ path: String) -> Bool {
        path == fileName || path.hasSuffix("/" + fileName)
    }

    /// What this process is, for the holder record: `slipway` and its arguments.
    public static var processCommand: String {
        let arguments = CommandLine.arguments
        let name = arguments.first.map { String($0.split(separator: "/").last ?? Substring($0)) } ?? "slipway"
        let text = ([name] + arguments.dropFirst()).joined(separator: " ")
        return text.count > 200 ? String(text.prefix(200)) + "…" : text
    }

    /// Takes the lock at `path` (the file is created if missing; its folder must exist). The
    /// file is opened without following a symbolic link; an existing one must be a regular file
    /// owned by this user.
    ///
    /// - Parameters:
    ///   - activity: What a holder of this lock does, for the busy message, e.g.
    ///     "working on '/src/App.xcodeproj'" or "running lane 'release'".
    ///   - command: Recorded for other processes: the holder's command line.
    /// - Throws: `LockError.busy` (with the holder's pid and command when it has written them)
    ///   when another open of the file holds the lock; `LockError.unavailable` when the file
    ///   cannot be opened or locked (a read-only folder, a missing folder);
    ///   `StateFileError.symbolicLink`, `.foreignOwner`, `.notAFile` for a file that is not
    ///   Slipway's (nothing was written to it).
    public static func acquire(at path: String, activity: String, command: String = processCommand) throws -> ExclusiveLock {
        // The lock file is removed on release (see `release()`), so a process may open the old
        // file just before it is unlinked and lock it after: it would then hold a lock on a file
        // no one else can find. After locking, the file at `path` must still be the one locked;
        // if not, start over. A few rounds are plenty: each one needs another process to
        // release in between.
        for _ in 0..<100 {
            // Never through a symbolic link (a committed `.slipway-lock -> ~/victim` would be
            // truncated), never a file someone else owns: see `StateFiles.openOrCreate`.
            let fd: Int32
            do {
                fd = try StateFiles.openOrCreate(path)
            } catch StateFileError.unusable(_, let reason) {
                throw LockError.unavailable(path: path, reason: reason)
            }
            if flock(fd, LOCK_EX | LOCK_NB) != 0 {
                let code = errno
                defer { close(fd) }
                guard code == EWOULDBLOCK || code == EAGAIN else {
                    throw LockError.unavailable(path: path, reason: String(cString: strerror(code)))
                }
                throw LockError.busy(path: path, activity: activity, holder: LockHolder(reading: fd))
            }
            guard isCurrentFile(fd, at: path) else {
                close(fd)
                continue
            }
            let record = Array("\(getpid())\n\(command)\n".utf8)
            _ = ftruncate(fd, 0)
            _ = record.withUnsafeBytes { pwrite(fd, $0.baseAddress, $0.count, 0) }
            return ExclusiveLock(path: path, descriptor: fd)
        }
        throw LockError.unavailable(path: path, reason: "the lock file kept being replaced by other processes")
    }

    /// Releases the lock (and removes the lock file). Safe to call more than once; `deinit`
    /// calls it too.
    ///
    /// The file is unlinked while still locked, and only when it still is the file this lock
    /// holds: a process waiting to lock the old file finds, after locking it, that `path` no
    /// longer names it and starts over (see `acquire`), so two processes can never both hold
    /// "the" lock. Leaving the file would also be safe, but it sits in the user's project and
    /// would show up in `git status`.
    public func release() {
        descriptor.withLock { descriptor in
            guard descriptor >= 0 else { return }
            if Self.isCurrentFile(descriptor, at: path) { unlink(path) }
            close(descriptor)
            descriptor = -1
        }
    }

    /// True when `path` names the file open as `fd` (same device and inode).
    private static func isCurrentFile(_ fd: Int32, at path: String) -> Bool {
        var open = stat(), named = stat()
        guard fstat(fd, &open) == 0, lstat(path, &named) == 0 else { return false }
        return open.st_dev == named.st_dev && open.st_ino == named.st_ino
    }
}

extension ExclusiveLock {
    /// Takes the lock of the Xcode project whose `project.pbxproj` is at `pbxprojPath`: every
    /// command and step that writes a pbxproj (sync and its recovery, `xcodeproj format` and
    /// `settings`, `version.bump`) takes this one lock first. Its file sits in the `.xcodeproj`
    /// folder, beside the sync journal.
    ///
    /// Returns nil when the lock file cannot be created there (no such folder, a read-only
    /// one): then no one can write the pbxproj either (it is written as a temporary file in
    /// that folder and renamed), and the caller's own read or write reports the real problem.
    /// - Throws: `LockError.busy`; `StateFileError` when the `.xcodeproj` folder or the lock
    ///   file is a symbolic link or not this user's (nothing is written then).
    public static func acquireProject(pbxproj pbxprojPath: String, command: String = processCommand) throws -> ExclusiveLock? {
        var absolute = pbxprojPath
        if !absolute.hasPrefix("/") { absolute = FileManager.default.currentDirectoryPath + "/" + absolute }
        var components: [Substring] = []
        for component in absolute.split(separator: "/").dropLast() where component != "." {
            if component == ".." { _ = components.popLast() } else { components.append(component) }
        }
        let folder = components.joined(separator: "/")
        // The `.xcodeproj` folder comes from the checkout: a link there would put the lock elsewhere.
        try StateFiles.checkPath("/" + folder + "/" + fileName, below: "/" + components.dropLast().joined(separator: "/"))
        do {
            return try acquire(at: "/" + folder + "/" + fileName, activity: "working on '/\(folder)'", command: command)
        } catch LockError.unavailable {
            return nil
        }
    }
}

/// Who holds a lock, as its lock file says.
public struct LockHolder: Sendable, Equatable {
    /// The holder's process id.
    public var pid: Int32
    /// The holder's command line (e.g. `slipway sync App.xcodeproj`).
    public var command: String

    /// Creates a holder record.
    public init(pid: Int32, command: String) {
        self.pid = pid
        self.command = command
    }

    /// Reads the record from an open lock file; nil when the holder has not written it yet.
    init?(reading fd: Int32) {
        var buffer = [UInt8](repeating: 0, count: 512)
        let count = buffer.withUnsafeMutableBytes { pread(fd, $0.baseAddress, $0.count, 0) }
        guard count > 0 else { return nil }
        let lines = String(decoding: buffer[0..<count], as: UTF8.self).split(separator: "\n", omittingEmptySubsequences: false)
        guard let first = lines.first, let pid = Int32(first), pid > 0 else { return nil }
        self.init(pid: pid, command: lines.count > 1 ? String(lines[1]) : "")
    }
}

/// Why a lock could not be taken.
public enum LockError: Error, LocalizedError, Sendable, Equatable {
    /// Another process holds the lock (nothing was changed).
    case busy(path: String, activity: String, holder: LockHolder?)
    /// The lock file cannot be created, opened or locked.
    case unavailable(path: String, reason: String)

    public var errorDescription: String? {
        switch self {
        case .busy(_, let activity, let holder):
            let who = holder.map { "another slipway (pid \($0.pid)" + ($0.command.isEmpty ? ")" : ", `\($0.command)`)") } ?? "another slipway"
            return "\(who) is \(activity); wait for it to finish, then try again."
        case .unavailable(let path, let reason):
            return "cannot take the lock '\(path)': \(reason). Check that its folder exists and is writable."
        }
    }
}
