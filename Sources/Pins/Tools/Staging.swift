import Basics
import Foundation

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Temporary folders for downloads, builds and unpacking, inside the tools cache (so that the
/// finished result is renamed into place on the same file system). Each is named after the
/// process that made it; one whose process is gone is a leftover of a killed run and removed
/// at the start of the next install — this is how an interrupted install recovers, without a
/// journal.
struct Staging: Sendable {
    let cache: ToolsCache
    let fileSystem: any FileSystem

    /// A new empty folder `<cache>/.tmp/<pid>-<label>-<random>`.
    func makeFolder(label: String) throws -> String {
        try fileSystem.createDirectory(cache.temporaryRoot)
        let random = UUID().uuidString.prefix(8).lowercased()
        let path = "\(cache.temporaryRoot)/\(getpid())-\(label)-\(random)"
        try fileSystem.createDirectory(path)
        return path
    }

    /// Removes folders whose process no longer runs; returns how many.
    @discardableResult
    func removeLeftovers() -> Int {
        guard let names = try? fileSystem.contents(ofDirectory: cache.temporaryRoot) else { return 0 }
        var removed = 0
        for name in names {
            guard let pid = Int32(name.prefix { $0 != "-" }), !Self.isRunning(pid) else { continue }
            if (try? fileSystem.remove(cache.temporaryRoot + "/" + name)) != nil { removed += 1 }
        }
        return removed
    }

    /// True while a process with that id exists (`kill(pid, 0)` succeeds or is refused).
    static func isRunning(_ pid: Int32) -> Bool {
        if pid == getpid() { return true }
        return kill(pid, 0) == 0 || errno == EPERM
    }
}
