import Basics
import Foundation
#if canImport(FoundationNetworking)
// On Linux URLSession lives in FoundationNetworking (swift-corelibs-foundation over libcurl).
import FoundationNetworking
#endif

/// `HTTPClient` over Foundation's URLSession: the client `slipway` uses on macOS
/// (`SystemHTTPClient`). It builds and runs on Linux too, where the conformance suite runs it
/// against the same loopback servers as `CurlHTTPClient`; the Linux binary itself uses curl, as
/// FoundationNetworking would load libcurl and some thirty libraries at every start.
///
/// Each call uses its own ephemeral session (no cookies, no shared cache, no credentials kept
/// between calls), so calls never influence each other. Redirects are not followed by
/// URLSession but by `HTTPRedirectPolicy`, as in `CurlHTTPClient`. Retries are the caller's business.
public struct URLSessionHTTPClient: HTTPExchangingClient {
    /// The idle timeout used when a request gives none.
    public var defaultTimeout: Duration
    /// The size cap and stall timeout of a response when a request gives none.
    public var limits: HTTPTransferLimits

    /// Creates a client.
    public init(defaultTimeout: Duration = .seconds(60), limits: HTTPTransferLimits = .standard) {
        self.defaultTimeout = defaultTimeout
        self.limits = limits
    }

    /// One exchange: the delegate refuses URLSession's own redirect following, so a redirect's
    /// answer comes back as it is.
    public func exchange(_ request: HTTPRequest, destination: String?, progress: HTTPProgressHandler?) async throws
        -> HTTPResponse {
        try Task.checkCancellation()
        // URLSession trusts the system's authorities only (a delegate could, but not portably):
        // say so rather than fail later with a bare TLS error. It negotiates HTTP/2 by itself.
        if let file = request.trustedCertificatesFile {
            throw HTTPError.transport(url: request.url.absoluteString,
                                      reason: "a certificate authority file ('\(file)') is honoured only by the libcurl client (Linux); "
                                          + "on macOS add the authority to the keychain instead")
        }
        let timeout = request.timeout ?? defaultTimeout
        // With a body to send, progress follows the upload; otherwise the download.
        let delegate = URLSessionTransferDelegate(url: request.url, destination: destination, progress: progress,
                                                  reportsDownload: request.body == nil || destination != nil,
                                                  timeout: timeout, limits: request.limits ?? limits)
        let configuration = URLSessionConfiguration.ephemeral
        configuration.timeoutIntervalForRequest = Double(HTTPTransferSupport.wholeSeconds(timeout))
        let session = URLSession(configuration: configuration, delegate: delegate, delegateQueue: nil)
        defer { session.finishTasksAndInvalidate() }
        let task = try makeTask(for: request, timeout: timeout, in: session)
        return try await withTaskCancellationHandler {
            try await withCheckedThrowingContinuation { continuation in
                delegate.start(task, continuation: continuation)
            }
        } onCancel: {
            task.cancel()
        }
    }

    private func makeTask(for request: HTTPRequest, timeout: Duration, in session: URLSession) throws -> URLSessionTask {
        var urlRequest = URLRequest(url: request.url)
        urlRequest.httpMethod = request.method.rawValue
        // Whole seconds, as curl counts them, so both clients give up at the same moment.
        urlRequest.timeoutInterval = Double(HTTPTransferSupport.wholeSeconds(timeout))
        for field in request.headers {
            urlRequest.addValue(field.value, forHTTPHeaderField: field.name)
        }
        switch request.body {
        case nil:
            return session.dataTask(with: urlRequest)
        case .bytes(let bytes):
            return session.uploadTask(with: urlRequest, from: Data(bytes))
        case .file(let path):
            // Checked here for the same error as curl's; URLSession streams the file itself.
            let (handle, _) = try HTTPTransferSupport.openBody(path: path, range: nil)
            try? handle.close()
            return session.uploadTask(with: urlRequest, fromFile: URL(fileURLWithPath: path))
        case .fileRange(let path, let offset, let length):
            // One part of a multi-part upload (App Store Connect's parts are a few MB): read into
            // memory here, as URLSession has no file-range upload; the whole file never is.
            let (handle, count) = try HTTPTransferSupport.openBody(path: path, range: (offset, length))
            defer { try? handle.close() }
            let data: Data
            do {
                data = try handle.read(upToCount: Int(count)) ?? Data()
            } catch {
                throw HTTPError.unreadableBody(path: path, reason: error.localizedDescription)
            }
            guard data.count == Int(count) else {
                throw HTTPError.unreadableBody(path: path, reason: "it ended \(Int64(data.count)) bytes into the range it was to send")
            }
            return session.uploadTask(with: urlRequest, from: data)
        }
    }
}
