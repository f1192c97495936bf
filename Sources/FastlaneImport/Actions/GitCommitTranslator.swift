import Basics

/// `git_commit` → `git.commit` with its paths (and allow-dirty, as git commits only them).
enum GitCommitTranslator: FastlaneActionTranslator {
    static let names = ["git_commit"]
    static let documentation = docs("git_commit")
    static let defaults = ["only the given paths are committed (git commit PATHS); other changes stay uncommitted"]
    static let parameters: [FastlaneParameter] = [
        .handled("path", "git.commit's paths, with allow-dirty: true (other changes stay uncommitted, as with git commit PATHS)"),
        .handled("message", "git.commit's message"),
        .handled("skip_git_hooks", "git.commit (libgit2) runs no git hooks"),
        .listed("allow_nothing_to_commit", "git.commit fails when there is nothing to commit, unless HEAD already has its message"),
    ]

    /// The input a Ruby-only path becomes: never declared, so that `slipway validate` fails
    /// until the paths are written (without paths git.commit commits every tracked change).
    static let pathsInput = "git-commit-paths"

    static func translate(_ call: RubyCall, _ statement: Fastfile.Statement, into builder: inout LaneBuilder) {
        let message = builder.literal(call, "message", statement) ?? .string("Version Bump")
        var options = [DraftPair("message", message)]
        guard let path = call.argument("path") else {
            builder.differ("git_commit without path: git.commit commits every tracked change")
            builder.add("git.commit", options, from: statement)
            return
        }
        if let paths = builder.value(.array(path.list), statement: statement) {
            options.append(DraftPair("paths", paths))
        } else {
            options.append(DraftPair("paths", .string("${{ inputs.\(pathsInput) }}")))
            builder.skipArgument(call.name, "path", statement, widenedReason(path))
        }
        options.append(DraftPair("allow-dirty", .bool(true)))
        builder.add("git.commit", options, from: statement)
    }

    /// The listed line of a path only Ruby knows.
    static func widenedReason(_ path: RubyValue) -> String {
        "its value (\(LaneBuilder.source(of: path))) is only known when Ruby runs: fastlane commits only those paths, and git.commit without paths would commit every tracked change. The step's paths is ${{ inputs.\(pathsInput) }}, an input the lane does not declare, so 'slipway validate' fails until you write the paths there"
    }
}

/// `commit_version_bump` → `git.commit` of the files that hold the version.
enum CommitVersionBumpTranslator: FastlaneActionTranslator {
    static let names = ["commit_version_bump"]
    static let documentation = docs("commit_version_bump")
    static let defaults = [
        "message 'Version Bump'",
        "it commits the project's .pbxproj and Info.plist files (and the files other actions changed); any other change fails it unless force",
    ]
    static let parameters: [FastlaneParameter] = [
        .handled("message", "git.commit's message"),
        .handled("xcodeproj", "the project whose version files are committed"),
        .handled("force", "true: git.commit's allow-dirty (other changes stay uncommitted)"),
        .listed("settings", "add the Settings.bundle's Root.plist to git.commit's paths by hand"),
        .listed("ignore", "git.commit commits the files the lane's version step changed; drop paths by hand"),
        .handled("include", "added to git.commit's paths"),
        .handled("no_verify", "git.commit (libgit2) runs no git hooks"),
    ]

    static func translate(_ call: RubyCall, _ statement: Fastfile.Statement, into builder: inout LaneBuilder) {
        let message = builder.literal(call, "message", statement) ?? .string("Version Bump")
        var options = [DraftPair("message", message)]
        var paths: [DraftValue] = Set(builder.translator.survey.shippingTargets.compactMap(\.versionSource)).sorted().map(DraftValue.string)
        if let include = call.argument("include"), case .list(let extra)? = builder.value(.array(include.list), statement: statement) {
            paths += extra
        }
        if !paths.isEmpty {
            options.append(DraftPair("paths", .list(paths)))
        } else {
            options.append(DraftPair("paths", .string("${{ inputs.\(GitCommitTranslator.pathsInput) }}")))
            builder.skip(statement, "commit_version_bump commits the files that hold the version, and none was found in the project: the step's paths is ${{ inputs.\(GitCommitTranslator.pathsInput) }}, an input the lane does not declare, so 'slipway validate' fails until you write the paths there")
        }
        if case .bool(true)? = call.argument("force") { options.append(DraftPair("allow-dirty", .bool(true))) }
        builder.add("git.commit", options, from: statement)
    }
}
