import Basics
import Foundation

/// When and how often to repeat a request: exponential backoff with jitter on 5xx answers and
/// connection failures, never on 4xx (the request itself is wrong; repeating cannot help).
/// Sleeping and randomness are injected, so tests neither wait nor depend on chance.
public struct RetryPolicy: Sendable {
    /// Attempts in all, at least 1.
    public var attempts: Int
    /// The wait before the first retry, before jitter.
    public var initialDelay: Duration
    /// The longest wait between two attempts.
    public var maximumDelay: Duration
    /// Waits (`Task.sleep` in production).
    public var sleep: @Sendable (Duration) async throws -> Void
    /// A random number in 0..<1 for the jitter.
    public var random: @Sendable () -> Double

    /// A policy; by default three attempts, 1 s then 2 s (each 50–100% of that, at random).
    public init(attempts: Int = 3, initialDelay: Duration = .seconds(1), maximumDelay: Duration = .seconds(30),
                sleep: @escaping @Sendable (Duration) async throws -> Void = { try await Task.sleep(for: $0) },
                random: @escaping @Sendable () -> Double = { Double.random(in: 0..<1) }) {
        self.attempts = max(1, attempts)
        self.initialDelay = initialDelay
        self.maximumDelay = maximumDelay
        self.sleep = sleep
        self.random = random
    }

    /// The wait before retry `number` (1 for the first retry): the doubled delay, capped, then
    /// scaled to between half and all of it ("equal jitter"), so that many clients failing
    /// together do not retry together.
    public func delay(beforeRetry number: Int) -> Duration {
        let base = initialDelay * Int(pow(2.0, Double(min(max(number - 1, 0), 20))))
        let capped = min(base, maximumDelay)
        return capped * (0.5 + 0.5 * min(max(random(), 0), 1))
    }
}

/// Called before each retry: the attempt that failed (1-based), why, and the wait.
public typealias RetryObserver = @Sendable (_ failedAttempt: Int, _ reason: String, _ delay: Duration) -> Void

/// An `HTTPClient` used through a `RetryPolicy`.
public struct RetryingHTTPClient: Sendable {
    /// The client underneath.
    public let client: any HTTPClient
    /// The policy.
    public let policy: RetryPolicy
    let observer: RetryObserver?

    /// Wraps `client`.
    public init(client: any HTTPClient, policy: RetryPolicy, observer: RetryObserver? = nil) {
        self.client = client
        self.policy = policy
        self.observer = observer
    }

    /// Sends the request `make` builds (anew for every attempt: signatures carry the time) and
    /// returns the first response that is not a 5xx. 4xx responses are returned for the caller
    /// to judge (a 404 may be an answer); see `sendExpectingSuccess`.
    /// - Throws: `TransportError.failedAfterRetries` naming `action` once the attempts are used
    ///   up; errors other than connection failures at once.
    public func send(_ action: String, progress: HTTPProgressHandler? = nil,
                     _ make: () throws -> HTTPRequest) async throws -> HTTPResponse {
        var attempt = 1
        while true {
            let reason: String
            do {
                let response = try await client.send(try make(), progress: progress)
                guard response.status >= 500 else { return response }
                reason = "HTTP \(response.status)\(TransportError.excerpt(response.bodyText))"
            } catch HTTPError.transport(_, let why) {
                reason = why
            }
            guard attempt < policy.attempts else {
                throw TransportError.failedAfterRetries(action: action, attempts: attempt, reason: reason)
            }
            let wait = policy.delay(beforeRetry: attempt)
            observer?(attempt, reason, wait)
            try await policy.sleep(wait)
            attempt += 1
        }
    }

    /// As `send`, and a 4xx becomes an error too.
    /// - Throws: `TransportError.refused` for 4xx (and other non-2xx) answers.
    public func sendExpectingSuccess(_ action: String, progress: HTTPProgressHandler? = nil,
                                     _ make: () throws -> HTTPRequest) async throws -> HTTPResponse {
        let response = try await send(action, progress: progress, make)
        guard response.isSuccess else { throw TransportError.refused(action: action, status: response.status, body: response.bodyText) }
        return response
    }
}
