import CLibgit2

/// How one side of a file's status (HEAD → index, or index → working directory) changed.
public enum GitChange: Sendable, Hashable {
    /// Added (in the index), or untracked (in the working directory: `??`).
    case new
    /// Content or mode changed.
    case modified
    /// Removed.
    case deleted
    /// Moved here from `from`, detected by content similarity as `git status` does.
    case renamed(from: String)
    /// Changed kind, e.g. a file became a symbolic link.
    case typeChange
    /// Unmerged: a merge, rebase or cherry-pick left a conflict on this path.
    case conflicted
    /// Matched by an ignore rule (only reported when ignored files are asked for).
    case ignored
}

/// One path in `git status`: what is staged and what is not.
public struct GitStatusEntry: Sendable, Hashable {
    /// The path relative to the repository root, after any rename.
    public let path: String
    /// The staged change (HEAD → index), `X` in `git status --porcelain`; nil when none.
    public let index: GitChange?
    /// The unstaged change (index → working directory), `Y` in porcelain; nil when none.
    public let workTree: GitChange?

    /// Creates a status entry.
    public init(path: String, index: GitChange?, workTree: GitChange?) {
        self.path = path
        self.index = index
        self.workTree = workTree
    }

    /// The two letters `git status --short` shows: `??` for an untracked file, else the staged
    /// and the unstaged change (`A`, `M`, `D`, `R`, `T`, `U`, `!`, or a space for none).
    public var shortCode: String {
        func letter(_ change: GitChange?) -> String {
            switch change {
            case nil: return " "
            case .new?: return "A"
            case .modified?: return "M"
            case .deleted?: return "D"
            case .renamed?: return "R"
            case .typeChange?: return "T"
            case .conflicted?: return "U"
            case .ignored?: return "!"
            }
        }
        if index == nil && workTree == .new { return "??" }
        return letter(index) + letter(workTree)
    }
}

extension GitRepository {
    /// The working tree's status, as `git status` computes it, with rename detection between
    /// HEAD and the index and between the index and the working directory. Entries come in
    /// path order; files inside untracked directories are listed one by one.
    /// - Parameters:
    ///   - includeUntracked: list untracked files (needed to see renames that are not staged).
    ///   - includeIgnored: list ignored files too.
    /// - Throws: `GitError.bareRepository`, `.operationFailed`.
    public func status(includeUntracked: Bool = true, includeIgnored: Bool = false) throws -> [GitStatusEntry] {
        let workdir = try requireWorkingDirectory(for: "read the status")
        return try withHandle { repo in
            var options = git_status_options()
            git_status_options_init(&options, UInt32(GIT_STATUS_OPTIONS_VERSION))
            options.show = GIT_STATUS_SHOW_INDEX_AND_WORKDIR
            var flags = GIT_STATUS_OPT_RENAMES_HEAD_TO_INDEX.rawValue
                | GIT_STATUS_OPT_RENAMES_INDEX_TO_WORKDIR.rawValue
                | GIT_STATUS_OPT_SORT_CASE_SENSITIVELY.rawValue
            if includeUntracked {
                flags |= GIT_STATUS_OPT_INCLUDE_UNTRACKED.rawValue | GIT_STATUS_OPT_RECURSE_UNTRACKED_DIRS.rawValue
            }
            if includeIgnored {
                flags |= GIT_STATUS_OPT_INCLUDE_IGNORED.rawValue | GIT_STATUS_OPT_RECURSE_IGNORED_DIRS.rawValue
            }
            options.flags = flags
            var list: OpaquePointer?
            try check(git_status_list_new(&list, repo, &options)) {
                .operationFailed(operation: "read the status of", subject: workdir, libgit2: $0.message)
            }
            defer { git_status_list_free(list) }
            return (0..<git_status_list_entrycount(list)).compactMap { position in
                git_status_byindex(list, position).flatMap { Self.entry(from: $0.pointee) }
            }
        }
    }

    /// True when `git status` has nothing to report.
    /// - Parameter ignoringUntracked: treat untracked files as clean (they cannot be lost by a
    ///   commit or a checkout, but a release usually wants them absent).
    /// - Throws: like `status(includeUntracked:includeIgnored:)`.
    public func isClean(ignoringUntracked: Bool = false) throws -> Bool {
        try status(includeUntracked: !ignoringUntracked).isEmpty
    }

    private static func entry(from raw: git_status_entry) -> GitStatusEntry? {
        let flags = raw.status.rawValue
        func has(_ flag: git_status_t) -> Bool { flags & flag.rawValue != 0 }
        let staged = raw.head_to_index?.pointee
        let unstaged = raw.index_to_workdir?.pointee
        guard let path = string(unstaged?.new_file.path) ?? string(staged?.new_file.path)
            ?? string(unstaged?.old_file.path) ?? string(staged?.old_file.path)
        else { return nil }

        if has(GIT_STATUS_CONFLICTED) {
            return GitStatusEntry(path: path, index: .conflicted, workTree: .conflicted)
        }
        if has(GIT_STATUS_IGNORED) {
            return GitStatusEntry(path: path, index: nil, workTree: .ignored)
        }
        var index: GitChange?
        if has(GIT_STATUS_INDEX_RENAMED) {
            index = .renamed(from: string(staged?.old_file.path) ?? path)
        } else if has(GIT_STATUS_INDEX_NEW) {
            index = .new
        } else if has(GIT_STATUS_INDEX_DELETED) {
            index = .deleted
        } else if has(GIT_STATUS_INDEX_TYPECHANGE) {
            index = .typeChange
        } else if has(GIT_STATUS_INDEX_MODIFIED) {
            index = .modified
        }
        var workTree: GitChange?
        if has(GIT_STATUS_WT_RENAMED) {
            workTree = .renamed(from: string(unstaged?.old_file.path) ?? path)
        } else if has(GIT_STATUS_WT_NEW) {
            workTree = .new
        } else if has(GIT_STATUS_WT_DELETED) {
            workTree = .deleted
        } else if has(GIT_STATUS_WT_TYPECHANGE) {
            workTree = .typeChange
        } else if has(GIT_STATUS_WT_MODIFIED) || has(GIT_STATUS_WT_UNREADABLE) {
            workTree = .modified
        }
        guard index != nil || workTree != nil else { return nil }
        return GitStatusEntry(path: path, index: index, workTree: workTree)
    }
}
