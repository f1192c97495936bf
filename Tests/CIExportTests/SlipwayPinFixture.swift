import Basics
import CIExport
import Foundation
import Pins
import TestSupport

/// A Slipway pin served from loopback: an archive whose `bin/slipway` is a STAND-IN (a shell
/// script that prints `slipway stand-in 9.9.9`, not Slipway), its lock entry for this machine's
/// platform, and the install script written as a file for `sh`.
final class SlipwayPinFixture: @unchecked Sendable {
    static let version = "9.9.9"
    static let standInOutput = "slipway stand-in 9.9.9"
    let folder: TemporaryDirectory
    var server: LoopbackHTTPServer?
    let url: String
    let archiveSHA256: String
    let executableSHA256: String
    let platform = ToolPlatform.current.description

    init() throws {
        folder = try TemporaryDirectory(prefix: "slipway-pin")
        let server = try LoopbackHTTPServer()
        let archive = try Self.archive(printing: Self.standInOutput, in: folder)
        try server.put("slipway-\(Self.version).tar.gz", try Data(contentsOf: URL(fileURLWithPath: archive)))
        self.server = server
        url = server.url(for: "slipway-\(Self.version).tar.gz")
        archiveSHA256 = try LocalToolFiles(fileSystem: LocalFileSystem()).sha256(ofFile: archive)
        executableSHA256 = try LocalToolFiles(fileSystem: LocalFileSystem()).sha256(ofFile: folder.path + "/content/bin/slipway")
    }

    /// A `.tar.gz` with `bin/slipway`, a script printing `output`; returns its path.
    static func archive(printing output: String, in folder: TemporaryDirectory, name: String = "archive.tar.gz") throws -> String {
        let content = folder.path + "/content"
        try? FileManager.default.removeItem(atPath: content)
        let executable = try folder.write("content/bin/slipway", "#!/bin/sh\n# STAND-IN for slipway (test fixture)\necho '\(output)'\n")
        try FileManager.default.setAttributes([.posixPermissions: 0o755], ofItemAtPath: executable)
        let archive = folder.path + "/" + name
        let tar = try CommandResult.run("/usr/bin/env", ["tar", "-czf", archive, "-C", content, "bin"])
        guard tar.status == 0 else { throw FixtureFailure("tar failed: \(tar.standardError)") }
        return archive
    }

    /// The lock entry, with `url` and checksums replaceable for hostile variants.
    func lockedTool(url: String? = nil, sha256: String? = nil, executable: String = "bin/slipway") throws -> LockedTool {
        guard let version = SemanticVersion(Self.version) else { throw FixtureFailure("bad version") }
        return LockedTool(source: .archive, version: version,
                          archive: LockedArchive(executable: executable,
                                                 platforms: [platform: LockedDownload(url: url ?? self.url, sha256: sha256 ?? archiveSHA256)]),
                          executables: [platform: executableSHA256])
    }

    /// The pin of `lockedTool()`.
    func pin() throws -> SlipwayPin { try SlipwayPin(try lockedTool()) }

    /// Writes the install script for `handOff` (plus `extra` lines) and runs it with `sh` in
    /// `folder`, HOME in the fixture, `$GITHUB_PATH` a file there, `PATH` with `prefix` first.
    func runScript(_ handOff: SlipwayBootstrap.PathHandOff, extra: [String] = [], pathPrefix: String? = nil) throws -> CommandResult {
        let lines = SlipwayBootstrap.lines(try pin(), handOff: handOff) + extra
        let script = try folder.write("install.sh", lines.joined(separator: "\n") + "\n")
        var environment: [String: String?] = ["HOME": home, "SLIPWAY_CACHE_DIR": nil, "GITHUB_PATH": gitHubPath]
        if let pathPrefix { environment["PATH"] = pathPrefix + ":" + (ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin") }
        return try CommandResult.run("/bin/sh", [script], in: folder.path, environment: environment)
    }

    var home: String { folder.path + "/home" }
    var gitHubPath: String { folder.path + "/github_path" }
    /// Where the script installs the executable.
    var installed: String { home + "/.cache/slipway/tools/slipway/\(Self.version)/\(platform)/bin/slipway" }
}

struct FixtureFailure: Error, CustomStringConvertible {
    let description: String
    init(_ description: String) { self.description = description }
}
