import Foundation

/// Why a run could not start (nothing ran). Exit code 2.
public enum LaneRunError: Error, LocalizedError, Sendable, Equatable {
    case invalidInputs([String])
    case missingSecrets([String])
    case nothingToResume(lane: String)
    case unknownStartStep(String, suggestion: String)
    case reportFailed(String)
    case toolsUnavailable(lane: String, tools: [String])
    case toolsNotVerified(lane: String, message: String)
    /// The run journal `--resume`/`--from` would use was not written by this user's Slipway here.
    case untrustedJournal(file: String, reason: String)

    public var errorDescription: String? {
        switch self {
        case .invalidInputs(let problems):
            return problems.joined(separator: "\n")
        case .missingSecrets(let names):
            let list = names.map { "'\($0)'" }.joined(separator: ", ")
            return "secret(s) \(list) are not set in the environment. Export them (e.g. 'export \(names[0])=...') or in CI map them from the secret store; secrets are never taken as command-line arguments."
        case .nothingToResume(let lane):
            return "there is no earlier failed run of lane '\(lane)' to resume (nothing under .slipway/runs/\(lane)/). Run it without --resume."
        case .unknownStartStep(let step, let suggestion):
            return "--from: the lane has no step '\(step)'.\(suggestion)"
        case .reportFailed(let message):
            return "could not write a report: \(message)"
        case .toolsUnavailable(let lane, let tools):
            return "lane '\(lane)' requires \(tools.joined(separator: ", ")), but this project has no pinned tools; add them to a Toolfile and run 'slipway tools lock' and 'slipway tools install'"
        case .untrustedJournal(let file, let reason):
            return "the run journal '\(file)' was not used: \(reason). It may be hostile (a journal committed to the branch could skip steps); nothing ran. Delete it (and remove it from git if it is committed), then run the lane without --resume or --from."
        case .toolsNotVerified(let lane, let message):
            return "lane '\(lane)' cannot start: its required tools do not match the lock.\n\(message)\nRun 'slipway tools install' (or 'slipway tools verify' for details)."
        }
    }
}
