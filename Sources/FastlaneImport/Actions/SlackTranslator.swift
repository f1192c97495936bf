/// `slack` → `notify` with `service: slack` and the incoming webhook's URL from a secret.
enum SlackTranslator: FastlaneActionTranslator {
    static let names = ["slack"]
    static let documentation = docs("slack")
    static let parameters: [FastlaneParameter] = [
        .handled("message", "message; without it notify says how the lane stands (fastlane sends the fields only)"),
        .maps("pretext", to: "title"),
        .listed("channel", "notify posts through the webhook to the webhook's own channel (Slack apps' webhooks ignore a channel); "
                + "to post to another channel, give notify a bot token (token: ${{ secrets.SLACK_BOT_TOKEN }}) and channel instead of url"),
        .handled("use_webhook_configured_username_and_icon", "notify always shows the webhook's own name and icon"),
        .handled("slack_url", "url, from a secret: the variable the Fastfile reads, else SLACK_URL (the variable fastlane reads)"),
        .listed("username", "notify shows the Slack app's own name (apps' webhooks ignore a username); rename the app in Slack"),
        .listed("icon_url", "notify shows the Slack app's own icon (apps' webhooks ignore an icon); change the app's icon in Slack"),
        .listed("icon_emoji", "notify shows the Slack app's own icon (apps' webhooks ignore an icon); change the app's icon in Slack"),
        .listed("thread_ts", "notify posts a new message, never a reply in a thread"),
        .listed("payload", "notify has no free fields: put them in message (${{ steps.ID.outputs.NAME }} and ${{ env.NAME }} work there), "
                + "or use its version, build-number and links options"),
        .handled("default_payloads", "notify names the lane and its status; git_branch, git_author, last_git_commit and "
                 + "last_git_commit_hash are listed (put them in message)"),
        .listed("attachment_properties", "notify sends Block Kit blocks (a header and a section), not legacy attachments: put the text in message"),
        .handled("success", "notify shows the lane's status itself (${{ lane.status }}); under finally: it says which step failed"),
        .maps("fail_on_error", to: "fail-on-error"),
        .listed("link_names", "notify does not ask Slack to link names: write <@U012AB3CD> or <#C012AB3CD> in message"),
    ]
    static let defaults = [
        "slack_url comes from SLACK_URL when not given",
        "default_payloads adds the lane, the test result, the git branch, its author and the last commit to every message",
    ]

    static func translate(_ call: RubyCall, _ statement: Fastfile.Statement, into builder: inout LaneBuilder) {
        var options = [DraftPair("service", .string("slack")),
                       DraftPair("url", builder.secret(call, "slack_url", statement, name: "SLACK_URL", "The Slack incoming webhook's URL"))]
        if let message = builder.literal(call, "message", statement) {
            options.append(DraftPair("message", message))
        } else if call.argument("message") == nil {
            builder.differ("slack without message: fastlane sends only its fields; notify writes how the lane stands (\"Lane 'NAME' …\")")
        }
        if let title = builder.literal(call, "pretext", statement) { options.append(DraftPair("title", title)) }
        if let fail = builder.literal(call, "fail_on_error", statement) {
            options.append(DraftPair("fail-on-error", fail))
        }
        defaultPayloads(call, statement, into: &builder)
        builder.add("notify", options, from: LaneBuilder.redacting(["slack_url"], of: call, in: statement))
    }

    /// fastlane's default fields: the lane and the test result are in notify's message; the git
    /// fields are not.
    private static func defaultPayloads(_ call: RubyCall, _ statement: Fastfile.Statement, into builder: inout LaneBuilder) {
        let git = ["git_branch", "git_author", "last_git_commit", "last_git_commit_hash"]
        guard let given = call.argument("default_payloads") else {
            builder.differ("slack adds the git branch, its author and the last commit to every message (default_payloads); "
                           + "notify names the lane and its status: put the others in message if the channel needs them")
            return
        }
        guard case .array(let items) = given else {
            builder.skipArgument(call.name, "default_payloads", statement, "not a literal list; notify names the lane and its status, put the rest in message")
            return
        }
        let names = items.compactMap(\.text)
        guard names.count == items.count else {
            builder.skipArgument(call.name, "default_payloads", statement, "not a list of names; notify names the lane and its status, put the rest in message")
            return
        }
        let missing = names.filter(git.contains)
        let unknown = names.filter { !git.contains($0) && $0 != "lane" && $0 != "test_result" }
        if !missing.isEmpty || !unknown.isEmpty {
            builder.skipArgument(call.name, "default_payloads", statement, "notify names the lane and its status, not "
                                 + (missing + unknown).joined(separator: ", ") + ": put them in message")
        }
    }
}
