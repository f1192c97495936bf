#if canImport(Darwin)
import Basics
import Foundation

/// The platform's HTTP client: URLSession on macOS, libcurl on Linux (`CurlHTTPClient`).
public typealias SystemHTTPClient = URLSessionHTTPClient

/// `HTTPClient` over Foundation's URLSession, used on macOS. (On Linux, URLSession lives in
/// FoundationNetworking, whose libraries would load at every start; `CurlHTTPClient` is used.)
///
/// Each call uses its own ephemeral session (no cookies, no shared cache, no credentials kept
/// between calls), so calls never influence each other. Retries are the caller's business.
public struct URLSessionHTTPClient: HTTPClient {
    /// The idle timeout used when a request gives none.
    public var defaultTimeout: Duration
    /// The size cap and stall timeout of a response when a request gives none.
    public var limits: HTTPTransferLimits

    /// Creates a client.
    public init(defaultTimeout: Duration = .seconds(60), limits: HTTPTransferLimits = .standard) {
        self.defaultTimeout = defaultTimeout
        self.limits = limits
    }

    public func send(_ request: HTTPRequest, progress: HTTPProgressHandler?) async throws -> HTTPResponse {
        try await perform(request, destination: nil, progress: progress)
    }

    public func download(_ request: HTTPRequest, to destination: String, progress: HTTPProgressHandler?) async throws
        -> HTTPResponse {
        try await perform(request, destination: destination, progress: progress)
    }

    private func perform(_ request: HTTPRequest, destination: String?, progress: HTTPProgressHandler?) async throws
        -> HTTPResponse {
        let url = request.url
        try TransferSupport.checkScheme(of: url)
        // With a body to send, progress follows the upload; otherwise the download.
        let delegate = TransferDelegate(url: url, destination: destination, progress: progress,
                                        reportsDownload: request.body == nil || destination != nil,
                                        limits: request.limits ?? limits)
        let session = URLSession(configuration: .ephemeral, delegate: delegate, delegateQueue: nil)
        defer { session.finishTasksAndInvalidate() }
        let task = try makeTask(for: request, in: session)
        return try await withTaskCancellationHandler {
            try await withCheckedThrowingContinuation { continuation in
                delegate.start(task, continuation: continuation)
            }
        } onCancel: {
            task.cancel()
        }
    }

    private func makeTask(for request: HTTPRequest, in session: URLSession) throws -> URLSessionTask {
        var urlRequest = URLRequest(url: request.url)
        urlRequest.httpMethod = request.method.rawValue
        let timeout = request.timeout ?? defaultTimeout
        urlRequest.timeoutInterval = Double(timeout.components.seconds) + Double(timeout.components.attoseconds) / 1e18
        for field in request.headers {
            urlRequest.addValue(field.value, forHTTPHeaderField: field.name)
        }
        switch request.body {
        case nil:
            return session.dataTask(with: urlRequest)
        case .bytes(let bytes):
            return session.uploadTask(with: urlRequest, from: Data(bytes))
        case .file(let path):
            guard FileManager.default.isReadableFile(atPath: path) else {
                throw HTTPError.unreadableBody(path: path, reason: "it does not exist or is not readable")
            }
            return session.uploadTask(with: urlRequest, fromFile: URL(fileURLWithPath: path))
        case .fileRange(let path, let offset, let length):
            // One part of a multi-part upload (tens of MB): read into memory here, as URLSession
            // has no file-range upload; the whole file is never read at once.
            guard let handle = FileHandle(forReadingAtPath: path) else {
                throw HTTPError.unreadableBody(path: path, reason: "it does not exist or is not readable")
            }
            defer { try? handle.close() }
            do {
                try handle.seek(toOffset: UInt64(max(0, offset)))
                let data = try handle.read(upToCount: Int(max(0, length))) ?? Data()
                guard data.count == Int(length) else {
                    throw HTTPError.unreadableBody(path: path, reason: "bytes \(offset)..<\(offset + length) lie outside the file")
                }
                return session.uploadTask(with: urlRequest, from: data)
            } catch let error as HTTPError {
                throw error
            } catch {
                throw HTTPError.unreadableBody(path: path, reason: error.localizedDescription)
            }
        }
    }
}

/// Receives one task's callbacks: collects the body in memory, or streams a 2xx body into the
/// destination file, and resumes the caller when the task completes. URLSession calls a
/// delegate serially, but the continuation is handed over from another thread, hence the lock.
private final class TransferDelegate: NSObject, URLSessionDataDelegate, @unchecked Sendable {
    private let url: URL
    private let destination: String?
    private let progress: HTTPProgressHandler?
    private let reportsDownload: Bool
    private let lock = NSLock()
    private var continuation: CheckedContinuation<HTTPResponse, any Error>?
    private var response: HTTPResponse?
    private var file: FileHandle?
    private var received: Int64 = 0
    private var expected: Int64?
    private var writeFailure: HTTPError?
    private var budget: HTTPTransferBudget
    private let clock = ContinuousClock()
    /// Closes stall windows while no byte arrives (URLSession calls nothing then).
    private var stallTimer: DispatchSourceTimer?

    init(url: URL, destination: String?, progress: HTTPProgressHandler?, reportsDownload: Bool, limits: HTTPTransferLimits) {
        self.url = url
        self.destination = destination
        self.progress = progress
        self.reportsDownload = reportsDownload
        budget = HTTPTransferBudget(url: url.absoluteString, limits: limits)
    }

    func start(_ task: URLSessionTask, continuation: CheckedContinuation<HTTPResponse, any Error>) {
        let timer = DispatchSource.makeTimerSource(queue: DispatchQueue.global())
        timer.schedule(deadline: .now() + 1, repeating: 1)
        timer.setEventHandler { [weak self, weak task] in
            guard let self, let task else { return }
            let stalled: Bool = self.lock.withLock {
                guard self.writeFailure == nil, let failure = self.budget.check(at: self.clock.now) else { return false }
                self.writeFailure = failure
                return true
            }
            if stalled { task.cancel() }
        }
        lock.withLock {
            self.continuation = continuation
            stallTimer = timer
        }
        timer.resume()
        task.resume()
    }

    func urlSession(_ session: URLSession, dataTask: URLSessionDataTask, didReceive response: URLResponse,
                    completionHandler: @escaping @Sendable (URLSession.ResponseDisposition) -> Void) {
        let http = response as? HTTPURLResponse
        var headers = HTTPHeaders()
        for (name, value) in (http?.allHeaderFields ?? [:]) {
            headers.add(name: "\(name)", value: "\(value)")
        }
        let status = http?.statusCode ?? 0
        lock.withLock {
            self.response = HTTPResponse(status: status, headers: headers)
            expected = response.expectedContentLength >= 0 ? response.expectedContentLength : nil
            budget.headerArrived(1, at: clock.now)
            if let expected, (200..<300).contains(status), let failure = budget.announced(contentLength: expected) {
                writeFailure = failure
            } else if let destination, (200..<300).contains(status) {
                openDestination(destination)
            }
        }
        completionHandler(writeFailureSnapshot() == nil ? .allow : .cancel)
    }

    func urlSession(_ session: URLSession, dataTask: URLSessionDataTask, didReceive data: Data) {
        let report: HTTPTransferProgress? = lock.withLock {
            guard writeFailure == nil else { return nil }
            if let failure = budget.bodyArrived(data.count, at: clock.now) {
                writeFailure = failure
                dataTask.cancel()
                return nil
            }
            received += Int64(data.count)
            if let file {
                do { try file.write(contentsOf: data) } catch {
                    writeFailure = .cannotWrite(path: destination ?? "", reason: "\(error.localizedDescription)")
                    dataTask.cancel()
                }
            } else {
                response?.body.append(contentsOf: data)
            }
            return HTTPTransferProgress(completedBytes: received, totalBytes: expected)
        }
        if let report, let progress, reportsDownload { progress(report) }
    }

    func urlSession(_ session: URLSession, task: URLSessionTask, didSendBodyData bytesSent: Int64,
                    totalBytesSent: Int64, totalBytesExpectedToSend: Int64) {
        guard !reportsDownload else { return }
        progress?(HTTPTransferProgress(completedBytes: totalBytesSent,
                                       totalBytes: totalBytesExpectedToSend > 0 ? totalBytesExpectedToSend : nil))
    }

    func urlSession(_ session: URLSession, task: URLSessionTask, didCompleteWithError error: (any Error)?) {
        let (continuation, outcome) = lock.withLock { () -> (CheckedContinuation<HTTPResponse, any Error>?, Result<HTTPResponse, any Error>) in
            let continuation = self.continuation
            self.continuation = nil
            stallTimer?.cancel()
            stallTimer = nil
            try? file?.close()
            file = nil
            return (continuation, finish(error: error))
        }
        continuation?.resume(with: outcome)
    }

    /// The outcome once the task ended. Call with the lock held.
    private func finish(error: (any Error)?) -> Result<HTTPResponse, any Error> {
        if let writeFailure {
            removePartialDownload()
            return .failure(writeFailure)
        }
        if let error {
            removePartialDownload()
            if (error as? URLError)?.code == .cancelled { return .failure(CancellationError()) }
            let text = error.localizedDescription
            if (error as? URLError)?.code == .networkConnectionLost {
                return .failure(TransferSupport.connectionClosed(url, detail: text))
            }
            return .failure(HTTPError.transport(url: url.absoluteString, reason: error.localizedDescription))
        }
        guard let response else {
            return .failure(HTTPError.transport(url: url.absoluteString, reason: "the server sent no response"))
        }
        return .success(response)
    }

    /// Creates the destination file. Call with the lock held.
    private func openDestination(_ path: String) {
        switch TransferSupport.createDestination(path) {
        case .success(let handle): file = handle
        case .failure(let failure): writeFailure = failure
        }
    }

    private func removePartialDownload() {
        TransferSupport.removePartialDownload(destination, status: response?.status)
    }

    private func writeFailureSnapshot() -> HTTPError? { lock.withLock { writeFailure } }
}
#endif
