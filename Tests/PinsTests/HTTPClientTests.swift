import Basics
import Foundation
import Networking
import Testing
import TestSupport
import TestThreads

/// `SystemHTTPClient` (libcurl on Linux, URLSession on macOS) against a real server on loopback.
@Suite(.dedicatedThreads) struct HTTPClientTests {
    final class ProgressLog: @unchecked Sendable {
        private let lock = NSLock()
        private var reports: [HTTPTransferProgress] = []
        func add(_ report: HTTPTransferProgress) { lock.withLock { reports.append(report) } }
        var all: [HTTPTransferProgress] { lock.withLock { reports } }
    }

    @Test func downloadsStreamToAFileWithProgress() async throws {
        let server = try LoopbackHTTPServer()
        let payload = Data((0..<3_000_000).map { UInt8(truncatingIfNeeded: $0 &* 31) })
        try server.put("big.bin", payload)
        let target = try TemporaryDirectory(prefix: "slipway-download")
        let log = ProgressLog()
        let client = SystemHTTPClient()
        let response = try await client.download(HTTPRequest(url: URL(string: server.url(for: "big.bin"))!),
                                                 to: target.path + "/big.bin") { log.add($0) }
        #expect(response.status == 200)
        #expect(response.body.isEmpty)
        #expect(response.headers["content-length"] == "3000000")
        #expect(try Data(contentsOf: target.url("big.bin")) == payload)
        #expect(log.all.last == HTTPTransferProgress(completedBytes: 3_000_000, totalBytes: 3_000_000))
    }

    @Test func errorStatusesAreReturnedNotThrown() async throws {
        let server = try LoopbackHTTPServer()
        let target = try TemporaryDirectory(prefix: "slipway-download")
        let client = SystemHTTPClient()
        let missing = try await client.download(HTTPRequest(url: URL(string: server.url(for: "nope"))!), to: target.path + "/x",
                                                progress: nil)
        #expect(missing.status == 404)
        #expect(!FileManager.default.fileExists(atPath: target.path + "/x"), "no file for an error status")
        #expect(missing.bodyText.contains("File not found"))
        let upload = try await client.send(HTTPRequest(method: .put, url: URL(string: server.url(for: "up"))!, body: .bytes([1, 2, 3])))
        #expect(upload.status == 501, "python's http.server does not implement PUT")
        #expect(throws: HTTPError.unexpectedStatus(url: server.url(for: "up"), status: 501, body: upload.bodyText)) {
            try upload.requireSuccess(url: URL(string: server.url(for: "up"))!)
        }
    }

    @Test func transportFailuresAndBadURLsThrow() async throws {
        let client = SystemHTTPClient()
        await #expect(throws: HTTPError.unsupportedURL(url: "ftp://127.0.0.1/x")) {
            _ = try await client.send(HTTPRequest(url: URL(string: "ftp://127.0.0.1/x")!))
        }
        do {
            _ = try await client.send(HTTPRequest(url: URL(string: "http://127.0.0.1:1/x")!))
            Issue.record("a closed port answered")
        } catch let error as HTTPError {
            guard case .transport(let url, _) = error else {
                Issue.record("unexpected \(error)")
                return
            }
            #expect(url == "http://127.0.0.1:1/x")
            #expect(error.errorDescription?.hasPrefix("Could not reach 'http://127.0.0.1:1/x': ") == true)
        }
        var headers: HTTPHeaders = ["Content-Type": "a"]
        headers["content-type"] = "b"
        headers.add(name: "X-Meta", value: "1")
        headers.add(name: "x-meta", value: "2")
        #expect(headers.fields.map(\.name) == ["content-type", "X-Meta", "x-meta"])
        #expect(headers.values(for: "X-META") == ["1", "2"])
    }
}
