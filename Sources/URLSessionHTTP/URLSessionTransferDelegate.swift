import Basics
import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// Receives one task's callbacks: collects the body in memory, or streams a 2xx body into the
/// destination file, and resumes the caller when the task completes. URLSession calls a
/// delegate serially, but the continuation and the stall timer come from other threads, hence
/// the lock. The same callbacks run on macOS and on Linux (swift-corelibs-foundation).
final class URLSessionTransferDelegate: NSObject, URLSessionDataDelegate, @unchecked Sendable {
    private let url: URL
    private let destination: String?
    private let progress: HTTPProgressHandler?
    private let reportsDownload: Bool
    private let timeout: Duration
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

    init(url: URL, destination: String?, progress: HTTPProgressHandler?, reportsDownload: Bool, timeout: Duration,
         limits: HTTPTransferLimits) {
        self.url = url
        self.destination = destination
        self.progress = progress
        self.reportsDownload = reportsDownload
        self.timeout = timeout
        budget = HTTPTransferBudget(url: url.absoluteString, limits: limits)
    }

    func start(_ task: URLSessionTask, continuation: CheckedContinuation<HTTPResponse, any Error>) {
        let timer = DispatchSource.makeTimerSource(queue: DispatchQueue.global())
        timer.schedule(deadline: .now() + 1, repeating: 1)
        timer.setEventHandler { [weak self, weak task] in
            guard let self, let task else { return }
            let stalled: Bool = self.locked {
                guard self.writeFailure == nil, let failure = self.budget.check(at: self.clock.now) else { return false }
                self.writeFailure = failure
                return true
            }
            if stalled { task.cancel() }
        }
        locked {
            self.continuation = continuation
            stallTimer = timer
        }
        timer.resume()
        task.resume()
    }

    /// Redirects are `HTTPRedirectPolicy`'s, as with curl: the 3xx answer is the exchange's answer.
    func urlSession(_ session: URLSession, task: URLSessionTask, willPerformHTTPRedirection response: HTTPURLResponse,
                    newRequest request: URLRequest, completionHandler: @escaping @Sendable (URLRequest?) -> Void) {
        completionHandler(nil)
    }

    func urlSession(_ session: URLSession, dataTask: URLSessionDataTask, didReceive response: URLResponse,
                    completionHandler: @escaping @Sendable (URLSession.ResponseDisposition) -> Void) {
        let http = response as? HTTPURLResponse
        var headers = HTTPHeaders()
        for (name, value) in (http?.allHeaderFields ?? [:]) {
            headers.add(name: "\(name)", value: "\(value)")
        }
        let status = http?.statusCode ?? 0
        let failed: Bool = locked {
            self.response = HTTPResponse(status: status, headers: headers)
            expected = response.expectedContentLength >= 0 ? response.expectedContentLength : nil
            budget.headerArrived(1, at: clock.now)
            if let expected, (200..<300).contains(status), let failure = budget.announced(contentLength: expected) {
                writeFailure = failure
            } else if let destination, (200..<300).contains(status) {
                openDestination(destination)
            }
            return writeFailure != nil
        }
        completionHandler(failed ? .cancel : .allow)
    }

    func urlSession(_ session: URLSession, dataTask: URLSessionDataTask, didReceive data: Data) {
        let report: HTTPTransferProgress? = locked {
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
            // A redirect's own body is not the download.
            if HTTPTransferSupport.isRedirect(response?.status ?? 0) { return nil }
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
        let (continuation, outcome) = locked { () -> (CheckedContinuation<HTTPResponse, any Error>?, Result<HTTPResponse, any Error>) in
            let continuation = self.continuation
            self.continuation = nil
            stallTimer?.cancel()
            stallTimer = nil
            try? file?.close()
            file = nil
            return (continuation, finish(error: error, task: task))
        }
        continuation?.resume(with: outcome)
    }

    /// The outcome once the task ended. Call with the lock held.
    private func finish(error: (any Error)?, task: URLSessionTask) -> Result<HTTPResponse, any Error> {
        if let writeFailure {
            removePartialDownload()
            return .failure(writeFailure)
        }
        if let error {
            removePartialDownload()
            switch (error as? URLError)?.code {
            case .cancelled?: return .failure(CancellationError())
            case .timedOut?: return .failure(HTTPTransferSupport.timedOut(url, after: timeout))
            case .networkConnectionLost?:
                return .failure(HTTPTransferSupport.connectionClosed(url, detail: error.localizedDescription))
            default: return .failure(HTTPError.transport(url: url.absoluteString, reason: error.localizedDescription))
            }
        }
        // swift-corelibs-foundation never hands a 3xx without `Location` to the delegate (it
        // holds redirect answers back until it knows where they lead); the task still has its
        // status and headers, though not its body.
        if response == nil, let http = task.response as? HTTPURLResponse {
            var headers = HTTPHeaders()
            for (name, value) in http.allHeaderFields { headers.add(name: "\(name)", value: "\(value)") }
            response = HTTPResponse(status: http.statusCode, headers: headers)
        }
        guard let response else {
            return .failure(HTTPError.transport(url: url.absoluteString, reason: "the server sent no response"))
        }
        // A 2xx answer without a body still makes the (empty) file, as with curl.
        if let destination, response.isSuccess, !FileManager.default.fileExists(atPath: destination) {
            openDestination(destination)
            try? file?.close()
            file = nil
            if let writeFailure { return .failure(writeFailure) }
        }
        return .success(response)
    }

    /// Creates the destination file. Call with the lock held.
    private func openDestination(_ path: String) {
        switch HTTPTransferSupport.createDestination(path) {
        case .success(let handle): file = handle
        case .failure(let failure): writeFailure = failure
        }
    }

    /// `body` with the lock held (NSLocking's own `withLock` is not in every SDK Slipway builds with).
    private func locked<Value>(_ body: () throws -> Value) rethrows -> Value {
        lock.lock()
        defer { lock.unlock() }
        return try body()
    }

    private func removePartialDownload() {
        HTTPTransferSupport.removePartialDownload(destination, status: response?.status)
    }
}
