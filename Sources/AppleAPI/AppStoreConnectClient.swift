import Basics
import Foundation
import Transport

/// Speaks to the App Store Connect API over any `HTTPClient`.
///
/// Every call carries a token from the provider (re-made before it expires, and once more after
/// a 401). Answers are judged in one place:
/// - 2xx: returned, with the `X-Rate-Limit` budget parsed;
/// - 429: waits for `Retry-After` (or the retry policy's backoff), says so through `log`
///   ("rate limited by App Store Connect; waiting 30 s"), and tries again, up to `rateLimitWaits`;
/// - 5xx and dropped connections: retried with the policy's backoff and jitter when the request
///   may be repeated (`AppStoreConnectRetry.blindly`); otherwise `.notRetried` at once, since
///   Apple may have acted on it (a tester notification sent twice notifies twice);
/// - 401: a new token, once; a second 401 is `AppStoreConnectError.keyRejected`;
/// - 403: `.forbidden`, naming the roles the call needs; other 4xx: `.refused` with Apple's errors.
/// Waiting goes through the policy's injected `sleep`, so tests never wait.
public struct AppStoreConnectClient: Sendable {
    /// Apple's API host.
    public static let productionURL = URL(string: "https://api.appstoreconnect.apple.com")!

    /// Where `/v1/...` paths are sent.
    public let baseURL: URL
    /// The tokens for the key.
    public let tokens: AppStoreConnectTokenProvider
    /// The transport.
    public let http: any HTTPClient
    /// Backoff for 5xx and dropped connections (and the 429 wait when Apple gives no Retry-After).
    public let retry: RetryPolicy
    /// How many 429 answers one call may wait out.
    public let rateLimitWaits: Int
    private let now: @Sendable () -> Date
    private let log: @Sendable (String) -> Void

    /// A client for `key`.
    /// - Parameters:
    ///   - baseURL: Apple's host by default; a contract fake's in tests.
    ///   - retry: backoff and the injected `sleep`.
    ///   - now: the clock for tokens and `Retry-After` dates.
    ///   - log: told about waits and retries (one line each, no secrets).
    public init(key: AppStoreConnectKey, http: any HTTPClient, baseURL: URL = productionURL, retry: RetryPolicy = RetryPolicy(),
                rateLimitWaits: Int = 5, now: @escaping @Sendable () -> Date = { Date() },
                log: @escaping @Sendable (String) -> Void = { _ in }) {
        self.init(tokens: AppStoreConnectTokenProvider(key: key, now: now), http: http, baseURL: baseURL, retry: retry,
                  rateLimitWaits: rateLimitWaits, now: now, log: log)
    }

    /// A client using an existing token provider (shared between clients of one key).
    public init(tokens: AppStoreConnectTokenProvider, http: any HTTPClient, baseURL: URL = productionURL,
                retry: RetryPolicy = RetryPolicy(), rateLimitWaits: Int = 5, now: @escaping @Sendable () -> Date = { Date() },
                log: @escaping @Sendable (String) -> Void = { _ in }) {
        self.tokens = tokens
        self.http = http
        self.baseURL = baseURL
        self.retry = retry
        self.rateLimitWaits = max(0, rateLimitWaits)
        self.now = now
        self.log = log
    }

    /// Makes the call and returns its 2xx answer.
    /// - Throws: `AppStoreConnectError` as described on the type; `CancellationError`.
    public func send(_ request: AppStoreConnectRequest) async throws -> AppStoreConnectResponse {
        let url = try request.url(base: baseURL)
        var failures = 0, waits = 0, renewed = false
        while true {
            let token = try await tokens.token()
            let answer: HTTPResponse
            do {
                answer = try await http.send(httpRequest(request, url: url, token: token))
            } catch HTTPError.transport(_, let reason) {
                if request.retry == .never { throw AppStoreConnectError.notRetried(action: request.action, reason: reason) }
                failures += 1
                try await backOff(request, failures: failures, reason: reason)
                continue
            }
            switch answer.status {
            case 200..<300:
                return AppStoreConnectResponse(status: answer.status, headers: answer.headers, body: answer.body)
            case 401:
                let errors = AppStoreConnectAPIError.list(in: answer.body)
                guard !renewed else {
                    throw AppStoreConnectError.keyRejected(keyID: tokens.key.keyID, issuerID: tokens.key.issuerID, errors: errors)
                }
                renewed = true
                log("App Store Connect did not accept the token (HTTP 401); making a new one and trying again")
                try await tokens.renew()
            case 403:
                throw AppStoreConnectError.forbidden(action: request.action, keyID: tokens.key.keyID, roles: request.roles,
                                                     errors: AppStoreConnectAPIError.list(in: answer.body))
            case 429:
                waits += 1
                try await waitOutRateLimit(request, answer: answer, waits: waits)
            case 500...:
                if request.retry == .never {
                    throw AppStoreConnectError.notRetried(action: request.action, reason: "HTTP \(answer.status)")
                }
                failures += 1
                try await backOff(request, failures: failures, reason: "HTTP \(answer.status)")
            default:
                throw AppStoreConnectError.refused(action: request.action, status: answer.status,
                                                   errors: AppStoreConnectAPIError.list(in: answer.body), body: answer.bodyText)
            }
        }
    }

    /// Makes the call and reads its answer as a JSON:API document.
    /// - Throws: as `send`, and `.unexpectedResponse` for a body that is not one.
    public func document(_ request: AppStoreConnectRequest) async throws -> JSONAPIDocument {
        try await send(request).document(action: request.action)
    }

    /// Every resource of a collection, following `links.next`; more than `pageLimit` pages is
    /// an error (`everyPage`), never a silent part.
    /// - Throws: as `document`; `AppStoreConnectPagingError`.
    public func all(_ request: AppStoreConnectRequest, pageLimit: Int = 100) async throws -> [JSONAPIResource] {
        try await everyPage(request, pageLimit: pageLimit, what: "items (to \(request.action))")
    }

    /// The request for a collection's next page: `links.next` only when it is on the API's own
    /// scheme, host and port (the bearer token goes with it, and nowhere else).
    func nextPage(_ next: URL, of request: AppStoreConnectRequest) throws -> AppStoreConnectRequest {
        guard next.scheme?.lowercased() == baseURL.scheme?.lowercased(), next.host?.lowercased() == baseURL.host?.lowercased(),
            next.port == baseURL.port
        else {
            throw AppStoreConnectError.unexpectedResponse(
                action: request.action, problem: "the next page's link '\(next.absoluteString)' is not on \(baseURL.absoluteString); slipway sends its token to that host only")
        }
        return AppStoreConnectRequest(.get, next.absoluteString, action: request.action, roles: request.roles)
    }

    private func httpRequest(_ request: AppStoreConnectRequest, url: URL, token: AppStoreConnectToken) -> HTTPRequest {
        var headers: HTTPHeaders = ["Authorization": "Bearer \(token.value)", "Accept": "application/json"]
        var body: HTTPBody?
        if let json = request.body {
            headers["Content-Type"] = "application/json"
            body = .bytes(json.encoded())
        }
        return HTTPRequest(method: request.method, url: url, headers: headers, body: body)
    }

    private func backOff(_ request: AppStoreConnectRequest, failures: Int, reason: String) async throws {
        guard failures < retry.attempts else {
            throw AppStoreConnectError.unavailable(action: request.action, attempts: failures, reason: reason)
        }
        let wait = retry.delay(beforeRetry: failures)
        log("App Store Connect failed to \(request.action) (\(reason)); retrying in \(Self.format(wait)) "
            + "(attempt \(failures + 1) of \(retry.attempts))")
        try await retry.sleep(wait)
    }

    private func waitOutRateLimit(_ request: AppStoreConnectRequest, answer: HTTPResponse, waits: Int) async throws {
        let limit = answer.headers["X-Rate-Limit"].flatMap(AppStoreConnectRateLimit.init(header:))
        guard waits <= rateLimitWaits else {
            throw AppStoreConnectError.rateLimited(action: request.action, waits: waits - 1, rateLimit: limit)
        }
        let wait = AppStoreConnectRateLimit.retryAfter(answer.headers["Retry-After"], now: now())
            ?? retry.delay(beforeRetry: waits)
        log("rate limited by App Store Connect; waiting \(Self.format(wait))")
        try await retry.sleep(wait)
    }

    /// "30 s", "1.5 s".
    static func format(_ duration: Duration) -> String {
        let seconds = Double(duration.components.seconds) + Double(duration.components.attoseconds) / 1e18
        return seconds.rounded() == seconds ? "\(Int(seconds)) s" : String(format: "%.1f s", seconds)
    }
}
