import Basics
import Foundation

/// Why a step failed or could not be made. Messages name the subject and say what to do.
public enum StepError: Error, LocalizedError, Sendable, Equatable {
    /// An option's value is unusable (reported with the option's name).
    case invalidOption(name: String, problem: String)
    /// A child process exited unsuccessfully.
    case processFailed(command: String, status: TerminationStatus)
    /// The step ran and failed for a reason of its own.
    case failed(String)
    /// An external plugin broke the protocol (crashed, printed garbage, never reported a result).
    case plugin(name: String, problem: String)

    public var errorDescription: String? {
        switch self {
        case .invalidOption(let name, let problem):
            return "option '\(name)' \(problem)"
        case .processFailed(let command, let status):
            return "'\(command)' failed with \(status)"
        case .failed(let message):
            return message
        case .plugin(let name, let problem):
            return "plugin '\(name)' \(problem)"
        }
    }
}
