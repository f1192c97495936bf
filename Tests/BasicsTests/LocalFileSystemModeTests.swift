import Basics
import Foundation
import Testing
import TestSupport
import TestThreads

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Issue 24: the modes, copies and working directory that modules used to ask
/// `FileManager.default` for go through `FileSystem`.
@Suite("LocalFileSystem: permissions, copies, working directory", .dedicatedThreads)
struct LocalFileSystemModeTests {
    let fileSystem = LocalFileSystem()

    /// The permission bits `stat` reports for `path` (-1 when it cannot be read).
    static func mode(_ path: String) -> Int {
        var info = stat()
        guard stat(path, &info) == 0 else { return -1 }
        return Int(info.st_mode & 0o7777)
    }

    @Test("createDirectory(permissions:) gives a new folder exactly that mode, whatever the umask")
    func directoryMode() throws {
        let folder = try TemporaryDirectory(prefix: "fs-mode")
        let path = folder.path + "/a/private"
        try fileSystem.createDirectory(path, permissions: 0o700)
        #expect(fileSystem.isDirectory(path))
        #expect(Self.mode(path) == 0o700)
        let open = folder.path + "/b"
        try fileSystem.createDirectory(open, permissions: 0o755)
        #expect(Self.mode(open) == 0o755)
        // An existing folder is fine (no error), as without permissions.
        try fileSystem.createDirectory(path, permissions: 0o700)
        try fileSystem.createDirectory(path)
        #expect(Self.mode(path) == 0o700)
    }

    @Test("writeAtomically(permissions:) sets the mode of a new file and of a replaced one")
    func fileMode() throws {
        let folder = try TemporaryDirectory(prefix: "fs-mode")
        let secret = folder.path + "/state.json"
        try fileSystem.writeAtomically(Array("{}".utf8), to: secret, permissions: 0o600)
        #expect(Self.mode(secret) == 0o600)
        #expect(try fileSystem.read(secret) == Array("{}".utf8))

        let profile = folder.path + "/profile"
        try fileSystem.writeAtomically(Array("old".utf8), to: profile, permissions: 0o600)
        try fileSystem.writeAtomically(Array("new".utf8), to: profile, permissions: 0o644)
        #expect(Self.mode(profile) == 0o644)
        #expect(try fileSystem.read(profile) == Array("new".utf8))
        // Without permissions the replaced file's mode is kept.
        #expect(chmod(profile, 0o755) == 0)
        try fileSystem.writeAtomically(Array("again".utf8), to: profile)
        #expect(Self.mode(profile) == 0o755)
        // No temporary file is left beside them.
        #expect(try fileSystem.contents(ofDirectory: folder.path) == ["profile", "state.json"])
    }

    @Test("copyItem copies a file and a folder, and refuses to replace what exists")
    func copy() throws {
        let folder = try TemporaryDirectory(prefix: "fs-copy")
        try folder.write("tool", "#!/bin/sh\n")
        try fileSystem.copyItem(folder.path + "/tool", to: folder.path + "/copy")
        #expect(try fileSystem.readText(folder.path + "/copy") == "#!/bin/sh\n")
        try fileSystem.createDirectory(folder.path + "/dir/inner")
        try fileSystem.writeAtomically("x", to: folder.path + "/dir/inner/file")
        try fileSystem.copyItem(folder.path + "/dir", to: folder.path + "/dir2")
        #expect(try fileSystem.readText(folder.path + "/dir2/inner/file") == "x")
        #expect(throws: FileSystemError.self) {
            try fileSystem.copyItem(folder.path + "/tool", to: folder.path + "/copy")
        }
        #expect(throws: FileSystemError.self) {
            try fileSystem.copyItem(folder.path + "/missing", to: folder.path + "/other")
        }
    }

    @Test("existsFollowingLinks answers as stat(2): a dangling link or a loop is nothing")
    func existsFollowingLinks() throws {
        let folder = try TemporaryDirectory(prefix: "fs-links")
        try folder.write("file", "x")
        #expect(symlink("file", folder.path + "/to-file") == 0)
        #expect(symlink(folder.path + "/missing", folder.path + "/dangling") == 0)
        #expect(symlink("loop-b", folder.path + "/loop-a") == 0)
        #expect(symlink("loop-a", folder.path + "/loop-b") == 0)
        #expect(fileSystem.existsFollowingLinks(folder.path + "/file"))
        #expect(fileSystem.existsFollowingLinks(folder.path + "/to-file"))
        #expect(fileSystem.kindFollowingLinks(of: folder.path + "/to-file") == .file)
        #expect(fileSystem.exists(folder.path + "/dangling"))
        #expect(!fileSystem.existsFollowingLinks(folder.path + "/dangling"))
        #expect(!fileSystem.existsFollowingLinks(folder.path + "/loop-a"))
        #expect(!fileSystem.existsFollowingLinks(folder.path + "/missing"))
        #expect(fileSystem.kindFollowingLinks(of: folder.path) == .directory)
    }

    @Test("currentDirectoryPath is the process's working directory")
    func workingDirectory() {
        var buffer = [CChar](repeating: 0, count: Int(PATH_MAX) + 1)
        let expected = getcwd(&buffer, buffer.count).map { String(cString: $0) }
        #expect(fileSystem.currentDirectoryPath == expected)
        #expect(fileSystem.currentDirectoryPath.hasPrefix("/"))
    }
}
