import Basics
import Foundation
import Transport

/// `notify`: a message about the run to Slack (an incoming webhook, or `chat.postMessage` with a
/// bot token), Microsoft Teams (a Workflows webhook) or any JSON webhook. Usable from
/// `finally:`, where the default message names the step that failed. Retried on 429 (after
/// `Retry-After`) and 5xx, never on other 4xx; the webhook URL and the token are masked
/// everywhere, and a dry run shows the payload without sending it.
public struct NotifyStep: Step {
    public static let description: StepDescription = {
        var description = StepDescription(
            id: "notify",
            summary: "Send a message about the run to Slack, Microsoft Teams or a JSON webhook",
            discussion: """
                service: slack posts to an incoming webhook ('url'), or with a bot token ('token', \
                scope chat:write) to 'channel' through chat.postMessage (output 'ts'). service: teams \
                posts an Adaptive Card to a Teams Workflows webhook ('url'). service: webhook POSTs a \
                JSON object (lane, status, message, title, version, build_number, links, failed_step, \
                error) to 'url' with the extra 'headers'. The URL and token are secrets: take them \
                from 'secrets:'; they are masked in output, events, journals and the dry-run plan, \
                and a URL must be https (http only to localhost). 'message' is a template like any \
                option (${{ steps.ID.outputs.NAME }}, ${{ lane.status }}, ${{ lane.failed-step }}, \
                ${{ lane.error }}); without it the message says how the lane stands ("Lane \
                'release' failed at step 'upload': ..."). 429 answers are retried after Retry-After \
                and 5xx with backoff, up to 'attempts'; other 4xx fail at once with the service's \
                own error. With fail-on-error: false a failed send is a warning and sent is false. \
                See docs/notify.md.
                """,
            options: [
                .required("service", .choice(["slack", "teams", "webhook"]), "Where the message goes."),
                .optional("url", .string, "The webhook URL (a secret: use ${{ secrets.NAME }}). Required for teams and webhook; for slack, give 'url' or 'token'."),
                .optional("token", .string, "slack: a bot token (xoxb-...) to post with chat.postMessage instead of a webhook (a secret)."),
                .optional("channel", .string, "slack with 'token': the channel id or name (C0123456789, #releases)."),
                .optional("message", .string, "The message (a template); default: how the lane stands, naming the failed step."),
                .optional("title", .string, "A heading above the message (Slack header block, bold Teams text, 'title' for webhook)."),
                .optional("version", .string, "The version released, shown with the message."),
                .optional("build-number", .string, "The build number, shown with the message."),
                .optional("links", .map(.string), "Links shown with the message, name to URL (e.g. TestFlight: https://...)."),
                .optional("headers", .map(.string), "webhook: extra HTTP headers (values are masked; may come from secrets)."),
                .optional("attempts", .int, default: .int(3), "Attempts in all on 429, 5xx and dropped connections."),
                .optional("timeout", .duration, default: .string("30s"), "How long one request may take."),
                .optional("fail-on-error", .bool, default: .bool(true), "false: a message that cannot be sent is a warning, not a failure (output sent: false)."),
                .optional("api-url", .string, "slack with 'token': the Web API's base URL (default https://slack.com/api; for tests and proxies)."),
            ],
            outputs: [
                OutputSpec("sent", "true when the service accepted the message, false when it was not sent (fail-on-error: false).", type: .bool),
                OutputSpec("ts", "slack with 'token': the posted message's ts (to thread replies or update it); empty otherwise."),
            ],
            examples: [
                StepExample("Tell Slack how the release went, from finally", """
                    - notify:
                        service: slack
                        url: "${{ secrets.SLACK_WEBHOOK_URL }}"
                        title: "Release ${{ lane.status }}"
                    """),
                StepExample("Post to a channel with a bot token", """
                    - notify:
                        service: slack
                        token: "${{ secrets.SLACK_BOT_TOKEN }}"
                        channel: "#releases"
                        title: Slipway 1.2.0
                        version: 1.2.0
                        build-number: "42"
                        links: { Release notes: "https://example.com/notes/1.2.0" }
                    """),
                StepExample("Microsoft Teams", """
                    - notify: { service: teams, url: "${{ secrets.TEAMS_WORKFLOW_URL }}", title: "Beta 42 is out" }
                    """),
                StepExample("A JSON webhook with a header", """
                    - notify:
                        service: webhook
                        url: "${{ secrets.DEPLOY_HOOK_URL }}"
                        headers: { Authorization: "Bearer ${{ secrets.DEPLOY_HOOK_TOKEN }}" }
                        fail-on-error: false
                    """),
            ]
        )
        let slack = OptionCondition("service", isOneOf: ["slack"])
        description.rules = [
            .oneOf(["url"], when: OptionCondition("service", isOneOf: ["teams", "webhook"])),
            .oneOf(["url", "token"], when: slack),
            .onlyWhen("token", slack), .onlyWhen("channel", slack), .onlyWhen("api-url", slack),
            .onlyWhen("headers", OptionCondition("service", isOneOf: ["webhook"])),
            .requires("token", ["channel"]), .requires("channel", ["token"]), .requires("api-url", ["token"]),
        ]
        return description
    }()

    /// Where the message goes.
    public enum Service: String, Sendable {
        case slack, teams, webhook
    }

    let service: Service
    let url: String?
    let token: String?
    let channel: String?
    let message: String?
    let title: String?
    let version: String?
    let buildNumber: String?
    let links: [(name: String, url: String)]
    let headers: [(name: String, value: String)]
    let attempts: Int
    let timeout: Duration
    let failOnError: Bool
    let apiURL: String

    public init(options: StepOptions) throws {
        try OptionRule.check(Self.description.rules, options)
        guard let service = Service(rawValue: try options.requiredString("service")) else {
            throw StepError.invalidOption(name: "service", problem: "must be slack, teams or webhook")
        }
        self.service = service
        url = try Self.nonEmpty(options, "url")
        token = try Self.nonEmpty(options, "token")
        channel = try Self.nonEmpty(options, "channel")
        message = try options.string("message")
        title = try options.string("title").flatMap { $0.isEmpty ? nil : $0 }
        version = try options.string("version").flatMap { $0.isEmpty ? nil : $0 }
        buildNumber = try options.string("build-number").flatMap { $0.isEmpty ? nil : $0 }
        links = try options.stringMap("links").sorted { $0.key < $1.key }.map { ($0.key, $0.value) }
        headers = try options.stringMap("headers").sorted { $0.key < $1.key }.map { ($0.key, $0.value) }
        attempts = try options.requiredInt("attempts")
        timeout = try options.requiredDuration("timeout")
        failOnError = try options.bool("fail-on-error", default: true)
        apiURL = try options.string("api-url") ?? "https://slack.com/api"
        try validate()
    }

    /// An option's value; an empty one (a secret that is not set) is an error naming it.
    private static func nonEmpty(_ options: StepOptions, _ name: String) throws -> String? {
        guard let value = try options.string(name) else { return nil }
        guard !value.trimmingCharacters(in: .whitespaces).isEmpty else {
            throw StepError.invalidOption(name: name, problem: "is empty; if it comes from a secret, set that secret's environment variable")
        }
        return value
    }

    private func validate() throws {
        guard attempts >= 1 else { throw StepError.invalidOption(name: "attempts", problem: "must be at least 1, not \(attempts)") }
        guard timeout > .zero else { throw StepError.invalidOption(name: "timeout", problem: "must be longer than 0s") }
        if let url { try Self.checkURL(url, option: "url") }
        if token != nil { try Self.checkURL(apiURL, option: "api-url") }
        for (name, url) in links where !Self.isKnownLater(url) {
            guard let parsed = URL(string: url), parsed.scheme == "https" || parsed.scheme == "http", parsed.host != nil else {
                throw StepError.invalidOption(name: "links", problem: "'\(name)' is not an http(s) URL: '\(url)'")
            }
        }
        for (name, _) in headers {
            if ["content-type", "content-length", "host", "transfer-encoding"].contains(name.lowercased()) {
                throw StepError.invalidOption(name: "headers", problem: "cannot set '\(name)': the step sets it (the body is application/json)")
            }
            guard !name.isEmpty, name.allSatisfy({ $0.isASCII && ($0.isLetter || $0.isNumber || "-_".contains($0)) }) else {
                throw StepError.invalidOption(name: "headers", problem: "'\(name)' is not an HTTP header name (letters, digits, '-')")
            }
        }
    }

    /// True for a value a dry run stands in for (a secret's mask, an earlier step's output).
    static func isKnownLater(_ value: String) -> Bool {
        value == Redactor.mask || DryRunPlaceholder.contains(value)
    }

    /// The URL must be https, or http to this machine (a local relay, a test). The message
    /// never quotes the URL: it is a credential.
    private static func checkURL(_ text: String, option: String) throws {
        guard !isKnownLater(text) else { return }
        guard let url = URL(string: text.trimmingCharacters(in: .whitespaces)), let scheme = url.scheme?.lowercased(),
              let host = url.host, !host.isEmpty else {
            throw StepError.invalidOption(name: option, problem: "is not a URL. Copy the whole URL (https://...) from the service")
        }
        let local = ["127.0.0.1", "localhost", "::1", "[::1]"].contains(host.lowercased())
        guard scheme == "https" || (scheme == "http" && local) else {
            throw StepError.invalidOption(name: option, problem: "must be an https URL (http only to localhost): the URL is a credential and must not travel in clear text")
        }
    }

    public func plan(in context: StepContext) throws -> [Effect] {
        let payload = try request(in: context, forPlan: true)
        return [Effect(.network, "POST \(payload.shownURL) (\(destination)): \(payload.bodyText)")]
    }

    /// Where the message goes, for logs and errors (never the URL).
    var destination: String {
        switch service {
        case .slack: return token == nil ? "Slack incoming webhook" : "Slack chat.postMessage to '\(channel ?? "")'"
        case .teams: return "Microsoft Teams workflow"
        case .webhook: return "JSON webhook"
        }
    }
}
