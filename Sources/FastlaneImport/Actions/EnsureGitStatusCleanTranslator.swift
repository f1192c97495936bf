/// `ensure_git_status_clean` → `git.ensure-clean`.
enum EnsureGitStatusCleanTranslator: FastlaneActionTranslator {
    static let names = ["ensure_git_status_clean"]
    static let documentation = docs("ensure_git_status_clean")
    static let parameters: [FastlaneParameter] = [
        .handled("show_uncommitted_changes", "git.ensure-clean always lists the uncommitted paths (the first 20) when it fails"),
        .listed("show_diff", "git.ensure-clean lists the changed paths, not the diff; add a 'run' step with 'git diff' before it if the log needs the diff"),
        .handled("ignored", "'none' (fastlane's default) is git.ensure-clean's behaviour: ignored files never count; 'traditional' and 'matching' are listed"),
        .listed("ignore_files", "git.ensure-clean has no list of files to ignore: commit those files or add them to .gitignore, else check with a 'run' step"),
    ]
    static let defaults = ["untracked files make the tree dirty (git status --porcelain), as git.ensure-clean's allow-untracked: false does"]

    static func translate(_ call: RubyCall, _ statement: Fastfile.Statement, into builder: inout LaneBuilder) {
        if let mode = call.argument("ignored"), builder.isKnown(mode, statement), mode.text != "none" {
            builder.skipArgument(call.name, "ignored", statement,
                                 "git.ensure-clean never counts ignored files; fastlane's '\(mode.text ?? "")' mode does: check them with a 'run' step (git status --ignored)")
        }
        builder.add("git.ensure-clean", [], from: statement)
    }
}
