import Basics
import Foundation

/// The executables `swift build` put next to the test bundle, for end-to-end tests.
public enum Binaries {
    /// The folder of the test bundle (`.build/<triple>/debug`).
    public static var productsDirectory: String {
        var url = URL(fileURLWithPath: CommandLine.arguments[0]).resolvingSymlinksInPath()
        while url.path != "/" {
            url.deleteLastPathComponent()
            if FileManager.default.isExecutableFile(atPath: url.appendingPathComponent("slipway").path) { return url.path }
        }
        return URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent().path
    }

    /// The built `slipway` executable.
    public static var slipway: String { productsDirectory + "/slipway" }

    /// The built `slipway-merge-driver` (git's merge driver for project.pbxproj on its own).
    public static var mergeDriver: String { productsDirectory + "/slipway-merge-driver" }

    /// STAND-IN: the built `slipway-macos-standin`, the same CLI reporting macOS as its platform
    /// (a test-only executable), for simulated `runs-on: macos-*` runners.
    public static var macOSStandInSlipway: String { productsDirectory + "/slipway-macos-standin" }
}

/// Runs a command to completion for a test and captures what it printed.
public struct CommandResult: Sendable {
    public var status: Int32
    public var standardOutput: String
    public var standardError: String

    /// Runs `executable` with `arguments` in `directory`, with `environment` laid over this
    /// process's environment (a nil value removes a variable).
    public static func run(_ executable: String, _ arguments: [String], in directory: String? = nil,
                           environment: [String: String?] = [:]) throws -> CommandResult {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: executable)
        process.arguments = arguments
        if let directory { process.currentDirectoryURL = URL(fileURLWithPath: directory) }
        var env = ProcessInfo.processInfo.environment
        for (key, value) in environment { env[key] = value }
        process.environment = env
        let out = Pipe(), err = Pipe()
        process.standardOutput = out
        process.standardError = err
        try process.run()
        // Read standard error on a thread of its own so that neither pipe can fill up and block.
        let errorReader = Thread.detachNewThreadReading(err.fileHandleForReading)
        let outData = out.fileHandleForReading.readDataToEndOfFile()
        let errData = errorReader.wait()
        process.waitUntilExit()
        return CommandResult(status: process.terminationStatus, standardOutput: String(decoding: outData, as: UTF8.self),
                             standardError: String(decoding: errData, as: UTF8.self))
    }
}

extension Thread {
    /// Reads `handle` to its end on a new thread; `wait()` returns what was read.
    static func detachNewThreadReading(_ handle: FileHandle) -> PendingRead {
        let pending = PendingRead()
        Thread.detachNewThread { pending.finish(handle.readDataToEndOfFile()) }
        return pending
    }
}

/// The result of a read running on another thread.
final class PendingRead: @unchecked Sendable {
    private let condition = NSCondition()
    private var data: Data?

    func finish(_ value: Data) {
        condition.lock()
        data = value
        condition.signal()
        condition.unlock()
    }

    func wait() -> Data {
        condition.lock()
        defer { condition.unlock() }
        while data == nil { condition.wait() }
        return data ?? Data()
    }
}

extension Binaries {
    /// Runs the built `slipway` with `arguments` in `directory` through `LocalProcessRunner`
    /// (async: it waits for the child on a thread of its own, never on the cooperative pool),
    /// with `environment` laid over this process's.
    public static func runSlipway(_ arguments: [String], in directory: String,
                                  environment: [String: String] = [:]) async throws -> ProcessResult {
        let merged = ProcessInfo.processInfo.environment.merging(environment) { $1 }
        return try await LocalProcessRunner().run(
            ProcessSpec(executable: slipway, arguments: arguments, environment: merged, workingDirectory: directory))
    }
}
