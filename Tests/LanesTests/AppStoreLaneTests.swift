import Basics
import Crypto
import Foundation
import Lanes
import Testing
import TestSupport
import TestThreads

/// appstore.build-number → appstore.upload in a lane, against the App Store Connect contract
/// fake (processing completes after two polls), run again fresh and with --resume: nothing is
/// uploaded twice.
@Suite("App Store lanes against the contract fake", .dedicatedThreads)
struct AppStoreLaneTests {
    static let issuer = "69a6de7e-2f4c-47e3-e053-5b8c7c11a4d1"
    let key = P256.Signing.PrivateKey()
    let fake: AppStoreConnectContractFake
    let fixture: LaneFixture

    init() throws {
        fake = try AppStoreConnectContractFake(keys: [.init(issuerID: Self.issuer, keyID: "ABC123DEFG",
                                                            publicKeyPEM: key.publicKey.pemRepresentation)],
                                                 onViolations: recordContractViolations)
        try fake.seedApp(bundleID: "com.example.app", name: "Example")
        try fake.set(["part_size": "100000", "processing_polls": "2"])
        let lane = """
            description: Ship to TestFlight
            secrets: [ASC_KEY]
            steps:
              - appstore.build-number:
                  bundle-id: com.example.app
                  version: 1.2.0
                  issuer-id: \(Self.issuer)
                  key-id: ABC123DEFG
                  key: "${{ secrets.ASC_KEY }}"
                  api-url: \(fake.url)
                id: numbers
              - appstore.upload:
                  ipa: build/Example.ipa
                  issuer-id: \(Self.issuer)
                  key-id: ABC123DEFG
                  key: "${{ secrets.ASC_KEY }}"
                  api-url: \(fake.url)
                  poll-interval: 1ms
                id: upload
            """
        fixture = try LaneFixture(["ship": lane], environment: ["ASC_KEY": key.pemRepresentation])
        try FileManager.default.createDirectory(atPath: fixture.path + "/build", withIntermediateDirectories: true)
        try IPAFixture.make(at: fixture.path + "/build/Example.ipa", payloadBytes: 250_000)
    }

    func partsSent() throws -> Int {
        try fake.state().requests.filter { $0.path.hasPrefix("/upload-parts/") && $0.status == 200 }.count
    }

    @Test func theLaneUploadsOnceAcrossFreshAndResumedRuns() async throws {
        let first = try await fixture.run("ship")
        #expect(first.status("upload") == .succeeded, "\(first.console)")
        #expect(first.outputs("numbers") == ["latest": "", "next": "1"])
        let outputs = first.outputs("upload")
        #expect(outputs["version"] == "1.2.0" && outputs["build-number"] == "42")
        #expect(outputs["build-id"]?.isEmpty == false)
        #expect(try partsSent() == 3)
        for line in key.pemRepresentation.split(separator: "\n") where !line.hasPrefix("-----") {
            #expect(!first.console.contains(line))
        }

        let fresh = try await fixture.run("ship")
        #expect(fresh.status("upload") == .succeeded, "\(fresh.console)")
        #expect(fresh.outputs("numbers")["latest"] == "42" && fresh.outputs("numbers")["next"] == "43")
        #expect(fresh.outputs("upload")["build-id"] == outputs["build-id"])
        #expect(fresh.console.contains("App Store Connect already had 1.2.0 build 42; nothing was sent"))

        let resumed = try await fixture.run("ship") { $0.resume = true }
        #expect(resumed.summary.status == .succeeded, "\(resumed.console)")
        #expect(try partsSent() == 3)
        let state = try fake.state()
        #expect(state.requests.filter { $0.line == "POST /v1/buildUploads" }.count == 1)
        #expect(state.violations == [])
    }

    @Test func dryRunSendsNothing() async throws {
        let outcome = try await fixture.run("ship") { $0.isDryRun = true }
        #expect(outcome.console.contains("upload \(fixture.path)/build/Example.ipa (com.example.app 1.2.0 build 42"), "\(outcome.console)")
        #expect(try fake.state().requests.isEmpty)
    }

    @Test func aDryRunChecksTheKeyOfflineAndSendsNothing() async throws {
        // A P-384 key in the secret: the plan refuses it before anything is sent.
        let wrong = P384.Signing.PrivateKey().pemRepresentation
        let other = try LaneFixture(["ship": try String(contentsOfFile: fixture.path + "/lanes/ship.yml", encoding: .utf8)],
                                    environment: ["ASC_KEY": wrong])
        let outcome = try await other.run("ship") { $0.isDryRun = true }
        #expect(outcome.summary.status == .failed, "\(outcome.console)")
        #expect(outcome.console.contains("not a P-256 key"), "\(outcome.console)")
        #expect(try fake.state().requests.isEmpty)
    }

    /// Every step that talks to App Store Connect checks the key when it plans.
    @Test(arguments: [
        "testflight.distribute:\n      bundle-id: com.example.app\n      build-number: \"42\"\n      what-to-test: {}",
        "appstore.submit:\n      bundle-id: com.example.app\n      version: 1.2.0\n      build-number: \"42\"\n      release-notes: {}",
        "apple.notarize:\n      file: build/Example.zip",
    ])
    func everyStepRefusesAKeyThatIsNotP256WhenItPlans(_ step: String) async throws {
        let lane = """
            secrets: [ASC_KEY]
            steps:
              - \(step)
                  issuer-id: \(Self.issuer)
                  key-id: ABC123DEFG
                  key: "${{ secrets.ASC_KEY }}"
            """
        let other = try LaneFixture(["check": lane], environment: ["ASC_KEY": P384.Signing.PrivateKey().pemRepresentation])
        try other.write("build/Example.zip", "zip")
        let outcome = try await other.run("check") { $0.isDryRun = true }
        #expect(outcome.summary.status == .failed, "\(outcome.console)")
        #expect(outcome.console.contains("not a P-256 key"), "\(outcome.console)")
        #expect(try fake.state().requests.isEmpty)
    }

    @Test func anUnknownBundleIDIsNamed() async throws {
        try fixture.write("lanes/other.yml", """
            secrets: [ASC_KEY]
            steps:
              - appstore.upload:
                  ipa: build/Example.ipa
                  bundle-id: com.example.unknown
                  issuer-id: \(Self.issuer)
                  key-id: ABC123DEFG
                  key: "${{ secrets.ASC_KEY }}"
                  api-url: \(fake.url)
                id: upload
            """)
        let outcome = try await fixture.run("other")
        #expect(outcome.status("upload") == .failed)
        #expect(outcome.console.contains("no app on this App Store Connect account has the bundle id 'com.example.unknown'"), "\(outcome.console)")
        #expect(try fake.state().requests.map(\.line) == ["GET /v1/apps"])
    }
}

/// appstore.upload never outputs an empty build-id: without the upload's build linkage the build
/// is looked up; found nowhere, the step fails with the exact message.
@Suite("appstore.upload's build id in a lane", .dedicatedThreads)
struct AppStoreUploadBuildIDLaneTests {
    let base: AppStoreLaneTests

    init() throws { base = try AppStoreLaneTests() }

    @Test func withoutLinkageTheBuildIsLookedUp() async throws {
        try base.fake.set(["upload_build_linkage": "false"])
        let outcome = try await base.fixture.run("ship")
        #expect(outcome.status("upload") == .succeeded, "\(outcome.console)")
        let builds = try JSONSerialization.jsonObject(with: base.fake.resources("builds")) as? [[String: Any]] ?? []
        #expect(builds.count == 1 && outcome.outputs("upload")["build-id"] == builds.first?["id"] as? String)
        #expect(try base.fake.state().requests.contains { $0.line == "GET /v1/builds" })
    }

    @Test func aBuildFoundNowhereFailsTheStep() async throws {
        try base.fake.set(["upload_build_linkage": "false", "upload_creates_build": "false"])
        let lane = try String(contentsOfFile: base.fixture.path + "/lanes/ship.yml", encoding: .utf8)
        try base.fixture.write("lanes/ship.yml", lane.replacingOccurrences(of: "poll-interval: 1ms", with: "poll-interval: 1ms\n      timeout: 1s"))
        let outcome = try await base.fixture.run("ship")
        #expect(outcome.status("upload") == .failed, "\(outcome.console)")
        let uploadID = try #require(try base.fake.state().requests.first { $0.line.hasPrefix("GET /v1/buildUploads/") }?.path.split(separator: "/")[2])
        #expect(outcome.console.contains("build upload \(uploadID) is COMPLETE, but App Store Connect showed no build for version 1.2.0 (42) "
                                         + "within 1 s: the upload names none and GET /v1/builds finds none."), "\(outcome.console)")
        #expect(outcome.outputs("upload")["build-id"] == nil)
    }
}
