import Foundation

/// What kind of failure an error is. The CLI turns it into its exit code in one place
/// (`Failure.report` in SlipwayCLI; README "Exit codes"), so a library error says what it
/// means once, beside its type, and every command reports it the same way.
public enum FailureKind: Sendable, Hashable {
    /// Something failed while running: a step, a server's refusal, a check that found
    /// differences (exit 1).
    case failed
    /// The input is wrong: a file, an option's value, a missing secret; nothing was run or
    /// changed (exit 2).
    case invalidInput
    /// There is nothing to release (exit 4): neither a failure nor bad input.
    case nothingToRelease
    /// Another slipway holds a lock this command needs; nothing ran (exit 75).
    case busy
}

/// An error that carries its own `FailureKind`. Errors that do not adopt it are failures
/// (exit 1).
public protocol ExitCodeProviding: Error {
    /// The kind of failure this error is (it may depend on the case).
    var failureKind: FailureKind { get }
}

/// Any error met while reading a command's input (its files and option values, before
/// anything runs): reported with the underlying error's message, as invalid input.
public struct InvalidInputError: Error, ExitCodeProviding, LocalizedError, CustomStringConvertible {
    /// The error as thrown.
    public let underlying: any Error

    /// Wraps `underlying`.
    public init(_ underlying: any Error) {
        self.underlying = underlying
    }

    /// Always `.invalidInput`.
    public var failureKind: FailureKind { .invalidInput }

    /// The underlying error's message (`errorText`).
    public var description: String { errorText(underlying) }

    /// The underlying error's message.
    public var errorDescription: String? { errorText(underlying) }
}

extension FileSystemError: ExitCodeProviding {
    /// A project file that cannot be read is bad input.
    public var failureKind: FailureKind { .invalidInput }
}

extension StateFileError: ExitCodeProviding {
    /// A state file or path that cannot be trusted is bad input.
    public var failureKind: FailureKind { .invalidInput }
}

extension ProjectFileError: ExitCodeProviding {
    /// A project file refused by the file door is bad input.
    public var failureKind: FailureKind { .invalidInput }
}

extension DiagnosticsError: ExitCodeProviding {
    /// Problems found in an input file.
    public var failureKind: FailureKind { .invalidInput }
}

extension LockError: ExitCodeProviding {
    /// Busy when another slipway holds the lock; a lock that cannot be taken at all is a failure.
    public var failureKind: FailureKind {
        if case .busy = self { return .busy }
        return .failed
    }
}
