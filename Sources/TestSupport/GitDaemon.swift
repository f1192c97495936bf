import Foundation

/// A `git daemon` serving the repositories below a directory on 127.0.0.1 only, with pushes
/// enabled. libgit2 pushes to `file://` URLs in-process and never runs the remote's hooks; a
/// test that needs a server-side hook to refuse a ref pushes to this daemon's `git://` URL
/// instead, which runs the real `git receive-pack` and its hooks. Loopback only: no network.
public final class GitDaemon: @unchecked Sendable {
    /// The directory whose repositories are served.
    public let basePath: String
    /// The TCP port on 127.0.0.1.
    public let port: Int
    private let process: Process
    private let log: TemporaryDirectory

    /// Starts the daemon on a free port and waits until it accepts connections.
    /// - Throws: `GitCommandError` when it cannot start (after a few ports were tried).
    public init(serving basePath: String) throws {
        self.basePath = basePath
        log = try TemporaryDirectory(prefix: "slipway-git-daemon")
        // Run git-daemon itself rather than `git daemon`, which would fork it as a child that
        // a terminate signal to the parent might leave running.
        let executable = try GitFixture.run(["--exec-path"], in: basePath) + "/git-daemon"
        var lastError = ""
        for _ in 0..<8 {
            let port = Int.random(in: 20_000..<60_000)
            let logPath = log.path + "/daemon-\(port).log"
            try Data().write(to: URL(fileURLWithPath: logPath))
            let process = Process()
            process.executableURL = URL(fileURLWithPath: executable)
            process.arguments = [
                "--verbose", "--reuseaddr", "--listen=127.0.0.1", "--port=\(port)",
                "--export-all", "--enable=receive-pack", "--informative-errors",
                "--base-path=\(basePath)", basePath,
            ]
            process.environment = GitFixture.environment
            let handle = try FileHandle(forWritingTo: URL(fileURLWithPath: logPath))
            process.standardError = handle
            process.standardOutput = handle
            try process.run()
            try? handle.close()
            if Self.waitUntilReady(process, logPath: logPath) {
                self.port = port
                self.process = process
                return
            }
            Self.stop(process)
            lastError = (try? String(contentsOfFile: logPath, encoding: .utf8)) ?? ""
        }
        throw GitCommandError(arguments: ["daemon"], status: -1, standardError: lastError)
    }

    /// The `git://` URL of the repository `name` (a path relative to `basePath`).
    public func url(for name: String) -> String {
        "git://127.0.0.1:\(port)/\(name)"
    }

    private static func waitUntilReady(_ process: Process, logPath: String) -> Bool {
        let deadline = Date().addingTimeInterval(60)  // returns as soon as it answers; generous for a loaded machine
        while Date() < deadline {
            let text = (try? String(contentsOfFile: logPath, encoding: .utf8)) ?? ""
            if text.contains("Ready to rumble") { return true }
            if !process.isRunning { return false }
            Thread.sleep(forTimeInterval: 0.02)
        }
        return false
    }

    /// Kills the daemon. SIGKILL, because a child spawned from a test runner's worker thread
    /// can inherit a signal mask that blocks SIGTERM (seen on Linux: `terminate()` hung).
    private static func stop(_ process: Process) {
        if process.isRunning { kill(process.processIdentifier, SIGKILL) }
        process.waitUntilExit()
    }

    deinit {
        Self.stop(process)
    }
}
