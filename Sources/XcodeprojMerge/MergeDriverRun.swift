import Basics
import Foundation
import PBXProj

/// git's merge driver for `project.pbxproj` as a command: what `slipway xcodeproj merge BASE
/// OURS THEIRS` and the small `slipway-merge-driver BASE OURS THEIRS` both run, so that the two
/// write the same bytes, print the same lines and exit with the same status. (The small binary
/// exists for its start-up: it links only PBXProj and Basics, no libgit2, no networking.)
public struct MergeDriverRun: Sendable {
    /// The exit statuses: a clean merge, a merge with conflicts or a line merge (git's "the merge
    /// needs resolving"), and a file that could not be read (nothing written).
    public static let clean: Int32 = 0, conflicted: Int32 = 1, invalidInput: Int32 = 2

    /// The environment the line merge's `git` runs in; `GITHUB_ACTIONS` adds annotations.
    public let environment: Environment
    /// Colours for the `error: ` prefix.
    public let style: TerminalStyle
    /// Where the conflicts, notes and errors go, and the annotations.
    public let standardError: any TextOutput
    public let standardOutput: any TextOutput
    /// Runs `git merge-file` for the line merge.
    public let processRunner: any ProcessRunner

    public init(environment: Environment, style: TerminalStyle, standardError: any TextOutput, standardOutput: any TextOutput,
                processRunner: any ProcessRunner) {
        self.environment = environment
        self.style = style
        self.standardError = standardError
        self.standardOutput = standardOutput
        self.processRunner = processRunner
    }

    /// Merges BASE, OURS and THEIRS into OURS (git's %O %A %B) and reports it; returns the exit status.
    public func run(base: String, ours: String, theirs: String, versions: PBXProjVersionBumps) async -> Int32 {
        let driver = PBXProjMergeDriver(base: base, ours: ours, theirs: theirs, versions: versions)
        let outcome: PBXProjMergeDriver.Outcome
        do {
            outcome = try await driver.run { base, ours, theirs in await lineMerge(base, ours, theirs) }
        } catch let error as PBXProjMergeError {
            // The driver throws only `.unreadableFile`: a version that is no project is merged line by line.
            if case .unreadableFile(let path) = error { printError("\(path): \(error.message)") } else { printError(error.message) }
            return Self.invalidInput
        } catch let error as PBXProjError {
            printError("\(ours): \(error.message)")
            return Self.conflicted
        } catch {
            printError("\(ours): \(error)")
            return Self.conflicted
        }
        switch outcome {
        case .merged(let conflicts, let notes):
            for note in notes { standardError.write(DisplayText.untrustedLines("note: \(ours): \(note)") + "\n") }
            guard conflicts.isEmpty else {
                for conflict in conflicts {
                    // Conflicts quote the three projects' names: control characters shown escaped.
                    let text = conflict.kind.map { "CONFLICT (\($0)): \(conflict)" } ?? "conflict: \(conflict)"
                    standardError.write(DisplayText.untrustedLines(text) + "\n")
                }
                printError("\(ours): \(conflicts.count) conflicting entr\(conflicts.count == 1 ? "y" : "ies") left between conflict markers; resolve them and 'git add' the file")
                return Self.conflicted
            }
            return Self.clean
        case .mergedLineByLine(let reason, let writeError):
            printError("\(ours): \(reason); merging line by line instead")
            if let writeError { printError("\(ours): \(writeError.message)") }
            return Self.conflicted
        }
    }

    private func printError(_ message: String) {
        ErrorLine.write(message, style: style, gitHubActions: environment.isGitHubActions,
                        standardError: standardError, standardOutput: standardOutput)
    }

    /// git's line-based merge (`git merge-file -p`), or nil when git cannot do it.
    private func lineMerge(_ base: String, _ ours: String, _ theirs: String) async -> [UInt8]? {
        let spec = ProcessSpec(
            executable: "git", arguments: ["merge-file", "-p", "-L", "ours", "-L", "base", "-L", "theirs", ours, base, theirs],
            environment: environment.variables)
        guard let result = try? await processRunner.run(spec), case .exited(let code) = result.status, code >= 0, code < 128 else {
            return nil
        }
        return result.standardOutput
    }
}
