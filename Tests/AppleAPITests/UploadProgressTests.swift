import AppleAPI
import Basics
import Foundation
import TestSupport
import TestThreads
import Testing
import Transport

/// The byte progress of a 20 MB build upload whose parts fail and are sent again: each part
/// counts once, at the most it reached, so progress never goes back and never passes the size.
@Suite("Build upload progress with re-sent parts", .dedicatedThreads)
struct UploadProgressTests {
    @Test func reSentPartsNeverPushProgressBackOrPastTheTotal() async throws {
        let fixture = try AppleAPIFixture()
        let folder = try TemporaryDirectory(prefix: "asc-progress")
        let appID = try fixture.fake.seedApp(bundleID: "com.example.app", name: "Example")
        let ipa = folder.path + "/Example.ipa"
        try IPAFixture.make(at: ipa, payloadBytes: 20_000_000)
        try fixture.fake.set(["part_size": "1048576"])
        // Parts 2 and 5 drop half way (re-sent whole), part 7 answers 500 twice.
        try fixture.fake.inject(.drop(method: "PUT", path: "/upload-parts/.*/2$", afterBytes: 600_000),
                                .drop(method: "PUT", path: "/upload-parts/.*/5$", afterBytes: 900_000),
                                .status(500, method: "PUT", path: "/upload-parts/.*/7$", times: 2))
        let reports = Recorder<(Int64, Int64)>()
        let base = fixture.client()
        let client = AppStoreConnectClient(tokens: base.tokens, http: base.http, baseURL: base.baseURL,
                                           retry: RetryPolicy(attempts: 3, sleep: { _ in }, random: { 1 }))
        var options = BuildUploader.Options()
        options.concurrency = 3
        let info = try IPAInfo.read(path: ipa)
        let uploader = BuildUploader(client: client, options: options, progress: { event in
            if case let .bytes(sent, total) = event { reports.append((sent, total)) }
        })
        let result = try await uploader.upload(info, appID: appID)
        #expect(result.partsSent >= 20)

        let state = try fixture.fake.state()
        #expect(state.requests.filter { $0.path.hasPrefix("/upload-parts/") && $0.status != 200 }.count == 4, "the faults happened")
        let sent = reports.values.map { $0.0 }
        #expect(reports.values.allSatisfy { $0.1 == info.fileSize })
        #expect(sent.allSatisfy { $0 <= info.fileSize })
        #expect(zip(sent, sent.dropFirst()).allSatisfy { $0 <= $1 }, "progress went back")
        #expect(sent.last == info.fileSize)
    }
}
