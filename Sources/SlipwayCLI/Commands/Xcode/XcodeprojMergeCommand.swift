import ArgumentParser
import Basics
import Foundation
import PBXProj
import XcodeprojMerge

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
            '*.pbxproj merge=pbxproj' to its .gitattributes (running it again changes nothing). \
            The driver it writes is slipway-merge-driver, the same merge in a small binary that \
            starts faster, when that binary sits beside slipway; else 'slipway xcodeproj merge', \
            with a note.

            EXAMPLES:
              slipway xcodeproj merge --install
              slipway xcodeproj merge base.pbxproj ours.pbxproj theirs.pbxproj
            """
    )

    /// The line `--install` adds to `.gitattributes`.
    static let attributesLine = "*.pbxproj merge=pbxproj"
    /// The small driver binary's name, installed beside `slipway`.
    static let driverBinaryName = "slipway-merge-driver"

    /// The driver command `--install` writes to `.git/config`: `driver` (the small binary's path,
    /// quoted for the shell git runs it with) when there is one, else `slipway xcodeproj merge`.
    static func driverCommand(versions: PBXProjVersionBumps, driver: String? = nil) -> String {
        let options = (versions == .higher ? "" : "--versions \(versions.rawValue) ") + "%O %A %B"
        guard let driver else { return "slipway xcodeproj merge " + options }
        return shellQuoted(driver) + " " + options
    }

    /// `text` as one shell word: as it is when it holds only characters no shell treats
    /// specially, else in single quotes (a quote inside written `'\''`).
    static func shellQuoted(_ text: String) -> String {
        let plain = !text.isEmpty && text.unicodeScalars.allSatisfy { scalar in
            scalar.isASCII && (("a"..."z").contains(scalar) || ("A"..."Z").contains(scalar) || ("0"..."9").contains(scalar) || "/._+-,:@".unicodeScalars.contains(scalar))
        }
        return plain ? text : "'" + text.replacingOccurrences(of: "'", with: "'\\''") + "'"
    }

    /// The running `slipway`: its path as started (a path, or the first `slipway` on PATH when
    /// started by name), without resolving links, so that a package manager's link in `bin`
    /// (Homebrew's) is kept rather than the versioned folder it leads to.
    static func runningSlipway(argument0: String, environment: Environment, currentDirectory: String) -> String? {
        if argument0.contains("/") {
            return argument0.hasPrefix("/") ? argument0 : currentDirectory + "/" + argument0
        }
        for folder in (environment["PATH"] ?? "").split(separator: ":", omittingEmptySubsequences: true) {
            let candidate = folder + "/" + argument0
            if FileManager.default.isExecutableFile(atPath: candidate) {
                return candidate.hasPrefix("/") ? candidate : currentDirectory + "/" + candidate
            }
        }
        return nil
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
        // The same function as `slipway-merge-driver` runs: same bytes, same lines, same status.
        let run = MergeDriverRun(environment: env.environment, style: env.style, standardError: env.standardError,
                                 standardOutput: env.standardOutput, processRunner: env.processRunner)
        let status = await run.run(base: paths[0], ours: paths[1], theirs: paths[2], versions: versions)
        if status != MergeDriverRun.clean { throw ExitCode(status) }
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
        // The small driver binary when it sits beside this `slipway` (it starts several times
        // faster); else this binary's own command, which does the same, and a note saying so.
        let slipway = XcodeprojMergeCommand.runningSlipway(
            argument0: CommandLine.arguments.first ?? "slipway", environment: env.environment,
            currentDirectory: FileManager.default.currentDirectoryPath)
        let folder = slipway.map { ($0 as NSString).deletingLastPathComponent } ?? ""
        let besideSlipway = folder + "/" + XcodeprojMergeCommand.driverBinaryName
        let found = slipway != nil && FileManager.default.isExecutableFile(atPath: besideSlipway)
        // git expands %O, %A, %B... anywhere in the command: a path holding '%' cannot be written.
        let driver = found && !besideSlipway.contains("%") ? besideSlipway : nil
        let command = XcodeprojMergeCommand.driverCommand(versions: versions, driver: driver)
        _ = try await git(["config", "--local", "merge.pbxproj.driver", command])
        if driver == nil {
            let name = XcodeprojMergeCommand.driverBinaryName
            let why = found ? "\(besideSlipway) holds '%', which git would expand in the driver command"
                : "no \(name) beside \(slipway ?? "slipway")"
            env.standardError.write(DisplayText.untrustedLines(
                "note: \(why): the driver is '\(command)' (the same merge, slower to start); install \(name) beside slipway, in a folder without '%', and run --install again") + "\n")
        }
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
            env.print("merge driver 'pbxproj' installed (\(command)); \(attributes) already routes *.pbxproj to it")
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
        env.print("merge driver 'pbxproj' installed in .git/config (\(command)); added '\(XcodeprojMergeCommand.attributesLine)' to \(attributes)")
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
