import Foundation
import Transport

/// The hourly request budget App Store Connect reports on every answer, in
/// `X-Rate-Limit: user-hour-lim:3600;user-hour-rem:3599;`.
public struct AppStoreConnectRateLimit: Sendable, Hashable {
    /// Requests allowed an hour (`user-hour-lim`).
    public var limit: Int
    /// Requests left this hour (`user-hour-rem`).
    public var remaining: Int

    /// Creates a value.
    public init(limit: Int, remaining: Int) {
        self.limit = limit
        self.remaining = remaining
    }

    /// Parses the header's value; nil when either number is missing.
    public init?(header: String) {
        var fields: [String: Int] = [:]
        for part in header.split(separator: ";") {
            let pair = part.split(separator: ":", maxSplits: 1).map { $0.trimmingCharacters(in: .whitespaces) }
            if pair.count == 2, let number = Int(pair[1]) { fields[pair[0].lowercased()] = number }
        }
        guard let limit = fields["user-hour-lim"], let remaining = fields["user-hour-rem"] else { return nil }
        self.init(limit: limit, remaining: remaining)
    }

    /// How long a `Retry-After` value asks to wait: delay-seconds or an HTTP date; nil when
    /// absent or unreadable.
    public static func retryAfter(_ value: String?, now: Date) -> Duration? {
        RetryAfter.duration(value, now: now)
    }
}
