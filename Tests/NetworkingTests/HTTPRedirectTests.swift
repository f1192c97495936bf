import Basics
import Foundation
import Networking
import Testing
import TestSupport
import TestThreads

/// Redirects, as `HTTPRedirectPolicy` documents them, followed the same way by both clients
/// (neither follows on its own).
@Suite(.dedicatedThreads) struct HTTPRedirectTests {
    let server: ConformanceServer

    init() throws { server = try ConformanceServer() }

    @Test(arguments: ClientKind.allCases) func chainsAreFollowedUpToTenRedirects(_ kind: ClientKind) async throws {
        let client = kind.make()
        let three = try await client.send(HTTPRequest(url: server.url("/chain/3")))
        #expect(three.status == 200)
        #expect(three.bodyText == "end")
        #expect(try server.log() == ["GET /chain/3", "GET /chain/2", "GET /chain/1", "GET /chain/0"])
        #expect(try await client.send(HTTPRequest(url: server.url("/chain/10"))).bodyText == "end")
        let eleven = server.url("/chain/11")
        await #expect(throws: HTTPError.tooManyRedirects(url: eleven.absoluteString, limit: 10)) {
            try await client.send(HTTPRequest(url: eleven))
        }
        #expect(HTTPError.tooManyRedirects(url: eleven.absoluteString, limit: 10).errorDescription
            == "'\(eleven.absoluteString)' redirected more than 10 times in a row, so the chain was not followed further. "
            + "Check the URL in a browser: the server may redirect in a loop.")
    }

    @Test(arguments: ClientKind.allCases) func aRedirectedDownloadWritesOnlyTheFinalBody(_ kind: ClientKind) async throws {
        let target = try TemporaryDirectory(prefix: "slipway-redirect")
        let log = ProgressLog()
        let response = try await kind.make().download(HTTPRequest(url: server.redirect(302, to: "/bytes/5000")),
                                                      to: target.path + "/x") { log.add($0) }
        #expect(response.status == 200)
        #expect(try Data(contentsOf: target.url("x")) == Data(pattern(5_000)))
        #expect(log.all.allSatisfy { $0.totalBytes == 5_000 }, "the redirect's own body is not the download's progress")
        #expect(log.all.last == HTTPTransferProgress(completedBytes: 5_000, totalBytes: 5_000))
    }

    @Test(arguments: ClientKind.allCases) func methodsAndBodiesFollowTheStatus(_ kind: ClientKind) async throws {
        let client = kind.make()
        let body = pattern(40_000)
        let folder = try TemporaryDirectory(prefix: "slipway-redirect")
        let path = folder.path + "/body.bin"
        try Data(body).write(to: URL(fileURLWithPath: path))
        // (status, method, body) -> (method and body length the target sees)
        let cases: [(Int, HTTPMethod, HTTPBody?, String, Int)] = [
            (307, .put, .bytes(body), "PUT", 40_000),
            (308, .post, .file(path: path), "POST", 40_000),
            (307, .put, .fileRange(path: path, offset: 100, length: 300), "PUT", 300),
            (301, .put, .bytes(body), "PUT", 40_000),
            (302, .post, .bytes(body), "GET", 0),
            (301, .post, .bytes(body), "GET", 0),
            (303, .put, .bytes(body), "GET", 0),
            (303, .head, nil, "HEAD", 0),
            (302, .delete, nil, "DELETE", 0),
        ]
        for (status, method, requestBody, seenMethod, seenLength) in cases {
            let log = ProgressLog()
            let response = try await client.send(HTTPRequest(method: method, url: server.redirect(status, to: "/echo"),
                                                             headers: ["Content-Type": "application/octet-stream"],
                                                             body: requestBody)) { log.add($0) }
            #expect(response.status == 200, "\(status) \(method)")
            #expect(response.headers["X-Method"] == seenMethod, "\(status) \(method)")
            #expect(response.headers["X-Body-Length"] == "\(seenLength)", "\(status) \(method)")
            #expect(log.isMonotonic, "\(status) \(method)")
            if requestBody != nil, seenLength > 0 {
                #expect(log.all.last == HTTPTransferProgress(completedBytes: Int64(seenLength), totalBytes: Int64(seenLength)))
            }
            if seenMethod == "GET" {
                #expect(try echoedHeaders(response)["content-type"] == nil, "a dropped body takes its Content-Type along")
            }
        }
    }

    @Test(arguments: ClientKind.allCases) func credentialsStayWithTheirOrigin(_ kind: ClientKind) async throws {
        let client = kind.make()
        let other = try ConformanceServer()
        let headers: HTTPHeaders = ["Authorization": "Bearer secret", "Cookie": "session=1", "X-Other": "kept"]
        let away = try await client.send(HTTPRequest(url: server.redirect(302, to: other.url("/echo").absoluteString), headers: headers))
        let seenAway = try echoedHeaders(away)
        #expect(seenAway["authorization"] == nil)
        #expect(seenAway["cookie"] == nil)
        #expect(seenAway["x-other"] == ["kept"])
        #expect(try other.log() == ["GET /echo"])
        let home = try await client.send(HTTPRequest(url: server.redirect(302, to: server.url("/echo").absoluteString), headers: headers))
        let seenHome = try echoedHeaders(home)
        #expect(seenHome["authorization"] == ["Bearer secret"])
        #expect(seenHome["cookie"] == ["session=1"])
    }

    @Test(arguments: ClientKind.allCases) func redirectsToOtherSchemesAreRefused(_ kind: ClientKind) async throws {
        let client = kind.make()
        let target = try TemporaryDirectory(prefix: "slipway-redirect")
        for destination in ["ftp://127.0.0.1/x", "file:///etc/passwd"] {
            let url = server.redirect(302, to: destination)
            let expected = HTTPError.refusedRedirect(from: url.absoluteString, to: destination,
                                                     reason: "it is not an http:// or https:// URL")
            await #expect(throws: expected) { try await client.send(HTTPRequest(url: url)) }
            await #expect(throws: expected) { try await client.download(HTTPRequest(url: url), to: target.path + "/x", progress: nil) }
        }
        #expect(try FileManager.default.contentsOfDirectory(atPath: target.path).isEmpty)
        let from = server.redirect(302, to: "ftp://127.0.0.1/x").absoluteString
        #expect(HTTPError.refusedRedirect(from: from, to: "ftp://127.0.0.1/x", reason: "it is not an http:// or https:// URL")
            .errorDescription == "'\(from)' redirected to 'ftp://127.0.0.1/x', which was not followed: it is not an http:// or "
            + "https:// URL. If you trust that address, use it directly.")
    }

    @Test(arguments: ClientKind.allCases) func otherThreeHundredsAreTheAnswer(_ kind: ClientKind) async throws {
        let client = kind.make()
        #expect(try await client.send(HTTPRequest(url: server.url("/status/304"))).status == 304)
        let bare = try await client.send(HTTPRequest(url: server.url("/redirect/302")))
        #expect(bare.status == 302, "a redirect without Location is returned")
        #expect(bare.headers["Content-Length"] == "5")
        // By design of swift-corelibs-foundation, not ours: URLSession on Linux drops the body of
        // a 3xx without Location (it holds redirect answers back); curl and Darwin's URLSession keep it.
        #if os(Linux)
        #expect(bare.bodyText == (kind == .urlSession ? "" : "moved"))
        #else
        #expect(bare.bodyText == "moved")
        #endif
        #expect(try await client.send(HTTPRequest(url: server.redirect(300, to: "/echo"))).status == 300)
    }

    // MARK: The policy itself (what loopback cannot show: https)

    @Test func httpsIsNeverLeftForPlainHTTP() throws {
        let request = HTTPRequest(url: URL(string: "https://example.com/a")!, headers: ["Authorization": "x"])
        let expected = HTTPError.refusedRedirect(from: "https://example.com/a", to: "http://example.com/b",
                                                 reason: "it leaves https:// for plain http://, which anyone on the way can read")
        #expect(throws: expected) {
            try HTTPRedirectPolicy.next(after: request, response: HTTPResponse(status: 301, headers: ["Location": "http://example.com/b"]))
        }
        let upgraded = try HTTPRedirectPolicy.next(after: HTTPRequest(url: URL(string: "http://example.com/a")!, headers: ["Authorization": "x"]),
                                                   response: HTTPResponse(status: 301, headers: ["Location": "https://example.com/a"]))
        #expect(upgraded?.url.absoluteString == "https://example.com/a")
        #expect(upgraded?.headers["Authorization"] == nil, "http://example.com and https://example.com are two origins")
    }

    @Test func locationsResolveAgainstTheRequestAndDefaultPortsMatch() throws {
        let request = HTTPRequest(url: URL(string: "https://example.com/dir/a?q=1")!, headers: ["Authorization": "x"])
        let relative = try HTTPRedirectPolicy.next(after: request, response: HTTPResponse(status: 307, headers: ["Location": "b"]))
        #expect(relative?.url.absoluteString == "https://example.com/dir/b")
        #expect(relative?.headers["Authorization"] == "x")
        let explicitPort = try HTTPRedirectPolicy.next(after: request, response: HTTPResponse(
            status: 307, headers: ["Location": "https://EXAMPLE.com:443/c"]))
        #expect(explicitPort?.headers["Authorization"] == "x", "the same origin, spelt differently")
        #expect(try HTTPRedirectPolicy.next(after: request, response: HTTPResponse(status: 200, headers: ["Location": "b"])) == nil)
    }
}
