import ArgumentParser
import Basics
import PBXProj

/// What the `slipway xcodeproj` commands share: reading a project and reporting its errors.
enum XcodeprojSupport {
    /// Help text for the PATH argument of every subcommand.
    static let pathHelp = ArgumentHelp(
        "The project: the .xcodeproj folder or the project.pbxproj inside it.", valueName: "path")

    /// Prints a PBXProj error as `error: <file>:<line>:<col>: message` and returns exit code 2.
    static func report(_ error: any Error, file: ProjectFile, in env: CommandEnvironment) -> ExitCode {
        switch error {
        case let exit as ExitCode:
            return exit
        case is LockError:
            return Failure.report(error, in: env)
        case is ProjectFileError, is FileSystemError:
            // The door's refusals and file errors name the file already.
            return Failure.report(error, in: env)
        case let error as PBXProjError:
            // A project that does not parse or validate is bad input.
            let place = error.location.map { "\(file.pbxprojPath):\($0.line):\($0.column): " } ?? "\(file.pbxprojPath): "
            return Failure.report(CommandInputError(place + error.message), in: env)
        default:
            env.printError("\(file.pbxprojPath): \(error.localizedDescription)")
            return ExitCodes.failure
        }
    }

    /// Prints validation diagnostics as `warning: <file>:<line>:<col>: message`.
    static func print(_ diagnostics: [PBXProjDiagnostic], file: ProjectFile, in env: CommandEnvironment) {
        for diagnostic in diagnostics {
            let place = diagnostic.location.map { "\(file.pbxprojPath):\($0.line):\($0.column): " } ?? "\(file.pbxprojPath): "
            let label = env.style.paint("\(diagnostic.severity.rawValue): ", diagnostic.severity == .error ? .red : .yellow)
            env.standardError.write(label + DisplayText.untrustedLines(place + diagnostic.message) + "\n")
        }
    }

    /// Describes the first differing line for humans.
    static func describe(_ difference: LineDifference) -> String {
        let original = difference.original.map { "  - \($0)" } ?? "  - (end of file)"
        let written = difference.written.map { "  + \($0)" } ?? "  + (end of file)"
        return "first difference at line \(difference.line):\n\(original)\n\(written)"
    }

    /// `path` as the user meant it: relative to `-C DIR` when that was given.
    static func resolve(_ path: String, _ global: GlobalOptions) -> String {
        guard global.directory != nil, !path.hasPrefix("/") else { return path }
        return global.projectDirectory + "/" + path
    }

    /// Takes the lock of the project at `path` before it is read and written (see
    /// `ExclusiveLock.acquireProject`), reporting a busy project with exit code 75.
    static func lock(_ path: String, in env: CommandEnvironment) throws -> ExclusiveLock? {
        let file = ProjectFile(path: path)
        do {
            return try ExclusiveLock.acquireProject(pbxproj: file.pbxprojPath)
        } catch {
            throw report(error, file: file, in: env)
        }
    }

    /// Reads the project at `path` through the door (`env.fileSystem`, at most a project
    /// file's cap), reporting errors the Slipway way.
    static func load(_ path: String, in env: CommandEnvironment) throws -> (PBXProject, ProjectFile) {
        let (project, file, _) = try loadWithBytes(path, in: env)
        return (project, file)
    }

    /// `load`, with the bytes read.
    static func loadWithBytes(_ path: String, in env: CommandEnvironment) throws -> (PBXProject, ProjectFile, [UInt8]) {
        let file = ProjectFile(path: path)
        do {
            let bytes = try env.fileSystem.read(file.pbxprojPath, as: .projectFile)
            return (try PBXProject(bytes: bytes, projectName: file.projectName), file, bytes)
        } catch {
            throw report(error, file: file, in: env)
        }
    }
}
