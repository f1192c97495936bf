import Basics
import Git

/// `git.push`: pushes the branch and tags, checking every ref's result.
public struct GitPushStep: Step {
    public static let description = StepDescription(
        id: "git.push",
        summary: "Push the current branch and tags; a ref the server refuses fails the step",
        discussion: """
            Pushes through libgit2 and checks each ref's result: a server can refuse one ref \
            (a protected branch, a hook) while the push as a whole reports success, and that \
            fails the step naming the ref. For HTTPS remotes give a token from a declared secret \
            (token: ${{ secrets.GITHUB_TOKEN }}); it is sent as the password of x-access-token.
            """,
        options: [
            .optional("remote", .string, default: .string("origin"), "The remote's name or URL."),
            .optional("branch", .bool, default: .bool(true), "Push the current branch to the same name."),
            .optional("tags", .list(.string), "Tags to push."),
            .optional("token", .string, "An access token for HTTPS remotes (from a secret)."),
        ],
        outputs: [OutputSpec("refs", "The refs the remote updated, one per line.")],
        examples: [
            StepExample("Branch and release tag", "- git.push: { tags: [v1.4.0] }"),
            StepExample("With a token", """
                - git.push: { remote: origin, tags: [v1.4.0], token: "${{ secrets.PUSH_TOKEN }}" }
                """),
        ]
    )

    let remote: String
    let pushBranch: Bool
    let tags: [String]
    let token: String?

    public init(options: StepOptions) throws {
        remote = try options.requiredString("remote")
        pushBranch = try options.bool("branch")
        tags = try options.strings("tags")
        token = try options.string("token").flatMap { $0.isEmpty ? nil : $0 }
        guard pushBranch || !tags.isEmpty else {
            throw StepError.invalidOption(name: "branch", problem: "is false and no tags are given: there is nothing to push")
        }
    }

    func refspecs(_ repository: GitRepository) throws -> [String] {
        var specs: [String] = []
        if pushBranch {
            guard let branch = try repository.head().branch else {
                throw StepError.failed("HEAD is detached, so there is no branch to push; check out the release branch or set branch: false")
            }
            specs.append("refs/heads/\(branch):refs/heads/\(branch)")
        }
        return specs + tags.map { "refs/tags/\($0):refs/tags/\($0)" }
    }

    public func plan(in context: StepContext) throws -> [Effect] {
        let repository = try GitRepository.discover(from: context.workingDirectory)
        return [Effect(.network, "push \(try refspecs(repository).joined(separator: ", ")) to \(remote)")]
    }

    public func run(in context: StepContext) async throws -> StepOutputs {
        let repository = try GitRepository.discover(from: context.workingDirectory)
        let refspecs = try refspecs(repository), remote = remote, credentials = token.map(GitCredentials.token)
        let updated = try await BlockingWork.run {
            // off-pool: the push waits on the network, on this thread of its own.
            try repository.push(remote: remote, refspecs: refspecs, credentials: credentials)
        }
        context.events.log(.info, updated.isEmpty ? "\(remote) was already up to date" : "pushed \(updated.joined(separator: ", "))")
        return ["refs": updated.joined(separator: "\n")]
    }
}
