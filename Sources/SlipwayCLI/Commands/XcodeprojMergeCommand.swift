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
            result is in Xcode's form unless neither side was. When a version does not read as a \
            project (conflict markers in it, a syntax error), the files are merged line by line \
            with 'git merge-file' instead, the reason is printed and the exit status is 1.

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
    static let driverCommand = "slipway xcodeproj merge %O %A %B"

    @OptionGroup var global: GlobalOptions

    @Flag(help: "Install the driver in this repository's .git/config and .gitattributes.")
    var install = false

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
            try await MergeDriverInstaller(env: env).install()
            return
        }
        let paths = files.map { XcodeprojSupport.resolve($0, global) }
        let inputs = try paths.map { path in
            guard let data = FileManager.default.contents(atPath: path) else {
                env.printError("\(path): cannot read the file; git passes the three versions as temporary files (%O %A %B)")
                throw ExitCodes.invalidInput
            }
            return [UInt8](data)
        }
        do {
            let result = try PBXProjMerge.merge(base: inputs[0], ours: inputs[1], theirs: inputs[2])
            try PBXProjMerge.writeAtomically(result.bytes, to: paths[1])
            for note in result.notes { env.standardError.write("note: \(paths[1]): \(note)\n") }
            guard result.conflicts.isEmpty else {
                for conflict in result.conflicts { env.standardError.write("conflict: \(conflict)\n") }
                env.printError("\(paths[1]): \(result.conflicts.count) conflicting entr\(result.conflicts.count == 1 ? "y" : "ies") left between conflict markers; resolve them and 'git add' the file")
                throw ExitCodes.failure
            }
        } catch let error as PBXProjMergeError {
            env.printError("\(paths[1]): \(error.message); merging line by line instead")
            try await lineMerge(paths, inputs, env: env)
            throw ExitCodes.failure
        } catch let error as PBXProjError {
            env.printError("\(paths[1]): \(error.message)")
            throw ExitCodes.failure
        }
    }

    /// git's line-based merge into OURS (`git merge-file`), or, without git, both sides whole
    /// between conflict markers: nothing is lost either way.
    private func lineMerge(_ paths: [String], _ inputs: [[UInt8]], env: CommandEnvironment) async throws {
        let spec = ProcessSpec(
            executable: "git", arguments: ["merge-file", "-p", "-L", "ours", "-L", "base", "-L", "theirs", paths[1], paths[0], paths[2]],
            environment: env.environment.variables)
        var merged: [UInt8]
        if let result = try? await env.processRunner.run(spec), case .exited(let code) = result.status, code >= 0, code < 128 {
            merged = result.standardOutput
        } else {
            merged = Array("<<<<<<< ours\n".utf8) + inputs[1] + Array("\n=======\n".utf8) + inputs[2] + Array("\n>>>>>>> theirs\n".utf8)
        }
        if merged.isEmpty && !(inputs[1].isEmpty && inputs[2].isEmpty) {
            merged = Array("<<<<<<< ours\n".utf8) + inputs[1] + Array("\n=======\n".utf8) + inputs[2] + Array("\n>>>>>>> theirs\n".utf8)
        }
        do {
            try PBXProjMerge.writeAtomically(merged, to: paths[1])
        } catch let error as PBXProjError {
            env.printError("\(paths[1]): \(error.message)")
            throw ExitCodes.failure
        }
    }
}

/// Adds the driver to a repository's `.git/config` and `.gitattributes`, idempotently.
struct MergeDriverInstaller {
    let env: CommandEnvironment

    func install() async throws {
        let top = try await git(["rev-parse", "--show-toplevel"]).trimmingCharacters(in: .whitespacesAndNewlines)
        _ = try await git(["config", "--local", "merge.pbxproj.name", "Slipway project.pbxproj merge driver"])
        _ = try await git(["config", "--local", "merge.pbxproj.driver", XcodeprojMergeCommand.driverCommand])
        let attributes = top + "/.gitattributes"
        let existing = FileManager.default.contents(atPath: attributes).map { String(decoding: $0, as: UTF8.self) } ?? ""
        let lines = existing.split(separator: "\n", omittingEmptySubsequences: false).map { $0.trimmingCharacters(in: .whitespaces) }
        if lines.contains(XcodeprojMergeCommand.attributesLine) {
            env.print("merge driver 'pbxproj' installed; \(attributes) already routes *.pbxproj to it")
            return
        }
        let separator = existing.isEmpty || existing.hasSuffix("\n") ? "" : "\n"
        let text = existing + separator + XcodeprojMergeCommand.attributesLine + "\n"
        do {
            try PBXProjMerge.writeAtomically(Array(text.utf8), to: attributes)
        } catch let error as PBXProjError {
            env.printError("\(attributes): \(error.message)")
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
