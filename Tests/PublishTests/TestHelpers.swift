import Foundation
import TestSupport

/// Runs shell commands in tests.
enum Shell {
    struct Failed: Error, CustomStringConvertible {
        var description: String
    }

    /// Runs `command` with /bin/sh in `directory`; throws with its output when it fails.
    static func run(_ command: String, in directory: String, environment: [String: String?] = [:]) throws {
        _ = try output(command, in: directory, environment: environment)
    }

    /// Standard output of `command`; throws with standard error when it fails.
    static func output(_ command: String, in directory: String, environment: [String: String?] = [:]) throws -> String {
        let result = try CommandResult.run("/bin/sh", ["-c", command], in: directory, environment: environment)
        guard result.status == 0 else {
            throw Failed(description: "'\(command)' exited \(result.status): \(result.standardError)\(result.standardOutput)")
        }
        return result.standardOutput
    }

    /// The exit status, standard output and standard error of `command`.
    static func result(_ command: String, in directory: String, environment: [String: String?] = [:]) throws -> CommandResult {
        try CommandResult.run("/bin/sh", ["-c", command], in: directory, environment: environment)
    }
}
