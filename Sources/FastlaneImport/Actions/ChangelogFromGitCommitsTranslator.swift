import Basics

/// `changelog_from_git_commits` → `changelog.update` (id `changelog`, style subjects).
enum ChangelogFromGitCommitsTranslator: FastlaneActionTranslator {
    static let names = ["changelog_from_git_commits"]
    static let documentation = docs("changelog_from_git_commits")
    static let defaults = [
        "the commits since the latest tag, each as its full message (pretty %B), merges included; it returns the text",
    ]
    private static let format = "changelog.update lists each commit's subject with its short hash (style: subjects); use a template for another format"
    static let parameters: [FastlaneParameter] = [
        .handled("between", "its first item is changelog.update's since; the second must be HEAD"),
        .listed("commits_count", "changelog.update lists the commits since a tag, not a count"),
        .listed("path", "changelog.update reads the lane's repository"),
        .listed("pretty", format),
        .listed("date_format", format),
        .listed("ancestry_path", "changelog.update lists the commits reachable from HEAD since the tag"),
        .listed("tag_match_pattern", "changelog.update starts from the latest release tag (tag-prefix picks which), or since"),
        .listed("match_lightweight_tag", "changelog.update counts lightweight and annotated tags alike"),
        .handled("quiet", "how much is printed"),
        .handled("include_merges", "changelog.update's merge-commits"),
        .handled("merge_commit_filtering", "changelog.update's merge-commits (exclude, include, only)"),
        .listed("app_path", "changelog.update lists the whole repository's commits"),
    ]

    static func translate(_ call: RubyCall, _ statement: Fastfile.Statement, into builder: inout LaneBuilder) {
        var options = [DraftPair("version", .string(builder.versionExpression(statement)))]
        if let between = call.argument("between") {
            if case .array(let items) = between, let first = items.first, let since = builder.value(first, statement: statement) {
                options.append(DraftPair("since", since))
                if items.count > 1, items[1].text != "HEAD" {
                    builder.skipArgument(call.name, "between", statement, "changelog.update lists the commits up to HEAD, not up to \(LaneBuilder.source(of: items[1]))")
                }
            }
        }
        // fastlane lists every commit: the subjects style, with its merge filtering.
        options.append(DraftPair("style", .string("subjects")))
        let filters = ["exclude_merges": "exclude", "include_merges": "include", "only_include_merges": "only"]
        if let filter = call.argument("merge_commit_filtering")?.text, let mapped = filters[filter] {
            options.append(DraftPair("merge-commits", .string(mapped)))
        } else if case .bool(let include)? = call.argument("include_merges") {
            options.append(DraftPair("merge-commits", .string(include ? "include" : "exclude")))
        } else if let filter = call.argument("merge_commit_filtering"), builder.isKnown(filter, statement) {
            builder.skipArgument(call.name, "merge_commit_filtering", statement, "not exclude_merges, include_merges or only_include_merges")
        }
        options.append(DraftPair("create", .bool(true)))
        builder.differ("changelog_from_git_commits returns text; changelog.update writes it as a CHANGELOG.md section (style: subjects), which testflight.distribute reads as What to Test")
        builder.add("changelog.update", id: "changelog", options, from: statement)
    }
}
