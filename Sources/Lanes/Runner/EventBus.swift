import Basics
import Foundation

/// Receives run events (terminal, events file, JUnit, GitHub Actions, journal).
public protocol RunReporter: Sendable {
    /// One event, already redacted. Called under the bus's lock: events arrive one at a time
    /// and in order, even from parallel steps.
    func receive(_ event: RunEvent)
    /// The run is over; write what needs writing. Throws when a report cannot be written.
    func finish(_ summary: RunSummary) throws
}

extension RunReporter {
    public func finish(_ summary: RunSummary) throws {}
}

/// Redacts every event once and hands it to every reporter, in order.
public final class EventBus: Sendable {
    /// Locked so that reporters get events one at a time, never two at once.
    private let reporters: Locked<[any RunReporter]>
    /// The redactor applied to every event.
    public let redactor: Redactor

    /// A bus over `reporters`.
    public init(reporters: [any RunReporter], redactor: Redactor) {
        self.reporters = Locked(reporters)
        self.redactor = redactor
    }

    /// Sends an event to every reporter.
    public func emit(_ event: RunEvent) {
        let clean = event.redacted(by: redactor)
        reporters.withLock { reporters in
            for reporter in reporters { reporter.receive(clean) }
        }
    }

    /// Lets every reporter write its final output; returns the errors of those that failed.
    public func finish(_ summary: RunSummary) -> [Error] {
        reporters.withLock { reporters in
            var errors: [Error] = []
            for reporter in reporters {
                do { try reporter.finish(summary) } catch { errors.append(error) }
            }
            return errors
        }
    }
}
