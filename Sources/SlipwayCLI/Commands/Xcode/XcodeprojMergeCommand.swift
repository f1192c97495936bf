import ArgumentParser
import Basics
import Foundation
import PBXProj

/// `slipway xcodeproj merge BASE OURS THEIRS` (git's merge driver for project.pbxproj) and
/// `slipway xcodeproj merge --install`.
struct XcodeprojMergeCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "merge",
        abstract: "Merge three versions of a project.pbxproj on its objects (a git merge driver).",
        discussion: """
            Writes the merge of BASE, OURS and THEIRS into OURS (git's %A). Objects added on \
            either side are kept, children and build-phase lists merge as ordered sets, a value \
            changed on one side is taken. A value both sides changed differently is a conflict: \
            it is written between <<<<<<< ours / ======= / >>>>>>> theirs lines around just that \
            entry, each conflict is summarised on standard error, and the exit status is 1. The \
            result is in Xcode's form unless neither side was. A result is checked before it is \
            written: an object deleted on one side that the other side newly refers to is a \
            'CONFLICT (delete/reference)', a file added to a group whose folder the other side \
            renamed is a 'CONFLICT (file location)' (a file still inside its group's new folder \
            gets its path rewritten, with a note), and no result with a dangling reference exits \
            0. When a version does not read as a \
            project (conflict markers in it, a syntax error), the files are merged line by line \
            with 'git merge-file' instead, the reason is printed and the exit status is 1.

            A version number that both sides raised from the base to different values (two \
            branches that each bumped MARKETING_VERSION, CURRENT_PROJECT_VERSION or a project's \
            own *VERSION setting, or each moved a Swift package's requirement up) keeps the \
            higher value, with a note naming the entry and all three values. Only when all three \
            read as version numbers (1.2.3, 42, 138.0.0-1) and both sides are strictly above \
            the base; SWIFT_VERSION and Xcode's other toolchain settings always conflict. \
            --versions conflict makes every such entry a conflict ('--install --versions \
            conflict' puts it in the driver command).

            --install adds the driver to the repository's .git/config and \
            '*.pbxproj merge=pbxproj' to its .gitattributes (running it again changes nothing).

            EXAMPLES:
              slipway xcodeproj merge --install
              slipway xcodeproj merge base.pbxproj ours.pbxproj theirs.pbxproj
            """
    )

    /// The line `--install` adds to `.gitattributes`.
    static let attributesLine = "*.pbxproj merge=pbxproj"
    /// The driver command `--install` writes to `.git/config`.
    static func driverCommand(versions: PBXProjVersionBumps) -> String {
        "slipway xcodeproj merge " + (versions == .higher ? "" : "--versions \(versions.rawValue) ") + "%O %A %B"
    }

    @OptionGroup var global: GlobalOptions

    @Flag(help: "Install the driver in this repository's .git/config and .gitattributes.")
    var install = false

    @Option(help: ArgumentHelp(
        "A version number both sides raised: 'higher' keeps the higher one with a note, 'conflict' leaves it a conflict.",
        valueName: "higher|conflict"))
    var versions: PBXProjVersionBumps = .higher

    @Argument(help: ArgumentHelp("BASE OURS THEIRS: the common ancestor, our version (the result is written here) and theirs.", valueName: "file"))
    var files: [String] = []

    func validate() throws {
        if install, !files.isEmpty { throw ValidationError("--install takes no files; give either --install or BASE OURS THEIRS") }
        if !install, files.count != 3 {
            throw ValidationError("expected three files, BASE OURS THEIRS (git passes %O %A %B), got \(files.count); or use --install")
        }
    }

    func run() async throws {
        let env = global.environment()
        if install {
            try await MergeDriverInstaller(env: env, versions: versions).install()
            return
        }
        let paths = files.map { XcodeprojSupport.resolve($0, global) }
        let driver = PBXProjMergeDriver(base: paths[0], ours: paths[1], theirs: paths[2], versions: versions)
        let outcome: PBXProjMergeDriver.Outcome
        do {
            outcome = try await driver.run { base, ours, theirs in await lineMerge(base, ours, theirs, env: env) }
        } catch let error as PBXProjMergeError {
            // The driver throws only `.unreadableFile`: a version that is no project is merged line by line.
            let message = if case .unreadableFile(let path) = error { "\(path): \(error.message)" } else { error.message }
            throw Failure.report(CommandInputError(message), in: env)
        } catch let error as PBXProjError {
            env.printError("\(paths[1]): \(error.message)")
            throw ExitCodes.failure
        }
        switch outcome {
        case .merged(let conflicts, let notes):
            for note in notes { env.standardError.write(DisplayText.untrustedLines("note: \(paths[1]): \(note)") + "\n") }
            guard conflicts.isEmpty else {
                for conflict in conflicts {
                    // Conflicts quote the three projects' names: control characters shown escaped.
                    let text = conflict.kind.map { "CONFLICT (\($0)): \(conflict)" } ?? "conflict: \(conflict)"
                    env.standardError.write(DisplayText.untrustedLines(text) + "\n")
                }
                env.printError("\(paths[1]): \(conflicts.count) conflicting entr\(conflicts.count == 1 ? "y" : "ies") left between conflict markers; resolve them and 'git add' the file")
                throw ExitCodes.failure
            }
        case .mergedLineByLine(let reason, let writeError):
            env.printError("\(paths[1]): \(reason); merging line by line instead")
            if let writeError { env.printError("\(paths[1]): \(writeError.message)") }
            throw ExitCodes.failure
        }
    }

    /// git's line-based merge (`git merge-file -p`), or nil when git cannot do it.
    private func lineMerge(_ base: String, _ ours: String, _ theirs: String, env: CommandEnvironment) async -> [UInt8]? {
        let spec = ProcessSpec(
            executable: "git", arguments: ["merge-file", "-p", "-L", "ours", "-L", "base", "-L", "theirs", ours, base, theirs],
            environment: env.environment.variables)
        guard let result = try? await env.processRunner.run(spec), case .exited(let code) = result.status, code >= 0, code < 128 else {
            return nil
        }
        return result.standardOutput
    }
}

extension PBXProjVersionBumps: ExpressibleByArgument {}

/// Adds the driver to a repository's `.git/config` and `.gitattributes`, idempotently.
struct MergeDriverInstaller {
    let env: CommandEnvironment
    var versions: PBXProjVersionBumps = .higher

    func install() async throws {
        let top = try await git(["rev-parse", "--show-toplevel"]).trimmingCharacters(in: .whitespacesAndNewlines)
        _ = try await git(["config", "--local", "merge.pbxproj.name", "Slipway project.pbxproj merge driver"])
        _ = try await git(["config", "--local", "merge.pbxproj.driver", XcodeprojMergeCommand.driverCommand(versions: versions)])
        let attributes = top + "/.gitattributes"
        // Through the door: a committed `.gitattributes` that is a link leading outside, or a
        // device, is refused; the new one is written in place, never through a link.
        let existing: String
        do {
            existing = String(decoding: try env.fileSystem.read(attributes, as: .configuration), as: UTF8.self)
        } catch FileSystemError.notFound {
            existing = ""
        } catch {
            env.printError(errorText(error))
            throw ExitCodes.failure
        }
        let lines = existing.split(separator: "\n", omittingEmptySubsequences: false).map { $0.trimmingCharacters(in: .whitespaces) }
        if lines.contains(XcodeprojMergeCommand.attributesLine) {
            env.print("merge driver 'pbxproj' installed; \(attributes) already routes *.pbxproj to it")
            return
        }
        let separator = existing.isEmpty || existing.hasSuffix("\n") ? "" : "\n"
        let text = existing + separator + XcodeprojMergeCommand.attributesLine + "\n"
        do {
            try env.fileSystem.writeAtomically(Array(text.utf8), to: attributes)
        } catch {
            env.printError("\(attributes): \(errorText(error))")
            throw ExitCodes.failure
        }
        env.print("merge driver 'pbxproj' installed in .git/config; added '\(XcodeprojMergeCommand.attributesLine)' to \(attributes)")
    }

    private func git(_ arguments: [String]) async throws -> String {
        let spec = ProcessSpec(
            executable: "git", arguments: arguments, environment: env.environment.variables, workingDirectory: env.projectDirectory)
        let result: ProcessResult
        do {
            result = try await env.processRunner.run(spec)
        } catch {
            env.printError("cannot run git: \(error); install git to use --install")
            throw ExitCodes.failure
        }
        guard result.status.isSuccess else {
            env.printError("'git \(arguments.joined(separator: " "))' failed in \(env.projectDirectory) (\(result.status)): \(result.errorText.trimmingCharacters(in: .whitespacesAndNewlines)); run --install inside a git repository")
            throw ExitCodes.failure
        }
        return result.outputText
    }
}
