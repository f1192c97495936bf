import Basics
import Crypto
import Foundation
import Lanes
import Networking
import Steps
import Testing
import TestSupport
import TestThreads

/// testflight.distribute with notify in a lane against the App Store Connect contract fake: a
/// run interrupted after the build was added to its groups owes the testers a notification,
/// which the run journal keeps and --resume sends; a plain re-run does not notify again.
@Suite("TestFlight notification across --resume", .dedicatedThreads)
struct TestFlightResumeLaneTests {
    static let issuer = "69a6de7e-2f4c-47e3-e053-5b8c7c11a4d1"
    let key = P256.Signing.PrivateKey()
    let fake: AppStoreConnectContractFake
    let fixture: LaneFixture
    let buildID: String

    init() throws {
        fake = try AppStoreConnectContractFake(keys: [.init(issuerID: Self.issuer, keyID: "ABC123DEFG",
                                                            publicKeyPEM: key.publicKey.pemRepresentation)],
            onViolations: recordContractViolations)
        let appID = try fake.seedApp(bundleID: "com.example.app", name: "Example")
        buildID = try fake.seedBuild(appID: appID)
        try fake.seedBetaGroup(appID: appID, name: "QA", isInternal: true)
        try fake.seedBetaGroup(appID: appID, name: "Public Beta", isInternal: false)
        let lane = """
            description: Testers
            secrets: [ASC_KEY]
            steps:
              - testflight.distribute:
                  bundle-id: com.example.app
                  build-id: "\(buildID)"
                  groups: [QA, Public Beta]
                  what-to-test: {en-US: Offline mode.}
                  notify: true
                  issuer-id: \(Self.issuer)
                  key-id: ABC123DEFG
                  key: "${{ secrets.ASC_KEY }}"
                  api-url: \(fake.url)
                id: testflight
            """
        fixture = try LaneFixture(["testers": lane], environment: ["ASC_KEY": key.pemRepresentation])
    }

    /// Runs the lane like `LaneFixture.run`, with waits between retries recorded instead of slept.
    func run(resume: Bool = false) async throws -> LaneFixture.Outcome {
        var options = LaneRunner.Options()
        options.resume = resume
        let console = BufferedOutput()
        let recorder = RecordingReporter()
        let workspace = LaneWorkspace(
            projectDirectory: fixture.path, fileSystem: LocalFileSystem(), processRunner: LocalProcessRunner(gracePeriod: .milliseconds(500)),
            environment: fixture.environment, stepServices: StepServices(httpClient: SystemHTTPClient(), sleep: { _ in }),
            platform: fixture.platform)
        let summary = try await workspace.run("testers", options: options, reporters: [ConsoleReporter(output: console, style: .plain), recorder])
        return LaneFixture.Outcome(summary: summary, console: console.text, events: recorder.events)
    }

    func count(_ line: String, status: Int? = nil) throws -> Int {
        try fake.state().requests.filter { $0.line == line && (status == nil || $0.status == status) }.count
    }

    /// What the lane's latest run journal says is owed.
    func owedInJournal() throws -> [String: [String: String]]? {
        let data = try Data(contentsOf: URL(fileURLWithPath: fixture.path + "/.slipway/runs/testers/latest.json"))
        return try JSONDecoder().decode(RunJournal.self, from: data).owed
    }

    static let owed = ["testflight": ["testflight.notification": "notification promised, not yet accepted"]]

    @Test func aResumedDistributionSendsTheNotificationItOwes() async throws {
        try fake.inject(.status(500, method: "POST", path: "/v1/betaAppReviewSubmissions$", times: 4))
        let first = try await run()
        #expect(first.status("testflight") == .failed, "\(first.console)")
        #expect(first.console.contains("could not submit build \(buildID) for beta app review on App Store Connect after 4 attempts: HTTP 500"),
                "\(first.console)")
        #expect(try fake.stored("_betaGroupLinks").count == 2)
        #expect(try count("POST /v1/buildBetaNotifications") == 0)
        #expect(try owedInJournal() == Self.owed)

        let resumed = try await run(resume: true)
        #expect(resumed.summary.status == .succeeded, "\(resumed.console)")
        #expect(resumed.outputs("testflight")["groups-added"] == "")
        #expect(resumed.outputs("testflight")["beta-review"] == "submitted")
        #expect(resumed.outputs("testflight")["notification"] == "sent (owed by the resumed run)")
        #expect(resumed.console.contains("notified the testers of build 42: the interrupted run this one resumes added it to its groups "
                                         + "but its notification was never accepted"), "\(resumed.console)")
        #expect(try count("POST /v1/buildBetaNotifications", status: 201) == 1)
        #expect(try owedInJournal() == nil)

        let plain = try await run()
        #expect(plain.summary.status == .succeeded, "\(plain.console)")
        #expect(plain.outputs("testflight")["notification"] == "not sent again")
        #expect(plain.console.contains("not notifying testers again: the build was already in every group, and no interrupted run of this "
                                       + "lane owes a notification (a plain re-run; --resume sends one an interrupted run owes)"))
        #expect(try count("POST /v1/buildBetaNotifications") == 1)
        #expect(try count("POST /v1/betaAppReviewSubmissions", status: 201) == 1)
        #expect(try fake.state().violations == [])
        for line in key.pemRepresentation.split(separator: "\n") where !line.hasPrefix("-----") {
            #expect(!(first.console + resumed.console + plain.console).contains(line))
        }
    }

    @Test func aFailedNotificationIsNotRepeatedAndResumeSendsItOnce() async throws {
        try fake.inject(.status(500, method: "POST", path: "/v1/buildBetaNotifications$", times: 1))
        let first = try await run()
        #expect(first.status("testflight") == .failed)
        #expect(first.console.contains("App Store Connect did not accept the notification of the testers of build 42 (id \(buildID)): "
                                       + "HTTP 500. It was not sent again, because a repeat could notify the testers twice; it stays owed "
                                       + "in the run journal. Continue the run with --resume to send it."), "\(first.console)")
        #expect(try count("POST /v1/buildBetaNotifications") == 1)
        #expect(try owedInJournal() == Self.owed)

        // A second failure of the resumed run keeps it owed for the next --resume.
        try fake.inject(.status(503, method: "POST", path: "/v1/buildBetaNotifications$", times: 1))
        let again = try await run(resume: true)
        #expect(again.status("testflight") == .failed)
        #expect(try owedInJournal() == Self.owed)

        let resumed = try await run(resume: true)
        #expect(resumed.summary.status == .succeeded, "\(resumed.console)")
        #expect(try count("POST /v1/buildBetaNotifications") == 3 && count("POST /v1/buildBetaNotifications", status: 201) == 1)
        #expect(try owedInJournal() == nil)
        #expect(try fake.state().violations == [])
    }

    @Test func aDryRunOwesNothing() async throws {
        let before = try fixture.snapshot()
        let outcome = try await fixture.run("testers") { $0.isDryRun = true }
        #expect(outcome.summary.status == .succeeded, "\(outcome.console)")
        #expect(outcome.console.contains("would network: notify the testers if the build was added to a group or --resume finds the notification owed"))
        #expect(try fake.state().requests.isEmpty)
        #expect(try fixture.snapshot() == before)
    }

    @Test func aJournalEditedToOweANotificationIsRefusedAndNothingIsSent() async throws {
        let first = try await run()
        #expect(first.summary.status == .succeeded, "\(first.console)")
        #expect(try count("POST /v1/buildBetaNotifications") == 1)
        // Someone who can write the checkout plants an owed notification (and a failed status).
        let path = fixture.path + "/.slipway/runs/testers/latest.json"
        var journal = try JSONDecoder().decode(RunJournal.self, from: Data(contentsOf: URL(fileURLWithPath: path)))
        journal.owed = Self.owed
        journal.status = "failed"
        journal.steps = []
        try JSONEncoder().encode(journal).write(to: URL(fileURLWithPath: path))
        let requests = try fake.state().requests.count
        await #expect(throws: LaneRunError.untrustedJournal(file: ".slipway/runs/testers/latest.json",
                                                            reason: "it is not signed by this user's Slipway for this project")) {
            _ = try await run(resume: true)
        }
        #expect(try fake.state().requests.count == requests)
    }
}
