import Foundation

/// CONTRACT FAKE — not Slack. A loopback server implementing the two documented ways the
/// `notify` step posts to Slack, checking each request against the documented payload and
/// answering as Slack documents, so the client can be tested without the internet:
///
/// - Incoming webhooks, `POST /services/T.../B.../SECRET`, `Content-Type: application/json`,
///   `{"text", "blocks"?, ...}` → 200 `ok` (text/html); 400 `invalid_payload` (unreadable JSON),
///   `no_text`, `invalid_blocks`; 404 `no_service` for an unknown webhook
///   (https://api.slack.com/messaging/webhooks,
///   https://api.slack.com/changelog/2016-05-17-changes-to-errors-for-incoming-webhooks).
/// - `POST /api/chat.postMessage`, `Content-Type: application/json; charset=utf-8`,
///   `Authorization: Bearer xoxb-...`, `{"channel", "text", "blocks"?}` → 200 `{"ok": true,
///   "channel", "ts", "message"}`, or 200 `{"ok": false, "error"}`: `not_authed`, `invalid_auth`,
///   `channel_not_found`, `no_text`, `invalid_blocks` (https://api.slack.com/methods/chat.postMessage).
/// - Block Kit limits: a header's plain_text at most 150 characters, a section's text at most
///   3000 (https://api.slack.com/reference/block-kit/blocks).
/// - Faults (`inject`): 429 with `Retry-After` (`rate_limited` / `{"ok": false, "error":
///   "ratelimited"}`, https://api.slack.com/apis/rate-limits), 500 `rollup_error`, 400 codes.
///
/// A field outside the documented ones, a wrong content type or the token in the body is a
/// violation, answered 400, so a test fails on it. Not modelled: workspaces, users, threads,
/// attachments' inner shape, legacy webhooks' channel override.
public final class SlackContractFake: @unchecked Sendable {
    private let server: PythonScriptServer
    /// The webhook's secret path after `/services/`.
    public let webhookPath: String
    /// The bot token chat.postMessage accepts.
    public let token: String
    /// The channel name chat.postMessage accepts (besides its id `C0SLIPWAY1`).
    public let channel: String

    /// Starts the fake with a random webhook path and token.
    public init(channel: String = "#releases") throws {
        let random = UInt32.random(in: 100_000_000...999_999_999)
        webhookPath = "T0SLIPWAY/B0NOTIFY/hook\(random)secret"
        token = "xoxb-1234-5678-contractfake\(random)"
        self.channel = channel
        server = try PythonScriptServer(script: ChatContractFakeScript.script, arguments: ["slack", webhookPath, token, channel],
                                        name: "slack-contract-fake")
    }

    /// The incoming webhook's URL (`url` of the step).
    public var webhookURL: String { server.url("/services/\(webhookPath)") }
    /// The Web API's base URL (`api-url` of the step).
    public var apiURL: String { server.url("/api") }

    /// The next requests get these answers, in order, instead of the normal ones.
    public func inject(_ faults: [ChatFault]) throws {
        try server.post("/_control", json: "{\"faults\": [\(faults.map(\.json).joined(separator: ", "))]}")
    }

    /// What it received.
    public func state() throws -> ChatFakeState {
        try JSONDecoder().decode(ChatFakeState.self, from: server.get("/_state"))
    }
}
