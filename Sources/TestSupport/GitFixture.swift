import Foundation

/// A `git` command that exited with a failure status.
public struct GitCommandError: Error, CustomStringConvertible {
    /// The arguments after `git`.
    public let arguments: [String]
    /// The exit status.
    public let status: Int32
    /// What git printed on standard error.
    public let standardError: String

    /// `git <arguments>` with its status and error output.
    public var description: String {
        "git \(arguments.joined(separator: " ")) exited with \(status): \(standardError)"
    }
}

/// A git repository in a fresh temporary directory, driven through the real `git` CLI so that
/// tests can build a history and cross-check what the Git module reports. The CLI runs with
/// system and global configuration switched off and a fixed identity, so the machine's own
/// `~/.gitconfig` never leaks into a test.
public final class GitFixture: @unchecked Sendable {
    /// The directory; removed when the fixture is released.
    public let directory: TemporaryDirectory
    /// The identity used for commits and tags made through the CLI.
    public static let userName = "Fixture Author"
    /// The email used for commits and tags made through the CLI.
    public static let userEmail = "fixture@example.com"

    /// The repository's path (the working directory, or the repository itself when bare).
    public var path: String { directory.path }

    /// Makes a temporary directory and, unless `initialize` is false, runs `git init` there
    /// with `main` as the initial branch (`--bare` when `bare`).
    public init(prefix: String = "slipway-git", bare: Bool = false, initialize: Bool = true) throws {
        directory = try TemporaryDirectory(prefix: prefix)
        if initialize {
            try git(["init", "--quiet", "--initial-branch=main"] + (bare ? ["--bare"] : []))
        }
    }

    /// Runs `git` in the repository and returns its standard output without the final newline.
    /// - Throws: `GitCommandError` when git fails.
    @discardableResult
    public func git(_ arguments: String...) throws -> String {
        try git(arguments)
    }

    /// Runs `git` in the repository, feeding `input` on standard input.
    /// - Throws: `GitCommandError` when git fails.
    @discardableResult
    public func git(_ arguments: [String], input: Data? = nil) throws -> String {
        try Self.run(arguments, in: path, input: input)
    }

    /// Writes `contents` to a file of the working directory, creating folders on the way.
    @discardableResult
    public func write(_ relative: String, _ contents: String) throws -> String {
        try directory.write(relative, contents)
    }

    /// Writes `files`, stages everything (`git add -A`) and commits; returns the commit's id.
    @discardableResult
    public func commit(_ message: String, files: [String: String] = [:]) throws -> String {
        for (relative, contents) in files.sorted(by: { $0.key < $1.key }) {
            try write(relative, contents)
        }
        try git("add", "-A")
        try git("commit", "--quiet", "--allow-empty", "-m", message)
        return try git("rev-parse", "HEAD")
    }

    /// Installs an executable hook script (e.g. `update`, `pre-receive`) into the repository.
    public func installHook(_ name: String, script: String) throws {
        let hooks = try git("rev-parse", "--git-path", "hooks")
        let file = (hooks.hasPrefix("/") ? hooks : path + "/" + hooks) + "/" + name
        try FileManager.default.createDirectory(
            atPath: (file as NSString).deletingLastPathComponent, withIntermediateDirectories: true)
        try Data(script.utf8).write(to: URL(fileURLWithPath: file))
        try FileManager.default.setAttributes([.posixPermissions: 0o755], ofItemAtPath: file)
    }

    /// The environment every git command of a fixture runs with.
    public static var environment: [String: String] {
        var environment = ProcessInfo.processInfo.environment
        for key in environment.keys where key.hasPrefix("GIT_") { environment[key] = nil }
        environment["GIT_CONFIG_NOSYSTEM"] = "1"
        environment["GIT_CONFIG_GLOBAL"] = "/dev/null"
        environment["GIT_TERMINAL_PROMPT"] = "0"
        environment["GIT_AUTHOR_NAME"] = userName
        environment["GIT_AUTHOR_EMAIL"] = userEmail
        environment["GIT_COMMITTER_NAME"] = userName
        environment["GIT_COMMITTER_EMAIL"] = userEmail
        environment["LC_ALL"] = "C"
        return environment
    }

    /// Runs `git arguments` in `directory`; standard streams go through temporary files, so a
    /// large output can never fill a pipe and block.
    /// - Throws: `GitCommandError` when git exits with a failure status.
    @discardableResult
    public static func run(_ arguments: [String], in directory: String, input: Data? = nil) throws -> String {
        let scratch = try TemporaryDirectory(prefix: "slipway-git-io")
        let inputPath = scratch.path + "/stdin", outputPath = scratch.path + "/stdout", errorPath = scratch.path + "/stderr"
        try (input ?? Data()).write(to: URL(fileURLWithPath: inputPath))
        try Data().write(to: URL(fileURLWithPath: outputPath))
        try Data().write(to: URL(fileURLWithPath: errorPath))
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = ["git"] + arguments
        process.currentDirectoryURL = URL(fileURLWithPath: directory)
        process.environment = environment
        let stdin = try FileHandle(forReadingFrom: URL(fileURLWithPath: inputPath))
        let stdout = try FileHandle(forWritingTo: URL(fileURLWithPath: outputPath))
        let stderr = try FileHandle(forWritingTo: URL(fileURLWithPath: errorPath))
        defer { try? stdin.close(); try? stdout.close(); try? stderr.close() }
        process.standardInput = stdin
        process.standardOutput = stdout
        process.standardError = stderr
        try process.run()
        process.waitUntilExit()
        let output = (try? String(contentsOfFile: outputPath, encoding: .utf8)) ?? ""
        guard process.terminationStatus == 0 else {
            let error = (try? String(contentsOfFile: errorPath, encoding: .utf8)) ?? ""
            throw GitCommandError(arguments: arguments, status: process.terminationStatus, standardError: error)
        }
        return output.hasSuffix("\n") ? String(output.dropLast()) : output
    }
}
