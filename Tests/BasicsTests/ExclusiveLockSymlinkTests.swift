import Basics
import Foundation
import Testing
import TestSupport
import TestThreads

/// Issue 23: lock files (and the folders on the way to them) come from the checkout and may be
/// symbolic links committed to point at a victim. They are never followed, never truncated.
@Suite("ExclusiveLock and state files never follow a symbolic link", .dedicatedThreads)
struct ExclusiveLockSymlinkTests {
    static let victimText = "precious, outside the project\n"

    /// A project folder and, beside it, a victim file.
    struct Scene {
        let project: TemporaryDirectory
        let outside: TemporaryDirectory
        var victim: String { outside.path + "/victim.txt" }

        init() throws {
            project = try TemporaryDirectory(prefix: "lock-project")
            outside = try TemporaryDirectory(prefix: "lock-victim")
            try outside.write("victim.txt", ExclusiveLockSymlinkTests.victimText)
        }

        func expectVictimUntouched(sourceLocation: Testing.SourceLocation = #_sourceLocation) {
            let bytes = FileManager.default.contents(atPath: victim).map { Array($0) }
            #expect(bytes == Array(ExclusiveLockSymlinkTests.victimText.utf8), "the victim is byte-identical", sourceLocation: sourceLocation)
            #expect((try? FileManager.default.contentsOfDirectory(atPath: outside.path)) == ["victim.txt"], sourceLocation: sourceLocation)
        }
    }

    @Test("a lock file that is a symbolic link to a victim is refused; the victim is not truncated")
    func linkedLockFileIsRefused() throws {
        let scene = try Scene()
        let lock = scene.project.path + "/" + ExclusiveLock.fileName
        try FileManager.default.createSymbolicLink(atPath: lock, withDestinationPath: scene.victim)
        #expect(throws: StateFileError.symbolicLink(path: lock)) {
            try ExclusiveLock.acquire(at: lock, activity: "testing")
        }
        #expect(StateFileError.symbolicLink(path: lock).errorDescription
            == "'\(lock)' is a symbolic link where Slipway keeps its own state; it was not followed (it may have been committed to point elsewhere) and nothing was written. Remove the link (and, if it is in git, the commit that adds it), then run again.")
        scene.expectVictimUntouched()
        #expect(FileManager.default.fileExists(atPath: lock), "the link itself is left for the user to see")
    }

    @Test("a dangling lock link is not followed to create a file elsewhere")
    func danglingLinkIsRefused() throws {
        let scene = try Scene()
        let lock = scene.project.path + "/" + ExclusiveLock.fileName
        let target = scene.outside.path + "/created-by-slipway"
        try FileManager.default.createSymbolicLink(atPath: lock, withDestinationPath: target)
        #expect(throws: StateFileError.symbolicLink(path: lock)) { try ExclusiveLock.acquire(at: lock, activity: "testing") }
        #expect(!FileManager.default.fileExists(atPath: target))
        scene.expectVictimUntouched()
    }

    @Test("the project lock refuses a linked .xcodeproj folder and a linked lock in it")
    func projectLockRefusesLinks() throws {
        let scene = try Scene()
        // `App.xcodeproj/.slipway-lock -> victim`
        let bundle = scene.project.path + "/App.xcodeproj"
        try FileManager.default.createDirectory(atPath: bundle, withIntermediateDirectories: true)
        try FileManager.default.createSymbolicLink(atPath: bundle + "/" + ExclusiveLock.fileName, withDestinationPath: scene.victim)
        #expect(throws: StateFileError.symbolicLink(path: bundle + "/" + ExclusiveLock.fileName)) {
            try ExclusiveLock.acquireProject(pbxproj: bundle + "/project.pbxproj")
        }
        // `Linked.xcodeproj -> a folder outside`
        let linked = scene.project.path + "/Linked.xcodeproj"
        try FileManager.default.createSymbolicLink(atPath: linked, withDestinationPath: scene.outside.path)
        #expect(throws: StateFileError.symbolicLink(path: linked)) {
            try ExclusiveLock.acquireProject(pbxproj: linked + "/project.pbxproj")
        }
        scene.expectVictimUntouched()
    }

    @Test("an existing regular lock file of this user is reused, and removed on release")
    func regularLockFileIsReused() throws {
        let scene = try Scene()
        let lock = try scene.project.write(ExclusiveLock.fileName, "12345\nstale\n")
        let held = try ExclusiveLock.acquire(at: lock, activity: "testing", command: "slipway test")
        #expect(String(decoding: FileManager.default.contents(atPath: lock) ?? Data(), as: UTF8.self) == "\(getpid())\nslipway test\n")
        held.release()
        #expect(!FileManager.default.fileExists(atPath: lock))
    }

    @Test("a lock file owned by another user is refused", .enabled(if: geteuid() == 0, "needs root to give a file away"))
    func foreignLockFileIsRefused() throws {
        let scene = try Scene()
        let lock = try scene.project.write(ExclusiveLock.fileName, "")
        chown(lock, 65534, 65534)
        #expect(throws: StateFileError.foreignOwner(path: lock, owner: 65534)) { try ExclusiveLock.acquire(at: lock, activity: "testing") }
    }

    @Test("checkPath refuses a linked folder anywhere below the base; createFolder makes nothing through it")
    func linkedFolderOnTheWay() throws {
        let scene = try Scene()
        try FileManager.default.createDirectory(atPath: scene.project.path + "/.slipway", withIntermediateDirectories: true)
        try FileManager.default.createSymbolicLink(atPath: scene.project.path + "/.slipway/runs", withDestinationPath: scene.outside.path)
        let folder = scene.project.path + "/.slipway/runs/ci"
        #expect(throws: StateFileError.symbolicLink(path: scene.project.path + "/.slipway/runs")) {
            try StateFiles.createFolder(folder, below: scene.project.path)
        }
        #expect(throws: StateFileError.outside(path: scene.outside.path, base: scene.project.path)) {
            try StateFiles.checkPath(scene.outside.path, below: scene.project.path)
        }
        #expect(throws: StateFileError.outside(path: scene.project.path + "/../x", base: scene.project.path)) {
            try StateFiles.checkPath(scene.project.path + "/../x", below: scene.project.path)
        }
        scene.expectVictimUntouched()
    }

    @Test("the sync --check of a checkout with a committed lock link neither truncates the victim nor syncs (binary)")
    func syncCheckWithLinkedLock() throws {
        let scene = try Scene()
        let bundle = try SyntheticXcodeProject.write(files: 2, groups: 1, in: scene.project.path)
        let lock = bundle + "/" + ExclusiveLock.fileName
        try FileManager.default.createSymbolicLink(atPath: lock, withDestinationPath: scene.victim)
        let result = try CommandResult.run(Binaries.slipway, ["sync", bundle, "--check"])
        #expect(result.status == 2, "\(result.standardError)")
        #expect(result.standardError == "error: \(StateFileError.symbolicLink(path: lock).errorDescription ?? "")\n")
        scene.expectVictimUntouched()
    }
}
