import Basics
import Foundation

/// Rate limits: services that answer 429 with `Retry-After` (Slack's Web API and incoming
/// webhooks, https://api.slack.com/apis/rate-limits: "HTTP 429 Too Many Requests ... a
/// Retry-After HTTP header containing the number of seconds until you can retry") ask the client
/// to wait and send again. `send` leaves 429 to its callers (App Store Connect has its own
/// budget); this variant waits it out.
extension RetryingHTTPClient {
    /// As `send`, and a 429 is retried too, after the wait its `Retry-After` header asks for
    /// (delay-seconds or an HTTP date), or the policy's backoff when it names none. 5xx answers,
    /// dropped connections and 429s share the policy's attempts; other 4xx answers are returned
    /// at once for the caller to judge, never repeated.
    /// - Parameters:
    ///   - longestWait: a `Retry-After` longer than this is not waited out: the call fails,
    ///     naming the wait, instead of holding the lane.
    ///   - now: the clock `Retry-After` dates are read against.
    /// - Throws: `TransportError.failedAfterRetries` once the attempts are used up or a wait
    ///   would be too long; errors other than connection failures at once.
    public func sendRetryingRateLimits(_ action: String, longestWait: Duration = .seconds(120),
                                       now: @Sendable () -> Date = { Date() },
                                       _ make: () throws -> HTTPRequest) async throws -> HTTPResponse {
        var attempt = 1
        while true {
            let reason: String
            var asked: Duration?
            do {
                let response = try await client.send(try make(), progress: nil)
                guard response.status >= 500 || response.status == 429 else { return response }
                reason = "HTTP \(response.status)\(TransportError.excerpt(response.bodyText))"
                if response.status == 429 { asked = RetryAfter.duration(response.headers["Retry-After"], now: now()) }
            } catch HTTPError.transport(_, let why) {
                reason = why
            }
            guard attempt < policy.attempts else {
                throw TransportError.failedAfterRetries(action: action, attempts: attempt, reason: reason)
            }
            if let asked, asked > longestWait {
                throw TransportError.failedAfterRetries(
                    action: action, attempts: attempt,
                    reason: "\(reason), which asks to wait \(asked.components.seconds)s, longer than the \(longestWait.components.seconds)s Slipway waits")
            }
            let wait = asked ?? policy.delay(beforeRetry: attempt)
            observer?(attempt, reason, wait)
            try await policy.sleep(wait)
            attempt += 1
        }
    }
}

/// Reads `Retry-After` (RFC 9110 §10.2.3): delay-seconds or an HTTP date.
public enum RetryAfter {
    /// How long the header asks to wait; nil when it is absent or unreadable.
    public static func duration(_ value: String?, now: Date) -> Duration? {
        guard let value = value?.trimmingCharacters(in: .whitespaces), !value.isEmpty else { return nil }
        if let seconds = Int(value), seconds >= 0 { return .seconds(seconds) }
        let formatter = DateFormatter()
        formatter.locale = Locale(identifier: "en_US_POSIX")
        formatter.timeZone = TimeZone(identifier: "GMT")
        formatter.dateFormat = "EEE, dd MMM yyyy HH:mm:ss zzz"
        guard let date = formatter.date(from: value) else { return nil }
        return .seconds(max(0, Int(date.timeIntervalSince(now).rounded(.up))))
    }
}
