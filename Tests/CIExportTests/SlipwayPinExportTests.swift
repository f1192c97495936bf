import Basics
import CIExport
import Foundation
import Pins
import Testing
import TestSupport
import TestThreads

/// `ci export` and Slipway's pin: no pin is an error that says how to pin it, the options that
/// replace the install, and a hostile Toolfile.lock refused before anything is written.
@Suite("ci export installs the pinned Slipway", .dedicatedThreads)
struct SlipwayPinExportTests {
    private func slipway(_ arguments: [String], in folder: TemporaryDirectory) throws -> CommandResult {
        try CommandResult.run(Binaries.slipway, arguments, in: folder.path, environment: ["NO_COLOR": "1"])
    }

    static let lane = "steps:\n  - run: { command: 'echo hi' }\n    id: hello\n"

    static let notPinned = """
        every exported job runs 'slipway', but %@: pin Slipway so that each job installs that exact build, \
        checksum-verified and cached. Add it to the Toolfile (your release's URL, with {version}, {os} and {arch} \
        placeholders, and the exact version the project uses):
          tools:
            slipway:
              archive: https://example.com/slipway/{version}/slipway-{os}-{arch}.tar.gz
              executable: slipway
              platforms: [linux-x86_64, macos-arm64]
              version: 1.2.3
        then run 'slipway tools lock' and commit Toolfile and Toolfile.lock. Or pass --slipway-on-path when the \
        runners already have slipway, or --slipway-setup COMMAND to install it your way (see docs/ci.md)
        """

    @Test(arguments: CIEngine.allCases)
    func withoutAPinOrAnOptionTheExportStopsAndSaysHow(engine: CIEngine) throws {
        let folder = try TemporaryDirectory(prefix: "slipway-ci-nopin")
        try folder.write("lanes/ship.yml", Self.lane)
        let before = try Snapshot.of(folder.path)
        for arguments in [["ci", "export", "ship", "--to", engine.rawValue, "--output", "out.yml"],
                          ["ci", "check", "ship", "--to", engine.rawValue, "--file", "out.yml"]] {
            let result = try slipway(arguments, in: folder)
            #expect(result.status == 2)
            #expect(result.standardOutput == "")
            #expect(result.standardError == "error: " + Self.notPinned.replacingOccurrences(of: "%@", with: "there is no Toolfile.lock") + "\n")
        }
        try folder.write("Toolfile.lock", "{\n  \"tools\" : {\n\n  },\n  \"version\" : 1\n}\n")
        let noEntry = try slipway(["ci", "export", "ship", "--to", engine.rawValue, "--output", "out.yml"], in: folder)
        #expect(noEntry.status == 2)
        #expect(noEntry.standardError == "error: " + Self.notPinned.replacingOccurrences(of: "%@", with: "Toolfile.lock pins no tool 'slipway'") + "\n")
        #expect(try Snapshot.of(folder.path).filter { $0.key != "Toolfile.lock" } == before)

        let both = try slipway(["ci", "export", "ship", "--to", engine.rawValue, "--slipway-on-path", "--slipway-setup", "x", "--output", "out.yml"], in: folder)
        #expect(both.status == 2)
        #expect(both.standardError == "error: --slipway-setup and --slipway-on-path both say how jobs get slipway; pass one of them\n")
        #expect(!FileManager.default.fileExists(atPath: folder.path + "/out.yml"))
    }

    @Test func aCorruptLockIsBadInputAndNothingIsWritten() throws {
        let folder = try TemporaryDirectory(prefix: "slipway-ci-corrupt-lock")
        try folder.write("lanes/ship.yml", Self.lane)
        try folder.write("Toolfile.lock", "{ \"version\": 1, ")
        let before = try Snapshot.of(folder.path)
        let result = try slipway(["ci", "export", "ship", "--to", "gitlab", "--output", ".gitlab-ci.yml"], in: folder)
        #expect(result.status == 2)
        #expect(result.standardError == "error: 'Toolfile.lock' is not a valid Toolfile.lock: it is not valid JSON. Restore it "
            + "from version control, or delete it and run 'slipway tools lock' to write it again.\n")
        #expect(try Snapshot.of(folder.path) == before)
        let onPath = try slipway(["ci", "export", "ship", "--to", "gitlab", "--slipway-on-path"], in: folder)
        #expect(onPath.status == 0, "the lock is not read when no pin is needed: \(onPath.standardError)")
    }

    @Test(arguments: CIEngine.allCases)
    func theOptionsReplaceTheInstall(engine: CIEngine) throws {
        let folder = try CIExportSupport.matrixProject()
        let pinned = try slipway(["ci", "export", "ios-matrix", "--to", engine.rawValue], in: folder)
        #expect(pinned.status == 0, "\(pinned.standardError)")
        #expect(pinned.standardOutput.contains("Install slipway 1.2.3 as pinned in Toolfile.lock"))
        let onPath = try slipway(["ci", "export", "ios-matrix", "--to", engine.rawValue, "--slipway-on-path"], in: folder)
        #expect(onPath.status == 0, "\(onPath.standardError)")
        #expect(!onPath.standardOutput.contains("Toolfile.lock"))
        #expect(onPath.standardOutput.contains("#   slipway ci export ios-matrix --to \(engine.rawValue) --slipway-on-path\n"))
        let setup = try slipway(["ci", "export", "ios-matrix", "--to", engine.rawValue, "--slipway-setup", "brew install slipway"], in: folder)
        #expect(setup.status == 0, "\(setup.standardError)")
        #expect(!setup.standardOutput.contains("Toolfile.lock"))
        #expect(setup.standardOutput.contains("brew install slipway"))
    }

    static let unsafeTail = "; every job's install script would use it. Fix 'slipway' in the Toolfile and run 'slipway tools lock' "
        + "again (a Toolfile.lock from a checkout is not trusted)"
    static let urlReason = "which has a character outside letters, digits and -._~:/?&=%+,@ (a quote, '$', space or line break could change the script)"
    static let goodSHA = String(repeating: "ab", count: 32)
    static let platform = ToolPlatform.current.description

    /// Hostile values of a checkout's Toolfile.lock, and the exact refusal each gets.
    static let hostile: [(String, String?, String?, String, String)] = [
        ("quote in the URL", "https://example.com/x'; touch pwned; '.tar.gz", nil, "archive.platforms.\(platform).url",
         "'https://example.com/x'; touch pwned; '.tar.gz', " + urlReason),
        ("command substitution in the URL", "https://example.com/$(touch pwned).tar.gz", nil, "archive.platforms.\(platform).url",
         "'https://example.com/$(touch pwned).tar.gz', " + urlReason),
        ("line break in the URL", "https://example.com/a\nrun: touch pwned\n.tar.gz", nil, "archive.platforms.\(platform).url",
         "'https://example.com/a\\u{A}run: touch pwned\\u{A}.tar.gz', " + urlReason),
        ("file URL", "file:///etc/passwd.tar.gz", nil, "archive.platforms.\(platform).url",
         "'file:///etc/passwd.tar.gz', which is not an http:// or https:// URL"),
        ("not an archive", "https://example.com/slipway", nil, "archive.platforms.\(platform).url",
         "'https://example.com/slipway', which is not a .tar.gz, .tgz or .zip archive"),
        ("non-hex sha256", nil, "'$(touch pwned)'" + String(repeating: "0", count: 49), "archive.platforms.\(platform).sha256",
         "''$(touch pwned)'" + String(repeating: "0", count: 49) + "', which is not a sha256 (64 lowercase hexadecimal digits)"),
    ]

    @Test(arguments: 0..<hostile.count)
    func aHostileLockValueIsRefusedAndNothingIsWritten(index: Int) throws {
        let (_, url, sha, field, detail) = Self.hostile[index]
        let folder = try TemporaryDirectory(prefix: "slipway-ci-hostile-lock")
        try folder.write("lanes/ship.yml", Self.lane)
        guard let version = SemanticVersion("1.2.3") else { throw FixtureFailure("version") }
        let tool = LockedTool(source: .archive, version: version,
                              archive: LockedArchive(executable: "slipway", platforms: [Self.platform: LockedDownload(
                                  url: url ?? "https://example.com/slipway.tar.gz", sha256: sha ?? Self.goodSHA)]),
                              executables: [Self.platform: Self.goodSHA])
        try folder.write("Toolfile.lock", String(decoding: try LockfileStore.encode(Lockfile(tools: ["slipway": tool])), as: UTF8.self))
        let before = try Snapshot.of(folder.path)
        let message = "refusing to export: Toolfile.lock's tool 'slipway' has \(field) \(detail)" + Self.unsafeTail
        do {
            _ = try SlipwayPin(tool)
            Issue.record("accepted")
        } catch {
            #expect((error as? CIExportError)?.description == message)
        }
        for engine in CIEngine.allCases {
            let result = try slipway(["ci", "export", "ship", "--to", engine.rawValue, "--output", "out.yml"], in: folder)
            #expect(result.status == 2)
            #expect(result.standardError == "error: " + message + "\n")
        }
        #expect(try Snapshot.of(folder.path) == before)
        #expect(!FileManager.default.fileExists(atPath: folder.path + "/pwned"))
    }

    @Test func aGitPinOrABadExecutablePathIsRefused() throws {
        guard let version = SemanticVersion("1.2.3") else { throw FixtureFailure("version") }
        let git = LockedTool(source: .git, version: version)
        #expect(throws: CIExportError.slipwayPinNotArchive(source: "git")) { try SlipwayPin(git) }
        #expect(CIExportError.slipwayPinNotArchive(source: "git").description == "Toolfile.lock pins 'slipway' as a git tool, but exported "
            + "jobs install Slipway from a prebuilt archive: make 'slipway' an archive tool in the Toolfile (archive:, executable:, "
            + "platforms:, version:) and run 'slipway tools lock', or pass --slipway-on-path or --slipway-setup COMMAND")
        #expect(CIExportError.slipwayPinUnsafe(field: "archive.executable", value: "bin/slipway-cli",
                                               reason: "does not name a file 'slipway' (jobs put its folder on PATH and call 'slipway')").description
            == "refusing to export: Toolfile.lock's tool 'slipway' has archive.executable 'bin/slipway-cli', which does not name a file "
            + "'slipway' (jobs put its folder on PATH and call 'slipway')" + Self.unsafeTail)
        for executable in ["../slipway", "/bin/sh", "bin/$(x)", "bin/slipway-cli", "slipway/"] {
            let tool = LockedTool(source: .archive, version: version,
                                  archive: LockedArchive(executable: executable, platforms: [Self.platform: LockedDownload(
                                      url: "https://example.com/s.tar.gz", sha256: Self.goodSHA)]),
                                  executables: [Self.platform: Self.goodSHA])
            #expect(throws: CIExportError.self) { try SlipwayPin(tool) }
        }
        let misnamed = LockedTool(source: .archive, version: version,
                                  archive: LockedArchive(executable: "bin/slipway-cli", platforms: [Self.platform: LockedDownload(
                                      url: "https://example.com/s.tar.gz", sha256: Self.goodSHA)]),
                                  executables: [Self.platform: Self.goodSHA])
        #expect(throws: CIExportError.slipwayPinUnsafe(field: "archive.executable", value: "bin/slipway-cli",
                                                       reason: "does not name a file 'slipway' (jobs put its folder on PATH and call 'slipway')")) {
            try SlipwayPin(misnamed)
        }
        let noExecutable = LockedTool(source: .archive, version: version,
                                      archive: LockedArchive(executable: "slipway", platforms: [Self.platform: LockedDownload(
                                          url: "https://example.com/s.tar.gz", sha256: Self.goodSHA)]))
        #expect(throws: CIExportError.slipwayPinUnsafe(field: "executables.\(Self.platform)", value: "",
                                                       reason: "is missing (the executable's sha256 for that platform)")) { try SlipwayPin(noExecutable) }
    }
}
