#if os(Linux)
import Basics
import CCurl
import Foundation
import Glibc

/// `HTTPClient` over libcurl's easy interface, loaded at the first request (see `CCurl`).
///
/// This is what Slipway uses on Linux instead of URLSession: FoundationNetworking links libcurl
/// and some thirty libraries behind it into the process, and loading them costs every command
/// several milliseconds at start-up, HTTP or not. Each call uses its own easy handle (no cookies,
/// no connection reuse between calls), runs on a thread of its own (curl blocks), follows
/// redirects as `HTTPRedirectPolicy` says (curl's own following is off), and treats `timeout` as
/// an idle timeout, as URLSession does. Retries are the caller's business.
public struct CurlHTTPClient: HTTPExchangingClient {
    /// The idle timeout used when a request gives none.
    public var defaultTimeout: Duration
    /// The size cap and stall timeout of a response when a request gives none.
    public var limits: HTTPTransferLimits

    /// Creates a client.
    public init(defaultTimeout: Duration = .seconds(60), limits: HTTPTransferLimits = .standard) {
        self.defaultTimeout = defaultTimeout
        self.limits = limits
    }

    /// One exchange: a redirect's answer comes back as it is.
    public func exchange(_ request: HTTPRequest, destination: String?, progress: HTTPProgressHandler?) async throws
        -> HTTPResponse {
        try Task.checkCancellation()
        var loadError = [CChar](repeating: 0, count: 512)
        guard ccurl_load(&loadError, loadError.count) == 0 else {
            throw HTTPError.transport(url: request.url.absoluteString,
                                      reason: String(decoding: loadError.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
                                          + "; install libcurl (Debian/Ubuntu: apt-get install libcurl4)")
        }
        let transfer = try CurlTransfer(request: request, timeout: request.timeout ?? defaultTimeout,
                                        limits: request.limits ?? limits, destination: destination, progress: progress)
        return try await withTaskCancellationHandler {
            try await BlockingWork.run(name: "slipway-http") { try transfer.run().get() }
        } onCancel: {
            transfer.cancel()
        }
    }
}

/// One request on one easy handle. Curl calls the callbacks on the thread running `run`; only
/// `cancel` comes from elsewhere, hence the lock around `cancelled`.
private final class CurlTransfer: @unchecked Sendable {
    private let request: HTTPRequest
    private let timeout: Duration
    private let destination: String?
    private let progress: HTTPProgressHandler?
    /// With a body to send, progress follows the upload; otherwise the download.
    private let reportsDownload: Bool
    private let cancelled = Locked(false)

    // Touched only by the thread running the transfer.
    private var upload: UploadSource?
    private var status = 0
    private var protocolVersion: String?
    private var headers = HTTPHeaders()
    private var body: [UInt8] = []
    private var file: FileHandle?
    private var writeFailure: HTTPError?
    private var lastReported: Int64 = -1
    private var budget: HTTPTransferBudget
    private let clock = ContinuousClock()

    init(request: HTTPRequest, timeout: Duration, limits: HTTPTransferLimits, destination: String?,
         progress: HTTPProgressHandler?) throws {
        self.request = request
        budget = HTTPTransferBudget(url: request.url.absoluteString, limits: limits)
        self.timeout = timeout
        self.destination = destination
        self.progress = progress
        reportsDownload = request.body == nil || destination != nil
        switch request.body {
        case nil: upload = nil
        case .bytes(let bytes): upload = .bytes(bytes, offset: 0)
        case .file(let path):
            let (handle, size) = try HTTPTransferSupport.openBody(path: path, range: nil)
            upload = .file(handle, size: size, remaining: size)
        case .fileRange(let path, let offset, let length):
            let (handle, size) = try HTTPTransferSupport.openBody(path: path, range: (offset, length))
            upload = .file(handle, size: size, remaining: size)
        }
    }

    func cancel() { cancelled.withLock { $0 = true } }
    private var isCancelled: Bool { cancelled.value }

    /// Runs the transfer to its end; called on a thread of its own.
    func run() -> Result<HTTPResponse, any Error> {
        defer { upload?.close() }
        guard let handle = ccurl_easy_init() else {
            return .failure(HTTPError.transport(url: request.url.absoluteString, reason: "curl_easy_init failed"))
        }
        defer { ccurl_easy_cleanup(handle) }
        var errorBuffer = [CChar](repeating: 0, count: Int(CCURL_ERROR_SIZE) + 1)
        var headerList: UnsafeMutableRawPointer?
        defer { if let headerList { ccurl_slist_free_all(headerList) } }
        let code: Int32 = request.url.absoluteString.withCString { url in
            errorBuffer.withUnsafeMutableBufferPointer { errors in
                configure(handle, url: url, errors: errors.baseAddress!, headerList: &headerList)
                // off-pool: run() is called through BlockingWork.run, on a thread of its own.
                return withExtendedLifetime(self) { ccurl_perform(handle) }
            }
        }
        return finish(code: code, errors: errorBuffer, handle: handle)
    }

    private func configure(_ handle: UnsafeMutableRawPointer, url: UnsafePointer<CChar>, errors: UnsafeMutablePointer<CChar>,
                           headerList: inout UnsafeMutableRawPointer?) {
        let context = Unmanaged.passUnretained(self).toOpaque()
        ccurl_setopt_pointer(handle, Int32(CCURL_OPT_URL), url)
        ccurl_setopt_pointer(handle, Int32(CCURL_OPT_ERRORBUFFER), errors)
        ccurl_setopt_long(handle, Int32(CCURL_OPT_NOSIGNAL), 1)
        // Redirects come back to HTTPRedirectPolicy, which follows them for both clients.
        ccurl_setopt_long(handle, Int32(CCURL_OPT_FOLLOWLOCATION), 0)
        // An idle timeout, as URLSession's timeoutInterval: connecting, and no byte moving.
        let seconds = HTTPTransferSupport.wholeSeconds(timeout)
        ccurl_setopt_long(handle, Int32(CCURL_OPT_CONNECTTIMEOUT_MS), Int(seconds) * 1000)
        ccurl_setopt_long(handle, Int32(CCURL_OPT_LOW_SPEED_LIMIT), 1)
        ccurl_setopt_long(handle, Int32(CCURL_OPT_LOW_SPEED_TIME), Int(seconds))
        if request.prefersHTTP2 { ccurl_setopt_long(handle, Int32(CCURL_OPT_HTTP_VERSION), Int(CCURL_HTTP_VERSION_2TLS)) }
        if let file = request.trustedCertificatesFile { _ = file.withCString { ccurl_setopt_pointer(handle, Int32(CCURL_OPT_CAINFO), $0) } }

        ccurl_setopt_data_callback(handle, Int32(CCURL_OPT_HEADERFUNCTION), { buffer, size, count, context in
            Unmanaged<CurlTransfer>.fromOpaque(context!).takeUnretainedValue().header(buffer!, size * count)
        })
        ccurl_setopt_pointer(handle, Int32(CCURL_OPT_HEADERDATA), context)
        ccurl_setopt_data_callback(handle, Int32(CCURL_OPT_WRITEFUNCTION), { buffer, size, count, context in
            Unmanaged<CurlTransfer>.fromOpaque(context!).takeUnretainedValue().received(buffer!, size * count)
        })
        ccurl_setopt_pointer(handle, Int32(CCURL_OPT_WRITEDATA), context)
        ccurl_setopt_long(handle, Int32(CCURL_OPT_NOPROGRESS), 0)
        ccurl_setopt_progress_callback(handle, Int32(CCURL_OPT_XFERINFOFUNCTION), { context, downloadTotal, downloaded, uploadTotal, uploaded in
            Unmanaged<CurlTransfer>.fromOpaque(context!).takeUnretainedValue()
                .moved(downloadTotal: downloadTotal, downloaded: downloaded, uploadTotal: uploadTotal, uploaded: uploaded)
        })
        ccurl_setopt_pointer(handle, Int32(CCURL_OPT_XFERINFODATA), context)

        var fields = request.headers.map { "\($0.name): \($0.value)" }
        if let upload {
            ccurl_setopt_long(handle, Int32(CCURL_OPT_UPLOAD), 1)
            ccurl_setopt_offset(handle, Int32(CCURL_OPT_INFILESIZE_LARGE), upload.size)
            ccurl_setopt_data_callback(handle, Int32(CCURL_OPT_READFUNCTION), { buffer, size, count, context in
                Unmanaged<CurlTransfer>.fromOpaque(context!).takeUnretainedValue().read(into: buffer!, size * count)
            })
            ccurl_setopt_pointer(handle, Int32(CCURL_OPT_READDATA), context)
            // No "Expect: 100-continue" round trip (many servers never answer it; curl then
            // waits a second before sending the body).
            if request.headers["Expect"] == nil { fields.append("Expect:") }
        } else if request.method == .head {
            ccurl_setopt_long(handle, Int32(CCURL_OPT_NOBODY), 1)
        }
        let defaultMethod: HTTPMethod = upload == nil ? .get : .put
        if request.method != defaultMethod && !(upload == nil && request.method == .head) {
            _ = request.method.rawValue.withCString { ccurl_setopt_pointer(handle, Int32(CCURL_OPT_CUSTOMREQUEST), $0) }
        }
        for field in fields { headerList = ccurl_slist_append(headerList, field) }
        if let headerList { ccurl_setopt_pointer(handle, Int32(CCURL_OPT_HTTPHEADER), headerList) }
    }

    // MARK: Callbacks (on the transfer's thread)

    /// One header line. A status line starts a response (a redirect or `100 Continue` comes
    /// before the final one); the empty line ends its headers.
    private func header(_ buffer: UnsafeMutablePointer<CChar>, _ count: Int) -> Int {
        budget.headerArrived(count, at: clock.now)
        let line = String(decoding: UnsafeRawBufferPointer(start: buffer, count: count), as: UTF8.self)
            .trimmingCharacters(in: .newlines)
        if line.hasPrefix("HTTP/") {
            let parts = line.split(separator: " ", maxSplits: 2)
            status = parts.count > 1 ? Int(parts[1]) ?? 0 : 0
            protocolVersion = parts.first.map(String.init)
            headers = HTTPHeaders()
        } else if line.isEmpty {
            if let destination, (200..<300).contains(status), file == nil { openDestination(destination) }
        } else if let colon = line.firstIndex(of: ":") {
            let name = String(line[..<colon]), value = line[line.index(after: colon)...].trimmingCharacters(in: .whitespaces)
            headers.add(name: name, value: value)
            if name.caseInsensitiveCompare("Content-Length") == .orderedSame, (200..<300).contains(status),
               let length = Int64(value), let failure = budget.announced(contentLength: length) {
                writeFailure = failure
            }
        }
        return writeFailure == nil ? count : 0
    }

    private func received(_ buffer: UnsafeMutablePointer<CChar>, _ count: Int) -> Int {
        if let failure = budget.bodyArrived(count, at: clock.now) {
            writeFailure = failure
            return 0
        }
        let bytes = UnsafeRawBufferPointer(start: buffer, count: count)
        if let file {
            do { try file.write(contentsOf: bytes) } catch {
                writeFailure = .cannotWrite(path: destination ?? "", reason: "\(error.localizedDescription)")
                return 0
            }
        } else {
            body.append(contentsOf: bytes)
        }
        return count
    }

    private func read(into buffer: UnsafeMutablePointer<CChar>, _ capacity: Int) -> Int {
        guard let source = upload, !isCancelled else { return Int(CCURL_READFUNC_ABORT) }
        let (count, next) = source.read(into: UnsafeMutableRawBufferPointer(start: buffer, count: capacity))
        upload = next
        return count ?? Int(CCURL_READFUNC_ABORT)
    }

    /// Also where a stall is noticed: curl calls this about once a second even when no byte moves.
    private func moved(downloadTotal: Int64, downloaded: Int64, uploadTotal: Int64, uploaded: Int64) -> Int32 {
        if isCancelled { return 1 }
        if writeFailure == nil, let failure = budget.check(at: clock.now) {
            writeFailure = failure
            return 1
        }
        guard let progress else { return 0 }
        // A redirect's own body is not the download.
        if reportsDownload && HTTPTransferSupport.isRedirect(status) { return 0 }
        let (done, total) = reportsDownload ? (downloaded, downloadTotal) : (uploaded, uploadTotal)
        if done != lastReported && (done > 0 || total > 0) {
            lastReported = done
            progress(HTTPTransferProgress(completedBytes: done, totalBytes: total > 0 ? total : nil))
        }
        return 0
    }

    // MARK: Outcome

    private func finish(code: Int32, errors: [CChar], handle: UnsafeMutableRawPointer) -> Result<HTTPResponse, any Error> {
        try? file?.close()
        file = nil
        let url = request.url.absoluteString
        if let writeFailure {
            removePartialDownload()
            return .failure(writeFailure)
        }
        guard code == Int32(CCURL_E_OK) else {
            removePartialDownload()
            if code == Int32(CCURL_E_ABORTED_BY_CALLBACK) && isCancelled { return .failure(CancellationError()) }
            if code == Int32(CCURL_E_OPERATION_TIMEDOUT) { return .failure(HTTPTransferSupport.timedOut(request.url, after: timeout)) }
            let detail = String(decoding: errors.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
            let text = detail.isEmpty ? String(cString: ccurl_strerror(code)) : detail
            if [CCURL_E_GOT_NOTHING, CCURL_E_SEND_ERROR, CCURL_E_RECV_ERROR].map(Int32.init).contains(code) {
                return .failure(HTTPTransferSupport.connectionClosed(request.url, detail: text))
            }
            return .failure(HTTPError.transport(url: url, reason: text))
        }
        var final: Int = 0
        if ccurl_getinfo_long(handle, Int32(CCURL_INFO_RESPONSE_CODE), &final) == Int32(CCURL_E_OK), final != 0 {
            status = final
        }
        guard status != 0 else { return .failure(HTTPError.transport(url: url, reason: "the server sent no response")) }
        // A 2xx answer without a body still makes the (empty) file.
        if let destination, (200..<300).contains(status), !FileManager.default.fileExists(atPath: destination) {
            openDestination(destination)
            try? file?.close()
            file = nil
            if let writeFailure { return .failure(writeFailure) }
        }
        var response = HTTPResponse(status: status, headers: headers, body: body)
        response.protocolVersion = protocolVersion
        return .success(response)
    }

    private func openDestination(_ path: String) {
        switch HTTPTransferSupport.createDestination(path) {
        case .success(let handle): file = handle
        case .failure(let failure): writeFailure = failure
        }
    }

    private func removePartialDownload() {
        HTTPTransferSupport.removePartialDownload(destination, status: status)
    }
}

/// Where an upload's bytes come from.
private enum UploadSource {
    case bytes([UInt8], offset: Int)
    /// A file handle positioned at the first byte to send; `remaining` bytes are still to go.
    case file(FileHandle, size: Int64, remaining: Int64)

    var size: Int64 {
        switch self {
        case .bytes(let bytes, _): return Int64(bytes.count)
        case .file(_, let size, _): return size
        }
    }

    /// Copies the next bytes into `buffer`: the count (0 at the end), or nil on a read error.
    func read(into buffer: UnsafeMutableRawBufferPointer) -> (Int?, UploadSource) {
        switch self {
        case .bytes(let bytes, let offset):
            let count = min(buffer.count, bytes.count - offset)
            bytes.withUnsafeBytes { source in
                buffer.copyMemory(from: UnsafeRawBufferPointer(rebasing: source[offset..<offset + count]))
            }
            return (count, .bytes(bytes, offset: offset + count))
        case .file(let handle, let size, let remaining):
            let wanted = Int(min(Int64(buffer.count), remaining))
            guard wanted > 0 else { return (0, self) }
            let count = Glibc.read(handle.fileDescriptor, buffer.baseAddress, wanted)
            return (count >= 0 ? count : nil, .file(handle, size: size, remaining: remaining - Int64(max(count, 0))))
        }
    }

    func close() {
        if case .file(let handle, _, _) = self { try? handle.close() }
    }
}
#endif
