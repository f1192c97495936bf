import Basics
import Foundation
@testable import Pins
import Testing
import TestSupport
import TestThreads

/// The commands end to end, through the built `slipway` binary.
@Suite(.dedicatedThreads) struct PinsCLITests {
    let platform = ToolPlatform.current

    /// A project with archive tool `fmt` served from loopback, locked (not installed).
    func lockedArchiveProject() throws -> (LoopbackHTTPServer, PinsProject) {
        let server = try LoopbackHTTPServer()
        try server.put("fmt-2.0.0-\(platform).tar.gz", try ArchiveMaker.make(name: "fmt", printing: "fmt version 2.0.0"))
        let project = try PinsProject()
        try project.write("Toolfile", """
            tools:
              fmt:
                archive: \(server.url(for: "fmt-{version}-{os}-{arch}.tar.gz"))
                executable: bin/fmt
                platforms: [\(platform)]
                version: 2.0.0

            """)
        let lock = try project.slipway(["tools", "lock"])
        guard lock.status == 0 else { throw FixtureError("lock failed: \(lock.standardError)") }
        return (server, project)
    }

    @Test func verifyExitCodesAndJSON() throws {
        let (server, project) = try lockedArchiveProject()
        defer { withExtendedLifetime(server) {} }
        let missing = try project.slipway(["tools", "verify"])
        #expect(missing.status == 1)
        #expect(missing.standardOutput.contains("✗ fmt 2.0.0 (archive)\n    installed: expected an executable file, found nothing"))
        let install = try project.slipway(["tools", "install"])
        #expect(install.status == 0, "\(install.standardError)")
        #expect(install.standardOutput.hasSuffix("1 tool(s) installed (1 new).\n"))
        let ok = try project.slipway(["tools", "verify"])
        #expect(ok.status == 0)
        #expect(ok.standardOutput == "✓ fmt 2.0.0 (archive)\n1 tool(s) on \(platform): 1 ok, 0 drifted.\n")
        let json = try project.slipway(["tools", "verify", "--json"])
        let decoded = try JSONDecoder().decode(ToolVerifyReport.self, from: Data(json.standardOutput.utf8))
        #expect(decoded.isOK)
        #expect(json.standardOutput.contains("\"ok\" : true"))
        #expect(json.standardOutput.contains("\"expected\" : \"2.0.0\""))

        let executable = "\(project.toolsCache)/fmt/2.0.0/\(platform)/bin/fmt"
        try ArchiveMaker.script(printing: "fmt version 2.0.0 patched").write(toFile: executable, atomically: false, encoding: .utf8)
        let drift = try project.slipway(["tools", "verify", "--json"])
        #expect(drift.status == 1)
        let drifted = try JSONDecoder().decode(ToolVerifyReport.self, from: Data(drift.standardOutput.utf8))
        #expect(drifted.tools.first?.failures.map(\.check) == [.checksum])
        #expect(drifted.tools.first?.failures.first?.file == executable)

        try project.write("Toolfile.lock", "{ \"version\": 1, ")
        let corrupt = try project.slipway(["tools", "verify"])
        #expect(corrupt.status == 2)
        #expect(corrupt.standardError == "error: 'Toolfile.lock' is not a valid Toolfile.lock: it is not valid JSON. Restore it "
            + "from version control, or delete it and run 'slipway tools lock' to write it again.\n")
        try project.write("Toolfile", "tools:\n  fmt:\n    brew: fmt\n    version: 1.0.0\n")
        let badToolfile = try project.slipway(["tools", "verify"])
        #expect(badToolfile.status == 2)
        #expect(badToolfile.standardError.hasPrefix("Toolfile:3:5: error: tool 'fmt' has an unknown source kind 'brew'."))
    }

    @Test func anInterruptedInstallRecoversOnTheNextRun() throws {
        let (server, project) = try lockedArchiveProject()
        defer { withExtendedLifetime(server) {} }
        let killed = try project.slipway(["tools", "install"], environment: ["SLIPWAY_TEST_KILL_BEFORE_RENAME": "1"])
        #expect(killed.status == SIGKILL, "the process killed itself between unpacking and renaming")
        #expect(!FileManager.default.fileExists(atPath: project.toolsCache + "/fmt"), "nothing half-installed")
        #expect(project.temporaryLeftovers().count == 1)
        let verify = try project.slipway(["tools", "verify"])
        #expect(verify.status == 1)
        let again = try project.slipway(["tools", "install"])
        #expect(again.status == 0, "\(again.standardError)")
        #expect(again.standardOutput.contains("removed 1 leftover folder(s) of an interrupted install"))
        #expect(project.temporaryLeftovers().isEmpty)
        #expect(try project.slipway(["tools", "verify"]).status == 0)
    }

    @Test func aSecondInstallIntoTheSameCacheIsRefused() async throws {
        let (server, project) = try lockedArchiveProject()
        let environment = ["SLIPWAY_CACHE_DIR": project.cacheFolder.path, "NO_COLOR": "1"]
        // This process holds the cache, as a running install would.
        try FileManager.default.createDirectory(atPath: project.toolsCache, withIntermediateDirectories: true)
        let lock = try ExclusiveLock.acquire(at: project.toolsCache + "/" + ExclusiveLock.fileName,
                                             activity: "installing tools", command: "slipway tools install")
        let before = (try Snapshot.of(project.path), try Snapshot.of(project.cacheFolder.path))
        let busy = try await Binaries.runSlipway(["tools", "install"], in: project.path, environment: environment)
        #expect(busy.status == .exited(75), "\(busy.outputText)\(busy.errorText)")
        #expect(busy.errorText == "error: another slipway (pid \(getpid()), `slipway tools install`) is installing tools into "
            + "'\(project.toolsCache)'; wait for it to finish, then try again.\n")
        #expect(try Snapshot.of(project.path) == before.0)
        #expect(try Snapshot.of(project.cacheFolder.path) == before.1)
        lock.release()
        let install = try await Binaries.runSlipway(["tools", "install"], in: project.path, environment: environment)
        #expect(install.status == .exited(0), "\(install.errorText)")
        withExtendedLifetime(server) {}
    }

    @Test func execRunsThePinnedToolAndRefusesADriftedOne() throws {
        let (server, project) = try lockedArchiveProject()
        defer { withExtendedLifetime(server) {} }
        #expect(try project.slipway(["tools", "install"]).status == 0)
        let run = try project.slipway(["exec", "fmt", "--", "--version"])
        #expect(run.status == 0)
        #expect(run.standardOutput == "fmt version 2.0.0\n")
        let unknown = try project.slipway(["exec", "fmtt"])
        #expect(unknown.status == 2)
        #expect(unknown.standardError == "error: The Toolfile has no tool 'fmtt'. Did you mean 'fmt'? (tools: fmt)\n")
        let executable = "\(project.toolsCache)/fmt/2.0.0/\(platform)/bin/fmt"
        try ArchiveMaker.script(printing: "fmt version 2.0.0").appending("# changed\n")
            .write(toFile: executable, atomically: false, encoding: .utf8)
        let refused = try project.slipway(["exec", "fmt", "--", "--version"])
        #expect(refused.status == 1)
        #expect(refused.standardOutput == "")
        #expect(refused.standardError.hasPrefix("error: 'fmt': checksum: expected "))
        #expect(refused.standardError.hasSuffix("The installed executable was changed; run 'slipway tools install' to restore it.\n"))
    }

    @Test func depsVerifyAndVerifyGiveOneVerdict() throws {
        let project = try PinsProject()
        project.extraEnvironment["PATH"] = "/usr/bin:/bin"
        try DepsFixtures.write(into: project)
        let ok = try project.slipway(["deps", "verify"])
        #expect(ok.status == 0, "\(ok.standardOutput)\(ok.standardError)")
        #expect(ok.standardOutput.hasPrefix("✓ Package.resolved: "))
        let both = try project.slipway(["verify", "--json"])
        #expect(both.status == 0)
        #expect(both.standardOutput.contains("\"ok\" : true"))
        try project.write("Cartfile.resolved", DepsFixtures.cartfileResolved(nimble: "v14.0.0"))
        let drift = try project.slipway(["verify"])
        #expect(drift.status == 1)
        #expect(drift.standardOutput.contains("No Toolfile: tools not checked."))
        #expect(drift.standardOutput.contains("Cartfile.resolved: resolved 'github \"Quick/Nimble\"': expected == 13.2.1, found v14.0.0."))
        try project.write("Gemfile.lock", "GEM\n  specs:\n    broken\n")
        let broken = try project.slipway(["deps", "verify"])
        #expect(broken.status == 2)
        #expect(broken.standardError == "error: 'Gemfile.lock' line 3 cannot be read: 'broken' is not 'name (version)'. Run 'bundle lock' to write it again.\n")
    }

    @Test func helpShowsExamples() throws {
        let project = try PinsProject()
        for (command, example) in [(["tools", "lock", "--help"], "slipway tools lock --update swiftlint"),
                                   (["tools", "verify", "--help"], "slipway tools verify --json"),
                                   (["deps", "verify", "--help"], "slipway deps verify --json"),
                                   (["exec", "--help"], "slipway exec swiftlint -- lint --strict"),
                                   (["verify", "--help"], "slipway verify --json")] {
            let help = try project.slipway(command)
            #expect(help.status == 0)
            #expect(help.standardOutput.contains(example), "\(command)")
        }
        let usage = try project.slipway(["tools", "lock", "fmt"])
        #expect(usage.status == 64)
        #expect(usage.standardError.contains("Tool names are only accepted with --update, e.g. 'slipway tools lock --update fmt'."))
    }

    @Test func systemToolsAreVerifiedAgainstTheirConstraint() async throws {
        let project = try PinsProject()
        let bin = try TemporaryDirectory(prefix: "slipway-bin")
        let tool = try bin.write("fakegit", "#!/bin/sh\necho \"fakegit version 2.39.2 (Apple Git-143)\"\n")
        try sh("/bin/chmod", ["+x", tool])
        project.extraEnvironment["PATH"] = bin.path + ":/usr/bin:/bin"
        try project.write("Toolfile", "tools:\n  fakegit:\n    system: fakegit\n    version: '>=2.30, <3'\n")
        let lock = try await ToolLocker(context: project.context()).lock()
        #expect(lock.lockfile.tools["fakegit"] == LockedTool(source: .system, version: SemanticVersion("2.39.2")!))
        #expect(try await ToolVerifier(context: project.context(online: false)).report().isOK)
        try project.write("Toolfile", "tools:\n  fakegit:\n    system: fakegit\n    version: '^2.40'\n")
        let report = try await ToolVerifier(context: project.context(online: false)).report()
        #expect(report.tools.first?.failures == [ToolCheck(
            check: .version, ok: false, expected: "a version satisfying '^2.40'", found: "2.39.2", file: tool,
            advice: "Install a version that satisfies '^2.40', or change the Toolfile.")])
        let unsatisfied = await thrownText { _ = try await ToolLocker(context: project.context()).lock(update: .all) }
        #expect(unsatisfied == "No version of 'fakegit' satisfies '^2.40'. Available versions: 2.39.2. Change the constraint in the Toolfile.")
    }

    /// Where the user meets the zip checks: `slipway tools lock` on a Toolfile whose `.zip` claims
    /// more than 4 GiB unpacked, or holds a link out of its folder. Refused before `unzip` runs,
    /// with the archive named; nothing is written in the project or left in the cache.
    @Test func toolsLockRefusesAHostileZip() throws {
        let server = try LoopbackHTTPServer()
        let big = HostileArchive.zip([HostileArchive.Entry(name: "bin/fmt", data: Array("#!/bin/sh\n".utf8)),
                                      HostileArchive.Entry(name: "bin/big", data: [0], claimedUncompressedSize: 4 << 30)])
        try server.put("big.zip", Data(big))
        try server.put("link.zip", try ArchiveMaker.craftedZip([("bin/fmt", "file", "x"), ("bin/key", "symlink", "../../../.ssh/id_rsa")]))
        for (name, message) in [
            ("big.zip", "claims 4294967306 bytes unpacked, more than the 4294967296 Slipway unpacks for a tool. "),
            ("link.zip", "contains 'bin/key -> ../../../.ssh/id_rsa', which would be written outside the archive's folder. "),
        ] {
            let project = try PinsProject.servingArchive(name, from: server)
            let before = try Snapshot.of(project.path)
            let lock = try project.slipway(["tools", "lock"])
            #expect(lock.status == 1, "\(lock.standardError)")
            #expect(lock.standardError == "error: The archive '\(server.url(for: name))' \(message)"
                + "Refusing to unpack it; nothing was installed. Report it to the tool's publisher.\n")
            #expect(try Snapshot.of(project.path) == before)
            #expect(project.temporaryLeftovers().isEmpty)
            #expect(!FileManager.default.fileExists(atPath: project.toolsCache + "/fmt"))
        }
    }
}
