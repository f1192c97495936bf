import Basics
import Crypto
import Foundation
import Lanes
import Testing
import TestSupport
import TestThreads

/// appstore.upload → testflight.distribute → appstore.submit in one lane against the App Store
/// Connect contract fake: the first run fails while submitting for review, --resume finishes it,
/// a fresh run finds everything done; nothing is uploaded or created twice.
@Suite("App Store release lane against the contract fake", .dedicatedThreads)
struct AppStoreReleaseLaneTests {
    static let issuer = "69a6de7e-2f4c-47e3-e053-5b8c7c11a4d1"
    let key = P256.Signing.PrivateKey()
    let fake: AppStoreConnectContractFake
    let fixture: LaneFixture
    let appID: String

    static func keyOptions(_ url: String) -> String {
        """
              issuer-id: \(issuer)
              key-id: ABC123DEFG
              key: "${{ secrets.ASC_KEY }}"
              api-url: \(url)
        """
    }

    init() throws {
        fake = try AppStoreConnectContractFake(keys: [.init(issuerID: Self.issuer, keyID: "ABC123DEFG",
                                                            publicKeyPEM: key.publicKey.pemRepresentation)],
                                                 onViolations: recordContractViolations)
        appID = try fake.seedApp(bundleID: "com.example.app", name: "Example")
        try fake.seedBetaGroup(appID: appID, name: "QA", isInternal: true)
        try fake.seedBetaGroup(appID: appID, name: "Public Beta", isInternal: false)
        try fake.set(["part_size": "100000", "processing_polls": "3"])
        let keys = Self.keyOptions(fake.url)
        let lane = """
            description: Ship to testers and App Review
            secrets: [ASC_KEY]
            steps:
              - appstore.upload:
                  ipa: build/Example.ipa
                  poll-interval: 1ms
            \(keys)
                id: upload
              - testflight.distribute:
                  bundle-id: com.example.app
                  build-id: "${{ steps.upload.outputs.build-id }}"
                  version: "${{ steps.upload.outputs.version }}"
                  groups: [QA, Public Beta]
                  uses-non-exempt-encryption: false
                  notify: true
            \(keys)
                id: testflight
              - appstore.submit:
                  bundle-id: com.example.app
                  version: "${{ steps.upload.outputs.version }}"
                  build-id: "${{ steps.upload.outputs.build-id }}"
                  release-type: MANUAL
                  phased-release: true
            \(keys)
                id: submit
            """
        fixture = try LaneFixture(["release": lane], environment: ["ASC_KEY": key.pemRepresentation])
        try fixture.write("CHANGELOG.md", "# Changelog\n\n## [Unreleased]\n\n## [1.2.0] - 2025-01-01\n### Added\n- Offline mode.\n\n## [1.1.0]\n- Older.\n")
        try FileManager.default.createDirectory(atPath: fixture.path + "/build", withIntermediateDirectories: true)
        try IPAFixture.make(at: fixture.path + "/build/Example.ipa", payloadBytes: 250_000)
    }

    func count(_ line: String, status: Int? = nil) throws -> Int {
        try fake.state().requests.filter { $0.line == line && (status == nil || $0.status == status) }.count
    }

    func whatsNew(_ type: String) throws -> [String] {
        try fake.stored(type).compactMap { ($0["attributes"] as? [String: Any])?["whatsNew"] as? String }
    }

    @Test func failedResumedAndFreshRunsUploadAndCreateEverythingOnce() async throws {
        try fake.inject(.status(500, method: "POST", path: "/v1/reviewSubmissions$", times: 4))
        let first = try await fixture.run("release")
        #expect(first.status("upload") == .succeeded && first.status("testflight") == .succeeded, "\(first.console)")
        #expect(first.status("submit") == .failed)
        #expect(first.console.contains("could not open a review submission for app"), "\(first.console)")
        #expect(first.outputs("testflight")["groups-added"] == "QA,Public Beta")
        #expect(first.outputs("testflight")["beta-review"] == "submitted")

        let resumed = try await fixture.run("release") { $0.resume = true }
        #expect(resumed.summary.status == .succeeded, "\(resumed.console)")
        #expect(resumed.outputs("submit")["state"] == "WAITING_FOR_REVIEW")

        let fresh = try await fixture.run("release")
        #expect(fresh.summary.status == .succeeded, "\(fresh.console)")
        #expect(fresh.outputs("testflight")["groups-added"] == "" && fresh.outputs("testflight")["beta-review"] == "WAITING_FOR_REVIEW")
        #expect(fresh.console.contains("App Store version 1.2.0 is already WAITING_FOR_REVIEW with build 42; nothing to change"), "\(fresh.console)")

        let state = try fake.state()
        #expect(state.requests.filter { $0.path.hasPrefix("/upload-parts/") && $0.status == 200 }.count == 3)
        #expect(try count("POST /v1/buildUploads") == 1)
        #expect(try count("POST /v1/appStoreVersions") == 1)
        #expect(try count("POST /v1/reviewSubmissions", status: 201) == 1)
        #expect(try count("POST /v1/reviewSubmissionItems") == 1)
        #expect(try count("POST /v1/betaAppReviewSubmissions") == 1)
        #expect(try count("POST /v1/buildBetaNotifications") == 1)
        #expect(state.requests.filter { $0.path.hasSuffix("/relationships/betaGroups") }.count == 1)
        #expect(try fake.stored("_betaGroupLinks").count == 2)
        #expect(try whatsNew("betaBuildLocalizations") == ["Added:\n- Offline mode."])
        #expect(try whatsNew("appStoreVersionLocalizations") == ["Added:\n- Offline mode."])
        #expect(state.violations == [])
        for line in key.pemRepresentation.split(separator: "\n") where !line.hasPrefix("-----") {
            #expect(!(first.console + resumed.console + fresh.console).contains(line))
        }
    }

    @Test func dryRunPlansWithoutSending() async throws {
        let outcome = try await fixture.run("release") { $0.isDryRun = true }
        #expect(outcome.console.contains("add the build to the beta groups 'QA', 'Public Beta' it is not in yet"), "\(outcome.console)")
        #expect(outcome.console.contains("find or create App Store version"), "\(outcome.console)")
        #expect(try fake.state().requests.isEmpty)
    }

    func badLane(_ step: String) throws {
        try fixture.write("lanes/bad.yml", """
            secrets: [ASC_KEY]
            steps:
            \(step)
            \(Self.keyOptions(fake.url))
                id: bad
            """)
    }

    @Test func anUnknownBetaGroupListsTheAppsGroupsAndChangesNothing() async throws {
        try fake.seed("builds", attributes: #"{"version": "42", "processingState": "VALID", "expired": false}"#,
                      relationships: ["app": #"{"type": "apps", "id": "\#(appID)"}"#])
        try badLane("""
              - testflight.distribute:
                  bundle-id: com.example.app
                  build-number: "42"
                  groups: [QA, Beta Testers]
                  what-to-test: {en-US: Try it.}
            """)
        let outcome = try await fixture.run("bad")
        #expect(outcome.status("bad") == .failed)
        #expect(outcome.console.contains("no beta group named 'Beta Testers' on 'Example' (com.example.app) (its groups are 'Public Beta', 'QA'). "
                                         + "Group names are matched exactly; correct the name in groups."), "\(outcome.console)")
        #expect(try fake.state().requests.filter { $0.method != "GET" }.isEmpty)
    }

    @Test func anUnknownLocaleIsRefusedBeforeAnythingIsSent() async throws {
        try badLane("""
              - appstore.submit:
                  bundle-id: com.example.app
                  version: 1.2.0
                  build-number: "42"
                  release-notes: {en-US: Fixes., en_GB: Fixes.}
            """)
        let outcome = try await fixture.run("bad")
        #expect(outcome.status("bad") != .succeeded)
        #expect(outcome.console.contains("option 'release-notes' has the locale 'en_GB', which App Store Connect does not accept "
                                         + "(codes are case-sensitive). Did you mean 'en-GB'? The accepted codes are listed in docs/appstore.md."),
                "\(outcome.console)")
        #expect(try fake.state().requests.isEmpty)
    }

    @Test func whatToTestOverTheLimitIsRefusedBeforeAnythingIsSent() async throws {
        try badLane("""
              - testflight.distribute:
                  bundle-id: com.example.app
                  build-number: "42"
                  what-to-test: {en-US: "\(String(repeating: "x", count: 4001))"}
            """)
        let literal = try await fixture.run("bad")
        #expect(literal.console.contains("option 'what-to-test' has What to Test for 'en-US' of 4001 characters; "
                                         + "App Store Connect accepts at most 4000. Shorten it."), "\(literal.console)")
        try fixture.write("CHANGELOG.md", "## [1.2.0]\n" + String(repeating: "y", count: 4100) + "\n")
        try badLane("""
              - testflight.distribute:
                  bundle-id: com.example.app
                  build-number: "42"
                  version: 1.2.0
            """)
        let outcome = try await fixture.run("bad")
        #expect(outcome.console.contains("What to Test from CHANGELOG.md (the entry for 1.2.0) is 4100 characters; App Store Connect accepts "
                                         + "at most 4000. Shorten the entry, or give what-to-test."), "\(outcome.console)")
        #expect(try fake.state().requests.isEmpty)
    }
}
