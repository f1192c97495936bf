import Foundation

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Runs real child processes with `posix_spawn`, each in a new process group.
public struct LocalProcessRunner: ProcessRunner {
    /// How long a cancelled child gets between SIGTERM and SIGKILL.
    public var gracePeriod: Duration
    /// The most bytes of each stream kept in `ProcessResult` (the handler still sees all).
    public var captureLimit: Int

    /// Creates a runner.
    public init(gracePeriod: Duration = .seconds(3), captureLimit: Int = 16 << 20) {
        self.gracePeriod = gracePeriod
        self.captureLimit = captureLimit
    }

    public func run(_ spec: ProcessSpec, output: ProcessOutputHandler?) async throws -> ProcessResult {
        let path = try ExecutableLocator.resolve(spec.executable, environment: spec.environment,
                                                 relativeTo: spec.workingDirectory)
        let child = try await Self.spawn(path: path, spec: spec, captureLimit: captureLimit)
        let grace = gracePeriod
        return try await withTaskCancellationHandler {
            let result = await child.waitForExit(output: output)
            if Task.isCancelled { throw CancellationError() }
            return result
        } onCancel: {
            child.terminateGroup(grace: grace)
        }
    }
}

extension LocalProcessRunner {
    /// Starts the child, trying again for about three seconds while the executable is "busy"
    /// (ETXTBSY: see `TextFileBusy`), waiting between tries without holding a thread.
    static func spawn(path: String, spec: ProcessSpec, captureLimit: Int) async throws -> SpawnedProcess {
        var attempt = 0
        while true {
            do {
                return try SpawnedProcess(path: path, spec: spec, captureLimit: captureLimit)
            } catch let busy as TextFileBusy {
                attempt += 1
                guard attempt < 40 else { throw busy.error }
                try await Task.sleep(for: .milliseconds(min(5 * attempt, 100)))
            }
        }
    }
}

/// Finds executables the way a shell does, but in the child's `PATH`.
public enum ExecutableLocator {
    /// The absolute path for `name`; throws `ProcessError.notFound`.
    public static func resolve(_ name: String, environment: [String: String],
                               relativeTo directory: String? = nil) throws -> String {
        if name.contains("/") {
            if name.hasPrefix("/") { return name }
            let base = directory ?? FileManager.default.currentDirectoryPath
            return base + "/" + name
        }
        if let found = find(name, environment: environment) { return found }
        throw ProcessError.notFound(executable: name)
    }

    /// The first executable file called `name` in `PATH`, or nil.
    public static func find(_ name: String, environment: [String: String]) -> String? {
        let searchPath = environment["PATH"] ?? "/usr/local/bin:/usr/bin:/bin"
        for directory in searchPath.split(separator: ":") where !directory.isEmpty {
            let candidate = "\(directory)/\(name)"
            if access(candidate, X_OK) == 0 {
                var info = stat()
                if stat(candidate, &info) == 0, (info.st_mode & S_IFMT) == S_IFREG { return candidate }
            }
        }
        return nil
    }
}
