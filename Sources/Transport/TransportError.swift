import Foundation

/// Why a request sent through `RetryingHTTPClient` or `S3Client` failed. Each message names the
/// request and says what to do. Publish gives these to its callers as the `PublishError` cases of
/// the same names and messages.
public enum TransportError: Error, LocalizedError, Sendable, Equatable {
    /// The server refused the request (4xx); such answers are never retried.
    case refused(action: String, status: Int, body: String)
    /// The request kept failing (5xx or the connection) until the attempts ran out.
    case failedAfterRetries(action: String, attempts: Int, reason: String)
    /// The server's answer could not be understood.
    case unexpectedResponse(action: String, problem: String)

    public var errorDescription: String? {
        switch self {
        case .refused(let action, let status, let body):
            return "\(action) was refused: HTTP \(status)\(Self.excerpt(body)). Check the credentials, permissions and URL; 4xx answers are not retried."
        case .failedAfterRetries(let action, let attempts, let reason):
            return "\(action) failed after \(attempts) attempt\(attempts == 1 ? "" : "s"): \(reason). Try again later, or check the server."
        case .unexpectedResponse(let action, let problem):
            return "\(action): the server's answer is not understood: \(problem)."
        }
    }

    /// " (first 200 characters of the body)", or nothing for an empty body: how error messages
    /// quote a server's answer.
    public static func excerpt(_ body: String) -> String {
        let trimmed = body.trimmingCharacters(in: .whitespacesAndNewlines)
        guard !trimmed.isEmpty else { return "" }
        let short = trimmed.count > 200 ? String(trimmed.prefix(200)) + "…" : trimmed
        return " (\(short.replacingOccurrences(of: "\n", with: " ")))"
    }
}
