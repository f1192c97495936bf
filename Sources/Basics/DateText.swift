import Foundation

/// Dates as Slipway writes and reads them, in one place: the day (`2026-01-31`, UTC) that
/// changelogs, expiry warnings and device lists show, and ISO 8601 date-times (`2026-01-31T09:00:00Z`)
/// for JSON, App Store Connect and the lane options that take one.
public enum DateText {
    /// `YYYY-MM-DD` in UTC (proleptic Gregorian calendar), computed directly: a DateFormatter
    /// costs milliseconds to make on Linux. The same text as a `yyyy-MM-dd` formatter in UTC.
    public static func day(_ date: Date) -> String {
        // Howard Hinnant's civil_from_days.
        let days = Int((date.timeIntervalSince1970 / 86_400).rounded(.down)) + 719_468
        let era = (days >= 0 ? days : days - 146_096) / 146_097
        let dayOfEra = days - era * 146_097
        let yearOfEra = (dayOfEra - dayOfEra / 1_460 + dayOfEra / 36_524 - dayOfEra / 146_096) / 365
        let dayOfYear = dayOfEra - (365 * yearOfEra + yearOfEra / 4 - yearOfEra / 100)
        let monthIndex = (5 * dayOfYear + 2) / 153
        let day = dayOfYear - (153 * monthIndex + 2) / 5 + 1
        let month = monthIndex < 10 ? monthIndex + 3 : monthIndex - 9
        let year = yearOfEra + era * 400 + (month <= 2 ? 1 : 0)
        func padded(_ value: Int, _ width: Int) -> String {
            let text = String(value)
            return String(repeating: "0", count: max(0, width - text.count)) + text
        }
        return "\(padded(year, 4))-\(padded(month, 2))-\(padded(day, 2))"
    }

    /// `2026-01-31T09:00:00Z`: an ISO 8601 internet date-time in UTC, whole seconds.
    public static func iso8601(_ date: Date) -> String {
        ISO8601DateFormatter().string(from: date)
    }

    /// The date of an ISO 8601 internet date-time (`2026-01-31T09:00:00Z`, or with an offset,
    /// `+01:00`); with `fractionalSeconds`, one with them (`…09:00:00.000Z`). Nil for other text.
    public static func date(iso8601 text: String, fractionalSeconds: Bool = false) -> Date? {
        let formatter = ISO8601DateFormatter()
        if fractionalSeconds { formatter.formatOptions = [.withInternetDateTime, .withFractionalSeconds] }
        return formatter.date(from: text)
    }
}
