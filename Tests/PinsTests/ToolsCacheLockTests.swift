import Basics
import Foundation
import Pins
import Testing
import TestSupport
import TestThreads

/// Issue 23: CI configurations keep the tools cache in the project (`SLIPWAY_CACHE_DIR` under
/// the checkout), so a committed link there must not carry the cache lock (or the cache) outside.
@Suite("The tools cache lock in the checkout", .dedicatedThreads)
struct ToolsCacheLockTests {
    @Test("a committed .slipway/cache link is refused before anything is created through it")
    func linkedCacheFolderIsRefused() throws {
        let project = try TemporaryDirectory(prefix: "pins-project")
        let outside = try TemporaryDirectory(prefix: "pins-elsewhere")
        try FileManager.default.createDirectory(atPath: project.path + "/.slipway", withIntermediateDirectories: true)
        try FileManager.default.createSymbolicLink(atPath: project.path + "/.slipway/cache", withDestinationPath: outside.path)
        let cache = ToolsCache(root: project.path + "/.slipway/cache/tools")
        #expect(throws: StateFileError.symbolicLink(path: project.path + "/.slipway/cache")) {
            try cache.lock(fileSystem: LocalFileSystem(), projectDirectory: project.path)
        }
        #expect(try FileManager.default.contentsOfDirectory(atPath: outside.path).isEmpty, "nothing was created outside")
    }

    @Test("a committed lock link in the cache is not truncated; a cache outside the project works as before")
    func linkedLockAndOutsideCache() throws {
        let project = try TemporaryDirectory(prefix: "pins-project")
        let outside = try TemporaryDirectory(prefix: "pins-elsewhere")
        let victim = try outside.write("victim.txt", "precious\n")
        let root = project.path + "/.slipway/cache/tools"
        try FileManager.default.createDirectory(atPath: root, withIntermediateDirectories: true)
        try FileManager.default.createSymbolicLink(atPath: root + "/" + ExclusiveLock.fileName, withDestinationPath: victim)
        #expect(throws: StateFileError.symbolicLink(path: root + "/" + ExclusiveLock.fileName)) {
            try ToolsCache(root: root).lock(fileSystem: LocalFileSystem(), projectDirectory: project.path)
        }
        #expect(FileManager.default.contents(atPath: victim) == Data("precious\n".utf8))
        let elsewhere = ToolsCache(root: outside.path + "/cache")
        let lock = try elsewhere.lock(fileSystem: LocalFileSystem(), projectDirectory: project.path)
        #expect(FileManager.default.fileExists(atPath: outside.path + "/cache/" + ExclusiveLock.fileName))
        lock.release()
    }
}
