import Foundation

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// posix_spawn file actions, hiding the Linux/Darwin type difference.
struct SpawnFileActions {
    #if canImport(Darwin)
    var raw: posix_spawn_file_actions_t? = nil
    #else
    var raw = posix_spawn_file_actions_t()
    #endif

    init() { posix_spawn_file_actions_init(&raw) }

    mutating func dup2(_ from: Int32, _ to: Int32) { posix_spawn_file_actions_adddup2(&raw, from, to) }

    mutating func open(_ fd: Int32, _ path: String, _ flags: Int32) {
        posix_spawn_file_actions_addopen(&raw, fd, path, flags, 0)
    }

    /// Adds a chdir for the child; false where the C library lacks `addchdir_np`.
    mutating func chdir(_ path: String) -> Bool {
        typealias AddChdir = @convention(c) (UnsafeMutableRawPointer, UnsafePointer<CChar>) -> Int32
        #if canImport(Darwin)
        let defaultHandle = UnsafeMutableRawPointer(bitPattern: -2)  // RTLD_DEFAULT on Darwin
        #else
        let defaultHandle: UnsafeMutableRawPointer? = nil  // RTLD_DEFAULT on glibc
        #endif
        guard let symbol = dlsym(defaultHandle, "posix_spawn_file_actions_addchdir_np") else { return false }
        let function = unsafeBitCast(symbol, to: AddChdir.self)
        return withUnsafeMutablePointer(to: &raw) { pointer in
            path.withCString { function(UnsafeMutableRawPointer(pointer), $0) == 0 }
        }
    }

    mutating func destroy() { posix_spawn_file_actions_destroy(&raw) }
}

/// posix_spawn attributes: a new process group, default signal dispositions and an empty mask
/// (this process ignores or handles SIGINT/SIGTERM/SIGPIPE; its children must not inherit that).
struct SpawnAttributes {
    #if canImport(Darwin)
    var raw: posix_spawnattr_t? = nil
    #else
    var raw = posix_spawnattr_t()
    #endif

    init() {
        posix_spawnattr_init(&raw)
        posix_spawnattr_setpgroup(&raw, 0)
        var defaults = sigset_t()
        sigemptyset(&defaults)
        for signal in [SIGINT, SIGTERM, SIGPIPE, SIGQUIT, SIGHUP] { sigaddset(&defaults, signal) }
        posix_spawnattr_setsigdefault(&raw, &defaults)
        var mask = sigset_t()
        sigemptyset(&mask)
        posix_spawnattr_setsigmask(&raw, &mask)
        let flags = POSIX_SPAWN_SETPGROUP | POSIX_SPAWN_SETSIGDEF | POSIX_SPAWN_SETSIGMASK
        posix_spawnattr_setflags(&raw, Int16(flags))
    }

    mutating func destroy() { posix_spawnattr_destroy(&raw) }
}
