import Foundation

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// A real S3-compatible server on 127.0.0.1: `moto_server` (PyPI `moto[server]`, which
/// scripts/setup.sh installs), started on a free port, waited for until it answers, and killed
/// when the value is released. Any access key and secret are accepted.
public final class MotoServer: @unchecked Sendable {
    /// The port.
    public let port: Int
    private let process: Process

    /// True when `moto_server` is on PATH; tests that need it are skipped (with this reason)
    /// otherwise.
    public static var isAvailable: Bool { PythonScriptServer.isInstalled("moto_server") }

    /// Why a missing server skips a test.
    public static let unavailableReason = "moto_server is not installed (python3 -m pip install 'moto[server]', or run scripts/setup.sh)"

    /// Starts the server and waits (up to 60 s) until it answers HTTP.
    public init() throws {
        var lastError = ""
        for _ in 0..<3 {
            let port = try PythonScriptServer.freePort()
            let process = Process()
            process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
            process.arguments = ["moto_server", "-H", "127.0.0.1", "-p", String(port)]
            process.standardOutput = FileHandle.nullDevice
            process.standardError = FileHandle.nullDevice
            try process.run()
            if Self.waitUntilAnswering(port: port, process: process) {
                self.port = port
                self.process = process
                return
            }
            // The port may have been taken between choosing and binding it; try another.
            if process.isRunning { kill(process.processIdentifier, SIGKILL) }
            process.waitUntilExit()
            lastError = "moto_server did not answer on port \(port)"
        }
        throw PythonScriptServer.StartError(description: lastError)
    }

    deinit {
        if process.isRunning { kill(process.processIdentifier, SIGKILL) }
        process.waitUntilExit()
    }

    /// The endpoint URL, `http://127.0.0.1:PORT`.
    public var endpoint: String { "http://127.0.0.1:\(port)" }

    /// Creates a bucket (through moto's S3 API, unauthenticated as moto allows).
    public func createBucket(_ name: String) throws {
        _ = try PythonScriptServer.request("PUT", "\(endpoint)/\(name)", body: Data())
    }

    private static func waitUntilAnswering(port: Int, process: Process) -> Bool {
        let deadline = Date().addingTimeInterval(60)  // returns as soon as it answers; generous for a loaded machine
        while Date() < deadline, process.isRunning {
            if (try? PythonScriptServer.request("GET", "http://127.0.0.1:\(port)/", body: nil)) != nil { return true }
            usleep(200_000)
        }
        return false
    }
}
