import Basics
import Foundation
import Transport

/// Sending, and reading each service's answer:
/// - Slack incoming webhooks answer 200 `ok`; errors are 4xx with a plain-text code
///   (`invalid_payload`, `no_text`, `no_service`, `channel_not_found`, `channel_is_archived`,
///   `action_prohibited`; https://api.slack.com/changelog/2016-05-17-changes-to-errors-for-incoming-webhooks).
/// - `chat.postMessage` answers 200 `{"ok": true, "channel", "ts", ...}` or `{"ok": false,
///   "error": "channel_not_found"}` (https://api.slack.com/methods/chat.postMessage#errors);
///   429 with `Retry-After` when rate limited (https://api.slack.com/apis/rate-limits).
/// - Teams Workflows answer 202 Accepted; errors are Logic Apps' `{"error": {"code", "message"}}`.
extension NotifyStep {
    public func run(in context: StepContext) async throws -> StepOutputs {
        let masker = DerivedSecretMasker(forwardingTo: context.events)
        var secrets = [url, token].compactMap { $0 } + headers.map(\.value)
        if let url { secrets += Self.secretParts(ofURL: url) }
        masker.add(secrets)
        let events: any StepEventSink = masker
        do {
            let payload = try request(in: context, forPlan: false)
            let attempts = self.attempts
            let http = RetryingHTTPClient(client: context.services.httpClient, policy: context.services.retryPolicy(attempts)) { attempt, reason, wait in
                events.log(.warning, "attempt \(attempt) of \(attempts) failed: \(reason); retrying in \(DurationParser.format(wait))")
            }
            let response = try await http.sendRetryingRateLimits("sending the message to the \(destination)", now: context.services.now) {
                HTTPRequest(method: .post, url: payload.url, headers: payload.headers, body: .bytes(payload.body), timeout: timeout)
            }
            let ts = try accepted(response)
            events.log(.info, "sent the message to the \(destination)" + (ts.isEmpty ? "" : " (ts \(ts))"))
            return ["sent": "true", "ts": ts]
        } catch {
            let masked = masker.redact(error)
            guard !failOnError else { throw masked }
            events.log(.warning, "the message was not sent: \(errorText(masked)) (fail-on-error: false, so the step goes on)")
            return ["sent": "false", "ts": ""]
        }
    }

    /// The parts of a webhook URL that carry its credential, masked on their own because a
    /// server's error page echoes the path without the host (`Cannot POST /services/T…/B…/…`):
    /// the path (with and without its leading `/`), the query, each query value, and the last
    /// path segment when it has at least 8 characters (Slack's webhook secret).
    static func secretParts(ofURL text: String) -> [String] {
        // Split by hand: Foundation's URL parser crashed on some strings on Linux (a bad pointer in
        // RFC3986Parser), and a webhook URL is only cut here, never resolved.
        guard let scheme = text.range(of: "://") else { return [] }
        let afterHost = text[scheme.upperBound...].drop { $0 != "/" && $0 != "?" && $0 != "#" }
        let withoutFragment = afterHost.prefix { $0 != "#" }
        let path = String(withoutFragment.prefix { $0 != "?" })
        let query = withoutFragment.contains("?") ? String(withoutFragment.drop { $0 != "?" }.dropFirst()) : ""
        var parts: [String] = []
        if path.count > 1 {
            parts += [path, String(path.drop { $0 == "/" })]
            if let last = path.split(separator: "/").last, last.count >= 8 { parts.append(String(last)) }
        }
        if !query.isEmpty {
            parts += [query, path + "?" + query]
            for item in query.split(separator: "&") {
                if let equals = item.firstIndex(of: "=") { parts.append(String(item[item.index(after: equals)...])) }
            }
        }
        for part in parts where part.contains("%") { if let decoded = part.removingPercentEncoding { parts.append(decoded) } }
        return parts
    }

    /// The posted message's `ts` (chat.postMessage) or "", when the service accepted the message.
    /// - Throws: `StepError.failed` with the service's own error and what to do.
    func accepted(_ response: HTTPResponse) throws -> String {
        let body = response.bodyText.trimmingCharacters(in: .whitespacesAndNewlines)
        switch service {
        case .slack where token != nil:
            guard response.isSuccess, let object = try? JSONSerialization.jsonObject(with: Data(response.body)) as? [String: Any],
                  let ok = object["ok"] as? Bool else {
                throw StepError.failed("Slack chat.postMessage answered HTTP \(response.status)\(TransportError.excerpt(body)), not Slack's {\"ok\": ...} answer. Check 'api-url'.")
            }
            guard ok else {
                let code = object["error"] as? String ?? "unknown_error"
                throw StepError.failed("Slack refused the message to '\(channel ?? "")': \(code). \(Self.postMessageHint(code))")
            }
            guard let ts = object["ts"] as? String, !ts.isEmpty else {
                throw StepError.failed("Slack chat.postMessage answered ok without the message's 'ts'; the message may not have been posted. Check the channel.")
            }
            return ts
        case .slack:
            guard response.isSuccess else {
                throw StepError.failed("the Slack incoming webhook refused the message: HTTP \(response.status) \(body.isEmpty ? "(no error code)" : String(body.prefix(200))). \(Self.webhookHint(body)) Not retried: Slack's 4xx answers are not temporary.")
            }
            guard body == "ok" else {
                throw StepError.failed("the Slack incoming webhook answered HTTP \(response.status) '\(body.prefix(200))' instead of 'ok'; the message may not have been posted. Check that 'url' is a Slack incoming webhook URL.")
            }
            return ""
        case .teams:
            guard response.isSuccess else {
                throw StepError.failed("the Microsoft Teams workflow refused the message: HTTP \(response.status)\(Self.logicAppsError(body)). "
                    + (response.status == 400 ? "The workflow could not read the Adaptive Card; check that it uses the 'Post to a channel when a webhook request is received' template."
                       : "The workflow URL is wrong, expired or its flow is turned off; copy the URL from the workflow's trigger again and update the secret.")
                    + " Not retried.")
            }
            return ""
        case .webhook:
            guard response.isSuccess else {
                throw StepError.failed("the JSON webhook refused the message: HTTP \(response.status)\(TransportError.excerpt(body)). Check 'url' and 'headers'. Not retried: a 4xx answer is not temporary.")
            }
            return ""
        }
    }

    static func webhookHint(_ code: String) -> String {
        switch code {
        case "invalid_payload": return "Slack could not read the payload; check 'message' and 'title'."
        case "no_text": return "The message is empty; set 'message'."
        case "no_service", "no_team", "invalid_token", "no_active_hooks":
            return "The webhook URL is wrong or the webhook was removed; create a new incoming webhook and update the secret in 'url'."
        case "channel_not_found", "channel_is_archived":
            return "The webhook's channel is gone; create a new incoming webhook for an existing channel."
        case "action_prohibited": return "The workspace restricts this webhook; ask a Slack admin."
        default: return "Check the webhook URL in 'url'."
        }
    }

    static func postMessageHint(_ code: String) -> String {
        switch code {
        case "not_authed", "invalid_auth", "token_revoked", "token_expired", "account_inactive":
            return "Check 'token': a bot token (xoxb-...) of an installed app with the chat:write scope."
        case "missing_scope": return "Add the chat:write scope to the Slack app and reinstall it."
        case "channel_not_found": return "Check 'channel': a channel id (C0123456789) or a public channel's name."
        case "not_in_channel": return "Invite the app to the channel (/invite @app) or give it the chat:write.public scope."
        case "is_archived": return "The channel is archived; choose another 'channel'."
        case "no_text", "msg_too_long", "invalid_blocks": return "Check 'message' and 'title'."
        default: return "See https://api.slack.com/methods/chat.postMessage#errors."
        }
    }

    /// " (Code: message)" from a Logic Apps error body, or the body's excerpt.
    static func logicAppsError(_ body: String) -> String {
        guard let object = try? JSONSerialization.jsonObject(with: Data(body.utf8)) as? [String: Any],
              let error = object["error"] as? [String: Any], let code = error["code"] as? String else {
            return TransportError.excerpt(body)
        }
        return " (\(code)\((error["message"] as? String).map { ": \($0)" } ?? ""))"
    }
}
