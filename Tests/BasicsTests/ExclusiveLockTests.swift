import Basics
import Foundation
import Testing
import TestSupport
import TestThreads

@Suite("ExclusiveLock", .dedicatedThreads)
struct ExclusiveLockTests {
    @Test("a second acquire fails with the holder's pid and command; release lets it in")
    func secondAcquireIsBusyUntilRelease() throws {
        let folder = try TemporaryDirectory(prefix: "slipway-lock")
        let path = folder.path + "/" + ExclusiveLock.fileName
        let first = try ExclusiveLock.acquire(at: path, activity: "working on 'App.xcodeproj'", command: "slipway sync App.xcodeproj")
        // A second open of the file, in this same process, is refused: flock locks belong to
        // the open file, not the process.
        let holder = LockHolder(pid: getpid(), command: "slipway sync App.xcodeproj")
        #expect(throws: LockError.busy(path: path, activity: "working on 'App.xcodeproj'", holder: holder)) {
            try ExclusiveLock.acquire(at: path, activity: "working on 'App.xcodeproj'")
        }
        #expect(LockError.busy(path: path, activity: "working on 'App.xcodeproj'", holder: holder).errorDescription
            == "another slipway (pid \(getpid()), `slipway sync App.xcodeproj`) is working on 'App.xcodeproj'; wait for it to finish, then try again.")
        first.release()
        first.release()
        #expect(!FileManager.default.fileExists(atPath: path), "the lock file is removed on release")
        let second = try ExclusiveLock.acquire(at: path, activity: "working on 'App.xcodeproj'")
        #expect(FileManager.default.fileExists(atPath: path))
        second.release()
    }

    @Test("a lock goes with its object: deinit releases it")
    func deinitReleases() throws {
        let folder = try TemporaryDirectory(prefix: "slipway-lock")
        let path = folder.path + "/" + ExclusiveLock.fileName
        do {
            let lock = try ExclusiveLock.acquire(at: path, activity: "testing")
            withExtendedLifetime(lock) {}
        }
        try ExclusiveLock.acquire(at: path, activity: "testing").release()
    }

    @Test("a stale lock file left by a dead process is reused")
    func staleFileIsReused() throws {
        let folder = try TemporaryDirectory(prefix: "slipway-lock")
        let path = try folder.write(ExclusiveLock.fileName, "999999\nslipway sync (killed)\n")
        let lock = try ExclusiveLock.acquire(at: path, activity: "testing", command: "slipway test")
        #expect(try String(contentsOfFile: path, encoding: .utf8) == "\(getpid())\nslipway test\n")
        lock.release()
    }

    @Test("a missing folder is reported, not created")
    func missingFolder() throws {
        let folder = try TemporaryDirectory(prefix: "slipway-lock")
        let path = folder.path + "/nope/" + ExclusiveLock.fileName
        #expect(throws: LockError.unavailable(path: path, reason: "No such file or directory")) {
            try ExclusiveLock.acquire(at: path, activity: "testing")
        }
        #expect(try ExclusiveLock.acquireProject(pbxproj: folder.path + "/nope/project.pbxproj") == nil)
        #expect(try FileManager.default.contentsOfDirectory(atPath: folder.path).isEmpty)
    }

    @Test("a project's lock sits in its .xcodeproj folder and names it")
    func projectLock() throws {
        let folder = try TemporaryDirectory(prefix: "slipway-lock")
        try FileManager.default.createDirectory(atPath: folder.path + "/App.xcodeproj", withIntermediateDirectories: true)
        let lock = try #require(try ExclusiveLock.acquireProject(pbxproj: folder.path + "/./App.xcodeproj/project.pbxproj", command: "one"))
        #expect(lock.path == folder.path + "/App.xcodeproj/" + ExclusiveLock.fileName)
        #expect(throws: LockError.busy(path: lock.path, activity: "working on '\(folder.path)/App.xcodeproj'",
                                       holder: LockHolder(pid: getpid(), command: "one"))) {
            try ExclusiveLock.acquireProject(pbxproj: folder.path + "/App.xcodeproj/project.pbxproj")
        }
        lock.release()
    }

    @Test("a lock held by a child process is released when the child is killed")
    func killedHolderReleases() async throws {
        let folder = try TemporaryDirectory(prefix: "slipway-lock")
        let path = folder.path + "/" + ExclusiveLock.fileName
        // The child takes the lock as Slipway does (flock on the file, pid and command inside),
        // says so, and sleeps until it is killed.
        let script = """
            use Fcntl qw(:flock); use IO::Handle;
            open(my $f, '+>>', $ARGV[0]) or die "open: $!";
            flock($f, LOCK_EX | LOCK_NB) or die "flock: $!";
            truncate($f, 0); print $f "$$\\nperl holder\\n"; $f->flush;
            STDOUT->autoflush(1); print "locked $$\\n"; sleep 600;
            """
        let (lines, continuation) = AsyncStream<String>.makeStream()
        let buffer = Locked("")
        let child = Task {
            defer { continuation.finish() }
            return try await LocalProcessRunner().run(
                ProcessSpec(executable: "/usr/bin/env", arguments: ["perl", "-e", script, path], environment: ProcessInfo.processInfo.environment)
            ) { stream, bytes in
                guard stream == .standardOutput else { return }
                buffer.withLock { $0 += String(decoding: bytes, as: UTF8.self) }
                if buffer.value.hasSuffix("\n") { continuation.yield(buffer.value) }
            }
        }
        var announced: String?
        for await line in lines {
            announced = line
            break
        }
        let pid = try #require(announced.flatMap { Int32($0.dropFirst("locked ".count).dropLast()) }, "the child did not lock: \(announced ?? "")")
        #expect(throws: LockError.busy(path: path, activity: "testing", holder: LockHolder(pid: pid, command: "perl holder"))) {
            try ExclusiveLock.acquire(at: path, activity: "testing")
        }
        child.cancel() // stops the child's process group: SIGTERM ends perl at once
        _ = try? await child.value
        // The kernel dropped the dead child's lock; its file stays, and is reused.
        #expect(FileManager.default.fileExists(atPath: path))
        try ExclusiveLock.acquire(at: path, activity: "testing").release()
    }
}
