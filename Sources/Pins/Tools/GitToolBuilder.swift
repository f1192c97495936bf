import Basics
import Foundation
import Git

/// Builds a git tool from its locked commit, the way Mint does but pinned: checks that the tag
/// still points at the locked commit (ls-remote), clones at that commit, runs
/// `swift build -c release --product X`, and copies the product (and its resource bundles) into
/// a staging folder.
struct GitToolBuilder: Sendable {
    let context: PinsContext
    let events: PinsEventHandler?

    /// Builds into `folder/payload`; returns it with the executable's SHA-256.
    /// - Throws: `PinsError.tagMoved`, `.tagMissing`, `.fetchFailed`, `.buildFailed`,
    ///   `.executableMissing`, `.buildNotReproducible`.
    func build(_ spec: ToolSpec, locked: LockedTool, in folder: String) async throws -> (payload: String, checksum: String) {
        guard let git = locked.git else {
            throw PinsError.lockOutOfDate(path: "Toolfile.lock", problems: ["'\(spec.name)' has no git entry"])
        }
        try await checkTag(spec.name, git)
        let source = folder + "/source"
        do {
            try await context.git.clone(url: git.url, commit: git.commit, into: source)
        } catch {
            throw PinsError.fetchFailed(tool: spec.name, url: git.url, reason: errorText(error))
        }
        let binFolder = try await runBuild(spec.name, product: git.product, in: source)
        let payload = folder + "/payload"
        try context.fileSystem.createDirectory(payload)
        let built = binFolder + "/" + git.product
        guard context.fileSystem.isExecutable(built) else { throw PinsError.executableMissing(tool: spec.name, path: git.product) }
        try context.files.copy(built, to: payload + "/" + git.product)
        for name in try context.fileSystem.contents(ofDirectory: binFolder)
        where name.hasSuffix(".resources") || name.hasSuffix(".bundle") {
            try context.files.copy(binFolder + "/" + name, to: payload + "/" + name)
        }
        let checksum = try context.files.sha256(ofFile: payload + "/" + git.product)
        let platform = context.platform.description
        if let expected = locked.executables[platform], expected != checksum {
            throw PinsError.buildNotReproducible(tool: spec.name, platform: platform, expected: expected, found: checksum)
        }
        return (payload, checksum)
    }

    /// The tag must still name the locked commit, or the install stops before cloning.
    private func checkTag(_ tool: String, _ git: LockedGit) async throws {
        let tags: [String: GitOID]
        do {
            tags = try await context.git.remoteTags(url: git.url)
        } catch {
            throw PinsError.fetchFailed(tool: tool, url: git.url, reason: errorText(error))
        }
        guard let current = tags[git.tag] else { throw PinsError.tagMissing(tool: tool, url: git.url, tag: git.tag) }
        if current != git.commit {
            throw PinsError.tagMoved(tool: tool, url: git.url, tag: git.tag, locked: git.commit.hex, current: current.hex)
        }
    }

    /// The flags that make a release build independent of the folder it is built in (no debug
    /// info, source paths mapped to one name, no module hash of the object file's path), so that
    /// the same commit and toolchain give the same executable on every machine and the lock's
    /// checksum means something.
    static func reproducibilityFlags(source: String) -> [String] {
        let mapping = "\(source)=/slipway-src"
        return ["-Xswiftc", "-file-prefix-map", "-Xswiftc", mapping, "-Xswiftc", "-gnone",
                "-Xswiftc", "-Xfrontend", "-Xswiftc", "-disable-incremental-llvm-codegen",
                "-Xcc", "-ffile-prefix-map=\(mapping)", "-Xcc", "-g0"]
    }

    /// Runs the release build and returns the folder with the products.
    private func runBuild(_ tool: String, product: String, in source: String) async throws -> String {
        let arguments = ["build", "-c", "release", "--product", product] + Self.reproducibilityFlags(source: source)
        let command = "swift build -c release --product \(product)"
        events?(.building(tool: tool, command: command))
        // SwiftPM leaves a lock file named after the build folder in $TMPDIR; point it into the
        // staging folder, which is removed afterwards, so that builds leave nothing behind.
        let temporary = (source as NSString).deletingLastPathComponent + "/tmp"
        try context.fileSystem.createDirectory(temporary)
        let environment = context.environment.merging(["TMPDIR": temporary]).variables
        let spec = ProcessSpec(executable: "swift", arguments: arguments, environment: environment, workingDirectory: source)
        let result: ProcessResult
        do {
            result = try await context.processRunner.run(spec)
        } catch {
            throw PinsError.buildFailed(tool: tool, command: command, output: errorText(error))
        }
        guard result.status.isSuccess else {
            let lines = (result.outputText + result.errorText).split(separator: "\n", omittingEmptySubsequences: false)
            throw PinsError.buildFailed(tool: tool, command: command, output: lines.suffix(30).joined(separator: "\n"))
        }
        return source + "/.build/release"
    }
}
