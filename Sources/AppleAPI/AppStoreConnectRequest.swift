import Basics
import Foundation

/// One App Store Connect API call, described for `AppStoreConnectClient.send`.
public struct AppStoreConnectRequest: Sendable {
    /// The method.
    public var method: HTTPMethod
    /// A path under the client's base URL (`/v1/apps`), or an absolute URL (a `links.next`,
    /// or another Apple host such as the Notary API's).
    public var path: String
    /// Query parameters, sent percent-encoded in this order (`filter[bundleId]`, `sort`, `limit`).
    public var query: [URLQueryItem]
    /// The JSON body (a JSON:API document, see `JSONAPI.document`), or nil.
    public var body: JSONValue?
    /// What the call does, for messages: "look up the app 'com.example'". It completes
    /// "App Store Connect refused to ...".
    public var action: String
    /// The roles that may make this call (for the 403 message), e.g. `["Admin", "App Manager"]`.
    public var roles: [String]
    /// Whether a 5xx answer or a dropped connection is retried (see `AppStoreConnectRetry`).
    public var retry: AppStoreConnectRetry

    /// Describes a call.
    public init(_ method: HTTPMethod = .get, _ path: String, query: [URLQueryItem] = [], body: JSONValue? = nil,
                action: String, roles: [String] = [], retry: AppStoreConnectRetry = .blindly) {
        self.method = method
        self.path = path
        self.query = query
        self.body = body
        self.action = action
        self.roles = roles
        self.retry = retry
    }

    /// The absolute URL against `baseURL`.
    /// - Throws: `AppStoreConnectError.unexpectedResponse` when the result is not a URL.
    func url(base baseURL: URL) throws -> URL {
        let absolute = path.hasPrefix("http://") || path.hasPrefix("https://")
        var text = absolute ? path : baseURL.absoluteString.trimmingSuffix("/") + (path.hasPrefix("/") ? path : "/" + path)
        if !query.isEmpty {
            text += (text.contains("?") ? "&" : "?") + query.map { Self.encode($0.name) + "=" + Self.encode($0.value ?? "") }
                .joined(separator: "&")
        }
        guard let url = URL(string: text) else {
            throw AppStoreConnectError.unexpectedResponse(action: action, problem: "'\(text)' is not a valid URL")
        }
        return url
    }

    private static let unreserved = CharacterSet(charactersIn: "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-._~,")

    private static func encode(_ text: String) -> String {
        text.addingPercentEncoding(withAllowedCharacters: unreserved) ?? text
    }
}

/// An App Store Connect answer that was a success (2xx).
public struct AppStoreConnectResponse: Sendable {
    /// The status, 2xx.
    public var status: Int
    /// The header fields.
    public var headers: HTTPHeaders
    /// The body.
    public var body: [UInt8]
    /// The hourly budget the answer reported, when it did.
    public var rateLimit: AppStoreConnectRateLimit?

    /// Creates a response.
    public init(status: Int, headers: HTTPHeaders, body: [UInt8]) {
        self.status = status
        self.headers = headers
        self.body = body
        rateLimit = headers["X-Rate-Limit"].flatMap(AppStoreConnectRateLimit.init(header:))
    }

    /// The largest answer decoded: App Store Connect's pages (200 resources at most) are a few
    /// hundred kilobytes; anything far larger did not come from it, or is meant to exhaust memory.
    public static let maximumDocumentBytes = 32 << 20

    /// The body as a JSON:API document.
    /// - Throws: `AppStoreConnectError.unexpectedResponse` naming `action`, also when the body is
    ///   larger than `maximumDocumentBytes`.
    public func document(action: String) throws -> JSONAPIDocument {
        guard body.count <= Self.maximumDocumentBytes else {
            throw AppStoreConnectError.unexpectedResponse(
                action: action, problem: "the answer is \(body.count) bytes, more than the \(Self.maximumDocumentBytes) bytes slipway decodes; "
                    + "check that the API's address points at App Store Connect")
        }
        let document: JSONAPIDocument
        do {
            document = try JSONDecoder().decode(JSONAPIDocument.self, from: Data(body))
        } catch {
            let excerpt = String(decoding: body.prefix(200), as: UTF8.self)
            throw AppStoreConnectError.unexpectedResponse(action: action, problem: "not a JSON:API document (\(excerpt))")
        }
        if let what = document.resourceWithoutID {
            throw AppStoreConnectError.missingID(action: action, what: what)
        }
        return document
    }
}

extension String {
    func trimmingSuffix(_ suffix: String) -> String {
        var text = self
        while text.hasSuffix(suffix) { text.removeLast(suffix.count) }
        return text
    }
}
