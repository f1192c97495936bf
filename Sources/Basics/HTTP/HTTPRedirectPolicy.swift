import Foundation

/// How Slipway's HTTP clients follow redirects. Both clients (libcurl on Linux, URLSession on
/// macOS) hand every 3xx answer back unfollowed and this one policy decides, so a Mac and a Linux
/// runner follow the same chain to the same place:
///
/// - 301, 302, 303, 307 and 308 with a `Location` are followed, at most `maximumRedirects` times;
///   any other 3xx (304, or one without `Location`) is the answer.
/// - 303 turns any method but HEAD into a GET without body, and 301/302 turn a POST into one
///   (what browsers, curl and URLSession do); 307 and 308 keep the method and send the body again.
/// - Only http:// and https:// targets are followed, and never from https:// down to http://.
/// - `Authorization`, `Proxy-Authorization` and `Cookie` are sent only to the origin (scheme,
///   host and port) they were given for: a GitHub asset that redirects to a storage host must not
///   take the token with it.
public enum HTTPRedirectPolicy {
    /// The most redirects one request follows.
    public static let maximumRedirects = 10

    /// The statuses that are followed when a `Location` comes with them.
    public static let followedStatuses: Set<Int> = [301, 302, 303, 307, 308]

    /// Header names that are dropped when a redirect changes the origin.
    static let credentialHeaders = ["Authorization", "Proxy-Authorization", "Cookie"]

    /// The request to send after `response` answered `request`, or nil when the response is the answer.
    /// - Throws: `HTTPError.refusedRedirect` for a target that is not http(s) or that leaves https.
    public static func next(after request: HTTPRequest, response: HTTPResponse) throws -> HTTPRequest? {
        guard followedStatuses.contains(response.status), let location = response.headers["Location"],
              !location.isEmpty
        else { return nil }
        let from = request.url.absoluteString
        guard let target = URL(string: location, relativeTo: request.url)?.absoluteURL else {
            throw HTTPError.refusedRedirect(from: from, to: location, reason: "that is not a URL")
        }
        let scheme = target.scheme?.lowercased()
        guard scheme == "http" || scheme == "https" else {
            throw HTTPError.refusedRedirect(from: from, to: target.absoluteString, reason: "it is not an http:// or https:// URL")
        }
        if request.url.scheme?.lowercased() == "https" && scheme == "http" {
            throw HTTPError.refusedRedirect(from: from, to: target.absoluteString,
                                            reason: "it leaves https:// for plain http://, which anyone on the way can read")
        }
        var next = request
        next.url = target
        let becomesGet = (response.status == 303 && request.method != .head)
            || ((response.status == 301 || response.status == 302) && request.method == .post)
        if becomesGet {
            next.method = .get
            next.body = nil
            for name in ["Content-Type", "Content-Length", "Content-Encoding", "Transfer-Encoding"] { next.headers[name] = nil }
        }
        if origin(of: target) != origin(of: request.url) {
            for name in credentialHeaders { next.headers[name] = nil }
        }
        return next
    }

    /// Sends `request` through `perform` (one exchange, redirects not followed) and follows the
    /// redirects this policy allows. `progress` sees one transfer that never goes backwards: an
    /// upload's progress while the body is sent (again after a 307 or 308), and no download
    /// progress of a request whose body a 303 dropped.
    /// - Throws: what `perform` throws; `HTTPError.refusedRedirect`; `HTTPError.tooManyRedirects`.
    public static func follow(_ request: HTTPRequest, progress: HTTPProgressHandler?,
                              perform: (HTTPRequest, HTTPProgressHandler?) async throws -> HTTPResponse) async throws
        -> HTTPResponse {
        let forward = progress.map { MonotonicProgress($0) }
        let reportsUpload = request.body != nil
        var current = request
        for _ in 0...maximumRedirects {
            // A request that sent a body reports the upload only; after a 303 dropped it, nothing.
            var hopProgress: HTTPProgressHandler?
            if let forward, !(reportsUpload && current.body == nil) {
                hopProgress = { forward.report($0) }
            }
            let response = try await perform(current, hopProgress)
            guard let next = try self.next(after: current, response: response) else { return response }
            current = next
        }
        throw HTTPError.tooManyRedirects(url: request.url.absoluteString, limit: maximumRedirects)
    }

    /// `scheme://host:port`, with the scheme's default port when the URL names none.
    static func origin(of url: URL) -> String {
        let scheme = url.scheme?.lowercased() ?? ""
        let port = url.port ?? (scheme == "https" ? 443 : 80)
        return "\(scheme)://\(url.host?.lowercased() ?? ""):\(port)"
    }
}

/// Passes on only reports that do not go backwards (a body sent again after a 307 starts at 0).
private final class MonotonicProgress: Sendable {
    private let handler: HTTPProgressHandler
    private let last = Locked<Int64>(-1)

    init(_ handler: @escaping HTTPProgressHandler) { self.handler = handler }

    func report(_ progress: HTTPTransferProgress) {
        let forward = last.withLock { last -> Bool in
            guard progress.completedBytes > last else { return false }
            last = progress.completedBytes
            return true
        }
        if forward { handler(progress) }
    }
}

/// An `HTTPClient` built from single exchanges (one request, one answer, redirects returned as
/// they are): `send` and `download` check the scheme and follow redirects as
/// `HTTPRedirectPolicy` says, the same way for every client (curl on Linux, URLSession on macOS).
public protocol HTTPExchangingClient: HTTPClient {
    /// One exchange; a redirect's answer comes back as it is. `destination`: the file the body
    /// goes to (nil: into memory).
    func exchange(_ request: HTTPRequest, destination: String?, progress: HTTPProgressHandler?) async throws -> HTTPResponse
}

extension HTTPExchangingClient {
    public func send(_ request: HTTPRequest, progress: HTTPProgressHandler?) async throws -> HTTPResponse {
        try await followingRedirects(request, destination: nil, progress: progress)
    }

    public func download(_ request: HTTPRequest, to destination: String, progress: HTTPProgressHandler?) async throws
        -> HTTPResponse {
        try await followingRedirects(request, destination: destination, progress: progress)
    }

    private func followingRedirects(_ request: HTTPRequest, destination: String?, progress: HTTPProgressHandler?) async throws
        -> HTTPResponse {
        try HTTPTransferSupport.checkScheme(of: request.url)
        return try await HTTPRedirectPolicy.follow(request, progress: progress) { hop, hopProgress in
            try await exchange(hop, destination: destination, progress: hopProgress)
        }
    }
}
