import Foundation

/// An HTTP request method.
public struct HTTPMethod: RawRepresentable, Sendable, Hashable, CustomStringConvertible {
    /// The method's name as sent on the wire, e.g. `GET`.
    public let rawValue: String

    /// A method by name; names are case-sensitive on the wire, so pass them upper-case.
    public init(rawValue: String) { self.rawValue = rawValue }

    /// `GET`.
    public static let get = HTTPMethod(rawValue: "GET")
    /// `HEAD`.
    public static let head = HTTPMethod(rawValue: "HEAD")
    /// `POST`.
    public static let post = HTTPMethod(rawValue: "POST")
    /// `PUT`.
    public static let put = HTTPMethod(rawValue: "PUT")
    /// `PATCH`.
    public static let patch = HTTPMethod(rawValue: "PATCH")
    /// `DELETE`.
    public static let delete = HTTPMethod(rawValue: "DELETE")

    /// The method's name.
    public var description: String { rawValue }
}

/// One header field.
public struct HTTPHeaderField: Sendable, Hashable {
    /// The name as given (compared case-insensitively).
    public var name: String
    /// The value.
    public var value: String

    /// Creates a field.
    public init(name: String, value: String) {
        self.name = name
        self.value = value
    }
}

/// Header fields in the order they were added; names compare case-insensitively, as HTTP says.
/// A name may repeat (S3's `x-amz-meta-*` and `Set-Cookie` do).
public struct HTTPHeaders: Sendable, Hashable, Sequence, ExpressibleByDictionaryLiteral {
    /// The fields, in order.
    public private(set) var fields: [HTTPHeaderField] = []

    /// No fields.
    public init() {}

    /// Fields from name/value pairs, in order.
    public init(_ pairs: [(String, String)]) {
        fields = pairs.map { HTTPHeaderField(name: $0.0, value: $0.1) }
    }

    /// Fields from a literal, in the literal's order.
    public init(dictionaryLiteral elements: (String, String)...) {
        self.init(elements)
    }

    /// The first value for `name`, or nil; setting replaces every field of that name.
    public subscript(name: String) -> String? {
        get { fields.first { $0.name.caseInsensitiveCompare(name) == .orderedSame }?.value }
        set {
            let index = fields.firstIndex { $0.name.caseInsensitiveCompare(name) == .orderedSame }
            fields.removeAll { $0.name.caseInsensitiveCompare(name) == .orderedSame }
            if let newValue {
                fields.insert(HTTPHeaderField(name: name, value: newValue), at: Swift.min(index ?? fields.count, fields.count))
            }
        }
    }

    /// Every value for `name`, in order.
    public func values(for name: String) -> [String] {
        fields.filter { $0.name.caseInsensitiveCompare(name) == .orderedSame }.map(\.value)
    }

    /// Appends a field, keeping earlier ones of the same name.
    public mutating func add(name: String, value: String) {
        fields.append(HTTPHeaderField(name: name, value: value))
    }

    /// Iterates the fields in order.
    public func makeIterator() -> IndexingIterator<[HTTPHeaderField]> { fields.makeIterator() }
}

/// What a request sends: bytes held in memory, or a file streamed from disk (large uploads).
public enum HTTPBody: Sendable, Hashable {
    /// The bytes themselves.
    case bytes([UInt8])
    /// The contents of the file at `path`, read while sending.
    case file(path: String)
    /// `length` bytes of the file at `path` from byte `offset`, read while sending: one part of a
    /// multi-part upload (App Store Connect's upload operations), never the whole file in memory.
    case fileRange(path: String, offset: Int64, length: Int64)
}

/// An HTTP request as a value: method, URL, headers, optional body and timeout.
public struct HTTPRequest: Sendable, Hashable {
    /// The method.
    public var method: HTTPMethod
    /// The absolute URL.
    public var url: URL
    /// Header fields sent with the request.
    public var headers: HTTPHeaders
    /// The body, or nil for none.
    public var body: HTTPBody?
    /// How long the request may stay idle before it fails; nil uses the client's default.
    public var timeout: Duration?
    /// The response's size cap and stall timeout; nil uses the client's (`HTTPTransferLimits`).
    public var limits: HTTPTransferLimits?
    /// Ask for HTTP/2 over TLS (APNs speaks nothing else). libcurl is told to negotiate it; the
    /// version spoken comes back in `HTTPResponse.protocolVersion` for the caller to check.
    /// URLSession negotiates HTTP/2 by itself.
    public var prefersHTTP2 = false
    /// A PEM file of the certificate authorities to trust instead of the system's (a test CA, a
    /// TLS-inspecting proxy's); nil for the system's. Honoured by the libcurl client (Linux).
    public var trustedCertificatesFile: String?

    /// Creates a request.
    public init(method: HTTPMethod = .get, url: URL, headers: HTTPHeaders = [:], body: HTTPBody? = nil,
                timeout: Duration? = nil, limits: HTTPTransferLimits? = nil) {
        self.method = method
        self.url = url
        self.headers = headers
        self.body = body
        self.timeout = timeout
        self.limits = limits
    }
}

/// A response: status, headers and (for `send`) the body.
public struct HTTPResponse: Sendable, Hashable {
    /// The status code, e.g. 200.
    public var status: Int
    /// The response's header fields.
    public var headers: HTTPHeaders
    /// The body; empty for a successful `download`, whose body went to the file.
    public var body: [UInt8]
    /// The protocol of the status line, e.g. "HTTP/2" or "HTTP/1.1", when the client reports it
    /// (the libcurl client does).
    public var protocolVersion: String?

    /// Creates a response.
    public init(status: Int, headers: HTTPHeaders = [:], body: [UInt8] = []) {
        self.status = status
        self.headers = headers
        self.body = body
    }

    /// True for a 2xx status.
    public var isSuccess: Bool { (200..<300).contains(status) }

    /// The body as text (invalid UTF-8 repaired).
    public var bodyText: String { String(decoding: body, as: UTF8.self) }
}

/// How far a transfer has got: bytes sent (uploads) or received (downloads) so far.
public struct HTTPTransferProgress: Sendable, Hashable {
    /// Bytes transferred so far.
    public var completedBytes: Int64
    /// The expected total, when the server (or the upload's size) says it.
    public var totalBytes: Int64?

    /// Creates a progress report.
    public init(completedBytes: Int64, totalBytes: Int64?) {
        self.completedBytes = completedBytes
        self.totalBytes = totalBytes
    }

    /// Completed fraction between 0 and 1, when the total is known.
    public var fraction: Double? {
        guard let totalBytes, totalBytes > 0 else { return nil }
        return min(1, Double(completedBytes) / Double(totalBytes))
    }
}

/// Called as a transfer proceeds (on an arbitrary thread; keep it quick).
public typealias HTTPProgressHandler = @Sendable (HTTPTransferProgress) -> Void

/// Speaks HTTP. The one seam for the network: downloads (Pins), uploads to S3, GitHub Releases
/// and plain HTTP servers (Publish) are built on these two calls, and tests inject their own.
///
/// A response with a non-2xx status is returned, not thrown: API clients read error bodies.
/// Only transport failures (no connection, TLS, timeout, cancellation) throw, and responses
/// that break the request's `HTTPTransferLimits` (too large, stalled).
public protocol HTTPClient: Sendable {
    /// Sends `request` and returns the response with its whole body in memory.
    /// `progress` reports the upload of the request body when there is one, else the download.
    /// - Throws: `HTTPError.transport`, `.unsupportedURL`, `.unreadableBody`, `.responseTooLarge`,
    ///   `.stalled`; `CancellationError` when the calling task is cancelled.
    func send(_ request: HTTPRequest, progress: HTTPProgressHandler?) async throws -> HTTPResponse

    /// Sends `request` and streams a 2xx response's body into a new file at `destination` (never
    /// held in memory whole), reporting `progress`. For any other status nothing is written and
    /// the body comes back in the response, for the error message.
    /// - Throws: as `send`, plus `HTTPError.cannotWrite` when `destination` cannot be created;
    ///   a partly written file is removed.
    func download(_ request: HTTPRequest, to destination: String, progress: HTTPProgressHandler?) async throws
        -> HTTPResponse
}

extension HTTPClient {
    /// Sends `request` without progress reports.
    public func send(_ request: HTTPRequest) async throws -> HTTPResponse {
        try await send(request, progress: nil)
    }
}

/// Why an HTTP exchange failed before a response arrived, or a response was not acceptable.
public enum HTTPError: Error, Sendable, Equatable, LocalizedError {
    /// The request never got a response: no connection, DNS, TLS, timeout.
    case transport(url: String, reason: String)
    /// The URL's scheme is not http or https.
    case unsupportedURL(url: String)
    /// The body file of an upload cannot be read.
    case unreadableBody(path: String, reason: String)
    /// The download's destination cannot be written.
    case cannotWrite(path: String, reason: String)
    /// The server answered with a status the caller does not accept.
    case unexpectedStatus(url: String, status: Int, body: String)
    /// The response's body is over `HTTPTransferLimits.maximumBytes`.
    case responseTooLarge(url: String, limit: Int64)
    /// Fewer than `minimumBytes` arrived in `timeout` (`HTTPTransferLimits.stallTimeout`).
    case stalled(url: String, timeout: Duration, minimumBytes: Int64)
    /// A limit's environment variable holds something that is not a limit.
    case invalidLimit(variable: String, value: String, expected: String)
    /// A redirect that `HTTPRedirectPolicy` does not follow (another scheme, or https to http).
    case refusedRedirect(from: String, to: String, reason: String)
    /// More redirects in a row than `HTTPRedirectPolicy.maximumRedirects`.
    case tooManyRedirects(url: String, limit: Int)

    public var errorDescription: String? {
        switch self {
        case let .transport(url, reason):
            return "Could not reach '\(url)': \(reason). Check the URL and the network connection, then try again."
        case let .unsupportedURL(url):
            return "'\(url)' is not an http:// or https:// URL. Use one of those schemes."
        case let .unreadableBody(path, reason):
            return "Cannot read '\(path)' to send it: \(reason). Check that the file exists and is readable."
        case let .cannotWrite(path, reason):
            return "Cannot write the download to '\(path)': \(reason). Check the folder's permissions and free space."
        case let .unexpectedStatus(url, status, body):
            let excerpt = body.trimmingCharacters(in: .whitespacesAndNewlines).prefix(200)
            return "'\(url)' answered HTTP \(status)\(excerpt.isEmpty ? "" : " (\(excerpt))"). "
                + "Check the URL and any credentials it needs."
        case let .responseTooLarge(url, limit):
            return "'\(url)' sent more than \(HTTPTransferLimits.describe(bytes: limit)), the size limit of a download; "
                + "the transfer was stopped and its partial file removed. If the file really is that large, raise the limit "
                + "with \(HTTPTransferLimits.maximumSizeVariable) (for example \(HTTPTransferLimits.maximumSizeVariable)=4GiB)."
        case let .stalled(url, timeout, minimumBytes):
            let seconds = timeout.components.seconds
            return "'\(url)' stalled: less than \(HTTPTransferLimits.describe(bytes: minimumBytes)) arrived in "
                + "\(seconds) second\(seconds == 1 ? "" : "s"); the transfer was stopped and its partial file removed. "
                + "If the server is only slow, allow it more time with \(HTTPTransferLimits.stallTimeoutVariable) "
                + "(seconds, for example \(HTTPTransferLimits.stallTimeoutVariable)=120)."
        case let .invalidLimit(variable, value, expected):
            return "\(variable) is '\(value)', which is not a limit. Set it to \(expected), or unset it for the default."
        case let .refusedRedirect(from, to, reason):
            return "'\(from)' redirected to '\(to)', which was not followed: \(reason). "
                + "If you trust that address, use it directly."
        case let .tooManyRedirects(url, limit):
            return "'\(url)' redirected more than \(limit) times in a row, so the chain was not followed further. "
                + "Check the URL in a browser: the server may redirect in a loop."
        }
    }
}

extension HTTPResponse {
    /// The response itself when its status is 2xx.
    /// - Throws: `HTTPError.unexpectedStatus` naming `url`, the status and the start of the body.
    public func requireSuccess(url: URL) throws -> HTTPResponse {
        guard isSuccess else {
            throw HTTPError.unexpectedStatus(url: url.absoluteString, status: status, body: bodyText)
        }
        return self
    }
}
