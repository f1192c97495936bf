import Basics
import CIExport
import Foundation
import Pins
import Testing
import TestSupport
import TestThreads

/// The install script every exported job runs when Toolfile.lock pins Slipway, run with the
/// real `sh`, `curl`, `sha256sum` and `tar` against a loopback HTTP server. The executable in the
/// archive is a STAND-IN (a script), which is all the script needs to install and run.
@Suite("Slipway's install script (pinned, checksum-verified, cached)", .dedicatedThreads)
struct SlipwayBootstrapTests {
    static let handOffs: [SlipwayBootstrap.PathHandOff] = [.githubPath, .export]

    /// GitHub's form appends the folder to `$GITHUB_PATH`; GitLab's and Buildkite's export PATH.
    static func extra(_ handOff: SlipwayBootstrap.PathHandOff) -> [String] {
        handOff == .export ? ["command -v slipway"] : []
    }

    @Test(arguments: handOffs)
    func installsThenUsesTheCacheWithTheServerStopped(handOff: SlipwayBootstrap.PathHandOff) throws {
        let fixture = try SlipwayPinFixture()
        let first = try fixture.runScript(handOff, extra: Self.extra(handOff))
        #expect(first.status == 0, "\(first.standardError)")
        let folder = (fixture.installed as NSString).deletingLastPathComponent
        #expect(first.standardError == """
            slipway 9.9.9 (\(fixture.platform)): downloading \(fixture.url)
            slipway 9.9.9 (\(fixture.platform)): installed \(fixture.installed)

            """)
        switch handOff {
        case .githubPath:
            #expect(first.standardOutput == SlipwayPinFixture.standInOutput + "\n")
            #expect(try String(contentsOfFile: fixture.gitHubPath, encoding: .utf8) == folder + "\n")
        case .export:
            #expect(first.standardOutput == SlipwayPinFixture.standInOutput + "\n" + fixture.installed + "\n")
        }
        #expect(try LocalToolFiles(fileSystem: LocalFileSystem()).sha256(ofFile: fixture.installed) == fixture.executableSHA256)

        fixture.server = nil  // stops the server: the second run must not download
        let second = try fixture.runScript(handOff, extra: Self.extra(handOff))
        #expect(second.status == 0, "\(second.standardError)")
        #expect(second.standardError == "slipway 9.9.9 (\(fixture.platform)): using the cached \(fixture.installed)\n")
    }

    @Test(arguments: handOffs)
    func aTamperedCachedExecutableIsDownloadedAgainOrFails(handOff: SlipwayBootstrap.PathHandOff) throws {
        let fixture = try SlipwayPinFixture()
        #expect(try fixture.runScript(handOff).status == 0)
        try Data("#!/bin/sh\necho tampered\n".utf8).write(to: URL(fileURLWithPath: fixture.installed))
        let again = try fixture.runScript(handOff)
        #expect(again.status == 0, "\(again.standardError)")
        #expect(again.standardError == """
            slipway 9.9.9 (\(fixture.platform)): the cached \(fixture.installed) does not match Toolfile.lock; downloading it again
            slipway 9.9.9 (\(fixture.platform)): downloading \(fixture.url)
            slipway 9.9.9 (\(fixture.platform)): installed \(fixture.installed)

            """)
        #expect(try LocalToolFiles(fileSystem: LocalFileSystem()).sha256(ofFile: fixture.installed) == fixture.executableSHA256)

        try Data("#!/bin/sh\necho tampered\n".utf8).write(to: URL(fileURLWithPath: fixture.installed))
        fixture.server = nil
        let offline = try fixture.runScript(handOff)
        #expect(offline.status == 1)
        #expect(offline.standardOutput == "")
        // curl's own line (its wording varies between versions) sits between these.
        #expect(offline.standardError.hasPrefix("""
            slipway 9.9.9 (\(fixture.platform)): the cached \(fixture.installed) does not match Toolfile.lock; downloading it again
            slipway 9.9.9 (\(fixture.platform)): downloading \(fixture.url)

            """ + "curl: (7) "), "\(offline.standardError)")
        #expect(offline.standardError.hasSuffix("""
            error: could not download slipway 9.9.9 from \(fixture.url) (curl exit status 7)

            """), "\(offline.standardError)")
        #expect(try String(contentsOfFile: fixture.installed, encoding: .utf8) == "#!/bin/sh\necho tampered\n", "the tampered file is not used, nor replaced")
    }

    @Test(arguments: handOffs)
    func aTamperedArchiveFailsBeforeItIsUnpacked(handOff: SlipwayBootstrap.PathHandOff) throws {
        let fixture = try SlipwayPinFixture()
        let other = try SlipwayPinFixture.archive(printing: "evil", in: fixture.folder, name: "other.tar.gz")
        let otherSHA256 = try LocalToolFiles(fileSystem: LocalFileSystem()).sha256(ofFile: other)
        try fixture.server?.put("slipway-9.9.9.tar.gz", try Data(contentsOf: URL(fileURLWithPath: other)))
        let result = try fixture.runScript(handOff)
        #expect(result.status == 1)
        #expect(result.standardOutput == "")
        #expect(result.standardError == """
            slipway 9.9.9 (\(fixture.platform)): downloading \(fixture.url)
            error: checksum mismatch for slipway 9.9.9 (\(fixture.platform)) from \(fixture.url): Toolfile.lock expects sha256 \
            \(fixture.archiveSHA256), the download has sha256 \(otherSHA256); it was not unpacked. If the archive was replaced \
            on purpose, run 'slipway tools lock' again and review the change

            """)
        #expect(!FileManager.default.fileExists(atPath: fixture.home + "/.cache/slipway/tools"), "nothing installed")
        #expect(!FileManager.default.fileExists(atPath: fixture.gitHubPath), "nothing added to PATH")
    }

    @Test(arguments: handOffs)
    func aLinkInTheCacheFolderIsNotWrittenThrough(handOff: SlipwayBootstrap.PathHandOff) throws {
        let fixture = try SlipwayPinFixture()
        let elsewhere = fixture.folder.path + "/elsewhere"
        try FileManager.default.createDirectory(atPath: elsewhere, withIntermediateDirectories: true)
        let versionFolder = fixture.home + "/.cache/slipway/tools/slipway/9.9.9"
        try FileManager.default.createDirectory(atPath: (versionFolder as NSString).deletingLastPathComponent, withIntermediateDirectories: true)
        try FileManager.default.createSymbolicLink(atPath: versionFolder, withDestinationPath: elsewhere)
        let result = try fixture.runScript(handOff)
        #expect(result.status == 1)
        let resolved = URL(fileURLWithPath: elsewhere).resolvingSymlinksInPath().path
        #expect(result.standardError.hasSuffix("error: \(versionFolder) leads to \(resolved) through a symbolic link; refusing to install "
            + "slipway there: remove the link from the cache folder (a checkout may hold the cache folder on GitLab)\n"), "\(result.standardError)")
        #expect(try FileManager.default.contentsOfDirectory(atPath: elsewhere) == [])
    }

    /// `slipway tools install` finds what the script installed: same folder, same checksum.
    @Test func theInstallIsWhereToolsInstallLooks() throws {
        let fixture = try SlipwayPinFixture()
        #expect(try fixture.runScript(.export).status == 0)
        let cache = ToolsCache(root: fixture.home + "/.cache/slipway/tools")
        let folder = cache.installDirectory(tool: "slipway", version: try #require(SemanticVersion("9.9.9")), platform: .current)
        #expect(folder + "/bin/slipway" == fixture.installed)
        #expect(FileManager.default.isExecutableFile(atPath: fixture.installed))
    }

    /// STAND-IN for `uname` (a script on PATH) reporting another machine.
    private func unameStandIn(_ fixture: SlipwayPinFixture, system: String, machine: String) throws -> String {
        let script = try fixture.folder.write("stand-in-bin/uname", """
            #!/bin/sh
            # STAND-IN for uname (test): reports another machine.
            case "$1" in -s) echo '\(system)' ;; -m) echo '\(machine)' ;; *) echo '\(system)' ;; esac

            """)
        try FileManager.default.setAttributes([.posixPermissions: 0o755], ofItemAtPath: script)
        return (script as NSString).deletingLastPathComponent
    }

    @Test(arguments: handOffs)
    func anUnlistedPlatformFailsClearly(handOff: SlipwayBootstrap.PathHandOff) throws {
        let fixture = try SlipwayPinFixture()
        let current = ToolPlatform.current
        let (system, machine, other) = current.description == "linux-x86_64" ? ("Linux", "aarch64", "linux-arm64")
            : current.os == "linux" ? ("Linux", "x86_64", "linux-x86_64") : ("Darwin", current.arch == "arm64" ? "x86_64" : "arm64",
                                                                            current.arch == "arm64" ? "macos-x86_64" : "macos-arm64")
        let unlisted = try fixture.runScript(handOff, pathPrefix: try unameStandIn(fixture, system: system, machine: machine))
        #expect(unlisted.status == 1)
        #expect(unlisted.standardError == """
            error: Toolfile.lock pins slipway 9.9.9 for \(current) only, not for this runner (\(other), uname: \(system) \(machine)); \
            add \(other) to the platforms of 'slipway' in the Toolfile and run 'slipway tools lock', or run this job on a listed platform

            """)
        let cpu = try fixture.runScript(handOff, pathPrefix: try unameStandIn(fixture, system: "Linux", machine: "riscv64"))
        #expect(cpu.status == 1)
        #expect(cpu.standardError == "error: this runner's CPU 'riscv64' (uname -m) is neither x86_64 nor arm64: Slipway runs on those two\n")
        let system2 = try fixture.runScript(handOff, pathPrefix: try unameStandIn(fixture, system: "FreeBSD", machine: "amd64"))
        #expect(system2.status == 1)
        #expect(system2.standardError == "error: this runner's system 'FreeBSD' (uname -s) is neither Linux nor Darwin: Slipway runs on Linux and macOS\n")
        #expect(!FileManager.default.fileExists(atPath: fixture.home + "/.cache"), "nothing downloaded or installed")
    }
}

extension SlipwayBootstrap.PathHandOff: CustomTestStringConvertible {
    public var testDescription: String { self == .githubPath ? "GitHub ($GITHUB_PATH)" : "GitLab/Buildkite (export PATH)" }
}
