import AppleAPI
import Basics
import Foundation
import Networking
import TestSupport
import TestThreads
import Testing
import Transport

/// Notarization against the contract fake's notary section, the upload going to a real
/// S3-compatible server (moto_server) that the fake inspects.
@Suite("Notary API against the contract fake and moto", .dedicatedThreads)
struct NotaryTests {
    let fixture: AppleAPIFixture
    let moto: MotoServer
    let folder: TemporaryDirectory
    let zip: String
    let http = HeaderRecordingHTTPClient()

    init() throws {
        fixture = try AppleAPIFixture()
        moto = try MotoServer()
        try moto.createBucket("notary-submissions-test")
        try fixture.fake.useNotaryStorage(endpoint: moto.endpoint, bucket: "notary-submissions-test")
        folder = try TemporaryDirectory(prefix: "notary")
        zip = folder.path + "/App.zip"
        try Data((0..<200_000).map { UInt8(truncatingIfNeeded: $0 &* 7 &+ 3) }).write(to: URL(fileURLWithPath: zip))
    }

    /// A notarizer whose waits advance a clock of its own (starting now) instead of sleeping.
    func notarizer(timeout: Duration = .seconds(600), events: Recorder<Notarizer.Progress> = Recorder()) throws -> Notarizer {
        let clock = TestClock(), sleeps = fixture.sleeps
        let client = AppStoreConnectClient(
            key: fixture.key, http: http, baseURL: fixture.fake.baseURL,
            retry: RetryPolicy(attempts: 3, sleep: { clock.advance(seconds: Double($0.components.seconds)); sleeps.append($0) }, random: { 1 }),
            now: { clock.now })
        var options = Notarizer.Options()
        options.timeout = timeout
        options.s3Endpoint = try #require(URL(string: moto.endpoint))
        return Notarizer(notary: NotaryClient(client: client), options: options, now: { clock.now }) { events.append($0) }
    }

    func lines(_ state: AppStoreConnectContractFake.State) -> [String] { state.requests.map(\.line) }

    @Test func acceptedAfterPollsWithTheFileInS3() async throws {
        let file = try await NotaryFile.read(zip)
        let events = Recorder<Notarizer.Progress>()
        let result = try await notarizer(events: events).notarize(file)
        #expect(result.status == .accepted && !result.reused)
        #expect(result.logURL?.hasPrefix(fixture.fake.url + "/notary-logs/" + result.submissionID) == true)
        let state = try fixture.fake.state()
        #expect(state.violations == [])
        #expect(lines(state) == ["GET /notary/v2/submissions", "POST /notary/v2/submissions"]
            + Array(repeating: "GET /notary/v2/submissions/\(result.submissionID)", count: 4)
            + ["GET /notary/v2/submissions/\(result.submissionID)/logs"])
        #expect(state.requests[1].body?.contains("\"sha256\":\"\(file.sha256)\"") == true)
        #expect(state.requests[1].body?.contains("\"submissionName\":\"App.zip\"") == true)
        #expect(fixture.sleeps.values == [.seconds(15), .seconds(30), .seconds(60)])
        // The PUT went to moto with the temporary credentials and their session token.
        let ticket = try credentials(result.submissionID)
        let put = try #require(http.requests.first { $0.method == .put })
        #expect(put.url.absoluteString == moto.endpoint + "/notary-submissions-test/prod/" + result.submissionID)
        #expect(put.headers["x-amz-security-token"] == ticket.token)
        #expect(put.headers["Authorization"]?.contains("Credential=\(ticket.accessKey)/") == true)
        #expect(put.headers["Authorization"]?.contains("x-amz-security-token") == true)
        #expect(events.values.contains(.secrets([ticket.accessKey, ticket.secret, ticket.token])))
        #expect(events.values.contains(.note("submission \(result.submissionID): Accepted")))
    }

    @Test func invalidFailsWithTheLogsIssues() async throws {
        try fixture.fake.set(["notary_outcome": "\"Invalid\"", "notary_polls": "0"])
        let file = try await NotaryFile.read(zip)
        let events = Recorder<Notarizer.Progress>()
        do {
            _ = try await notarizer(events: events).notarize(file)
            Issue.record("expected a failure")
        } catch let error as NotaryError {
            guard case let .notAccepted(path, id, status, summary, issues) = error else { Issue.record("\(error)"); return }
            #expect(path == zip && status == "Invalid" && summary == "Archive contains critical validation errors")
            let doc = "https://developer.apple.com/documentation/security/resolving-common-notarization-issues#30877"
            #expect(issues == [
                "error: App.zip/App.app/Contents/MacOS/App (arm64): The signature of the binary is invalid. — \(doc)35",
                "error: App.zip/App.app/Contents/MacOS/App (x86_64): The executable does not have the hardened runtime enabled. — \(doc)24",
            ])
            #expect(errorText(error).hasPrefix("the notary service marked '\(zip)' Invalid (submission \(id)): "
                + "Archive contains critical validation errors.\n  - error: App.zip/App.app/Contents/MacOS/App (arm64): "))
            #expect(errorText(error).hasSuffix("\nFix what the log says (https://developer.apple.com/documentation/security/"
                + "resolving-common-notarization-issues), sign again and submit again."))
        }
        #expect(events.values.filter { if case .issue = $0 { return true } else { return false } }.count == 2)
        let state = try fixture.fake.state()
        #expect(state.violations == [])  // includes: no JWT was sent to the presigned log URL
        #expect(lines(state).suffix(2).first?.hasSuffix("/logs") == true)
        #expect(lines(state).last?.hasPrefix("GET /notary-logs/") == true)
    }

    @Test func aSubmissionThatNeverFinishesTimesOutNamingTheLastStatus() async throws {
        try fixture.fake.set(["notary_outcome": "\"never\""])
        let file = try await NotaryFile.read(zip)
        do {
            _ = try await notarizer(timeout: .seconds(60)).notarize(file)
            Issue.record("expected a timeout")
        } catch let error as NotaryError {
            guard case let .timedOut(id, seconds, last) = error else { Issue.record("\(error)"); return }
            #expect(seconds == 60 && last == "In Progress")
            #expect(errorText(error) == "submission \(id) did not finish within 60 s (last status: In Progress). Apple may still be "
                + "checking it: raise the timeout, or run again later (an Accepted submission of the same file is found, not sent again).")
        }
        #expect(fixture.sleeps.values == [.seconds(15), .seconds(30)])
    }

    @Test func aRerunFindsTheAcceptedSubmissionAndSendsNothing() async throws {
        let file = try await NotaryFile.read(zip)
        let first = try await notarizer().notarize(file)
        let before = try fixture.fake.state().requests.count
        let events = Recorder<Notarizer.Progress>()
        let again = try await notarizer(events: events).notarize(file)
        #expect(again.reused && again.status == .accepted && again.submissionID == first.submissionID)
        let state = try fixture.fake.state()
        #expect(lines(state).dropFirst(before) == ["GET /notary/v2/submissions", "GET /notary/v2/submissions/\(first.submissionID)/logs",
                                                  "GET /notary-logs/\(first.submissionID)"])
        #expect(http.requests.filter { $0.method == .put }.count == 1)
        // Same name, other bytes: the Accepted one's log names another SHA-256, so it is submitted.
        try Data("changed".utf8).write(to: URL(fileURLWithPath: zip))
        let changed = try await notarizer().notarize(try await NotaryFile.read(zip))
        #expect(!changed.reused && changed.submissionID != first.submissionID)
        #expect(try fixture.fake.state().violations == [])
    }

    @Test func badFilesAreRefusedBeforeAnythingIsSent() async throws {
        try folder.write("App.ipa", "x")
        try FileManager.default.createDirectory(atPath: folder.path + "/App.app/Contents", withIntermediateDirectories: true)
        await #expect(throws: NotaryError.unsupportedType(path: folder.path + "/App.ipa")) { try await NotaryFile.read(folder.path + "/App.ipa") }
        #expect(NotaryError.unsupportedType(path: "build/App.ipa").errorDescription == "'build/App.ipa' is a .ipa file; the notary "
            + "service takes a .zip, .pkg or .dmg. Zip an app with 'ditto -c -k --keepParent App.app App.zip' (or the archive step), "
            + "or build a .pkg or .dmg.")
        await #expect(throws: NotaryError.folder(path: folder.path + "/App.app")) { try await NotaryFile.read(folder.path + "/App.app") }
        #expect(NotaryError.folder(path: "build/App.app").errorDescription == "'build/App.app' is an app bundle (a folder); the notary "
            + "service takes one .zip, .pkg or .dmg file. Zip it first with 'ditto -c -k --keepParent App.app App.zip' (or the archive "
            + "step with output: App.zip) and notarize the zip.")
        await #expect(throws: NotaryError.missingFile(path: folder.path + "/Gone.zip")) { try await NotaryFile.read(folder.path + "/Gone.zip") }
        #expect(NotaryError.missingFile(path: "Gone.zip").errorDescription
            == "'Gone.zip' does not exist. Give the .zip, .pkg or .dmg an earlier step made (archive, xcode.export).")
        #expect(throws: NotaryError.folder(path: "dist/App.app")) { try NotaryFile.checkName("dist/App.app/") }
        #expect(try fixture.fake.state().requests.isEmpty)
    }

    @Test func theFilesSHA256IsStreamed() async throws {
        let file = try await NotaryFile.read(zip)
        #expect(file.size == 200_000 && file.name == "App.zip")
        let path = zip
        let expected = try await BlockingWork.run { try String(decoding: runSHA256(path), as: UTF8.self) }
        #expect(file.sha256 == expected)
    }

    /// The temporary credentials the fake handed out for `submission`.
    func credentials(_ submission: String) throws -> (accessKey: String, secret: String, token: String) {
        let list = try JSONSerialization.jsonObject(with: fixture.fake.resources("submissions")) as? [[String: Any]] ?? []
        let upload = list.first { $0["id"] as? String == submission }?["upload"] as? [String: Any] ?? [:]
        return (upload["awsAccessKeyId"] as? String ?? "", upload["awsSecretAccessKey"] as? String ?? "",
                upload["awsSessionToken"] as? String ?? "")
    }
}

/// `sha256sum`'s hex digest of `path` (an independent check of the streamed hash).
private func runSHA256(_ path: String) throws -> [UInt8] {
    let process = Process()
    process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
    process.arguments = ["sha256sum", path]
    let pipe = Pipe()
    process.standardOutput = pipe
    try process.run()
    let data = pipe.fileHandleForReading.readDataToEndOfFile()
    process.waitUntilExit()
    return Array(data.prefix(64))
}

/// Passes requests to libcurl and keeps each one (method, URL, headers) for assertions.
final class HeaderRecordingHTTPClient: HTTPClient, @unchecked Sendable {
    private let inner = SystemHTTPClient()
    private let lock = NSLock()
    private var stored: [HTTPRequest] = []
    var requests: [HTTPRequest] { lock.withLock { stored } }

    func send(_ request: HTTPRequest, progress: HTTPProgressHandler?) async throws -> HTTPResponse {
        lock.withLock { stored.append(request) }
        return try await inner.send(request, progress: progress)
    }

    func download(_ request: HTTPRequest, to destination: String, progress: HTTPProgressHandler?) async throws -> HTTPResponse {
        lock.withLock { stored.append(request) }
        return try await inner.download(request, to: destination, progress: progress)
    }
}
