import Basics

/// `push_to_git_remote` → `git.push`.
enum PushToGitRemoteTranslator: FastlaneActionTranslator {
    static let names = ["push_to_git_remote"]
    static let documentation = docs("push_to_git_remote")
    static let defaults = ["tags true: every local tag is pushed (git push --tags); git.push pushes the lane's tag"]
    static let parameters: [FastlaneParameter] = [
        .listed("local_branch", "git.push pushes the current branch to the same name; check out the branch first"),
        .listed("remote_branch", "git.push pushes the current branch to the same name; push to another name in a 'run' step"),
        .listed("force", "git.push never forces"),
        .listed("force_with_lease", "git.push never forces"),
        .handled("tags", "true: git.push's tags, the lane's git.tag (fastlane pushes every local tag; said)"),
        .maps("remote", to: "remote"),
        .handled("no_verify", "git.push (libgit2) runs no git hooks"),
        .listed("set_upstream", "git.push does not set the upstream branch; run 'git push --set-upstream' in a 'run' step"),
        .listed("push_options", "git.push sends no push options; run 'git push --push-option' in a 'run' step"),
    ]

    /// The input a Ruby-only remote becomes (never declared).
    static let remoteInput = "git-push-remote"

    static func translate(_ call: RubyCall, _ statement: Fastfile.Statement, into builder: inout LaneBuilder) {
        var options: [DraftPair] = []
        if let remote = call.argument("remote"), !builder.isKnown(remote, statement) {
            // git.push without remote pushes to origin, which may not be the remote fastlane
            // pushed to: the lane names an input it does not declare, so validate fails.
            options.append(DraftPair("remote", .string("${{ inputs.\(remoteInput) }}")))
            builder.skipArgument(call.name, "remote", statement,
                                 "its value (\(LaneBuilder.source(of: remote))) is only known when Ruby runs: git.push without it would push to origin. The step's remote is ${{ inputs.\(remoteInput) }}, an input the lane does not declare, so 'slipway validate' fails until you write the remote there")
        } else {
            builder.carry(call, optionMap, into: &options, statement)
        }
        if case .bool(false)? = call.argument("tags") {
        } else if let tag = builder.draft.steps.last(where: { $0.kind == "git.tag" })?.id {
            options.append(DraftPair("tags", .list([.string("${{ steps.\(tag).outputs.tag }}")])))
            builder.differ("push_to_git_remote pushes every local tag; git.push pushes the lane's tag")
        } else {
            builder.differ("push_to_git_remote pushes every local tag; git.push pushes only the tags it is given")
        }
        builder.add("git.push", options, from: statement)
    }
}
