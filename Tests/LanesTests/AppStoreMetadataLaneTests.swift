import Basics
import Crypto
import Foundation
import Lanes
import Testing
import TestSupport
import TestThreads

/// The `appstore.metadata` step through the lane runner, against the App Store Connect contract
/// fake: validation names the option, a dry run reads and checks the folder and sends nothing, a
/// run sends the texts once and a second run nothing.
@Suite("appstore.metadata in a lane", .dedicatedThreads)
struct AppStoreMetadataLaneTests {
    static let issuer = "69a6de7e-2f4c-47e3-e053-5b8c7c11a4d1"
    let key = P256.Signing.PrivateKey()
    let fake: AppStoreConnectContractFake
    let seeded: AppStoreConnectContractFake.SeededListing

    init() throws {
        fake = try AppStoreConnectContractFake(keys: [.init(issuerID: Self.issuer, keyID: "ABC123DEFG",
                                                            publicKeyPEM: key.publicKey.pemRepresentation)],
                                                 onViolations: recordContractViolations)
        seeded = try fake.seedListing()
    }

    /// The lane; `key` is the key option's line (a literal key-file lets validation build the step).
    func lane(_ extra: String = "", key: String = "key: \"${{ secrets.ASC_KEY }}\"") -> String {
        """
        secrets: [ASC_KEY]
        steps:
          - appstore.metadata:
              bundle-id: com.example.app
              issuer-id: \(Self.issuer)
              key-id: ABC123DEFG
              \(key)
              api-url: \(fake.url)\(extra)
            id: listing
        """
    }

    func fixture(_ extra: String = "", keyFile: Bool = false) throws -> LaneFixture {
        let text = keyFile ? lane(extra, key: "key-file: AuthKey.p8") : lane(extra)
        let fixture = try LaneFixture(["listing": text], environment: ["ASC_KEY": key.pemRepresentation])
        try fixture.write("fastlane/metadata/en-US/name.txt", "Example\n")
        try fixture.write("fastlane/metadata/en-US/release_notes.txt", "Bug fixes.\n")
        try fixture.write("fastlane/metadata/review_information/notes.txt", "Sign in as demo.\n")
        return fixture
    }

    func writes() throws -> [String] { try fake.state().requests.filter { $0.method != "GET" }.map(\.line) }

    @Test func runsSendTheTextsOnceAndADryRunSendsNothing() async throws {
        let fixture = try fixture()
        let dry = try await fixture.run("listing") { $0.isDryRun = true }
        #expect(dry.summary.status == .succeeded, "\(dry.console)")
        #expect(dry.console.contains("send the texts of 1 locale of com.example.app that differ on App Store Connect (the editable App Store version, IOS)"),
                "\(dry.console)")
        #expect(dry.console.contains("not sent: review_information/notes.txt (App Review contact and notes"), "\(dry.console)")
        #expect(try fake.state().requests.isEmpty)

        let first = try await fixture.run("listing")
        #expect(first.summary.status == .succeeded, "\(first.console)")
        #expect(first.outputs("listing") == ["version-id": seeded.versionID, "sent": "2", "unchanged": "0", "screenshots-uploaded": "0"])
        #expect(first.console.contains("screenshots: none sent, there is no folder 'fastlane/screenshots'"), "\(first.console)")
        #expect(first.console.contains("+ en-US name (7 characters)"), "\(first.console)")
        #expect(try writes() == ["POST /v1/appInfoLocalizations", "POST /v1/appStoreVersionLocalizations"])

        let second = try await fixture.run("listing")
        #expect(second.outputs("listing") == ["version-id": seeded.versionID, "sent": "0", "unchanged": "2", "screenshots-uploaded": "0"])
        #expect(try writes().count == 2)

        // Screenshots beside the texts: uploaded once, then unchanged (checksums compared).
        try FileManager.default.createDirectory(atPath: fixture.path + "/fastlane/screenshots/en-US", withIntermediateDirectories: true)
        try Data(ScreenshotImages.png(width: 312, height: 390, seed: 7))
            .write(to: URL(fileURLWithPath: fixture.path + "/fastlane/screenshots/en-US/1.png"))
        let dryShots = try await fixture.run("listing") { $0.isDryRun = true }
        #expect(dryShots.console.contains("upload the screenshots in fastlane/screenshots whose checksum differs"), "\(dryShots.console)")
        let third = try await fixture.run("listing")
        #expect(third.outputs("listing")["screenshots-uploaded"] == "1", "\(third.console)")
        #expect(third.console.contains("en-US APP_WATCH_SERIES_3: 1 uploaded (1.png)"), "\(third.console)")
        let fourth = try await fixture.run("listing")
        #expect(fourth.outputs("listing")["screenshots-uploaded"] == "0", "\(fourth.console)")
        #expect(fourth.console.contains("en-US APP_WATCH_SERIES_3: 1 unchanged"), "\(fourth.console)")
        #expect(try fake.state().violations == [])
        for line in key.pemRepresentation.split(separator: "\n") where !line.hasPrefix("-----") {
            #expect(!(first.console + second.console).contains(line))
        }
    }

    @Test func badOptionsAreNamedAtValidation() async throws {
        let locales = await (try fixture("\n      locales: [en_US]", keyFile: true)).problems("listing")
        #expect(locales.contains {
            $0.contains("option 'locales' names 'en_US', which is not a locale App Store Connect accepts (did you mean 'en-US'?)")
        }, "\(locales)")
        let create = await (try fixture("\n      create-version: true", keyFile: true)).problems("listing")
        #expect(create.contains { $0.contains("option 'create-version' needs version (the version to create)") }, "\(create)")
        #expect(try fake.state().requests.isEmpty)
    }

    @Test func aTextOverItsLimitFailsTheDryRunAndTheRunWithNothingSent() async throws {
        let fixture = try fixture()
        try fixture.write("fastlane/metadata/en-US/promotional_text.txt", String(repeating: "p", count: 171) + "\n")
        let before = try fixture.snapshot()
        let dry = try await fixture.run("listing") { $0.isDryRun = true }
        #expect(dry.status("listing") == .failed, "\(dry.console)")
        #expect(dry.console.contains("en-US/promotional_text.txt: promotional text is 171 characters; App Store Connect accepts at most 170 "
            + "(App Store Connect Help, Platform version information)"), "\(dry.console)")
        let run = try await fixture.run("listing")
        #expect(run.status("listing") == .failed, "\(run.console)")
        #expect(try writes().isEmpty)
        #expect(try fixture.snapshot().filter { !$0.key.hasPrefix(".slipway") } == before.filter { !$0.key.hasPrefix(".slipway") })
    }
}
