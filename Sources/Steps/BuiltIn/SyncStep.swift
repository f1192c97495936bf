import Basics
import Sync

/// `sync`: make the folders on disk match an Xcode project's groups (see `slipway sync`).
public struct SyncStep: Step {
    public static let description = StepDescription(
        id: "sync",
        summary: "Move files so that the folders on disk match an Xcode project's groups, without losing a file",
        discussion: """
            The same as 'slipway sync': a group with a path keeps the folder its path names, a group \
            with only a name gets no folder (groups-without-path: folder gives it one), and files \
            outside their group's folder move into it (folders-from: names gives synx's layout, folders named after display \
            names); conflicts are reported before \
            anything moves; the moves run as a journaled transaction that an interruption cannot \
            leave half done; project.pbxproj is rewritten last, changing only path and name lines; \
            in a git repository the moves are staged as renames. With check: true nothing changes \
            and the step fails when a file is out of place (for CI; with check-order: true, also \
            when a group's children are unsorted). A dry run lists the moves.
            """,
        options: [
            .required("project", .string, "The .xcodeproj folder (or the project.pbxproj in it)."),
            .optional("prune", .bool, default: .bool(false), "Delete unreferenced source and image files in the groups' folders."),
            .optional("exclude", .list(.string), "Groups to leave alone, as paths from the main group (e.g. /App/Vendor)."),
            .optional("sort-by-name", .bool, default: .bool(true), "Sort the groups' children by name, folders first."),
            .optional("default-exclusions", .bool, default: .bool(true), "Leave /Libraries, /Frameworks, /Products and /Pods alone."),
            .optional("allow-dirty", .bool, default: .bool(false), "Run even when the git working tree has uncommitted changes."),
            .optional("folders-from", .choice(FolderSource.allCases.map(\.rawValue)), default: .string("paths"),
                      "Where a group's folder comes from: paths (keep each group's path folder) or names (synx's: display names)."),
            .optional("groups-without-path", .choice(PathlessGroups.allCases.map(\.rawValue)), default: .string("virtual"),
                      "With folders-from: paths, what a group with only a name gets: virtual (none, the default) or folder (named after it, synx's layout)."),
            .optional("check", .bool, default: .bool(false), "Change nothing; fail when files are out of place."),
            .optional("accept-path-references", .bool, default: .bool(false),
                      "Sync even when files Slipway does not rewrite (scripts, CI files, Package.swift, ...) name paths that move; they are logged as warnings."),
            .optional("check-order", .bool, default: .bool(false), "With check: also fail when a group's children are not sorted by name."),
        ],
        outputs: [
            OutputSpec("moved", "How many files and folders moved (or, with check, would move)."),
            OutputSpec("edits", "How many pbxproj edits were made (or would be)."),
            OutputSpec("pruned", "How many files were deleted."),
        ],
        primaryOption: "project",
        examples: [
            StepExample("Sync the project's folders with its groups", "- sync: App.xcodeproj"),
            StepExample("Fail CI when a file is out of place", "- sync: { project: App.xcodeproj, check: true }"),
            StepExample("Leave vendored code alone and delete unreferenced sources", """
                - sync:
                    project: App.xcodeproj
                    exclude: [/App/Vendor]
                    prune: true
                """),
        ]
    )

    /// The project, as given (relative to the lane's working directory).
    public let project: String
    /// The sync's options.
    public let options: SyncOptions
    /// Only check; fail when something is out of place.
    public let check: Bool
    /// Sync even when files Slipway does not rewrite name moving paths.
    public let acceptPathReferences: Bool

    public init(options: StepOptions) throws {
        project = try options.requiredString("project")
        let source = try options.requiredString("folders-from")
        guard let foldersFrom = FolderSource(rawValue: source) else {
            throw StepError.invalidOption(name: "folders-from", problem: "must be 'paths' or 'names', not '\(source)'")
        }
        let pathless = try options.requiredString("groups-without-path")
        guard let groupsWithoutPath = PathlessGroups(rawValue: pathless) else {
            throw StepError.invalidOption(name: "groups-without-path", problem: "must be 'folder' or 'virtual', not '\(pathless)'")
        }
        self.options = SyncOptions(
            prune: try options.bool("prune"), exclusions: try options.strings("exclude"),
            sortByName: try options.bool("sort-by-name"),
            defaultExclusions: try options.bool("default-exclusions"),
            allowDirty: try options.bool("allow-dirty"),
            foldersFrom: foldersFrom, groupsWithoutPath: groupsWithoutPath, checkOrder: try options.bool("check-order"))
        check = try options.bool("check")
        acceptPathReferences = try options.bool("accept-path-references")
        if self.options.checkOrder && !check {
            throw StepError.invalidOption(name: "check-order", problem: "goes with check: true (it makes the check fail on unsorted children too)")
        }
    }

    private func sync(_ context: StepContext) -> ProjectSync {
        ProjectSync(fileSystem: context.fileSystem, environment: context.environment)
    }

    public func plan(in context: StepContext) throws -> [Effect] {
        let report = try sync(context).run(context.resolve(project), options: options, mode: .dryRun)
        let plan = report.plan
        if check { return [Effect(.check, "the folders of \(project) match its groups (\(plan.moves.count) move(s) needed now)")] }
        var effects = plan.conflicts.map { Effect(.check, "conflict: \($0)") }
        effects += report.pathReferenceWarnings.map { Effect(.check, (acceptPathReferences ? "accepted: " : "refused: ") + $0) }
        effects += plan.moves.map { move in
            move.reason == .pruned ? Effect(.delete, "delete \(move.source)") : Effect(.write, "move \(move.source) → \(move.destination)")
        }
        if !plan.edits.isEmpty { effects.append(Effect(.write, "edit \(project)/project.pbxproj (\(plan.edits.count) change(s))")) }
        if effects.isEmpty { effects.append(Effect(.check, "\(project): the folders already match the groups")) }
        return effects
    }

    public func run(in context: StepContext) async throws -> StepOutputs {
        let report: SyncReport
        do {
            // On a thread of its own: the sync moves files with fsync and may wait on git's
            // hashing thread, neither of which may hold a thread of the cooperative pool.
            let sync = sync(context), path = context.resolve(project), options = options, mode: SyncMode = check ? .check : .apply
            let accept = acceptPathReferences
            report = try await BlockingWork.run(name: "slipway-sync") {
                try sync.run(path, options: options, mode: mode, acceptPathReferences: accept)
            }
        } catch let error as SyncError {
            throw StepError.failed(error.errorDescription ?? "\(error)")
        }
        let plan = report.plan
        if !plan.conflicts.isEmpty { throw StepError.failed(SyncError.conflicts(plan.conflicts).errorDescription ?? "conflicts") }
        if check && !report.isInSync {
            let lines = report.lines(limit: 20).joined(separator: "\n")
            throw StepError.failed("\(project) is out of sync with its groups; run 'slipway sync \(project)':\n\(lines)")
        }
        let outputs = ["moved": String(plan.moves.count - plan.pruned.count), "edits": String(plan.edits.count), "pruned": String(plan.pruned.count)]
        for warning in report.pathReferenceWarnings { context.events.log(.warning, "\(project): \(warning)") }
        if !check && !report.isInSync {
            context.events.log(.info, "synced \(project): \(outputs["moved"] ?? "0") move(s), \(plan.edits.count) pbxproj edit(s), \(plan.pruned.count) deleted")
        }
        return outputs
    }
}
