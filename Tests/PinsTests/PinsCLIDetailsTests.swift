import Basics
import Foundation
@testable import Pins
import Testing
import TestSupport
import TestThreads

/// Details of the `deps` and `tools` commands' output, through the built `slipway` binary.
@Suite(.dedicatedThreads) struct PinsCLIDetailsTests {
    let platform = ToolPlatform.current

    /// Each failure is printed under its own file's line, before the next file's line.
    @Test func depsVerifyPrintsAFailureUnderItsOwnFile() throws {
        let project = try PinsProject()
        project.extraEnvironment["PATH"] = "/usr/bin:/bin"
        try project.write("Cartfile", DepsFixtures.cartfile)
        try project.write("Cartfile.private", DepsFixtures.cartfilePrivate)
        try project.write("Cartfile.resolved", DepsFixtures.cartfileResolved(nimble: "v14.0.0"))
        try project.write("Gemfile.lock", DepsFixtures.gemfileLock())
        let before = try Snapshot.of(project.path)
        let result = try project.slipway(["deps", "verify"])
        #expect(result.status == 1, "\(result.standardError)")
        #expect(result.standardOutput == """
            ✗ Cartfile.resolved: 6 check(s), 1 failed
                Cartfile.resolved: resolved 'github "Quick/Nimble"': expected == 13.2.1, found v14.0.0. Cartfile.resolved does not meet the Cartfile's requirement; run 'carthage update'.
            ✓ Cartfile: 0 check(s), 0 failed
            ✓ Cartfile.private: 0 check(s), 0 failed
            ✓ Gemfile.lock: 9 check(s), 0 failed

            """, "the failure sits under its own file, before the next file's line")
        #expect(try Snapshot.of(project.path) == before)
    }

    /// A `file://` archive URL is refused when the Toolfile is read, with the reason and what to do.
    @Test func aFileArchiveURLIsRefusedWithItsReason() throws {
        let project = try PinsProject()
        try project.write("Toolfile", """
            tools:
              fmt:
                archive: file:///etc/fmt-{version}.tar.gz
                executable: bin/fmt
                platforms: [\(platform)]
                version: 2.0.0

            """)
        let before = (try Snapshot.of(project.path), try Snapshot.of(project.cacheFolder.path))
        let expected = "Toolfile:3:14: error: the archive URL of tool 'fmt' is not an https:// or http:// URL: Slipway "
            + "downloads tools over https:// and http:// only, because a file:// (or other) URL in a Toolfile from a "
            + "checkout could read any file on this machine. Serve the archive over https:// (for a local test, any "
            + "HTTP server on 127.0.0.1 will do) and put that URL in the Toolfile.\n"
        for command in [["tools", "lock"], ["tools", "install"]] {
            let result = try project.slipway(command)
            #expect(result.status == 2, "\(command): \(result.standardOutput)\(result.standardError)")
            #expect(result.standardError.hasPrefix(expected), "\(command): \(result.standardError)")
            #expect(!result.standardError.contains(".."), "\(command): \(result.standardError)")
        }
        #expect(try Snapshot.of(project.path) == before.0)
        #expect(try Snapshot.of(project.cacheFolder.path) == before.1)
    }

    /// A `file://` URL that reaches the fetcher (a hand-edited Toolfile.lock) is refused before
    /// anything is read or written; a download error's own period is not doubled.
    @Test func theFetcherRefusesAFileURL() async throws {
        let project = try PinsProject()
        let url = "file:///etc/passwd.tar.gz"
        let before = try Snapshot.of(project.path)
        await #expect(throws: PinsError.refusedScheme(tool: "fmt", url: url)) {
            _ = try await ArchiveFetcher(context: project.context(), events: nil)
                .fetch(tool: "fmt", url: url, executable: "bin/fmt", expectedSHA256: nil, in: project.path + "/staging")
        }
        #expect(try Snapshot.of(project.path) == before)
        #expect(PinsError.refusedScheme(tool: "fmt", url: url).errorDescription == "Refusing to download 'fmt' from "
            + "'file:///etc/passwd.tar.gz': Slipway downloads tools over https:// and http:// only, because a file:// "
            + "(or other) URL in a Toolfile from a checkout could read any file on this machine. Serve the archive over "
            + "https:// (for a local test, any HTTP server on 127.0.0.1 will do) and put that URL in the Toolfile.")
        let failed = PinsError.downloadFailed(tool: "fmt", url: "u", reason: "'u' is not an http:// or https:// URL. Use one of those schemes.")
        #expect(failed.errorDescription == "Downloading 'fmt' from 'u' failed: 'u' is not an http:// or https:// URL. "
            + "Use one of those schemes. Check the URL and the network.")
    }
}
