import Basics
import Foundation
import Networking
@testable import Pins
import TestSupport

/// A project folder and a tools cache of its own, with the services wired for real.
final class PinsProject: @unchecked Sendable {
    let folder: TemporaryDirectory
    let cacheFolder: TemporaryDirectory
    var files: any ToolFiles = LocalToolFiles(fileSystem: LocalFileSystem())
    var extraEnvironment: [String: String] = [:]

    init(prefix: String = "slipway") throws {
        folder = try TemporaryDirectory(prefix: prefix + "-pins")
        cacheFolder = try TemporaryDirectory(prefix: prefix + "-cache")
    }

    var path: String { folder.path }
    var toolsCache: String { cacheFolder.path + "/tools" }

    /// The environment commands run with: this process's, with the cache moved here.
    var environment: Environment {
        Environment.current.merging(["SLIPWAY_CACHE_DIR": cacheFolder.path].merging(extraEnvironment) { $1 })
    }

    func context(online: Bool = true) -> PinsContext {
        var context = PinsContext(projectDirectory: path, fileSystem: LocalFileSystem(), processRunner: LocalProcessRunner(),
                                  environment: environment, http: online ? SystemHTTPClient() : nil)
        context.files = files
        return context
    }

    @discardableResult
    func write(_ relative: String, _ text: String) throws -> String { try folder.write(relative, text) }

    func read(_ relative: String) throws -> String {
        try String(contentsOfFile: path + "/" + relative, encoding: .utf8)
    }

    func exists(_ relative: String) -> Bool { FileManager.default.fileExists(atPath: path + "/" + relative) }

    /// Names in the cache's temporary folder (leftovers of interrupted installs).
    func temporaryLeftovers() -> [String] {
        (try? FileManager.default.contentsOfDirectory(atPath: toolsCache + "/.tmp")) ?? []
    }

    /// Runs the built `slipway` in this project with this cache.
    func slipway(_ arguments: [String], environment extra: [String: String?] = [:]) throws -> CommandResult {
        var environment: [String: String?] = ["SLIPWAY_CACHE_DIR": cacheFolder.path, "NO_COLOR": "1", "GITHUB_ACTIONS": nil]
        for (key, value) in extraEnvironment { environment[key] = value }
        for (key, value) in extra { environment[key] = value }
        return try CommandResult.run(Binaries.slipway, arguments, in: path, environment: environment)
    }
}

/// Runs a command for a fixture and fails loudly when it fails.
@discardableResult
func sh(_ executable: String, _ arguments: [String], in directory: String? = nil) throws -> String {
    let result = try CommandResult.run(executable, arguments, in: directory)
    guard result.status == 0 else {
        throw FixtureError("\(executable) \(arguments.joined(separator: " ")) failed: \(result.standardError)")
    }
    return result.standardOutput
}

struct FixtureError: Error, CustomStringConvertible {
    let description: String
    init(_ description: String) { self.description = description }
}

/// A real git repository of a tiny Swift package whose executable `mytool` prints
/// `mytool version <tag>`, with one commit per tag.
final class ToolRepository: @unchecked Sendable {
    static let defaultTags = ["0.9.0", "1.0.0", "1.1.0-beta.1", "1.1.0"]
    let folder: TemporaryDirectory

    init(tags: [String] = ToolRepository.defaultTags, prefix: String = "slipway-toolrepo") throws {
        folder = try TemporaryDirectory(prefix: prefix)
        try git(["init", "-q", "-b", "main"])
        try folder.write("Package.swift", """
            // swift-tools-version:5.9
            import PackageDescription
            let package = Package(name: "mytool", targets: [.executableTarget(name: "mytool")])

            """)
        for tag in tags { try commitAndTag(tag) }
    }

    var url: String { "file://" + folder.path }

    func git(_ arguments: [String]) throws {
        try sh("/usr/bin/env", ["git", "-c", "user.name=Test", "-c", "user.email=test@example.com",
                                "-c", "commit.gpgsign=false", "-c", "tag.gpgsign=false"] + arguments, in: folder.path)
    }

    /// Commits a version of the tool printing `version` and tags it `tag` (moved with `force`).
    func commitAndTag(_ tag: String, printing version: String? = nil, force: Bool = false) throws {
        try folder.write("Sources/mytool/main.swift", "print(\"mytool version \(version ?? tag)\")\n")
        try git(["add", "-A"])
        try git(["commit", "-q", "--allow-empty", "-m", "release \(tag)"])
        try git(["tag"] + (force ? ["-f"] : []) + [tag])
    }

    func commit(of tag: String) throws -> String {
        try sh("/usr/bin/env", ["git", "rev-parse", tag + "^{commit}"], in: folder.path)
            .trimmingCharacters(in: .whitespacesAndNewlines)
    }
}

/// The git tool built for real once per test run, shared by the tests that need an installed
/// git tool (a release build takes seconds; each test copies the result into its own cache).
actor SharedGitBuild {
    static let shared = SharedGitBuild()

    struct Built: Sendable {
        let repository: ToolRepository
        let project: PinsProject
    }

    private var task: Task<Built, any Error>?

    func built() async throws -> Built {
        if let task { return try await task.value }
        let task = Task { () throws -> Built in
            // A shared value outlives the tests, so its folders are never released: they carry
            // this process's id and are removed when the test process exits (those of a run that
            // crashed are removed by the next run, here).
            Self.removeFoldersOfFinishedRuns()
            atexit { SharedGitBuild.removeFolders(ofProcess: getpid()) }
            let prefix = "slipway-shared-\(getpid())"
            let repository = try ToolRepository(prefix: prefix + "-repo")
            let project = try PinsProject(prefix: prefix)
            try project.write("Toolfile", "tools:\n  mytool:\n    git: \(repository.url)\n    version: ^1.0\n")
            _ = try await ToolLocker(context: project.context()).lock()
            _ = try await ToolInstaller(context: project.context()).install()
            return Built(repository: repository, project: project)
        }
        self.task = task
        return try await task.value
    }

    static func removeFolders(ofProcess pid: Int32) {
        let temporary = NSTemporaryDirectory()
        for name in (try? FileManager.default.contentsOfDirectory(atPath: temporary)) ?? []
        where name.hasPrefix("slipway-shared-\(pid)-") {
            try? FileManager.default.removeItem(atPath: (temporary as NSString).appendingPathComponent(name))
        }
    }

    private static func removeFoldersOfFinishedRuns() {
        let temporary = NSTemporaryDirectory()
        for name in (try? FileManager.default.contentsOfDirectory(atPath: temporary)) ?? [] where name.hasPrefix("slipway-shared-") {
            let pid = Int32(name.dropFirst("slipway-shared-".count).prefix { $0.isNumber }) ?? 0
            if pid > 0, pid != getpid(), kill(pid, 0) != 0 {
                try? FileManager.default.removeItem(atPath: (temporary as NSString).appendingPathComponent(name))
            }
        }
    }

    /// A new project whose Toolfile, lock and cache hold the built tool.
    func installedProject() async throws -> (PinsProject, ToolRepository) {
        let built = try await built()
        let project = try PinsProject()
        try project.write("Toolfile", try built.project.read("Toolfile"))
        try project.write("Toolfile.lock", try built.project.read("Toolfile.lock"))
        try FileManager.default.createDirectory(atPath: project.toolsCache, withIntermediateDirectories: true)
        try FileManager.default.copyItem(atPath: built.project.toolsCache + "/mytool", toPath: project.toolsCache + "/mytool")
        return (project, built.repository)
    }
}

/// Archives of a fake tool: `bin/<name>`, a shell script printing `<output>`.
enum ArchiveMaker {
    static func script(printing output: String) -> String {
        "#!/bin/sh\necho \"\(output)\"\n"
    }

    /// A `.tar.gz` (or `.zip`) whose `bin/<name>` prints `output`.
    static func make(name: String, printing output: String, zip: Bool = false) throws -> Data {
        let staging = try TemporaryDirectory(prefix: "slipway-archive")
        let executable = try staging.write("content/bin/\(name)", script(printing: output))
        try sh("/bin/chmod", ["+x", executable])
        let archive = staging.path + (zip ? "/out.zip" : "/out.tar.gz")
        if zip {
            try sh("/usr/bin/env", ["zip", "-q", "-r", archive, "bin"], in: staging.path + "/content")
        } else {
            try sh("/usr/bin/env", ["tar", "-czf", archive, "-C", staging.path + "/content", "bin"])
        }
        return try Data(contentsOf: URL(fileURLWithPath: archive))
    }

    /// A `.tar.gz` built by Python's tarfile with entries tar itself would not write:
    /// `entries` are (name, kind, content-or-link-target) with kind "file" or "symlink".
    static func crafted(_ entries: [(String, String, String)]) throws -> Data {
        try python(writing: "crafted.tar.gz", """
            import io, sys, tarfile
            with tarfile.open(sys.argv[1], "w:gz") as archive:
                for name, kind, value in ENTRIES:
                    info = tarfile.TarInfo(name)
                    if kind == "symlink":
                        info.type = tarfile.SYMTYPE
                        info.linkname = value
                        archive.addfile(info)
                    else:
                        data = value.encode()
                        info.size = len(data)
                        info.mode = 0o755
                        archive.addfile(info, io.BytesIO(data))
            """, entries)
    }

    /// A `.zip` built by Python's zipfile with entries zip(1) would not write: `entries` as in
    /// `crafted`; a symlink is a Unix entry of mode 0120777 whose contents are its target.
    static func craftedZip(_ entries: [(String, String, String)]) throws -> Data {
        try python(writing: "crafted.zip", """
            import sys, zipfile
            with zipfile.ZipFile(sys.argv[1], "w") as archive:
                for name, kind, value in ENTRIES:
                    info = zipfile.ZipInfo(name)
                    info.create_system = 3
                    info.external_attr = (0o120777 if kind == "symlink" else 0o100755) << 16
                    archive.writestr(info, value)
            """, entries)
    }

    /// Runs `program` with `ENTRIES` bound to `entries` (name, kind, value) and the path of an
    /// archive `name` in a temporary folder as its argument; returns what it wrote there.
    private static func python(writing name: String, _ program: String, _ entries: [(String, String, String)]) throws -> Data {
        let staging = try TemporaryDirectory(prefix: "slipway-archive")
        let archive = staging.path + "/" + name
        func quoted(_ text: String) -> String { "\"" + text.replacingOccurrences(of: "\\", with: "\\\\") + "\"" }
        let listing = entries.map { "(\(quoted($0.0)), \(quoted($0.1)), \(quoted($0.2)))" }.joined(separator: ", ")
        let script = try staging.write("make.py", "ENTRIES = [\(listing)]\n" + program)
        try sh("/usr/bin/env", ["python3", script, archive])
        return try Data(contentsOf: URL(fileURLWithPath: archive))
    }
}

extension PinsProject {
    /// A project whose one tool `fmt` (1.0.0, `bin/fmt`, this platform) is the archive `name` on `server`.
    static func servingArchive(_ name: String, from server: LoopbackHTTPServer) throws -> PinsProject {
        let project = try PinsProject()
        try project.write("Toolfile", """
            tools:
              fmt:
                archive: \(server.url(for: name))
                executable: bin/fmt
                platforms: [\(ToolPlatform.current)]
                version: 1.0.0

            """)
        return project
    }
}

/// `ToolFiles` that counts how often files are hashed (to see the verify cache work).
final class CountingToolFiles: ToolFiles, @unchecked Sendable {
    private let base = LocalToolFiles(fileSystem: LocalFileSystem())
    private let lock = NSLock()
    private var hashed: [String] = []

    var hashCount: Int { lock.withLock { hashed.count } }
    func reset() { lock.withLock { hashed.removeAll() } }

    func identity(of path: String) -> FileIdentity? { base.identity(of: path) }
    func sha256(ofFile path: String) throws -> String {
        lock.withLock { hashed.append(path) }
        return try base.sha256(ofFile: path)
    }
    func copy(_ source: String, to destination: String) throws { try base.copy(source, to: destination) }
    func makeExecutable(_ path: String) throws { try base.makeExecutable(path) }
}

/// Reads the error a call throws, as its user-facing text.
func thrownText(_ body: () async throws -> Void) async -> String? {
    do {
        try await body()
        return nil
    } catch {
        return errorText(error)
    }
}
