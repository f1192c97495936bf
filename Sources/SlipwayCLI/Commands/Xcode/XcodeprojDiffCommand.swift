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
                // Names and paths come from the pbxproj: one fact per line, control characters escaped.
                env.standardOutput.write(DisplayText.untrustedLines(try Self.workingCopy(first, env).snapshot().semanticText()))
                return
            }
            let old: ProjectDiffSource
            var new: ProjectDiffSource
            if let rev {
                (old, new) = try ProjectDiffSource.revisions(rev, of: first) { try GitProjectRevisions(pbxproj: $0, path: first) }
                // REV against the working copy: the working copy is read through the door.
                if new.label == ProjectFile(path: first).pbxprojPath { new = Self.workingCopy(first, env) }
            } else {
                (old, new) = (Self.workingCopy(first, env), Self.workingCopy(XcodeprojSupport.resolve(paths[1], global), env))
            }
            let difference = try ProjectDiffSource.compare(old, new)
            try show(difference, old: old.label, new: new.label, in: env)
            if !difference.isEmpty { throw ExitCodes.failure }
        } catch let error as ProjectDiffInputError {
            throw Failure.report(InvalidInputError(error), in: env)
        } catch let error as GitError {
            // Here git only reads the revisions asked for: an error is a bad --rev or repository.
            throw Failure.report(InvalidInputError(error), in: env)
        }
    }

    /// The project at `path` as it is on disk, read through the door (`env.fileSystem`): a
    /// project file that is a link leading outside the project, or a device, is refused, and
    /// no more than a project file's cap is read.
    static func workingCopy(_ path: String, _ env: CommandEnvironment) -> ProjectDiffSource {
        let file = ProjectFile(path: path)
        return ProjectDiffSource(label: file.pbxprojPath, projectName: file.projectName) {
            do {
                return try env.fileSystem.read(file.pbxprojPath, as: .projectFile)
            } catch FileSystemError.notFound {
                throw ProjectDiffInputError.notAProject(path: path, pbxproj: file.pbxprojPath)
            } catch {
                throw ProjectDiffInputError.unreadable(place: file.pbxprojPath, message: errorText(error))
            }
        }
    }

    private func show(_ difference: ProjectDiff, old: String, new: String, in env: CommandEnvironment) throws {
        if json {
            let output = DiffJSON(equal: difference.isEmpty, old: old, new: new, changes: difference)
            env.print(String(decoding: try JSONFormatting.encoder().encode(output), as: UTF8.self))
            return
        }
        let style = env.style
        // Every line is built from the projects' names and paths: escaped before it is coloured.
        env.standardOutput.write(difference.humanText { line, mark in
            let text = line.displaySafe
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

/// A project's git history, for `--rev`: the repository found from the project file.
struct GitProjectRevisions: ProjectRevisions {
    let repository: GitRepository
    let relativePath: String

    /// The repository holding `pbxproj` (the project file of `path`, as the user gave it).
    /// - Throws: `GitError` when there is no repository; `ProjectDiffInputError.outsideRepository`
    ///   when the file lies outside the one found.
    init(pbxproj: String, path: String) throws {
        let absolute = Self.resolved(URL(fileURLWithPath: pbxproj).standardizedFileURL.path)
        repository = try GitRepository.discover(from: Self.nearestExisting((absolute as NSString).deletingLastPathComponent))
        let root = URL(fileURLWithPath: repository.workingDirectory ?? repository.gitDirectory)
            .standardizedFileURL.resolvingSymlinksInPath().path
        guard absolute.hasPrefix(root + "/") else { throw ProjectDiffInputError.outsideRepository(path: path, repository: root) }
        relativePath = String(absolute.dropFirst(root.count + 1))
    }

    func contents(at revision: String) throws -> [UInt8] {
        try repository.fileContents(relativePath, at: revision)
    }

    /// `path` with symbolic links resolved in the part of it that exists: with `--rev A..B` the
    /// project (even its folder) may be gone from the working copy.
    static func resolved(_ path: String) -> String {
        let existing = nearestExisting(path)
        let rest = path.dropFirst(existing.count)
        let base = URL(fileURLWithPath: existing).resolvingSymlinksInPath().path
        return rest.isEmpty ? base : (base == "/" ? "" : base) + (rest.hasPrefix("/") ? "" : "/") + rest
    }

    /// The longest prefix of `path` (whole components) that exists on disk.
    static func nearestExisting(_ path: String) -> String {
        var current = path
        while current.count > 1, !FileManager.default.fileExists(atPath: current) {
            current = (current as NSString).deletingLastPathComponent
        }
        return current
    }
}
