/// What to run: an executable, its arguments, environment and working directory.
public struct ProcessSpec: Sendable, Hashable {
    /// A path, or a name looked up in `environment`'s `PATH`.
    public var executable: String
    /// Arguments, without the executable itself.
    public var arguments: [String]
    /// The child's complete environment.
    public var environment: [String: String]
    /// The child's working directory; nil keeps this process's.
    public var workingDirectory: String?
    /// Bytes written to the child's standard input, which is then closed; nil gives /dev/null.
    public var standardInput: [UInt8]?

    /// Creates a spec.
    public init(
        executable: String, arguments: [String] = [], environment: [String: String],
        workingDirectory: String? = nil, standardInput: [UInt8]? = nil
    ) {
        self.executable = executable
        self.arguments = arguments
        self.environment = environment
        self.workingDirectory = workingDirectory
        self.standardInput = standardInput
    }

    /// The command line as a user would type it (for logs and dry runs).
    public var commandLine: String {
        ([executable] + arguments).map(ShellQuoting.quote).joined(separator: " ")
    }
}

/// Which of the child's output streams a chunk came from.
public enum ProcessStream: String, Sendable {
    case standardOutput = "stdout"
    case standardError = "stderr"
}

/// How a child process ended.
public enum TerminationStatus: Sendable, Hashable, CustomStringConvertible {
    case exited(Int32)
    case signalled(Int32)

    /// True for exit code 0.
    public var isSuccess: Bool { self == .exited(0) }

    /// "exit code 2" or "signal 9".
    public var description: String {
        switch self {
        case .exited(let code): return "exit code \(code)"
        case .signalled(let signal): return "signal \(signal)"
        }
    }
}

/// The outcome of a finished child process.
public struct ProcessResult: Sendable {
    /// How it ended.
    public var status: TerminationStatus
    /// Everything it wrote to standard output (up to the runner's capture limit).
    public var standardOutput: [UInt8]
    /// Everything it wrote to standard error (up to the runner's capture limit).
    public var standardError: [UInt8]

    /// Creates a result.
    public init(status: TerminationStatus, standardOutput: [UInt8] = [], standardError: [UInt8] = []) {
        self.status = status
        self.standardOutput = standardOutput
        self.standardError = standardError
    }

    /// Standard output as text (invalid UTF-8 repaired).
    public var outputText: String { String(decoding: standardOutput, as: UTF8.self) }
    /// Standard error as text (invalid UTF-8 repaired).
    public var errorText: String { String(decoding: standardError, as: UTF8.self) }
}

/// Called with each chunk a child writes, as it arrives.
public typealias ProcessOutputHandler = @Sendable (ProcessStream, [UInt8]) -> Void

/// Runs child processes. Each child runs in its own process group; cancelling the calling task
/// stops the whole group (SIGTERM, then SIGKILL after a grace period), so that a shell step's
/// grandchildren stop too.
public protocol ProcessRunner: Sendable {
    /// Runs the process to completion, streaming its output to `output`.
    /// Throws `ProcessError.launchFailed` when it cannot start and `CancellationError` when the
    /// task was cancelled (the process group has been stopped by then).
    func run(_ spec: ProcessSpec, output: ProcessOutputHandler?) async throws -> ProcessResult
}

extension ProcessRunner {
    /// Runs the process and collects its output.
    public func run(_ spec: ProcessSpec) async throws -> ProcessResult {
        try await run(spec, output: nil)
    }
}

/// Why a process could not be run.
public enum ProcessError: Error, Sendable, Equatable {
    case notFound(executable: String)
    case launchFailed(executable: String, reason: String)
}

extension ProcessError: CustomStringConvertible {
    public var description: String {
        switch self {
        case .notFound(let executable):
            return "'\(executable)' was not found on PATH. Install it or give its full path."
        case .launchFailed(let executable, let reason):
            return "Could not start '\(executable)': \(reason)."
        }
    }
}

/// POSIX shell quoting for display and for composing `sh -c` command lines.
public enum ShellQuoting {
    /// The word quoted so that a POSIX shell reads it back unchanged.
    public static func quote(_ word: String) -> String {
        if !word.isEmpty, word.allSatisfy({ $0.isLetter || $0.isNumber || "-_./=:,+@%".contains($0) }) {
            return word
        }
        return "'" + word.replacingOccurrences(of: "'", with: "'\\''") + "'"
    }
}
