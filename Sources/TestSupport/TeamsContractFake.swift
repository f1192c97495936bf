import Foundation

/// CONTRACT FAKE — not Microsoft Teams. A loopback server standing for a Teams Workflows
/// webhook (the "Post to a channel when a webhook request is received" template), checking each
/// request against the documented message and answering as the trigger does:
///
/// - `POST /workflows/ID/triggers/manual/paths/invoke?api-version=1&...&sig=SIG`,
///   `Content-Type: application/json`, `{"type": "message", "attachments": [{"contentType":
///   "application/vnd.microsoft.card.adaptive", "contentUrl"?: null, "content": {"type":
///   "AdaptiveCard", "version", "$schema"?: "http://adaptivecards.io/schemas/adaptive-card.json",
///   "body": [TextBlock...]}}]}` → 202 Accepted, empty body
///   (https://learn.microsoft.com/en-us/microsoftteams/platform/webhooks-and-connectors/how-to/connectors-using,
///   https://support.microsoft.com/en-us/office/create-incoming-webhooks-with-workflows-for-microsoft-teams-8ae491c7-0394-4861-ba59-055e33f75498).
/// - A wrong `sig` → 401, an unknown workflow → 404, unreadable JSON → 400, each with the
///   `{"error": {"code", "message"}}` shape of Azure Logic Apps' errors (the codes are stand-ins,
///   not quoted from Microsoft).
/// - Faults (`inject`): 429 with `Retry-After`, 500, 400.
///
/// Card elements other than TextBlock (with type, text, wrap, size, weight, color, isSubtle)
/// are violations: the step sends nothing else. Not modelled: the flow's run after the 202
/// (a card Teams cannot render fails there, not here).
public final class TeamsContractFake: @unchecked Sendable {
    private let server: PythonScriptServer
    /// The signature the URL must carry.
    public let signature: String

    /// Starts the fake with a random signature.
    public init() throws {
        signature = "teamsSig\(UInt32.random(in: 100_000_000...999_999_999))contractfake"
        server = try PythonScriptServer(script: ChatContractFakeScript.script, arguments: ["teams", signature, "-", "-"],
                                        name: "teams-contract-fake")
    }

    /// The workflow's URL (`url` of the step), signature included.
    public var workflowURL: String {
        server.url("/workflows/slipway-notify/triggers/manual/paths/invoke?api-version=1&sp=%2Ftriggers%2Fmanual%2Frun&sv=1.0&sig=\(signature)")
    }

    /// The next requests get these answers, in order, instead of the normal ones.
    public func inject(_ faults: [ChatFault]) throws {
        try server.post("/_control", json: "{\"faults\": [\(faults.map(\.json).joined(separator: ", "))]}")
    }

    /// What it received.
    public func state() throws -> ChatFakeState {
        try JSONDecoder().decode(ChatFakeState.self, from: server.get("/_state"))
    }
}

/// A loopback JSON webhook (not a fake of any service: any endpoint that takes a JSON POST)
/// that records what it receives, checks that it is `application/json` with a JSON object, and
/// answers 200 `{"received": true}`, or injected faults.
public final class WebhookRecorder: @unchecked Sendable {
    private let server: PythonScriptServer

    /// Starts the recorder.
    public init() throws {
        server = try PythonScriptServer(script: ChatContractFakeScript.script, arguments: ["webhook", "-", "-", "-"],
                                        name: "webhook-recorder")
    }

    /// The URL to post to.
    public var url: String { server.url("/hooks/release") }

    /// The next requests get these answers, in order, instead of the normal ones.
    public func inject(_ faults: [ChatFault]) throws {
        try server.post("/_control", json: "{\"faults\": [\(faults.map(\.json).joined(separator: ", "))]}")
    }

    /// What it received.
    public func state() throws -> ChatFakeState {
        try JSONDecoder().decode(ChatFakeState.self, from: server.get("/_state"))
    }
}
