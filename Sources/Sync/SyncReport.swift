import Basics

/// How a sync runs.
public enum SyncMode: String, Codable, Sendable {
    /// Move files and write the project.
    case apply
    /// Only print the plan.
    case dryRun = "dry-run"
    /// Only check: out of place means failure (for CI).
    case check
}

/// The outcome of `slipway sync`, for people and (as JSON, `--json`) for machines.
public struct SyncReport: Codable, Sendable {
    /// The format version of this report.
    public var version = 1
    /// The `project.pbxproj` synced.
    public var project: String
    /// How it ran.
    public var mode: SyncMode
    /// The plan (what was done, or would be).
    public var plan: SyncPlan
    /// What applying did (nil for `--dry-run` and `--check`).
    public var applied: SyncApplier.Result?
    /// A recovery of an interrupted sync that ran first.
    public var recovered: SyncRecovery.Report?
    /// Whether git was used (dirty check and staging).
    public var usedGit: Bool
    /// Places in the repository that name a path the plan moves (nil when nothing moves):
    /// `rewritten` ones are fixed by the sync, the others break unless accepted.
    public var pathReferences: [PathReference]?
    /// Files that may name a moving path and could not be read (nil when nothing moves).
    public var pathReferencesNotRead: [UnreadReferenceFile]?
    /// Set when the scan for path references stopped at its bound.
    public var pathReferenceScanLimit: String?
    /// Files the sync rewrites besides the pbxproj (xcconfigs), with the lines that change.
    public var rewrittenFiles: [PathReferenceEdit]?

    /// Creates a report.
    public init(project: String, mode: SyncMode, plan: SyncPlan, applied: SyncApplier.Result? = nil,
                recovered: SyncRecovery.Report? = nil, usedGit: Bool = false) {
        self.project = project
        self.mode = mode
        self.plan = plan
        self.applied = applied
        self.recovered = recovered
        self.usedGit = usedGit
    }

    /// The path references the sync leaves broken (accepted), unread files and the scan's bound,
    /// one line each.
    public var pathReferenceWarnings: [String] {
        (pathReferences ?? []).filter { !$0.rewritten }.map(\.description) + (pathReferencesNotRead ?? []).map(\.description)
            + (pathReferenceScanLimit.map { ["the scan for path references stopped: \($0)"] } ?? [])
    }

    /// True when nothing is (or was) out of place.
    public var isInSync: Bool { plan.isEmpty && plan.conflicts.isEmpty }

    /// Human lines: moves (`from → to`), carried files, files referenced from several groups,
    /// files deleted, references left alone, pbxproj edits and conflicts. Colours come from the
    /// caller's `paint`.
    public func lines(limit: Int = 200, paint: (String, String) -> String = { text, _ in text }) -> [String] {
        var lines: [String] = []
        func section(_ title: String, _ items: [String], color: String) {
            guard !items.isEmpty else { return }
            lines.append(paint("\(title) (\(items.count)):", color))
            // Items quote paths and names from the project: control characters shown escaped.
            lines += items.prefix(limit).map { "  \($0.displaySafe)" }
            if items.count > limit { lines.append("  ... and \(items.count - limit) more (--json lists all)") }
        }
        section("Conflicts", plan.conflicts.map(\.description), color: "red")
        section("Moves", plan.referenceMoves.map { "\($0.source) → \($0.destination)" }, color: "green")
        section("Unreferenced files carried along", plan.carried.map { "\($0.source) → \($0.destination)" }, color: "yellow")
        section(mode == .apply ? "Deleted (--prune)" : "Would delete (--prune)", plan.pruned, color: "red")
        section("Referenced from several groups", plan.multiReferenced.map { reference in
            "\(reference.path) (in \(reference.groups.joined(separator: ", ")))" + (reference.madeProjectRelative ? " — now relative to the project folder" : "")
        }, color: "yellow")
        section("project.pbxproj edits", plan.edits.map(\.summary), color: "blue")
        section("Files rewritten to follow the moves", (rewrittenFiles ?? []).flatMap { edit in
            edit.changes.map { "\(edit.finalPath):\($0)" }
        }, color: "blue")
        let unresolved = (pathReferences ?? []).filter { !$0.rewritten }.map(\.description)
            + (pathReferencesNotRead ?? []).map(\.description) + (pathReferenceScanLimit.map { ["the scan for path references stopped: \($0)"] } ?? [])
        if mode != .apply { section("Path references the moves would break", unresolved, color: "yellow") }
        section("Not moved", plan.unmoved.map { "\($0.path) (\(Self.describe($0)))" }, color: "dim")
        return lines
    }

    static func describe(_ reference: UnmovedReference) -> String {
        let link = "'\(reference.link ?? "")' → '\(reference.linkDestination ?? "?")'"
        let area = reference.area.map { $0.isEmpty ? "." : $0 } ?? ""
        switch reference.reason {
        case .missing: return "not on disk"
        case .outsideProject: return "outside the project folder"
        case .insideAnotherItem: return "inside another reference, a package or a project"
        case .behindSymbolicLink: return "behind the symbolic link \(link); links are not followed"
        case .behindLinkOutsideProject: return "behind the symbolic link \(link), which leads outside the project folder"
        case .toolManifest: return "a tool finds it where it is (a package manifest, Podfile, podspec or lockfile)"
        case .repositoryFile:
            return "'\(area)' is at the top of the project folder, where git, CI and people find it: nothing moves out of or into it"
        case .documentation: return "a README, LICENSE or CHANGELOG never moves on its own"
        case .notBuiltAtTop: return "built by no target, and at the top of the project folder or in a top-level folder that holds no group's folder: tools and scripts find it there"
        case .insideSwiftPackage:
            return "'\(area)' holds a Package.swift, which finds its files by their place: nothing moves into, out of or within it"
        case .insideSubmodule: return "'\(area)' is a git submodule: nothing moves into, out of or within it"
        case .folderReference: return "a folder reference stays where it is"
        case .synchronizedFolder: return "a synchronized folder stays where it is"
        case .recoveredReferences: return "listed by Xcode's 'Recovered References', which gets no folder"
        }
    }
}
