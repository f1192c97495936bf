import Basics
import Transport

/// A `RetryingHTTPClient` whose failures are `PublishError`s (same cases, same messages), so
/// that Publish's clients throw their module's error and callers keep catching it (a GitHub 422
/// for a release that already exists, for one).
struct PublishHTTPClient: Sendable {
    private let http: RetryingHTTPClient

    init(_ http: RetryingHTTPClient) {
        self.http = http
    }

    /// `RetryingHTTPClient.send`.
    /// - Throws: `PublishError.failedAfterRetries`; errors other than connection failures at once.
    func send(_ action: String, progress: HTTPProgressHandler? = nil,
              _ make: () throws -> HTTPRequest) async throws -> HTTPResponse {
        try await PublishError.fromTransport { try await http.send(action, progress: progress, make) }
    }

    /// `RetryingHTTPClient.sendExpectingSuccess`.
    /// - Throws: `PublishError.refused` for non-2xx answers, `.failedAfterRetries`.
    func sendExpectingSuccess(_ action: String, progress: HTTPProgressHandler? = nil,
                              _ make: () throws -> HTTPRequest) async throws -> HTTPResponse {
        try await PublishError.fromTransport { try await http.sendExpectingSuccess(action, progress: progress, make) }
    }
}
