import Basics
import Crypto
import Foundation
import Lanes
import Testing
import TestSupport
import TestThreads

/// appstore.upload of a 20 MB ipa whose parts fail and are sent again: the progress events (the
/// same for the console, the events file and --json) are throttled, monotonic, never past 100%,
/// and "100%" is printed once.
@Suite("Upload progress in a lane", .dedicatedThreads)
struct UploadProgressLaneTests {
    static let issuer = "69a6de7e-2f4c-47e3-e053-5b8c7c11a4d1"

    @Test func a20MBUploadWithReSentPartsPrintsFewMonotonicLines() async throws {
        let key = P256.Signing.PrivateKey()
        let fake = try AppStoreConnectContractFake(keys: [.init(issuerID: Self.issuer, keyID: "ABC123DEFG",
                                                                publicKeyPEM: key.publicKey.pemRepresentation)],
            onViolations: recordContractViolations)
        try fake.seedApp(bundleID: "com.example.app", name: "Example")
        try fake.set(["part_size": "1048576", "processing_polls": "0"])
        let lane = """
            description: Upload
            secrets: [ASC_KEY]
            steps:
              - appstore.upload:
                  ipa: build/Example.ipa
                  issuer-id: \(Self.issuer)
                  key-id: ABC123DEFG
                  key: "${{ secrets.ASC_KEY }}"
                  api-url: \(fake.url)
                  wait-for-processing: false
                id: upload
            """
        let fixture = try LaneFixture(["ship": lane], environment: ["ASC_KEY": key.pemRepresentation])
        try FileManager.default.createDirectory(atPath: fixture.path + "/build", withIntermediateDirectories: true)
        try IPAFixture.make(at: fixture.path + "/build/Example.ipa", payloadBytes: 20_000_000)
        try fake.inject(.drop(method: "PUT", path: "/upload-parts/.*/3$", afterBytes: 800_000),
                        .drop(method: "PUT", path: "/upload-parts/.*/9$", afterBytes: 1_000_000),
                        .status(500, method: "PUT", path: "/upload-parts/.*/14$", times: 1))

        let outcome = try await fixture.run("ship")
        #expect(outcome.status("upload") == .succeeded, "\(outcome.console)")
        #expect(try fake.state().requests.filter { $0.path.hasPrefix("/upload-parts/") && $0.status != 200 }.count == 3)

        let fractions = outcome.events.filter { $0.event == .progress }.compactMap(\.fraction)
        #expect(fractions.count <= 21, "\(fractions)")
        #expect(fractions.allSatisfy { $0 >= 0 && $0 <= 1 })
        #expect(zip(fractions, fractions.dropFirst()).allSatisfy { $0 < $1 }, "\(fractions)")
        #expect(fractions.last == 1)
        let lines = outcome.console.split(separator: "\n").filter { $0.contains("… uploading Example.ipa") }
        #expect(lines.count == fractions.count)
        #expect(lines.filter { $0.hasSuffix(" 100%") }.count == 1, "\(lines)")
    }

    @Test func onATerminalProgressIsOneLineUpdatedInPlace() {
        let output = BufferedOutput()
        let console = ConsoleReporter(output: output, style: TerminalStyle(colors: false, interactive: true))
        for fraction in [0.05, 0.5, 1.0] {
            var event = RunEvent(.progress, lane: "ship", step: "upload")
            event.fraction = fraction
            event.message = "uploading Example.ipa"
            console.receive(event)
        }
        var log = RunEvent(.log, lane: "ship", step: "upload")
        log.level = "info"
        log.message = "uploaded Example.ipa in 20 parts"
        console.receive(log)
        #expect(output.text == "\r\u{1B}[K    … uploading Example.ipa 5%\r\u{1B}[K    … uploading Example.ipa 50%"
                + "\r\u{1B}[K    … uploading Example.ipa 100%\r\u{1B}[K    info: uploaded Example.ipa in 20 parts\n")
    }
}
