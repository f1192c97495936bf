import ArgumentParser
import Basics
import CIExport
import FastlaneImport
import Lanes
import Release
import Steps

/// Maps errors from the libraries to messages and exit codes, in one place.
enum Failure {
    /// Prints `error` and returns the exit code it stands for.
    static func report(_ error: any Error, in env: CommandEnvironment) -> ExitCode {
        if let release = error as? ReleaseError, case .nothingToRelease = release {
            env.printError(errorText(release))
            return ExitCodes.nothingToRelease
        }
        switch error {
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
            return ExitCodes.invalidInput
        case let lock as LockError:
            env.printError(errorText(lock))
            if case .busy = lock { return ExitCodes.busy }
            return ExitCodes.failure
        case is LaneStoreError, is CIExportError, is LaneRunError, is HandOverError, is FileSystemError, is ProjectFileError,
             is PluginError, is ReleaseError,
             is StateFileError, is FastlaneImportError:
            env.printError(errorText(error))
            return ExitCodes.invalidInput
        default:
            env.printError(errorText(error))
            return ExitCodes.failure
        }
    }
}
