import Basics
import Foundation
import Networking
import Testing
import TestSupport
import TestThreads

/// Issue 25 point 7: one suite, both clients (`CurlHTTPClient`, the Linux binary's, and
/// `URLSessionHTTPClient`, the Mac's), the same loopback server. Where the clients differ by
/// design, the test says so.
@Suite(.dedicatedThreads) struct HTTPClientConformanceTests {
    let server: ConformanceServer

    init() throws { server = try ConformanceServer() }

    @Test(arguments: ClientKind.allCases) func everyMethodArrivesWithItsBody(_ kind: ClientKind) async throws {
        let client = kind.make()
        let body = pattern(70_000)
        let cases: [(HTTPMethod, [UInt8]?)] = [(.get, nil), (.put, body), (.post, body), (.patch, body), (.delete, nil), (.head, nil)]
        for (method, bytes) in cases {
            let response = try await client.send(HTTPRequest(method: method, url: server.url("/echo"), body: bytes.map { .bytes($0) }))
            #expect(response.status == 200, "\(method)")
            #expect(response.headers["X-Method"] == method.rawValue)
            #expect(response.headers["X-Body-Length"] == "\(bytes?.count ?? 0)", "\(method)")
            #expect(response.headers["X-Body-SHA256"] == sha256(bytes ?? []), "\(method)")
            if method == .head {
                #expect(response.body.isEmpty, "a HEAD answer has no body")
            } else {
                #expect(try echoedHeaders(response).isEmpty == false)
            }
        }
        #expect(try server.log() == cases.map { "\($0.0) /echo" })
    }

    @Test(arguments: ClientKind.allCases) func fileBodiesSendTheFileOrExactlyTheirRange(_ kind: ClientKind) async throws {
        let client = kind.make()
        let folder = try TemporaryDirectory(prefix: "slipway-http-body")
        let bytes = pattern(300_000).map { $0 &* 7 }
        let path = folder.path + "/body.bin"
        try Data(bytes).write(to: URL(fileURLWithPath: path))
        let wholeLog = ProgressLog(), partLog = ProgressLog()
        let whole = try await client.send(HTTPRequest(method: .put, url: server.url("/echo"), body: .file(path: path))) {
            wholeLog.add($0)
        }
        #expect(whole.headers["X-Body-Length"] == "300000")
        #expect(whole.headers["X-Body-SHA256"] == sha256(bytes))
        #expect(wholeLog.isMonotonic)
        #expect(wholeLog.all.last == HTTPTransferProgress(completedBytes: 300_000, totalBytes: 300_000))
        let part = try await client.send(HTTPRequest(method: .put, url: server.url("/echo"),
                                                     body: .fileRange(path: path, offset: 1_000, length: 5_000))) {
            partLog.add($0)
        }
        #expect(part.headers["X-Body-Length"] == "5000")
        #expect(partLog.all.last == HTTPTransferProgress(completedBytes: 5_000, totalBytes: 5_000))
        #expect(part.headers["X-Body-SHA256"] == sha256(bytes[1_000..<6_000]))
        let tail = try await client.send(HTTPRequest(method: .post, url: server.url("/echo"),
                                                     body: .fileRange(path: path, offset: 299_990, length: 10)))
        #expect(tail.headers["X-Body-SHA256"] == sha256(bytes[299_990...]))
    }

    @Test(arguments: ClientKind.allCases) func unreadableBodiesAreRefusedBeforeAnythingIsSent(_ kind: ClientKind) async throws {
        let client = kind.make()
        let folder = try TemporaryDirectory(prefix: "slipway-http-body")
        let path = try folder.write("small.bin", String(repeating: "x", count: 100))
        let missing = folder.path + "/missing.bin"
        let outside = HTTPError.unreadableBody(path: path, reason: "bytes 90..<110 lie outside its 100 bytes")
        await #expect(throws: outside) {
            try await client.send(HTTPRequest(method: .put, url: server.url("/echo"), body: .fileRange(path: path, offset: 90, length: 20)))
        }
        await #expect(throws: HTTPError.unreadableBody(path: path, reason: "bytes -1..<9 lie outside its 100 bytes")) {
            try await client.send(HTTPRequest(method: .put, url: server.url("/echo"), body: .fileRange(path: path, offset: -1, length: 10)))
        }
        let absent = HTTPError.unreadableBody(path: missing, reason: "it does not exist or is not readable")
        await #expect(throws: absent) {
            try await client.send(HTTPRequest(method: .put, url: server.url("/echo"), body: .file(path: missing)))
        }
        await #expect(throws: absent) {
            try await client.send(HTTPRequest(method: .put, url: server.url("/echo"), body: .fileRange(path: missing, offset: 0, length: 1)))
        }
        #expect(outside.errorDescription == "Cannot read '\(path)' to send it: bytes 90..<110 lie outside its 100 bytes. "
            + "Check that the file exists and is readable.")
        #expect(try server.log().isEmpty, "nothing reached the server")
    }

    @Test(arguments: ClientKind.allCases) func headersTravelBothWays(_ kind: ClientKind) async throws {
        let client = kind.make()
        let response = try await client.send(HTTPRequest(url: server.url("/echo"),
                                                         headers: ["X-Slipway-Test": "yes", "Accept": "application/json"]))
        let seen = try echoedHeaders(response)
        #expect(seen["x-slipway-test"] == ["yes"])
        #expect(seen["accept"] == ["application/json"])
        #expect(response.headers["x-reply"] == "one", "names compare case-insensitively")
        #expect(response.headers["Content-Length"] == "\(response.body.count)")
        // By design: curl hands over every header line; URLSession's allHeaderFields is a
        // dictionary, and joins a repeated field's values with ", " (which RFC 9110 allows).
        switch kind {
        #if os(Linux)
        case .curl: #expect(response.headers.values(for: "X-Multi") == ["1", "2"])
        #endif
        case .urlSession: #expect(response.headers.values(for: "X-Multi") == ["1, 2"])
        }
    }

    @Test(arguments: ClientKind.allCases) func downloadsStreamToAFileWithMonotonicProgress(_ kind: ClientKind) async throws {
        let client = kind.make()
        let target = try TemporaryDirectory(prefix: "slipway-download")
        let log = ProgressLog()
        let response = try await client.download(HTTPRequest(url: server.url("/bytes/3000000")), to: target.path + "/big.bin") {
            log.add($0)
        }
        #expect(response.status == 200)
        #expect(response.body.isEmpty, "the body went to the file")
        #expect(response.headers["content-length"] == "3000000")
        #expect(try Data(contentsOf: target.url("big.bin")) == Data(pattern(3_000_000)))
        #expect(log.isMonotonic)
        #expect(log.all.last == HTTPTransferProgress(completedBytes: 3_000_000, totalBytes: 3_000_000))
        // An empty 2xx body still makes the (empty) file.
        _ = try await client.download(HTTPRequest(url: server.url("/bytes/0")), to: target.path + "/empty.bin", progress: nil)
        #expect(try Data(contentsOf: target.url("empty.bin")).isEmpty)
    }

    @Test(arguments: ClientKind.allCases) func aBodyOfUnknownLengthReportsNoTotal(_ kind: ClientKind) async throws {
        let target = try TemporaryDirectory(prefix: "slipway-download")
        let log = ProgressLog()
        let response = try await kind.make().download(HTTPRequest(url: server.url("/nolength/200000")), to: target.path + "/x") {
            log.add($0)
        }
        #expect(response.status == 200)
        #expect(try Data(contentsOf: target.url("x")) == Data(pattern(200_000)))
        #expect(log.isMonotonic)
        #expect(log.all.last == HTTPTransferProgress(completedBytes: 200_000, totalBytes: nil))
        #expect(log.all.allSatisfy { $0.totalBytes == nil && $0.fraction == nil })
    }

    @Test(arguments: ClientKind.allCases) func uploadProgressIsMonotonicAndEndsAtTheTotal(_ kind: ClientKind) async throws {
        let client = kind.make()
        let log = ProgressLog()
        let body = pattern(2_000_000)
        let response = try await client.send(HTTPRequest(method: .put, url: server.url("/echo"), body: .bytes(body))) { log.add($0) }
        #expect(response.headers["X-Body-SHA256"] == sha256(body))
        #expect(log.isMonotonic)
        #expect(log.all.last == HTTPTransferProgress(completedBytes: 2_000_000, totalBytes: 2_000_000))
    }

    @Test(arguments: ClientKind.allCases) func errorStatusesAreReturnedNotThrownAndWriteNoFile(_ kind: ClientKind) async throws {
        let client = kind.make()
        let target = try TemporaryDirectory(prefix: "slipway-download")
        let missing = try await client.download(HTTPRequest(url: server.url("/status/404")), to: target.path + "/x", progress: nil)
        #expect(missing.status == 404)
        #expect(missing.bodyText == "status 404", "the body comes back for the error message")
        #expect(try FileManager.default.contentsOfDirectory(atPath: target.path).isEmpty, "no file for an error status")
        let url = server.url("/status/503")
        let busy = try await client.send(HTTPRequest(method: .put, url: url, body: .bytes([1, 2, 3])))
        #expect(busy.status == 503)
        #expect(throws: HTTPError.unexpectedStatus(url: url.absoluteString, status: 503, body: "status 503")) {
            try busy.requireSuccess(url: url)
        }
    }

    @Test(arguments: ClientKind.allCases) func anUnwritableDestinationIsReported(_ kind: ClientKind) async throws {
        let client = kind.make()
        let target = try TemporaryDirectory(prefix: "slipway-download")
        let path = target.path + "/no-such-folder/x"
        await #expect(throws: HTTPError.cannotWrite(path: path, reason: "the file cannot be created")) {
            try await client.download(HTTPRequest(url: server.url("/bytes/10")), to: path, progress: nil)
        }
        #expect(try FileManager.default.contentsOfDirectory(atPath: target.path).isEmpty)
    }

    @Test(arguments: ClientKind.allCases) func otherSchemesAreRefusedAndNothingIsWritten(_ kind: ClientKind) async throws {
        let client = kind.make()
        let target = try TemporaryDirectory(prefix: "slipway-download")
        for text in ["file:///etc/hosts", "ftp://127.0.0.1/x", "FILE:///etc/hosts"] {
            let url = try #require(URL(string: text))
            await #expect(throws: HTTPError.unsupportedURL(url: text)) { try await client.send(HTTPRequest(url: url)) }
            await #expect(throws: HTTPError.unsupportedURL(url: text)) {
                try await client.download(HTTPRequest(url: url), to: target.path + "/x", progress: nil)
            }
        }
        #expect(try FileManager.default.contentsOfDirectory(atPath: target.path).isEmpty)
        #expect(HTTPError.unsupportedURL(url: "ftp://127.0.0.1/x").errorDescription
            == "'ftp://127.0.0.1/x' is not an http:// or https:// URL. Use one of those schemes.")
    }

    @Test(arguments: ClientKind.allCases) func aClosedPortIsATransportError(_ kind: ClientKind) async throws {
        let port = try PythonScriptServer.freePort()
        let text = "http://127.0.0.1:\(port)/x"
        do {
            _ = try await kind.make().send(HTTPRequest(url: try #require(URL(string: text))))
            Issue.record("a closed port answered")
        } catch let error as HTTPError {
            guard case .transport(let url, _) = error else {
                Issue.record("unexpected \(error)")
                return
            }
            #expect(url == text)
            #expect(error.errorDescription?.hasPrefix("Could not reach '\(text)': ") == true)
        }
    }

    @Test func headerFieldsCompareNamesCaseInsensitively() {
        var headers: HTTPHeaders = ["Content-Type": "a"]
        headers["content-type"] = "b"
        headers.add(name: "X-Meta", value: "1")
        headers.add(name: "x-meta", value: "2")
        #expect(headers.fields.map(\.name) == ["content-type", "X-Meta", "x-meta"])
        #expect(headers.values(for: "X-META") == ["1", "2"])
    }
}
