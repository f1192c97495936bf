import Crypto
import Foundation
import Testing
import TestSupport
import TestThreads

/// `slipway run` and `slipway run --resume` through the built binary: a tester notification that
/// App Store Connect did not accept is not sent twice, stays owed in the run journal, and
/// `--resume` sends it once; a plain run afterwards does not notify again.
@Suite("slipway run --resume owes a TestFlight notification", .dedicatedThreads)
struct TestFlightResumeCommandTests {
    static let issuer = "69a6de7e-2f4c-47e3-e053-5b8c7c11a4d1"
    let key = P256.Signing.PrivateKey()
    let folder: TemporaryDirectory
    let state: TemporaryDirectory
    let fake: AppStoreConnectContractFake
    let buildID: String

    init() throws {
        folder = try TemporaryDirectory(prefix: "slipway-testflight-resume")
        state = try TemporaryDirectory(prefix: "slipway-testflight-state")
        fake = try AppStoreConnectContractFake(keys: [.init(issuerID: Self.issuer, keyID: "ABC123DEFG",
                                                            publicKeyPEM: key.publicKey.pemRepresentation)],
            onViolations: recordContractViolations)
        let appID = try fake.seedApp(bundleID: "com.example.app", name: "Example")
        buildID = try fake.seedBuild(appID: appID)
        try fake.seedBetaGroup(appID: appID, name: "QA", isInternal: true)
        try folder.write("lanes/testers.yml", """
            description: Testers
            secrets: [ASC_KEY]
            steps:
              - testflight.distribute:
                  bundle-id: com.example.app
                  build-id: "\(buildID)"
                  groups: [QA]
                  what-to-test: {en-US: Offline mode.}
                  notify: true
                  issuer-id: \(Self.issuer)
                  key-id: ABC123DEFG
                  key: "${{ secrets.ASC_KEY }}"
                  api-url: \(fake.url)
                id: testflight
            """)
    }

    func run(_ extra: [String] = []) throws -> CommandResult {
        try CommandResult.run(Binaries.slipway, ["run", "testers"] + extra, in: folder.path,
                              environment: ["ASC_KEY": key.pemRepresentation, "XDG_STATE_HOME": state.path, "NO_COLOR": "1"])
    }

    func notifications(status: Int? = nil) throws -> Int {
        try fake.state().requests.filter { $0.line == "POST /v1/buildBetaNotifications" && (status == nil || $0.status == status) }.count
    }

    @Test func aNotificationNotAcceptedIsOwedAndResumeSendsItOnce() throws {
        try fake.inject(.status(500, method: "POST", path: "/v1/buildBetaNotifications$", times: 1))
        let first = try run()
        let firstText = first.standardOutput + first.standardError
        #expect(first.status == 1, "\(firstText)")
        #expect(firstText.contains("App Store Connect did not accept the notification of the testers of build 42 (id \(buildID)): HTTP 500. "
                                   + "It was not sent again, because a repeat could notify the testers twice; it stays owed in the run "
                                   + "journal. Continue the run with --resume to send it."), "\(firstText)")
        #expect(firstText.contains("continue with: slipway run testers --resume"))
        #expect(try notifications() == 1)
        let journal = try String(contentsOfFile: folder.path + "/.slipway/runs/testers/latest.json", encoding: .utf8)
        #expect(journal.contains("testflight.notification") && journal.contains("notification promised, not yet accepted"), "\(journal)")

        let resumed = try run(["--resume"])
        let resumedText = resumed.standardOutput + resumed.standardError
        #expect(resumed.status == 0, "\(resumedText)")
        #expect(resumedText.contains("notified the testers of build 42: the interrupted run this one resumes added it to its groups "
                                     + "but its notification was never accepted"), "\(resumedText)")
        #expect(try notifications() == 2 && notifications(status: 201) == 1)

        let plain = try run()
        let plainText = plain.standardOutput + plain.standardError
        #expect(plain.status == 0, "\(plainText)")
        #expect(plainText.contains("not notifying testers again: the build was already in every group, and no interrupted run of this "
                                   + "lane owes a notification (a plain re-run; --resume sends one an interrupted run owes)"), "\(plainText)")
        #expect(try notifications() == 2)
        #expect(try fake.state().violations == [])
        let everything = firstText + resumedText + plainText
        for line in key.pemRepresentation.split(separator: "\n") where !line.hasPrefix("-----") {
            #expect(!everything.contains(line))
        }
        #expect(!everything.contains("eyJ"), "no JWT in any output")
    }
}
