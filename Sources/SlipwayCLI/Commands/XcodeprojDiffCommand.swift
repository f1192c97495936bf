import ArgumentParser
import Basics
import Foundation
import Git
import PBXProj

/// `slipway xcodeproj diff A B`, `diff PATH --rev REV[..REV]`, `diff --textconv FILE`.
struct XcodeprojDiffCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "diff",
        abstract: "Show the semantic difference between two projects: targets, phases, groups, settings, packages.",
        discussion: """
            Compares what the projects mean, not their text: targets added, removed or renamed; \
            files entering or leaving each build phase; groups and files added, removed, renamed \
            or moved (a moved file is one move, not a removal and an addition); build settings \
            per target and configuration (old → new); Swift packages and their version \
            requirements; each target's dependencies, package products, synchronized folders, \
            product, phase order and build rules; phases' copy destination and script; \
            synchronized folders' exceptions. Formatting, object order and comments never show. With --rev the \
            project is read from git (REV against the working copy, or A..B). --textconv prints \
            one project as line-oriented text for git's textconv (see docs/xcodeproj-diff.md). \
            Exit status: 0 the same, 1 different, 2 bad input (not a project, an unknown \
            revision, a file that does not parse: the message names which and where).

            EXAMPLES:
              slipway xcodeproj diff Old.xcodeproj New.xcodeproj
              slipway xcodeproj diff App.xcodeproj --rev HEAD~1
              slipway xcodeproj diff App.xcodeproj --rev v1.0..v2.0 --json
              git config diff.pbxproj.textconv "slipway xcodeproj diff --textconv"
            """
    )

    @OptionGroup var global: GlobalOptions

    @Argument(help: ArgumentHelp(
        "Two projects (A B), or one with --rev or --textconv: .xcodeproj folders or project.pbxproj files.",
        valueName: "path"))
    var paths: [String] = []

    @Option(help: ArgumentHelp("Compare PATH at this git revision with the working copy; A..B compares two revisions.", valueName: "rev"))
    var rev: String?

    @Flag(help: "Print JSON: {equal, old, new, changes}.")
    var json = false

    @Flag(help: "Print one project as stable semantic text (for git's textconv).")
    var textconv = false

    func validate() throws {
        if textconv {
            if paths.count != 1 { throw ValidationError("--textconv takes exactly one file") }
            if rev != nil || json { throw ValidationError("--textconv cannot be combined with --rev or --json") }
        } else if rev != nil {
            if paths.count != 1 { throw ValidationError("--rev takes exactly one project path (compared with itself at that revision)") }
        } else if paths.count != 2 {
            throw ValidationError("give two projects to compare (A B), or one project with --rev REV")
        }
    }

    func run() async throws {
        let env = global.environment()
        let first = XcodeprojSupport.resolve(paths[0], global)
        do {
            if textconv {
                env.standardOutput.write(try DiffSource.workingCopy(first).snapshot().semanticText())
                return
            }
            let old: DiffSource, new: DiffSource
            if let rev {
                (old, new) = try DiffSource.revisions(rev, of: first)
            } else {
                (old, new) = (DiffSource.workingCopy(first), DiffSource.workingCopy(XcodeprojSupport.resolve(paths[1], global)))
            }
            let difference = ProjectDiff(from: try old.snapshot(), to: try new.snapshot())
            try show(difference, old: old.label, new: new.label, in: env)
            if !difference.isEmpty { throw ExitCodes.failure }
        } catch let error as DiffInputError {
            env.printError(error.localizedDescription)
            throw ExitCodes.invalidInput
        } catch let error as GitError {
            env.printError(error.localizedDescription)
            throw ExitCodes.invalidInput
        }
    }

    private func show(_ difference: ProjectDiff, old: String, new: String, in env: CommandEnvironment) throws {
        if json {
            let output = DiffJSON(equal: difference.isEmpty, old: old, new: new, changes: difference)
            env.print(String(decoding: try JSONFormatting.encoder().encode(output), as: UTF8.self))
            return
        }
        let style = env.style
        env.standardOutput.write(difference.humanText { text, mark in
            switch mark {
            case .added: return style.paint(text, .green)
            case .removed: return style.paint(text, .red)
            case .changed: return style.paint(text, .yellow)
            case .moved: return style.paint(text, .cyan)
            case .heading: return style.paint(text, .bold)
            }
        })
    }
}

/// The JSON form of `xcodeproj diff`.
struct DiffJSON: Encodable {
    let equal: Bool
    let old: String
    let new: String
    let changes: ProjectDiff
}

/// Bad input to `xcodeproj diff`.
enum DiffInputError: Error, LocalizedError, Equatable {
    /// No project.pbxproj where the user pointed.
    case notAProject(path: String, pbxproj: String)
    /// A project that does not parse; `place` is `file:line:column` or the file.
    case unreadable(place: String, message: String)
    /// The project file lies outside the repository found from it.
    case outsideRepository(path: String, repository: String)

    var errorDescription: String? {
        switch self {
        case let .notAProject(path, pbxproj):
            return "'\(path)' is not an Xcode project: there is no '\(pbxproj)'; pass a .xcodeproj folder or the project.pbxproj inside it"
        case let .unreadable(place, message):
            return "\(place): \(message)"
        case let .outsideRepository(path, repository):
            return "'\(path)' is not inside the git repository at '\(repository)'; --rev needs a project tracked by git"
        }
    }
}

/// One side of a diff: a project file in the working copy or a blob at a git revision.
struct DiffSource {
    /// How messages and JSON name this side: a path, or `REV:path`.
    let label: String
    let projectName: String
    let bytes: () throws -> [UInt8]

    static func workingCopy(_ path: String) -> DiffSource {
        let file = ProjectFile(path: path)
        return DiffSource(label: file.pbxprojPath, projectName: file.projectName) {
            guard FileManager.default.fileExists(atPath: file.pbxprojPath) else {
                throw DiffInputError.notAProject(path: path, pbxproj: file.pbxprojPath)
            }
            guard let data = FileManager.default.contents(atPath: file.pbxprojPath) else {
                throw DiffInputError.unreadable(place: file.pbxprojPath, message: "the file cannot be read; check its permissions")
            }
            return [UInt8](data)
        }
    }

    /// The sides for `--rev`: `REV` against the working copy, or `A..B`.
    static func revisions(_ rev: String, of path: String) throws -> (DiffSource, DiffSource) {
        let file = ProjectFile(path: path)
        let absolute = URL(fileURLWithPath: file.pbxprojPath).standardizedFileURL.resolvingSymlinksInPath().path
        let folder = (absolute as NSString).deletingLastPathComponent
        guard FileManager.default.fileExists(atPath: folder) else {
            throw DiffInputError.notAProject(path: path, pbxproj: file.pbxprojPath)
        }
        let repository = try GitRepository.discover(from: folder)
        let root = URL(fileURLWithPath: repository.workingDirectory ?? repository.gitDirectory)
            .standardizedFileURL.resolvingSymlinksInPath().path
        guard absolute.hasPrefix(root + "/") else { throw DiffInputError.outsideRepository(path: path, repository: root) }
        let relative = String(absolute.dropFirst(root.count + 1))
        func atRevision(_ revision: String) -> DiffSource {
            DiffSource(label: "\(revision):\(relative)", projectName: file.projectName) {
                try repository.fileContents(relative, at: revision)
            }
        }
        let parts = rev.components(separatedBy: "..")
        if parts.count == 2, !parts[0].isEmpty, !parts[1].isEmpty {
            return (atRevision(parts[0]), atRevision(parts[1]))
        }
        return (atRevision(rev), workingCopy(path))
    }

    /// The side read and reduced to a snapshot; parse errors name the side and the place.
    func snapshot() throws -> ProjectSnapshot {
        let bytes = try self.bytes()
        do {
            return try ProjectSnapshot(PBXProject(bytes: bytes, projectName: projectName))
        } catch let error as PBXProjError {
            let place = error.location.map { "\(label):\($0.line):\($0.column)" } ?? label
            throw DiffInputError.unreadable(place: place, message: error.message)
        }
    }
}
