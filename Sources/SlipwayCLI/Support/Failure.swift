import ArgumentParser
import Basics
import Lanes

/// Maps errors from the libraries to messages and exit codes, in one place: an error says what
/// kind of failure it is (`ExitCodeProviding`, beside its type), and `exitCode(for:)` is the one
/// table from kinds to `ExitCodes`. Errors that do not say are failures (exit 1).
enum Failure {
    /// Prints `error` (through `redactor`, for commands that hold secrets) and returns the exit
    /// code it stands for. An `ExitCode` (already reported) is returned as it is.
    static func report(_ error: any Error, in env: CommandEnvironment, redactor: Redactor = .none) -> ExitCode {
        switch (error as? InvalidInputError)?.underlying ?? error {
        case let exit as ExitCode:
            return exit
        case let diagnostics as DiagnosticsError:
            env.printDiagnostics(diagnostics.diagnostics)
            if env.environment.isGitHubActions {
                for diagnostic in diagnostics.diagnostics {
                    env.standardOutput.write(GitHubActionsReporter.annotation(for: diagnostic))
                }
            }
            let count = diagnostics.diagnostics.filter { $0.severity == .error }.count
            env.standardError.write("\(count) problem\(count == 1 ? "" : "s") found; nothing was run.\n")
        default:
            env.printError(redactor.redact(errorText(error)))
        }
        return exitCode(for: (error as? any ExitCodeProviding)?.failureKind ?? .failed)
    }

    /// The exit code of a kind of failure (README "Exit codes", `ExitCodes.helpText`).
    static func exitCode(for kind: FailureKind) -> ExitCode {
        switch kind {
        case .failed: return ExitCodes.failure
        case .invalidInput: return ExitCodes.invalidInput
        case .nothingToRelease: return ExitCodes.nothingToRelease
        case .busy: return ExitCodes.busy
        }
    }

    /// Runs `body`, a read of the command's input (a file it names, before anything is run or
    /// sent): whatever it throws is reported as invalid input (exit 2).
    static func readingInput<T>(_ env: CommandEnvironment, _ body: () throws -> T) throws -> T {
        do {
            return try body()
        } catch {
            throw report(InvalidInputError(error), in: env)
        }
    }

    /// Reports invalid input that is not an error value (problems already printed, such as a
    /// lint's diagnostics, or a message) and returns its exit code.
    static func invalidInput(_ message: String? = nil, in env: CommandEnvironment) -> ExitCode {
        if let message { env.printError(message) }
        return exitCode(for: .invalidInput)
    }
}

/// A problem with an option's value or the environment found while a command runs (after
/// `validate()`): a missing variable, no key. Bad input (exit 2), with the message as given.
struct CommandInputError: Error, ExitCodeProviding, CustomStringConvertible {
    /// The message, a sentence saying what to do.
    let message: String

    init(_ message: String) {
        self.message = message
    }

    var failureKind: FailureKind { .invalidInput }
    var description: String { message }
}
