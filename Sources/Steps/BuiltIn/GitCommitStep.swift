import Basics
import Git

/// `git.commit`: commits the release's changes through libgit2.
public struct GitCommitStep: Step {
    public static let description = StepDescription(
        id: "git.commit",
        summary: "Commit files (e.g. the version bump and changelog) on the current branch",
        discussion: """
            Stages `paths` (or, without paths, every tracked change) and commits them. With paths, \
            any other uncommitted change fails the step before anything is staged, so a release \
            commit never picks up stray edits (set allow-dirty: true to accept them). When there \
            is nothing to commit and HEAD already has this message, the step succeeds without a \
            new commit, so re-running a lane after a later failure does not commit twice. The \
            author comes from git config (user.name, user.email) unless author is given.
            """,
        options: [
            .required("message", .string, "The commit message."),
            .optional("paths", .list(.string), "Files or folders to commit (default: every tracked change)."),
            .optional("allow-dirty", .bool, default: .bool(false), "Allow uncommitted changes outside paths (they stay uncommitted)."),
            .optional("author", .string, "'Name <email>' instead of git config's user."),
        ],
        outputs: [OutputSpec("commit", "The commit's full hash."), OutputSpec("short", "Its first 7 characters.")],
        examples: [
            StepExample("The release commit", """
                - git.commit: { message: "chore(release): 1.4.0", paths: [CHANGELOG.md, VERSION] }
                """),
        ]
    )

    let message: String
    let paths: [String]
    let allowDirty: Bool
    let author: GitSignature?

    public init(options: StepOptions) throws {
        message = try options.requiredString("message")
        paths = try options.strings("paths")
        allowDirty = try options.bool("allow-dirty")
        author = try (options.string("author")).map(Self.signature)
    }

    static func signature(_ text: String) throws -> GitSignature {
        guard let open = text.firstIndex(of: "<"), text.hasSuffix(">") else {
            throw StepError.invalidOption(name: "author", problem: "'\(text)' should look like 'Release Bot <bot@example.com>'")
        }
        let name = text[..<open].trimmingCharacters(in: .whitespaces)
        let email = text[text.index(after: open)..<text.index(before: text.endIndex)]
        return GitSignature(name: name, email: String(email))
    }

    public func plan(in context: StepContext) throws -> [Effect] {
        let what = paths.isEmpty ? "every tracked change" : paths.joined(separator: ", ")
        return [Effect(.git, "commit \(what) with message '\(message)'")]
    }

    public func run(in context: StepContext) async throws -> StepOutputs {
        let repository = try GitRepository.discover(from: context.workingDirectory)
        let root = repository.workingDirectory ?? context.workingDirectory
        let relative = paths.map { path -> String in
            let absolute = context.resolve(path)
            return absolute.hasPrefix(root + "/") ? String(absolute.dropFirst(root.count + 1)) : path
        }
        let changes = GitEnsureCleanStep.withoutRunJournals(try repository.status(includeUntracked: true))
            .filter { $0.index != nil || $0.workTree != nil }
        if !relative.isEmpty && !allowDirty {
            let stray = changes.filter { entry in !relative.contains { entry.path == $0 || entry.path.hasPrefix($0 + "/") } }
            if !stray.isEmpty {
                let list = stray.prefix(10).map { "  \($0.shortCode) \($0.path)" }.joined(separator: "\n")
                let more = stray.count > 10 ? "\n  ... and \(stray.count - 10) more" : ""
                throw StepError.failed("the working tree has changes outside the files to commit (\(paths.joined(separator: ", "))):\n"
                    + "\(list)\(more)\nCommit or stash them before the release, or set allow-dirty: true.")
            }
        }
        let relevant = relative.isEmpty ? changes.filter { $0.workTree != .new || $0.index != nil } : changes
        if relevant.isEmpty, let head = try repository.head().commit,
           try repository.commit(head.hex).message.trimmingCharacters(in: .whitespacesAndNewlines) == message.trimmingCharacters(in: .whitespacesAndNewlines) {
            context.events.log(.info, "HEAD already is '\(message)'; nothing new to commit")
            return ["commit": head.hex, "short": head.short]
        }
        let oid = relative.isEmpty
            ? try repository.commitAll(message: message, signature: author, environment: context.environment.variables)
            : try repository.commit(message: message, paths: relative, signature: author, environment: context.environment.variables)
        context.events.log(.info, "committed \(oid.short) \(message)")
        return ["commit": oid.hex, "short": oid.short]
    }
}
