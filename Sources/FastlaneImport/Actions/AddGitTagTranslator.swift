import Basics

/// `add_git_tag` → `git.tag` (id `tag`), with fastlane's default name
/// `GROUPING/LANE/PREFIXBUILD_NUMBERPOSTFIX`.
enum AddGitTagTranslator: FastlaneActionTranslator {
    static let names = ["add_git_tag"]
    static let documentation = docs("add_git_tag")
    static let defaults = [
        "without tag: GROUPING/LANE/PREFIXBUILD_NUMBERPOSTFIX, grouping builds, LANE the lane's name as fastlane runs it without spaces (a platform lane 'ios release' is iosrelease), BUILD_NUMBER the one increment_build_number set",
        "the tag is annotated with the message 'TAG (fastlane)'",
    ]
    static let parameters: [FastlaneParameter] = [
        .handled("tag", "git.tag's name, as given"),
        .handled("grouping", "the first part of the default name (builds)"),
        .handled("includes_lane", "whether the lane's name is part of the default name (true)"),
        .handled("prefix", "before the build number in the default name"),
        .handled("postfix", "after the build number in the default name"),
        .handled("build_number", "the build number in the default name (else the lane's increment_build_number)"),
        .handled("message", "git.tag's message (default 'TAG (fastlane)')"),
        .handled("commit", "git.tag's target"),
        .listed("force", "git.tag never moves a tag; an existing tag on another commit fails the step: delete it by hand if it must move"),
        .listed("sign", "git.tag makes annotated, unsigned tags; sign it in a 'run' step (git tag -s) if it must be signed"),
    ]

    static func translate(_ call: RubyCall, _ statement: Fastfile.Statement, into builder: inout LaneBuilder) {
        var options: [DraftPair] = []
        if let tag = builder.literal(call, "tag", statement) {
            options.append(DraftPair("name", tag))
        } else if call.argument("tag") != nil {
            return // listed: only Ruby knows the tag
        } else if let name = defaultName(call, statement, &builder) {
            options.append(DraftPair("name", .string(name)))
        } else {
            return
        }
        guard case .string(let name) = options[0].value else { return }
        if let message = builder.literal(call, "message", statement) {
            options.append(DraftPair("message", message))
        } else if call.argument("message") == nil {
            options.append(DraftPair("message", .string("\(name) (fastlane)")))
        }
        if let commit = builder.literal(call, "commit", statement) { options.append(DraftPair("target", commit)) }
        builder.add("git.tag", id: "tag", options, from: statement)
    }

    /// fastlane's `GROUPING/LANE/PREFIXBUILD_NUMBERPOSTFIX`; nil (listed) when a part is only
    /// known when Ruby runs or there is no build number.
    static func defaultName(_ call: RubyCall, _ statement: Fastfile.Statement, _ builder: inout LaneBuilder) -> String? {
        var parts: [String] = []
        for key in ["grouping", "prefix", "postfix"] {
            if let given = call.argument(key), !builder.isKnown(given, statement) { return nil } // listed after translate
        }
        guard let number = buildNumber(call, statement, &builder) else { return nil }
        parts.append(call.argument("grouping")?.text ?? "builds")
        if case .bool(false)? = call.argument("includes_lane") {} else {
            // fastlane's LANE_NAME is "PLATFORM LANE" with the spaces removed.
            parts.append(String(((builder.lane.platform ?? "") + builder.lane.name).filter { $0 != " " }))
        }
        parts.append((call.argument("prefix")?.text ?? "") + number + (call.argument("postfix")?.text ?? ""))
        return parts.joined(separator: "/")
    }

    /// The build number: the argument, else the one the lane's version step writes (the
    /// archive's CFBundleVersion when it is `increment`).
    static func buildNumber(_ call: RubyCall, _ statement: Fastfile.Statement, _ builder: inout LaneBuilder) -> String? {
        if call.argument("build_number") != nil {
            guard let given = builder.literal(call, "build_number", statement), case .string(let text) = given.asString else { return nil }
            return text
        }
        guard case .string(let number)? = builder.draft.step("version")?.option("build-number") else {
            builder.skip(statement, "add_git_tag without tag or build_number, and no increment_build_number before it: fastlane fails the same way; write git.tag's name by hand")
            return nil
        }
        guard number == "increment" else { return number }
        if let archive = builder.draft.steps.last(where: { $0.kind == "xcode.archive" })?.id {
            return "${{ steps.\(archive).outputs.build-number }}"
        }
        builder.skip(statement, "add_git_tag names the tag with the build number increment_build_number wrote (the project's plus 1), which no step before it outputs: write git.tag's name by hand (an xcode.archive step's build-number output has it)")
        return nil
    }
}
