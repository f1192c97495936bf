import Basics
import Foundation

/// Keeps byte progress from flooding the log, the events file and `--json`: the one throttle of
/// every step that reports transfer progress (appstore.upload, apple.notarize, upload and the
/// publishing steps that share `PublishStepSupport.progressReporter`).
///
/// Per key (a file), a report is shown only when it is at least `step` (5%) further than the
/// last one shown AND at least `interval` (1 s) after it — whichever comes later, so a fast
/// transfer prints about one line a second and a slow one one line per 5%: at most 21 lines per
/// file. Fractions are clamped to 0...1 and never go back (a re-sent part cannot move the line
/// backwards or past the end); a fraction short of the end is rounded down to a whole percent,
/// so "100%" is printed exactly once, when the transfer is complete. On a terminal the console
/// shows these as one line updated in place.
public final class ProgressThrottle: Sendable {
    private struct Shown: Sendable {
        var fraction: Double
        var time: Date
    }

    /// The least advance between two reports shown.
    public let step: Double
    /// The least time between two reports shown, in seconds.
    public let interval: TimeInterval
    private let now: @Sendable () -> Date
    private let shown = Locked<[String: Shown]>([:])

    /// A throttle on `now` (the step's `services.now`; tests inject a clock).
    public init(step: Double = 0.05, interval: TimeInterval = 1, now: @escaping @Sendable () -> Date) {
        self.step = step
        self.interval = interval
        self.now = now
    }

    /// The fraction to show for `key` now, or nil to show nothing.
    public func admit(_ key: String, sent: Int64, total: Int64) -> Double? {
        guard total > 0 else { return nil }
        return admit(key, fraction: Double(sent) / Double(total))
    }

    /// The fraction to show for `key` now, or nil to show nothing.
    public func admit(_ key: String, fraction: Double) -> Double? {
        guard fraction.isFinite else { return nil }
        let complete = fraction >= 1
        // Short of the end: whole percents, rounded down, so nothing reads 100% before it is.
        let value = complete ? 1 : (max(0, fraction) * 100).rounded(.down) / 100
        let time = now()
        return shown.withLock { shown -> Double? in
            guard let last = shown[key] else {
                // The first report starts the clock; only a finished transfer is shown at once.
                shown[key] = Shown(fraction: complete ? 1 : 0, time: time)
                return complete ? 1 : nil
            }
            guard value > last.fraction else { return nil }
            if !complete {
                guard value - last.fraction >= step - 1e-9, time.timeIntervalSince(last.time) >= interval else { return nil }
            }
            shown[key] = Shown(fraction: value, time: time)
            return value
        }
    }
}
