import Basics
import Foundation

/// The payloads, as each service documents them:
/// - Slack incoming webhooks: `POST` JSON `{"text": ..., "blocks": [...]}` to the webhook URL
///   (https://api.slack.com/messaging/webhooks); `text` is the notification fallback when
///   `blocks` are given (https://api.slack.com/reference/block-kit/blocks: a header block's
///   plain_text is at most 150 characters, a section's text at most 3000).
/// - Slack `chat.postMessage`: `POST https://slack.com/api/chat.postMessage`, `Authorization:
///   Bearer xoxb-...`, `Content-Type: application/json; charset=utf-8`, `{"channel", "text",
///   "blocks"?}` (https://api.slack.com/methods/chat.postMessage).
/// - Microsoft Teams Workflows: `{"type": "message", "attachments": [{"contentType":
///   "application/vnd.microsoft.card.adaptive", "content": {AdaptiveCard}}]}`
///   (https://learn.microsoft.com/en-us/microsoftteams/platform/webhooks-and-connectors/how-to/connectors-using,
///   "Send Adaptive Cards using an Incoming Webhook"; the Workflows "Post to a channel when a
///   webhook request is received" template takes the same body,
///   https://support.microsoft.com/en-us/office/create-incoming-webhooks-with-workflows-for-microsoft-teams-8ae491c7-0394-4861-ba59-055e33f75498).
extension NotifyStep {
    /// A request ready to send, and what a plan shows of it.
    struct Payload {
        var url: URL
        var shownURL: String
        var headers: HTTPHeaders
        var body: [UInt8]
        var bodyText: String { String(decoding: body, as: UTF8.self) }
    }

    /// The text of the message: `message` (or how the lane stands), with the version, build
    /// number and links, the lane's secrets masked (they never leave for a chat).
    func text(in context: StepContext, linkStyle: (String, String) -> String) -> String {
        var lines = [message ?? Self.defaultMessage(context.laneStatus)]
        var release: [String] = []
        if let version { release.append("Version \(version)") }
        if let buildNumber { release.append("build \(buildNumber)") }
        if !release.isEmpty { lines.append(release.joined(separator: ", ")) }
        if !links.isEmpty { lines.append(links.map { linkStyle($0.name, $0.url) }.joined(separator: " · ")) }
        return context.redactor.redact(lines.filter { !$0.isEmpty }.joined(separator: "\n"))
    }

    /// "Lane 'release' succeeded.", or failed at a step with its error, or was interrupted.
    static func defaultMessage(_ status: LaneStatus) -> String {
        switch status.outcome {
        case .success: return "Lane '\(status.lane)' succeeded."
        case .cancelled: return "Lane '\(status.lane)' was interrupted."
        case .failure:
            guard let step = status.failedStep else { return "Lane '\(status.lane)' failed." }
            return "Lane '\(status.lane)' failed at step '\(step)'" + (status.error.map { ": \($0)" } ?? ".")
        }
    }

    /// The request for this service. `forPlan`: the URL and token may be a dry run's stand-ins,
    /// and the URL shown is masked.
    func request(in context: StepContext, forPlan: Bool) throws -> Payload {
        let heading = title.map(context.redactor.redact)
        var headers: HTTPHeaders = ["Content-Type": "application/json"]
        let object: [String: Any]
        let target: String
        switch service {
        case .slack:
            let text = self.text(in: context) { "<\($1)|\($0)>" }
            var fields: [String: Any] = ["text": heading.map { "*\($0)*\n\(text)" } ?? text]
            if let heading {
                guard heading.count <= 150 else {
                    throw StepError.invalidOption(name: "title", problem: "is \(heading.count) characters; a Slack header holds at most 150")
                }
                fields["blocks"] = [["type": "header", "text": ["type": "plain_text", "text": heading]],
                                    ["type": "section", "text": ["type": "mrkdwn", "text": String(text.prefix(3000))]]]
            }
            if let token {
                fields["channel"] = channel ?? ""
                headers = ["Content-Type": "application/json; charset=utf-8", "Authorization": "Bearer \(token)"]
                target = apiURL.hasSuffix("/") ? apiURL + "chat.postMessage" : apiURL + "/chat.postMessage"
            } else {
                target = url ?? ""
            }
            object = fields
        case .teams:
            var body: [[String: Any]] = []
            if let heading { body.append(["type": "TextBlock", "text": heading, "size": "Medium", "weight": "Bolder", "wrap": true]) }
            body.append(["type": "TextBlock", "text": text(in: context) { "[\($0)](\($1))" }, "wrap": true])
            let card: [String: Any] = ["type": "AdaptiveCard", "version": "1.4", "body": body,
                                       "$schema": "http://adaptivecards.io/schemas/adaptive-card.json"]
            object = ["type": "message", "attachments": [["contentType": "application/vnd.microsoft.card.adaptive", "content": card]]]
            target = url ?? ""
        case .webhook:
            object = webhookObject(in: context, title: heading)
            for (name, value) in self.headers { headers.add(name: name, value: value) }
            target = url ?? ""
        }
        let body = try JSONSerialization.data(withJSONObject: object, options: [.sortedKeys, .withoutEscapingSlashes])
        return Payload(url: try Self.url(target, forPlan: forPlan), shownURL: Self.shown(target, isSecret: token == nil),
                       headers: headers, body: Array(body))
    }

    /// The generic webhook's JSON object: the run's fields (snake_case keys), absent ones left out.
    private func webhookObject(in context: StepContext, title: String?) -> [String: Any] {
        let status = context.laneStatus
        var object: [String: Any] = ["lane": context.laneName, "status": status.outcome.rawValue,
                                     "message": context.redactor.redact(message ?? Self.defaultMessage(status))]
        if let title { object["title"] = title }
        if let version { object["version"] = version }
        if let buildNumber { object["build_number"] = buildNumber }
        if !links.isEmpty { object["links"] = Dictionary(links.map { ($0.name, $0.url) }, uniquingKeysWith: { first, _ in first }) }
        if let step = status.failedStep { object["failed_step"] = step }
        if let error = status.error { object["error"] = context.redactor.redact(error) }
        return object
    }

    private static func url(_ text: String, forPlan: Bool) throws -> URL {
        if let url = URL(string: text.trimmingCharacters(in: .whitespaces)), url.host != nil { return url }
        // A dry run's stand-in for a secret or an earlier step's output: nothing is sent.
        if forPlan, let placeholder = URL(string: "https://url.invalid/") { return placeholder }
        throw StepError.invalidOption(name: "url", problem: "is not a URL. Copy the whole URL (https://...) from the service")
    }

    /// The URL as plans and logs show it: a webhook's is its credential, so only the scheme and
    /// host show (`https://hooks.slack.com/***`); the Web API's URL is public.
    static func shown(_ text: String, isSecret: Bool) -> String {
        guard isSecret else { return text }
        guard let url = URL(string: text), let scheme = url.scheme, let host = url.host else { return Redactor.mask }
        return "\(scheme)://\(host)\(url.port.map { ":\($0)" } ?? "")/\(Redactor.mask)"
    }
}
