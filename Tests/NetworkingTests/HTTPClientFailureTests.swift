import Basics
import Foundation
import Networking
import Testing
import TestSupport
import TestThreads

/// Both clients against a server that misbehaves: an endless body, a trickle, silence, and a
/// caller that gives up. What ends each test is the client's error or the test's own cue from
/// the server (`/seen/…`), never a timer in the test.
@Suite(.dedicatedThreads) struct HTTPClientFailureTests {
    let server: ConformanceServer

    init() throws { server = try ConformanceServer() }

    @Test(arguments: ClientKind.allCases) func theSizeCapStopsDownloadsAndResponsesAndRemovesThePartialFile(_ kind: ClientKind) async throws {
        let target = try TemporaryDirectory(prefix: "slipway-limits")
        let client = kind.make(limits: HTTPTransferLimits(maximumBytes: 100_000))
        let url = server.url("/endless")
        let expected = HTTPError.responseTooLarge(url: url.absoluteString, limit: 100_000)
        await #expect(throws: expected) { try await client.download(HTTPRequest(url: url), to: target.path + "/x", progress: nil) }
        await #expect(throws: expected) { try await client.send(HTTPRequest(url: url)) }
        #expect(try FileManager.default.contentsOfDirectory(atPath: target.path).isEmpty)
        #expect(expected.errorDescription == """
            '\(url.absoluteString)' sent more than 100000 bytes, the size limit of a download; the transfer was stopped and \
            its partial file removed. If the file really is that large, raise the limit with SLIPWAY_DOWNLOAD_MAX_SIZE (for \
            example SLIPWAY_DOWNLOAD_MAX_SIZE=4GiB).
            """)
        // An announced length over the cap is refused before a byte is written.
        let small = kind.make(limits: HTTPTransferLimits(maximumBytes: 10))
        let announced = server.url("/bytes/100")
        await #expect(throws: HTTPError.responseTooLarge(url: announced.absoluteString, limit: 10)) {
            try await small.download(HTTPRequest(url: announced), to: target.path + "/y", progress: nil)
        }
        #expect(try FileManager.default.contentsOfDirectory(atPath: target.path).isEmpty)
    }

    @Test(arguments: ClientKind.allCases) func aTrickleStallsAndARequestsOwnLimitsWin(_ kind: ClientKind) async throws {
        let target = try TemporaryDirectory(prefix: "slipway-limits")
        let limits = HTTPTransferLimits(stallTimeout: .seconds(1))
        let url = server.url("/trickle")
        let expected = HTTPError.stalled(url: url.absoluteString, timeout: .seconds(1), minimumBytes: 1024)
        await #expect(throws: expected) {
            try await kind.make(limits: limits).download(HTTPRequest(url: url), to: target.path + "/x", progress: nil)
        }
        #expect(try FileManager.default.contentsOfDirectory(atPath: target.path).isEmpty)
        await #expect(throws: expected) { try await kind.make().send(HTTPRequest(url: url, limits: limits)) }
    }

    @Test(arguments: ClientKind.allCases) func aSilentServerTimesOutInTheSameWordsForBoth(_ kind: ClientKind) async throws {
        let url = server.url("/hold/silent")
        let expected = HTTPError.transport(url: url.absoluteString, reason: "nothing arrived for 1 second, the request's timeout")
        await #expect(throws: expected) { try await kind.make().send(HTTPRequest(url: url, timeout: .seconds(1))) }
        #expect(expected.errorDescription == "Could not reach '\(url.absoluteString)': nothing arrived for 1 second, the "
            + "request's timeout. Check the URL and the network connection, then try again.")
        // The client's default applies when the request gives none.
        await #expect(throws: expected) { try await kind.make(defaultTimeout: .milliseconds(300)).send(HTTPRequest(url: url)) }
    }

    @Test(arguments: ClientKind.allCases) func theTimeoutIsAnIdleTimeoutNotADeadline(_ kind: ClientKind) async throws {
        // 12 pieces a quarter of a second apart: 3 s in all, never 2 s without a byte. The stall
        // rule (fewer than 1 KiB in 30 s) is another mechanism, tested above: on a machine so loaded
        // that the callbacks lag the socket by half a minute, it would judge these 1,200 bytes, so
        // this request keeps it out of the way and only the idle timeout is under test.
        let limits = HTTPTransferLimits(stallTimeout: .seconds(3600))
        let response = try await kind.make().send(HTTPRequest(url: server.url("/slow/12"), timeout: .seconds(2), limits: limits))
        #expect(response.status == 200)
        #expect(response.body.count == 1_200)
    }

    @Test(arguments: ClientKind.allCases) func cancellingTheTaskCancelsTheRequest(_ kind: ClientKind) async throws {
        let client = kind.make()
        let task = Task { try await client.send(HTTPRequest(url: server.url("/hold/send"))) }
        #expect(try server.waitUntilSeen("send"))
        task.cancel()
        await #expect(throws: CancellationError.self) { try await task.value }
        try server.release("send")
    }

    @Test(arguments: ClientKind.allCases) func cancellingADownloadRemovesItsPartialFile(_ kind: ClientKind) async throws {
        let client = kind.make()
        let target = try TemporaryDirectory(prefix: "slipway-cancel")
        let log = ProgressLog()
        let task = Task {
            try await client.download(HTTPRequest(url: server.url("/holdbody/download")), to: target.path + "/x") { log.add($0) }
        }
        #expect(try server.waitUntilSeen("download"))
        task.cancel()
        await #expect(throws: CancellationError.self) { try await task.value }
        #expect(try FileManager.default.contentsOfDirectory(atPath: target.path).isEmpty)
        #expect(log.isMonotonic)
        try server.release("download")
    }

    @Test(arguments: ClientKind.allCases) func anAlreadyCancelledTaskSendsNothing(_ kind: ClientKind) async throws {
        let client = kind.make()
        let url = server.url("/echo")
        let task = Task {
            withUnsafeCurrentTask { $0?.cancel() }
            return try await client.send(HTTPRequest(url: url))
        }
        await #expect(throws: CancellationError.self) { try await task.value }
        #expect(try server.log().isEmpty)
    }
}
