import Basics
import Foundation
@testable import Pins
import Testing
import TestSupport
import TestThreads

/// Archive tools served by a real HTTP server on loopback.
@Suite(.dedicatedThreads) struct ArchiveToolTests {
    let platform = ToolPlatform.current
    let other = ToolPlatform.current.os == "linux" ? "macos-arm64" : "linux-x86_64"

    func sha256(_ data: Data) -> String { Digest256.hex(Array(data)) }

    /// A project with tool `fmt` served as `fmt-2.0.0-<os>-<arch>.<ext>` for this platform and one other.
    func setUp(printing output: String = "fmt version 2.0.0", zip: Bool = false) throws
        -> (LoopbackHTTPServer, PinsProject, Data) {
        let server = try LoopbackHTTPServer()
        let ext = zip ? "zip" : "tar.gz"
        let archive = try ArchiveMaker.make(name: "fmt", printing: output, zip: zip)
        try server.put("fmt-2.0.0-\(platform.os)-\(platform.arch).\(ext)", archive)
        try server.put("fmt-2.0.0-\(other).\(ext)", archive)
        let project = try PinsProject()
        try project.write("Toolfile", """
            tools:
              fmt:
                archive: \(server.url(for: "fmt-{version}-{os}-{arch}.\(ext)"))
                executable: bin/fmt
                platforms: [\(platform), \(other)]
                version: 2.0.0

            """)
        return (server, project, archive)
    }

    @Test(arguments: [false, true])
    func locksInstallsAndVerifies(zip: Bool) async throws {
        let (server, project, archive) = try setUp(zip: zip)
        let result = try await ToolLocker(context: project.context()).lock()
        let entry = try #require(result.lockfile.tools["fmt"])
        let ext = zip ? "zip" : "tar.gz"
        #expect(entry.archive == LockedArchive(executable: "bin/fmt", platforms: [
            platform.description: LockedDownload(url: server.url(for: "fmt-2.0.0-\(platform).\(ext)"), sha256: sha256(archive)),
            other: LockedDownload(url: server.url(for: "fmt-2.0.0-\(other).\(ext)"), sha256: sha256(archive)),
        ]))
        let scriptSHA = sha256(Data(ArchiveMaker.script(printing: "fmt version 2.0.0").utf8))
        #expect(entry.executables == [platform.description: scriptSHA, other: scriptSHA])
        #expect(project.temporaryLeftovers().isEmpty)

        let installed = try await ToolInstaller(context: project.context()).install()
        let path = "\(project.toolsCache)/fmt/2.0.0/\(platform)/bin/fmt"
        #expect(installed.tools == [InstalledTool(name: "fmt", version: "2.0.0", path: path, wasPresent: false)])
        #expect(try CommandResult.run(path, ["--version"]).standardOutput == "fmt version 2.0.0\n")
        let report = try await ToolVerifier(context: project.context(online: false)).report()
        #expect(report.isOK)
        #expect(report.tools.first?.checks.map(\.check) == [.locked, .toolfile, .installed, .checksum, .version])
    }

    @Test func verifyCachesByIdentityAndNoticesEveryChange() async throws {
        let (server, project, _) = try setUp()
        defer { withExtendedLifetime(server) {} }
        _ = try await ToolLocker(context: project.context()).lock()
        _ = try await ToolInstaller(context: project.context()).install()
        let counter = CountingToolFiles()
        project.files = counter
        let verifier = ToolVerifier(context: project.context(online: false))
        #expect(try await verifier.report().isOK)
        #expect(counter.hashCount == 0, "install recorded the checksum it had just established")
        #expect(try await verifier.report().isOK)
        #expect(counter.hashCount == 0, "nothing changed, so nothing is hashed again")
        let path = "\(project.toolsCache)/fmt/2.0.0/\(platform)/bin/fmt"
        try FileManager.default.setAttributes([.modificationDate: Date(timeIntervalSinceNow: -3600)], ofItemAtPath: path)
        #expect(try await verifier.report().isOK)
        #expect(counter.hashCount == 1, "a new mtime means hashing again")
        counter.reset()
        try ArchiveMaker.script(printing: "fmt version 2.0.1").write(toFile: path, atomically: false, encoding: .utf8)
        let report = try await verifier.report()
        #expect(counter.hashCount == 1)
        let failures = try #require(report.tools.first?.failures)
        // A changed executable is never run, not even for its version: the checksum says it all.
        #expect(failures.map(\.check) == [.checksum])
        #expect(failures.first?.found == sha256(Data(ArchiveMaker.script(printing: "fmt version 2.0.1").utf8)))
        #expect(failures.first?.file == path)
        // What the lane runner calls for `requires: [fmt]` before step one.
        let statuses = try await verifier.verify(names: ["fmt"])
        #expect(statuses.map(\.isOK) == [false])
        let refusal = await thrownText { try await verifier.requireVerified(names: ["fmt"]) }
        #expect(refusal == """
            'fmt': checksum: expected \(failures.first?.expected ?? ""), found \(failures.first?.found ?? "") (\(path)). \
            The installed executable was changed; run 'slipway tools install' to restore it.
            """)
        let unknown = await thrownText { try await verifier.requireVerified(names: ["fmtt"]) }
        #expect(unknown == "The Toolfile has no tool 'fmtt'. Did you mean 'fmt'? (tools: fmt)")
    }

    @Test func aChangedDownloadIsRefusedAndNothingIsInstalled() async throws {
        let (server, project, archive) = try setUp()
        _ = try await ToolLocker(context: project.context()).lock()
        let tampered = try ArchiveMaker.make(name: "fmt", printing: "fmt version 2.0.0 (tampered)")
        try server.put("fmt-2.0.0-\(platform).tar.gz", tampered)
        let error = await thrownText { _ = try await ToolInstaller(context: project.context()).install() }
        #expect(error == """
            The archive '\(server.url(for: "fmt-2.0.0-\(platform).tar.gz"))' of 'fmt' has sha256 \(sha256(tampered)), \
            but Toolfile.lock expects \(sha256(archive)); nothing was installed. It changed upstream or on the way; if \
            the change is expected, run 'slipway tools lock --update fmt'.
            """)
        #expect(!FileManager.default.fileExists(atPath: project.toolsCache + "/fmt"))
        #expect(project.temporaryLeftovers().isEmpty)
    }

    @Test(arguments: [
        ([("../evil", "file", "x")], "../evil"),
        ([("bin/fmt", "file", "x"), ("/tmp/slipway-evil-absolute", "file", "x")], "/tmp/slipway-evil-absolute"),
        ([("bin/../../evil", "file", "x")], "bin/../../evil"),
        ([("bin/fmt", "file", "x"), ("bin/link", "symlink", "../../outside")], "bin/link -> ../../outside"),
        ([("bin/fmt", "file", "x"), ("bin/abs", "symlink", "/etc/passwd")], "bin/abs -> /etc/passwd"),
    ])
    func archivesThatEscapeTheirFolderAreRefused(entries: [(String, String, String)], entry: String) async throws {
        let (server, project) = try evilProject("evil.tar.gz", try ArchiveMaker.crafted(entries))
        try await expectRefusal(server, project, escapes(server.url(for: "evil.tar.gz"), entry))
    }

    func escapes(_ url: String, _ entry: String) -> String {
        """
        The archive '\(url)' contains '\(entry)', which would be written outside the \
        archive's folder. Refusing to unpack it; nothing was installed. Report it to the tool's publisher.
        """
    }

    /// A project whose tool `fmt` is the archive `name` served with `bytes`.
    func evilProject(_ name: String, _ bytes: Data) throws -> (LoopbackHTTPServer, PinsProject) {
        let server = try LoopbackHTTPServer()
        try server.put(name, bytes)
        return (server, try PinsProject.servingArchive(name, from: server))
    }

    /// Locking fails with `message`; nothing is written in the project, outside it, or left in the cache.
    func expectRefusal(_ server: LoopbackHTTPServer, _ project: PinsProject, _ message: String) async throws {
        let before = try Snapshot.of(project.path)
        let error = await thrownText { _ = try await ToolLocker(context: project.context()).lock() }
        #expect(error == message)
        #expect(!project.exists("Toolfile.lock"))
        #expect(try Snapshot.of(project.path) == before)
        #expect(!FileManager.default.fileExists(atPath: "/tmp/slipway-evil-absolute"))
        #expect(!FileManager.default.fileExists(atPath: "/tmp/slipway-evil-absolute-zip"))
        #expect(!FileManager.default.fileExists(atPath: project.toolsCache + "/fmt"))
        #expect(project.temporaryLeftovers().isEmpty)
        withExtendedLifetime(server) {}
    }

    /// The same guarantees for a zip, which Archives' reader lists (not `unzip -Z1`): names that
    /// climb out or are absolute, and links out of the folder, are refused before `unzip` runs.
    @Test(arguments: [
        ([("../evil", "file", "x")], "../evil"),
        ([("bin/fmt", "file", "x"), ("/tmp/slipway-evil-absolute-zip", "file", "x")], "/tmp/slipway-evil-absolute-zip"),
        ([("bin/../../evil", "file", "x")], "bin/../../evil"),
        ([("bin/fmt", "file", "x"), ("..\\evil", "file", "x")], "..\\evil"),
        ([("bin/fmt", "file", "x"), ("bin/link", "symlink", "../../outside")], "bin/link -> ../../outside"),
        ([("bin/fmt", "file", "x"), ("bin/abs", "symlink", "/etc/passwd")], "bin/abs -> /etc/passwd"),
    ])
    func zipsThatEscapeTheirFolderAreRefused(entries: [(String, String, String)], entry: String) async throws {
        let (server, project) = try evilProject("evil.zip", try ArchiveMaker.craftedZip(entries))
        try await expectRefusal(server, project, escapes(server.url(for: "evil.zip"), entry))
    }

    /// A zip whose entries claim more than 4 GiB unpacked (a zip bomb's claim) is refused before
    /// `unzip` runs; before, `unzip` was left to find out.
    @Test func aZipClaimingMoreThanFourGiBIsRefused() async throws {
        let claims = HostileArchive.zip([HostileArchive.Entry(name: "bin/fmt", data: Array("#!/bin/sh\n".utf8)),
                                         HostileArchive.Entry(name: "bin/big", data: [0], claimedUncompressedSize: 4 << 30)])
        let (server, project) = try evilProject("big.zip", Data(claims))
        try await expectRefusal(server, project, """
            The archive '\(server.url(for: "big.zip"))' claims 4294967306 bytes unpacked, more than the 4294967296 Slipway \
            unpacks for a tool. Refusing to unpack it; nothing was installed. Report it to the tool's publisher.
            """)
    }

    /// Entries sharing bytes (how overlapping zip bombs multiply their output) and a damaged
    /// directory are the reader's refusals, named, before `unzip` runs.
    @Test func overlappingOrDamagedZipsAreRefused() async throws {
        let overlap = HostileArchive.zip([HostileArchive.Entry(name: "bin/fmt", data: Array("#!/bin/sh\n".utf8)),
                                          HostileArchive.Entry(name: "bin/again", data: [1], claimedOffset: 0)])
        let (server, project) = try evilProject("overlap.zip", Data(overlap))
        try await expectRefusal(server, project, """
            Could not unpack '\(server.url(for: "overlap.zip"))': the entries 'bin/fmt' and 'bin/again' overlap. \
            Check that the URL serves a complete archive.
            """)
        let (server2, project2) = try evilProject("cut.zip", Data(overlap.prefix(overlap.count - 10)))
        try await expectRefusal(server2, project2, """
            Could not unpack '\(server2.url(for: "cut.zip"))': it has no zip end-of-directory record. \
            Check that the URL serves a complete archive.
            """)
    }

    @Test func aToolThatPrintsNoVersionIsRefused() async throws {
        let (server, project, _) = try setUp(printing: "hello from fmt")
        defer { withExtendedLifetime(server) {} }
        _ = try await ToolLocker(context: project.context()).lock()
        let error = await thrownText { _ = try await ToolInstaller(context: project.context()).install() }
        #expect(error == """
            'bin/fmt --version' printed no version that could be parsed for 'fmt' (it printed: 'hello from fmt'). \
            Set 'version-regex' for 'fmt' in the Toolfile to a pattern whose first group captures the version, or \
            'version-args' to the arguments that print it.
            """)
        #expect(!FileManager.default.fileExists(atPath: project.toolsCache + "/fmt"))
    }

    @Test func aLockEntryForAToolNoLongerInTheToolfile() async throws {
        let (server, project, _) = try setUp()
        let toolfile = try project.read("Toolfile")
        try project.write("Toolfile", toolfile + "  fmt2:\n    archive: \(server.url(for: "fmt-{version}-{os}-{arch}.tar.gz"))\n"
                          + "    executable: bin/fmt\n    platforms: [\(platform)]\n    version: 2.0.0\n")
        _ = try await ToolLocker(context: project.context()).lock()
        try project.write("Toolfile", toolfile)
        let lockBefore = try project.read("Toolfile.lock")
        let error = await thrownText { _ = try await ToolInstaller(context: project.context()).install() }
        #expect(error == """
            'Toolfile.lock' does not match the Toolfile: 'fmt2' is locked but the Toolfile no longer lists it. Run 'slipway tools lock' to update it.
            """)
        #expect(!FileManager.default.fileExists(atPath: project.toolsCache + "/fmt"))
        #expect(try project.read("Toolfile.lock") == lockBefore)
        let report = try await ToolVerifier(context: project.context(online: false)).report()
        let stale = try #require(report.tools.last)
        #expect(stale.name == "fmt2")
        #expect(stale.checks == [ToolCheck(check: .locked, ok: false, expected: "no entry (the Toolfile does not list 'fmt2')",
                                           found: "an entry for 2.0.0", file: "Toolfile.lock",
                                           advice: "Run 'slipway tools lock' to remove it.")])
        let relock = try await ToolLocker(context: project.context()).lock()
        #expect(relock.changes.map(\.kind) == [.kept, .removed])
        #expect(relock.lockfile.tools.keys.sorted() == ["fmt"])
    }

    @Test func aMissingDownloadIsReported() async throws {
        let (server, project, _) = try setUp()
        try project.write("Toolfile", try project.read("Toolfile").replacingOccurrences(of: "2.0.0", with: "3.0.0"))
        let error = await thrownText { _ = try await ToolLocker(context: project.context()).lock() }
        #expect(error == """
            Downloading 'fmt' from '\(server.url(for: "fmt-3.0.0-\(platform).tar.gz"))' failed: the server answered HTTP 404. Check the URL and the network.
            """)
        #expect(!project.exists("Toolfile.lock"))
    }
}
