import Basics
import Foundation
import Transport

/// What steps reach the network and time through: the HTTP client, the waits between
/// attempts and the clock (S3 signatures, App Store Connect tokens). Made once per run (by the
/// CLI, with the system's HTTP client) and handed to every step in its `StepContext`; tests
/// give a client of their choice and waits that do not wait.
public struct StepServices: Sendable {
    /// The HTTP transport.
    public var httpClient: any HTTPClient
    /// Waits between attempts.
    public var sleep: @Sendable (Duration) async throws -> Void
    /// The clock signatures and tokens are dated with.
    public var now: @Sendable () -> Date

    /// Services over `httpClient`; `Task.sleep` and the system clock by default.
    public init(httpClient: any HTTPClient,
                sleep: @escaping @Sendable (Duration) async throws -> Void = { try await Task.sleep(for: $0) },
                now: @escaping @Sendable () -> Date = { Date() }) {
        self.httpClient = httpClient
        self.sleep = sleep
        self.now = now
    }

    /// A retry policy of `attempts` attempts that waits through `sleep`.
    public func retryPolicy(_ attempts: Int) -> RetryPolicy {
        RetryPolicy(attempts: attempts, sleep: sleep)
    }
}
