import Basics
import PBXProj
#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// Everything that can stop a sync. Messages quote the subject and say what to do; whenever a
/// sync stops after it started moving files, the message says whether the tree was restored.
public enum SyncError: Error, LocalizedError, Sendable, Equatable {
    /// The project path does not exist.
    case projectNotFound(path: String)
    /// A folder without a `project.pbxproj` (or a path that is neither a project nor a pbxproj).
    case missingPBXProj(path: String)
    /// The pbxproj cannot be read or parsed; `detail` has the line and column.
    case unreadableProject(path: String, detail: String)
    /// The folder holding the project cannot be listed.
    case projectFolderUnreadable(path: String, reason: String)
    /// `--exclude` names that match no group.
    case unknownGroups(names: [String], suggestions: [String: String])
    /// The project cannot be synced as it is; nothing was moved.
    case conflicts([SyncConflict])
    /// The git working tree has uncommitted changes.
    case dirtyWorkingTree(repository: String, paths: [String])
    /// A journal of an interrupted sync exists and this run may not recover it (`--check`,
    /// `--dry-run`).
    case interruptedSync(journal: String)
    /// `--recover` found no journal.
    case nothingToRecover(project: String)
    /// The journal cannot be read, or was written by a newer Slipway.
    case unreadableJournal(path: String, reason: String)
    /// The journal is not one this Slipway wrote for this project (a symbolic link, another
    /// user's file, a bad signature, a path outside the project); nothing was done with it.
    case untrustedJournal(path: String, reason: String)
    /// A journal at the pre-issue-23 place inside the `.xcodeproj` (checkout content, maybe hostile).
    case legacyJournal(path: String)
    /// A step of the sync failed; `restored` says whether the tree and pbxproj were rolled back.
    case applyFailed(step: String, reason: String, restored: Bool, journal: String)
    /// Recovery could not finish; the journal was kept so that it can be run again.
    case recoveryFailed(step: String, reason: String, journal: String)
    /// The original pbxproj saved by the journal is missing or damaged.
    case backupDamaged(path: String)
    /// A git operation failed.
    case git(operation: String, reason: String)
    /// Files Slipway does not rewrite name paths the sync would move (`references`, one line
    /// each), or could not be read to tell (`unread`, the scan's bound too); nothing was moved.
    case pathReferences(references: [String], unread: [String])

    public var errorDescription: String? {
        switch self {
        case .projectNotFound(let path):
            return "'\(path)' does not exist. Pass the path of an .xcodeproj folder (or the project.pbxproj inside it)."
        case .missingPBXProj(let path):
            return "'\(path)' has no project.pbxproj. Pass an .xcodeproj folder that Xcode can open."
        case .unreadableProject(let path, let detail):
            return "'\(path)' cannot be read: \(detail). Fix the file (or restore it from git) and run the sync again."
        case .projectFolderUnreadable(let path, let reason):
            return "The project folder '\(path)' cannot be listed: \(reason). Check its permissions."
        case .unknownGroups(let names, let suggestions):
            let list = names.map { name in "'\(name)'" + (suggestions[name].map { " (did you mean '\($0)'?)" } ?? "") }
            return "No group matches --exclude \(list.joined(separator: ", ")). Give group paths from the main group, e.g. '/App/Vendor'; 'slipway xcodeproj groups' lists them."
        case .conflicts(let conflicts):
            let lines = conflicts.prefix(50).map { "  \($0)" }.joined(separator: "\n")
            let more = conflicts.count > 50 ? "\n  ... and \(conflicts.count - 50) more" : ""
            return "The project cannot be synced: \(conflicts.count) conflict\(conflicts.count == 1 ? "" : "s"); nothing was moved.\n\(lines)\(more)"
        case .dirtyWorkingTree(let repository, let paths):
            let shown = paths.prefix(20).map { "  \($0)" }.joined(separator: "\n")
            let more = paths.count > 20 ? "\n  ... and \(paths.count - 20) more" : ""
            return "The git working tree '\(repository)' has \(paths.count) uncommitted change\(paths.count == 1 ? "" : "s"):\n\(shown)\(more)\nCommit or stash them first (so that the sync can be undone with git), or pass --allow-dirty."
        case .interruptedSync(let journal):
            return "An interrupted sync left the journal '\(journal)'. Run 'slipway sync --recover' to restore the project first."
        case .nothingToRecover(let project):
            return "'\(project)' has no interrupted sync to recover (no journal); nothing to do."
        case .unreadableJournal(let path, let reason):
            return "The sync journal '\(path)' cannot be used: \(reason). Restore the project from git, then delete the journal."
        case .untrustedJournal(let path, let reason):
            return "The sync journal '\(path)' was not used: \(reason). Nothing was changed. It may be hostile: delete the folder '\(ProjectPath.parent(path))' (Slipway's sync state for this project), restore the project from git if a sync was really interrupted, and run again."
        case .legacyJournal(let path):
            return "'\(path)' was ignored: Slipway keeps its sync journal outside the checkout (under .git/slipway, or the user's state folder without git), so this file was not written by this Slipway and may be hostile; nothing was read from it and nothing was changed. Remove it ('git rm' it if it is committed, else delete it), then run the sync again."
        case .applyFailed(let step, let reason, let restored, let journal):
            let state = restored
                ? "The project and its files were restored to their state before the sync."
                : "The project could not be restored automatically; run 'slipway sync --recover' (journal '\(journal)')."
            return "The sync failed while \(step): \(reason) \(state)"
        case .recoveryFailed(let step, let reason, let journal):
            return "Recovery failed while \(step): \(reason) Fix the cause and run 'slipway sync --recover' again; the journal '\(journal)' was kept."
        case .backupDamaged(let path):
            return "The saved copy of the original project '\(path)' is missing or damaged. Restore project.pbxproj from git."
        case .git(let operation, let reason):
            return "git: could not \(operation): \(reason)"
        case .pathReferences(let references, let unread):
            let lines = references + unread
            // Paths and text from the checkout: control characters shown escaped.
            let shown = lines.prefix(200).map { "  \($0.displaySafe)" }.joined(separator: "\n")
            let more = lines.count > 200 ? "\n  ... and \(lines.count - 200) more (--json lists all)" : ""
            var head = "The sync would break \(references.count) path reference\(references.count == 1 ? "" : "s") in files Slipway does not rewrite"
            if !unread.isEmpty { head += ", and \(unread.count) file\(unread.count == 1 ? "" : "s") could not be read to tell" }
            return head + "; nothing was moved.\n\(shown)\(more)\n"
                + "Move these files by hand and fix the references, leave their group alone with --exclude <group>, "
                + "or pass --accept-path-references to sync anyway (they are then printed as warnings)."
        }
    }
}
