import ArgumentParser
import Basics
import Foundation
import Sync

/// `slipway sync PATH.xcodeproj`: make the folders on disk match the Xcode groups.
struct SyncCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "sync",
        abstract: "Move files so that the folders on disk match the project's Xcode groups, without losing a file.",
        discussion: """
            A group with a path keeps the folder its path names (Xcode ties the group to it); a \
            group with a name and no path gets no folder by default (it only arranges the \
            navigator; '--groups-without-path folder' gives it one named after it); a file outside \
            its group's folder moves into it, and a file already inside stays. '--folders-from names' \
            gives synx's layout instead: every folder named after its group's display name, every \
            file straight in its group's folder. Never moved: dotfiles and dot-folders at the top \
            (.github, .gitignore, .swiftlint.yml), fastlane/, README/LICENSE/CHANGELOG, files at \
            the top that no target builds (Makefile), anything in a folder with a Package.swift \
            or in a git submodule, folder references, synchronized folders and Xcode's \
            'Recovered References'; the plan lists each with its reason. The plan (moves, pbxproj edits, files --prune would delete) \
            is worked out first and every conflict reported before anything moves, and so is every \
            file in the repository that names a path about to move (xcconfigs, script phases, \
            Package.swift, SwiftLint/SwiftGen configs, Makefiles, scripts, CI and fastlane files, \
            schemes, test plans, .gitignore): xcconfigs are rewritten with the moves, anything \
            else refuses the sync (exit 2) unless --accept-path-references; then the moves \
            run as a transaction with a journal in the repository's git directory (see docs/sync.md), the pbxproj is rewritten \
            last and atomically (only path and name lines change), and in a git repository the \
            moves are staged so that 'git status' shows renames. An interrupted sync is rolled \
            back by 'slipway sync --recover' (or automatically by the next sync). Only one \
            slipway works on a project at a time (every mode, --check too); a second one exits \
            75 naming the first one's pid. See docs/sync.md.

            EXAMPLES:
              slipway sync App.xcodeproj --dry-run
              slipway sync App.xcodeproj
              slipway sync App.xcodeproj --check      # CI: exit 1 if a file is misplaced
              slipway sync App.xcodeproj --check --check-order   # or children unsorted
              slipway sync App.xcodeproj --exclude /App/Vendor --prune
              slipway sync App.xcodeproj --folders-from names   # synx's layout
              slipway sync App.xcodeproj --groups-without-path folder   # synx's folders
              slipway sync App.xcodeproj --recover

            EXIT STATUS:
              0  in sync, or synced
              1  --check found files out of place (or, with --check-order,
                 a group's children unsorted), or the sync failed
                 (the message says whether everything was restored)
              2  refused, nothing changed: no project, unreadable pbxproj,
                 unknown --exclude group, conflicts, dirty git tree, files
                 naming paths that would move (see --accept-path-references)
              75 busy, nothing changed: another slipway is working on the
                 project (a sync, --recover, an xcodeproj edit); try again later
            """
    )

    @OptionGroup var global: GlobalOptions

    @Argument(help: ArgumentHelp("The project: the .xcodeproj folder or the project.pbxproj inside it.", valueName: "path"))
    var path: String

    @Flag(name: [.customShort("p"), .long], help: "Delete unreferenced source and image files in the groups' folders (listed first).")
    var prune = false

    @Option(name: [.customShort("e"), .long], help: ArgumentHelp("Leave a group alone, e.g. /App/Vendor (repeatable).", valueName: "group"))
    var exclude: [String] = []

    @Option(help: ArgumentHelp(
        "Where a group's folder comes from: 'paths' (default) keeps the folder each group's path names and moves only files outside their group's folder; 'names' names every folder after its group's display name, as synx does.",
        valueName: "paths|names"))
    var foldersFrom: FolderSource?

    @Option(help: ArgumentHelp(
        "What a group with a name and no path gets (with --folders-from paths): 'virtual' (default) none: its files stay wherever they are inside its parent's folder; 'folder' a folder named after it (synx's layout).",
        valueName: "folder|virtual"))
    var groupsWithoutPath: PathlessGroups?

    @Flag(help: "Keep the groups' children in their order (default: sort by name, folders first).")
    var noSortByName = false

    @Flag(help: "Do not leave /Libraries, /Frameworks, /Products and /Pods alone.")
    var noDefaultExclusions = false

    @Flag(name: [.customShort("q"), .long], help: "Print nothing but errors.")
    var quiet = false

    @Flag(help: "Print the plan (moves, pbxproj edits, deletions) and change nothing.")
    var dryRun = false

    @Flag(help: "Change nothing; exit 1 and list the files out of place (for CI). The children's order is not checked unless --check-order is given.")
    var check = false

    @Flag(help: "With --check: also exit 1 when a group's children are not sorted by name.")
    var checkOrder = false

    @Flag(help: "Print the report as JSON (sorted keys).")
    var json = false

    @Flag(help: "Run even when the git working tree has uncommitted changes.")
    var allowDirty = false

    @Flag(help: "Do not use git: no clean-tree check, no staging.")
    var noGit = false

    @Flag(help: "Roll back an interrupted sync from its journal.")
    var recover = false

    @Flag(help: "Sync even when files Slipway does not rewrite (scripts, CI files, Package.swift, ...) name paths that move; they are printed as warnings.")
    var acceptPathReferences = false

    func validate() throws {
        if dryRun && check { throw ValidationError("--dry-run and --check cannot be combined; --check already changes nothing.") }
        if checkOrder && !check { throw ValidationError("--check-order goes with --check: it makes the check fail on unsorted children too.") }
        if checkOrder && noSortByName { throw ValidationError("--check-order and --no-sort-by-name cannot be combined: there is no order to check.") }
        if groupsWithoutPath != nil && foldersFrom == .names {
            throw ValidationError("--groups-without-path applies to --folders-from paths; with names every group gets a folder named after it.")
        }
        if recover && (dryRun || check || prune || !exclude.isEmpty || foldersFrom != nil || groupsWithoutPath != nil || acceptPathReferences) {
            throw ValidationError("--recover takes no other sync options: it only restores the state before the interrupted sync.")
        }
    }

    func run() async throws {
        let env = global.environment()
        let path = self.path.hasPrefix("/") || global.directory == nil ? self.path : global.projectDirectory + "/" + self.path
        let progress = ProgressPrinter(enabled: env.style.interactive && !quiet && !json && !dryRun && !check)
        var onProgress: (@Sendable (Int, Int) -> Void)?
        if progress.enabled { onProgress = { @Sendable done, total in progress.update(done, total) } }
        let sync = ProjectSync(
            fileSystem: env.fileSystem, environment: env.environment, git: Self.gitOpener(enabled: !noGit), progress: onProgress)
        do {
            if recover {
                try runRecovery(sync, path: path, env: env)
                return
            }
            let options = SyncOptions(
                prune: prune, exclusions: exclude, sortByName: !noSortByName, defaultExclusions: !noDefaultExclusions,
                allowDirty: allowDirty, useGit: !noGit, foldersFrom: foldersFrom ?? .paths,
                groupsWithoutPath: groupsWithoutPath ?? .virtual, checkOrder: checkOrder)
            let mode: SyncMode = check ? .check : (dryRun ? .dryRun : .apply)
            // On a thread of its own: the sync moves files with fsync and may wait on git's
            // hashing thread, neither of which may hold a thread of the cooperative pool.
            let accept = acceptPathReferences
            let report = try await BlockingWork.run(name: "slipway-sync") {
                try sync.run(path, options: options, mode: mode, acceptPathReferences: accept)
            }
            progress.finish()
            try output(report, env: env)
            if !report.plan.conflicts.isEmpty { throw Failure.invalidInput(in: env) }
            if check && !report.isInSync { throw ExitCodes.failure }
        } catch let error as SyncError {
            progress.finish()
            throw Failure.report(error, in: env)
        } catch let error as LockError {
            progress.finish()
            throw Failure.report(error, in: env)
        } catch let error as StateFileError {
            // A symbolic link (or another user's file) where the project's lock goes: refused.
            progress.finish()
            throw Failure.report(error, in: env)
        }
    }

    private static func gitOpener(enabled: Bool) -> @Sendable (String) throws -> (any SyncGit)? {
        guard enabled else { return { _ in nil } }
        return { try LibGit2SyncGit.discover(projectFolder: $0) }
    }

    private func runRecovery(_ sync: ProjectSync, path: String, env: CommandEnvironment) throws {
        do {
            let report = try sync.recover(path)
            if json { return try printJSON(report, env: env) }
            if quiet { return }
            switch report.outcome {
            case .rolledBack:
                env.print("Rolled back the interrupted sync: \(report.movesUndone) move(s) undone"
                    + (report.pbxprojRestored ? ", project.pbxproj restored" : "") + (report.indexRestored ? ", git index restored" : "")
                    + (report.filesRestored.isEmpty ? "" : ", restored " + report.filesRestored.map { "'\($0)'" }.joined(separator: ", ")) + ".")
            case .rolledForward:
                env.print("The interrupted sync had finished its work; its clean-up is done now.")
            }
        } catch SyncError.nothingToRecover(let project) {
            if !quiet && !json { env.print("'\(project)' has no interrupted sync; nothing to recover.") }
            if json { env.print("{\"outcome\":\"nothing-to-recover\"}") }
        }
    }

    private func output(_ report: SyncReport, env: CommandEnvironment) throws {
        if json { return try printJSON(report, env: env) }
        if let recovered = report.recovered, !quiet {
            env.print(recovered.outcome == .rolledBack
                ? "Recovered an interrupted sync first: rolled back \(recovered.movesUndone) move(s)."
                : "Recovered an interrupted sync first: it had finished; its clean-up is done now.")
        }
        if quiet {
            if check && !report.isInSync { env.printError("'\(report.project)' is out of sync with its groups") }
            if !report.plan.conflicts.isEmpty { env.printError(SyncError.conflicts(report.plan.conflicts).errorDescription ?? "") }
            return
        }
        let style = env.style
        let paint: (String, String) -> String = { text, color in style.paint(text, Self.color(color)) }
        for line in report.lines(paint: paint) { env.print(line) }
        env.print(Self.summary(report).displaySafe)
        for warning in report.applied?.warnings ?? [] { env.print(style.paint("warning: ", .yellow) + DisplayText.untrustedLines(warning)) }
        if report.mode == .apply, report.applied != nil {
            for warning in report.pathReferenceWarnings { env.print(style.paint("warning: ", .yellow) + warning.displaySafe) }
        }
        if env.environment.isGitHubActions { printAnnotations(report, env: env) }
    }

    /// Under GitHub Actions, the path references the sync leaves broken (or would) as
    /// `::warning file=…,line=…::` workflow commands.
    private func printAnnotations(_ report: SyncReport, env: CommandEnvironment) {
        for reference in report.pathReferences ?? [] where !reference.rewritten {
            env.print(GitHubAnnotation(.warning, reference.description.displaySafe, file: reference.file.displaySafe, line: reference.line, column: reference.column,
                                       title: "slipway sync: path reference").rendered)
        }
        for unread in report.pathReferencesNotRead ?? [] {
            env.print(GitHubAnnotation(.warning, unread.description.displaySafe, file: unread.file.displaySafe, title: "slipway sync: file not read").rendered)
        }
    }

    static func summary(_ report: SyncReport) -> String {
        let plan = report.plan
        let project = report.project
        if !plan.conflicts.isEmpty {
            return "'\(project)' cannot be synced: \(plan.conflicts.count) conflict(s); nothing was changed."
        }
        if report.isInSync { return "'\(project)': the folders already match the groups." }
        let counts = "\(plan.referenceMoves.count) move(s), \(plan.carried.count) carried, \(plan.pruned.count) deleted, \(plan.edits.count) pbxproj edit(s)"
        switch report.mode {
        case .dryRun: return "Dry run: \(counts) planned; nothing was changed."
        case .check: return "'\(project)' is out of sync with its groups: \(counts) needed. Run 'slipway sync' to fix it."
        case .apply:
            let git = report.applied?.staged.map { "; \($0) path(s) staged in git" } ?? ""
            return "Synced: \(counts)\(git)."
        }
    }

    private static func color(_ name: String) -> TerminalStyle.Color {
        switch name {
        case "red": return .red
        case "green": return .green
        case "yellow": return .yellow
        case "blue": return .blue
        default: return .dim
        }
    }

    private func printJSON<T: Encodable>(_ value: T, env: CommandEnvironment) throws {
        env.print(String(decoding: try JSONFormatting.encoder().encode(value), as: UTF8.self))
    }

}

extension FolderSource: ExpressibleByArgument {}
extension PathlessGroups: ExpressibleByArgument {}

/// Live progress of a long apply on a terminal (standard error), rewritten in place.
final class ProgressPrinter: Sendable {
    private struct State {
        var lastPercent = -1
        var shown = false
    }

    let enabled: Bool
    private let state = Locked(State())

    init(enabled: Bool) { self.enabled = enabled }

    func update(_ done: Int, _ total: Int) {
        guard enabled, total >= 200 else { return }
        let percent = done * 100 / max(total, 1)
        state.withLock { state in
            guard percent != state.lastPercent else { return }
            state.lastPercent = percent
            state.shown = true
            FileDescriptorOutput.standardError.write("\r\u{1B}[KMoving files: \(done)/\(total) (\(percent)%)")
        }
    }

    func finish() {
        state.withLock { state in
            if state.shown { FileDescriptorOutput.standardError.write("\r\u{1B}[K") }
            state.shown = false
        }
    }
}
