import Basics
import Foundation
import Networking
@testable import Publish
import TestSupport
import TestThreads
import Testing
import Transport

/// Records the waits a retry policy asks for instead of waiting.
final class SleepRecorder: @unchecked Sendable {
    private let lock = NSLock()
    private var stored: [Duration] = []
    var waits: [Duration] { lock.withLock { stored } }
    func sleep(_ duration: Duration) { lock.withLock { stored.append(duration) } }

    func policy(attempts: Int = 3) -> RetryPolicy {
        RetryPolicy(attempts: attempts, initialDelay: .seconds(1), maximumDelay: .seconds(30),
                    sleep: { [self] in self.sleep($0) }, random: { 1.0 })
    }
}

/// Counts the requests that go through to the real client.
final class RecordingHTTPClient: HTTPClient, @unchecked Sendable {
    private let inner: any HTTPClient
    private let lock = NSLock()
    private var stored: [String] = []
    var requests: [String] { lock.withLock { stored } }

    init(_ inner: any HTTPClient = SystemHTTPClient(defaultTimeout: .seconds(20))) { self.inner = inner }

    func send(_ request: HTTPRequest, progress: HTTPProgressHandler?) async throws -> HTTPResponse {
        let query = request.url.query.map { "?\($0)" } ?? ""
        lock.withLock { stored.append("\(request.method) \(request.url.path)\(query)") }
        return try await inner.send(request, progress: progress)
    }

    func download(_ request: HTTPRequest, to destination: String, progress: HTTPProgressHandler?) async throws -> HTTPResponse {
        try await inner.download(request, to: destination, progress: progress)
    }
}

/// HTTP PUT and multipart POST uploads against a real Python HTTP server on loopback, which is
/// told to refuse (403), fail (500) or drop the connection mid-body.
@Suite(.serialized, .dedicatedThreads) struct HTTPUploadTests {
    let fileSystem = LocalFileSystem()
    let streams = LocalFileStreams()

    func file(_ folder: TemporaryDirectory, _ name: String, size: Int = 300_000) throws -> UploadFile {
        let bytes = (0..<size).map { UInt8(truncatingIfNeeded: $0 &* 31 &+ 7) }
        let path = folder.path + "/" + name
        try Data(bytes).write(to: URL(fileURLWithPath: path))
        return UploadFile(path: path, name: name, size: Int64(size))
    }

    func uploader(_ server: UploadTestServer, _ url: String, method: HTTPUploadMethod = .put, sleeps: SleepRecorder = SleepRecorder(),
                  headers: HTTPHeaders = [:]) -> HTTPUploader {
        HTTPUploader(url: server.url(url), method: method, headers: headers,
                     http: RetryingHTTPClient(client: SystemHTTPClient(defaultTimeout: .seconds(20)), policy: sleeps.policy()),
                     fileSystem: fileSystem, streams: streams)
    }

    @Test func retryDelaysGrowExponentiallyWithJitterAndACap() {
        let low = RetryPolicy(initialDelay: .seconds(1), maximumDelay: .seconds(5), random: { 0 })
        let high = RetryPolicy(initialDelay: .seconds(1), maximumDelay: .seconds(5), random: { 0.999999 })
        #expect((1...5).map { low.delay(beforeRetry: $0) } == [.milliseconds(500), .seconds(1), .seconds(2), .milliseconds(2500), .milliseconds(2500)])
        #expect(high.delay(beforeRetry: 3) > .milliseconds(3990))
        #expect(high.delay(beforeRetry: 3) <= .seconds(4))
    }

    @Test func putAndMultipartPostStoreTheBytes() async throws {
        let server = try UploadTestServer()
        let folder = try TemporaryDirectory(prefix: "slipway-http-upload")
        let a = try file(folder, "app 1.tar.gz"), b = try file(folder, "b.zip", size: 10)
        let progress = Reports()
        let put = uploader(server, "/put/{name}", headers: ["Authorization": "Bearer abc"])
        let outcomes = try await put.upload([a, b]) { _, report in progress.append(report.completedBytes, report.totalBytes ?? -1) }
        #expect(outcomes.map(\.url) == [server.url("/put/app%201.tar.gz"), server.url("/put/b.zip")])
        #expect(server.stored("put/app 1.tar.gz") == FileManager.default.contents(atPath: a.path))
        #expect(progress.values.last?.0 == 10)
        _ = try await uploader(server, "/form", method: .post).upload([a]) { _, _ in }
        #expect(server.stored("form/app 1.tar.gz") == FileManager.default.contents(atPath: a.path))
        #expect(try server.log().map(\.action) == ["stored", "stored", "stored"])
        #expect(try server.log().first?.authorization == "Bearer abc")
    }

    @Test func a403IsNotRetried() async throws {
        let server = try UploadTestServer()
        let folder = try TemporaryDirectory(prefix: "slipway-http-403")
        let x = try file(folder, "x.tar.gz")
        try server.script(["403"])
        let sleeps = SleepRecorder()
        await #expect(throws: PublishError.refused(action: "upload of '\(x.path)' to '\(server.url("/x.tar.gz"))'", status: 403,
                                                   body: "forbidden: token lacks upload scope")) {
            _ = try await uploader(server, "/", sleeps: sleeps).upload([x], progress: nil)
        }
        #expect(try server.log().count == 1)
        #expect(sleeps.waits.isEmpty)
        #expect(server.stored("x.tar.gz") == nil)
        #expect(PublishError.refused(action: "upload of 'x' to 'u'", status: 403, body: "forbidden").errorDescription
            == "upload of 'x' to 'u' was refused: HTTP 403 (forbidden). Check the credentials, permissions and URL; 4xx answers are not retried.")
    }

    @Test func threeFailuresGiveUpWithAClearError() async throws {
        let server = try UploadTestServer()
        let folder = try TemporaryDirectory(prefix: "slipway-http-500")
        let x = try file(folder, "x.tar.gz")
        try server.script(["500", "500", "500"])
        let sleeps = SleepRecorder()
        let url = server.url("/x.tar.gz")
        do {
            _ = try await uploader(server, "/{name}", sleeps: sleeps).upload([x], progress: nil)
            Issue.record("expected a failure")
        } catch {
            #expect(errorText(error) == "upload of '\(x.path)' to '\(url)' failed after 3 attempts: HTTP 500 (internal error). Try again later, or check the server.")
        }
        #expect(try server.log().map(\.action) == ["500", "500", "500"])
        #expect(sleeps.waits == [.seconds(1), .seconds(2)])
        #expect(server.stored("x.tar.gz") == nil)
    }

    @Test func transientFailuresAreRetriedUntilTheUploadSucceeds() async throws {
        let server = try UploadTestServer()
        let folder = try TemporaryDirectory(prefix: "slipway-http-retry")
        let x = try file(folder, "x.tar.gz", size: 4_000_000)
        try server.script(["500", "drop"])
        let sleeps = SleepRecorder()
        let outcomes = try await uploader(server, "/{name}", sleeps: sleeps).upload([x], progress: nil)
        #expect(outcomes.map(\.action) == [.uploaded])
        #expect(try server.log().map(\.action) == ["500", "drop", "stored"])
        #expect(sleeps.waits.count == 2)
        #expect(server.stored("x.tar.gz") == FileManager.default.contents(atPath: x.path))
    }

    @Test func aDroppedConnectionEveryTimeIsReportedAsSuch() async throws {
        let server = try UploadTestServer()
        let folder = try TemporaryDirectory(prefix: "slipway-http-drop")
        let x = try file(folder, "x.tar.gz", size: 2_000_000)
        try server.script(["drop", "drop", "drop"])
        do {
            _ = try await uploader(server, "/{name}").upload([x], progress: nil)
            Issue.record("expected a failure")
        } catch {
            #expect(errorText(error).hasPrefix("upload of '\(x.path)' to '\(server.url("/x.tar.gz"))' failed after 3 attempts: "), "\(errorText(error))")
        }
        #expect(try server.log().map(\.action) == ["drop", "drop", "drop"])
    }

    @Test func severalFilesNeedANamePlaceholder() async throws {
        let server = try UploadTestServer()
        let folder = try TemporaryDirectory(prefix: "slipway-http-one-url")
        let a = try file(folder, "a"), b = try file(folder, "b")
        await #expect(throws: PublishError.invalidConfiguration(name: server.url("/fixed"), problem: "would receive several files at one URL. Put {name} in the URL, or end it with '/'")) {
            _ = try await uploader(server, "/fixed").upload([a, b], progress: nil)
        }
        #expect(try server.log().isEmpty)
    }

    @Test func directoryUploadsAreIdempotent() async throws {
        let folder = try TemporaryDirectory(prefix: "slipway-dir-upload")
        let a = try file(folder, "a.tar.gz"), b = try file(folder, "b.tar.gz", size: 20)
        let target = folder.path + "/published"
        let plain = DirectoryUploader(directory: target, overwrite: false, fileSystem: fileSystem, streams: streams)
        #expect(try await plain.upload([a, b], progress: nil).map(\.action) == [.uploaded, .uploaded])
        #expect(FileManager.default.contents(atPath: target + "/a.tar.gz") == FileManager.default.contents(atPath: a.path))
        #expect(try await plain.upload([a, b], progress: nil).map(\.action) == [.skipped, .skipped])
        try Data("changed".utf8).write(to: URL(fileURLWithPath: b.path))
        let changed = UploadFile(path: b.path, name: b.name, size: 7)
        try fileSystem.remove(target + "/a.tar.gz")
        await #expect(throws: PublishError.destinationDiffers(path: target + "/b.tar.gz", option: "overwrite")) {
            _ = try await plain.upload([a, changed], progress: nil)
        }
        // Nothing was copied: a.tar.gz, checked first, is still missing.
        #expect(try fileSystem.contents(ofDirectory: target) == ["b.tar.gz"])
        #expect(PublishError.destinationDiffers(path: "pub/b.tar.gz", option: "overwrite").errorDescription
            == "'pub/b.tar.gz' already exists with different contents. Set overwrite: true to replace it, or remove it.")
        let overwriting = DirectoryUploader(directory: target, overwrite: true, fileSystem: fileSystem, streams: streams)
        let outcomes = try await overwriting.upload([a, changed], progress: nil)
        #expect(outcomes.map(\.action) == [.uploaded, .replaced])
        #expect(outcomes[0].url == URL(fileURLWithPath: target + "/a.tar.gz").absoluteString)
        #expect(try fileSystem.readText(target + "/b.tar.gz") == "changed")
    }
}
