import Crypto
import Foundation
import Testing
import TestSupport
import TestThreads

/// `slipway appstore metadata push|pull` through the built binary against the App Store Connect
/// contract fake, where the listing is not the simple case: a locale only the version has (what a
/// push of version texts or screenshots alone leaves), the version on the App Store (promotional
/// text only, `--live`), and an app with many versions and none editable.
@Suite("slipway appstore metadata: round trip and the live version", .dedicatedThreads)
struct AppStoreListingRoundTripCommandTests {
    static let issuer = "69a6de7e-2f4c-47e3-e053-5b8c7c11a4d1"
    let key = P256.Signing.PrivateKey()
    let folder: TemporaryDirectory
    let fake: AppStoreConnectContractFake

    init() throws {
        folder = try TemporaryDirectory(prefix: "slipway-listing-roundtrip-cli")
        try folder.write("AuthKey_ABC123DEFG.p8", key.pemRepresentation)
        fake = try AppStoreConnectContractFake(keys: [.init(issuerID: Self.issuer, keyID: "ABC123DEFG",
                                                            publicKeyPEM: key.publicKey.pemRepresentation)],
                                                 onViolations: recordContractViolations)
    }

    func metadata(_ extra: [String]) throws -> CommandResult {
        try CommandResult.run(Binaries.slipway, ["appstore", "metadata"] + extra + [
            "--bundle-id", "com.example.app", "--issuer-id", Self.issuer, "--key-id", "ABC123DEFG", "--key-file", "AuthKey_ABC123DEFG.p8",
            "--api-url", fake.url,
        ], in: folder.path)
    }

    func writes() throws -> [String] { try fake.state().requests.filter { $0.method != "GET" }.map(\.line) }

    func file(_ relative: String) -> String? { try? String(contentsOfFile: folder.path + "/" + relative, encoding: .utf8) }

    /// A 312x390 PNG (Apple's APP_WATCH_SERIES_3 size) in `locale`'s screenshots folder.
    func writeShot(_ locale: String, _ name: String, seed: Int, width: Int = 312) throws {
        try FileManager.default.createDirectory(atPath: folder.path + "/fastlane/screenshots/" + locale, withIntermediateDirectories: true)
        try Data(ScreenshotImages.png(width: width, height: 390, seed: seed))
            .write(to: URL(fileURLWithPath: folder.path + "/fastlane/screenshots/\(locale)/\(name)"))
    }

    @Test func aLocaleWithoutNameTxtPushedPulledAndPushedAgainSendsNothing() throws {
        _ = try fake.seedListing()
        try folder.write("fastlane/metadata/en-US/name.txt", "Example\n")
        try folder.write("fastlane/metadata/de-DE/description.txt", "Eine Beispiel-App.\n")
        let push = try metadata(["push", "--skip-screenshots"])
        #expect(push.status == 0, "\(push.standardError)")
        // de-DE has texts of the version only: App Store Connect gets no de-DE app info localization.
        let first = try writes()
        #expect(first == ["POST /v1/appStoreVersionLocalizations", "POST /v1/appInfoLocalizations"], "\(first)")

        let pull = try metadata(["pull", "--metadata-path", "pulled", "--skip-screenshots"])
        #expect(pull.status == 0, "\(pull.standardError)")
        #expect(file("pulled/de-DE/description.txt") == "Eine Beispiel-App.\n")
        for name in ["name.txt", "subtitle.txt", "privacy_url.txt"] {
            #expect(file("pulled/de-DE/" + name) == nil, "pull wrote de-DE/\(name), which the app info does not have")
        }
        #expect(file("pulled/en-US/name.txt") == "Example\n")

        let before = try Snapshot.of(folder.path)
        let again = try metadata(["push", "--metadata-path", "pulled", "--skip-screenshots"])
        #expect(again.status == 0, "\(again.standardError)")
        #expect(again.standardOutput == """
            App Store version 1.2.0 (IOS): sent 0 texts
            unchanged: 2 locales, 16 texts

            """)
        #expect(try writes().count == 2)
        let repull = try metadata(["pull", "--metadata-path", "pulled", "--skip-screenshots"])
        #expect(repull.status == 0 && repull.standardOutput.contains("wrote 0 files"), "\(repull.standardOutput)\(repull.standardError)")
        #expect(try Snapshot.of(folder.path) == before)
        #expect(try fake.state().violations == [])
    }

    @Test func aScreenshotsOnlyLocalePushedPulledAndPushedAgainSendsNothing() throws {
        _ = try fake.seedListing()
        try folder.write("fastlane/metadata/en-US/name.txt", "Example\n")
        try writeShot("fr-FR", "1.png", seed: 1)
        let push = try metadata(["push"])
        #expect(push.status == 0, "\(push.standardError)")
        #expect(push.standardOutput.contains("fr-FR: added the locale to the App Store version for its screenshots"), "\(push.standardOutput)")
        let sent = try writes()

        let pull = try metadata(["pull", "--metadata-path", "pulled", "--screenshots-path", "pulled-shots"])
        #expect(pull.status == 0, "\(pull.standardError)")
        #expect(file("pulled/fr-FR/description.txt") == "\n")
        #expect(file("pulled/fr-FR/name.txt") == nil)

        let again = try metadata(["push", "--metadata-path", "pulled"])
        #expect(again.status == 0, "\(again.standardError)")
        #expect(again.standardOutput.hasPrefix("""
            App Store version 1.2.0 (IOS): sent 0 texts
            unchanged: 2 locales, 16 texts

            """), "\(again.standardOutput)")
        #expect(try writes() == sent)
        #expect(try fake.state().violations == [])
    }

    /// A live version with an en-US listing: returns the version localization's id.
    func seedLive() throws -> String {
        let seeded = try fake.seedListing(state: "READY_FOR_DISTRIBUTION")
        try fake.seed("appInfoLocalizations", attributes: #"{"locale": "en-US", "name": "Example"}"#,
                      relationships: ["appInfo": #"{"type": "appInfos", "id": "\#(seeded.appInfoID)"}"#])
        let localization = try fake.seed("appStoreVersionLocalizations",
                                         attributes: #"{"locale": "en-US", "description": "An example app.", "promotionalText": "Old news."}"#,
                                         relationships: ["appStoreVersion": #"{"type": "appStoreVersions", "id": "\#(seeded.versionID)"}"#])
        try folder.write("fastlane/metadata/en-US/name.txt", "Example\n")
        try folder.write("fastlane/metadata/en-US/description.txt", "An example app.\n")
        try folder.write("fastlane/metadata/en-US/promotional_text.txt", "Summer sale!\n")
        return localization
    }

    @Test func theLiveVersionTakesPromotionalTextAndRefusesTheRest() throws {
        let localization = try seedLive()
        let editable = try metadata(["push", "--skip-screenshots"])
        #expect(editable.status == 1)
        #expect(editable.standardError == "error: 'Example' (com.example.app) has no App Store version on IOS that can be edited "
            + "(its versions are 1.2.0 READY_FOR_DISTRIBUTION). Create one with --version X.Y --create-version (or in App Store Connect), "
            + "or pass --version of an editable one; promotional text alone can change on the version on the App Store with --live.\n")

        let live = try metadata(["push", "--live", "--skip-screenshots"])
        #expect(live.status == 0, "\(live.standardError)")
        #expect(live.standardOutput == """
            App Store version 1.2.0 (IOS, on the App Store): sent 1 text
              ~ en-US promotional_text (9 → 12 characters)
            unchanged: 0 locales, 2 texts

            """)
        #expect(try writes() == ["PATCH /v1/appStoreVersionLocalizations/\(localization)"])
        let body = try #require(try fake.state().requests.last { $0.method == "PATCH" }?.body)
        #expect(body.contains("\"promotionalText\":\"Summer sale!\"") && !body.contains("description"), "\(body)")
        #expect(try metadata(["push", "--live", "--skip-screenshots"]).standardOutput.hasPrefix(
            "App Store version 1.2.0 (IOS, on the App Store): sent 0 texts\n"))
        #expect(try metadata(["push", "--version", "1.2.0", "--skip-screenshots"]).status == 0)
        #expect(try writes().count == 1)

        try folder.write("fastlane/metadata/en-US/description.txt", "A better example app.\n")
        try folder.write("fastlane/metadata/en-US/subtitle.txt", "For examples\n")
        try folder.write("fastlane/metadata/en-US/promotional_text.txt", "Winter sale!\n")
        try folder.write("fastlane/metadata/copyright.txt", "2026 Example Inc.\n")
        let before = try Snapshot.of(folder.path)
        let refused = try metadata(["push", "--live", "--skip-screenshots"])
        #expect(refused.status == 1)
        #expect(refused.standardError == "error: App Store version 1.2.0 (IOS) is READY_FOR_DISTRIBUTION, on the App Store: only its promotional "
            + "text can change without a new version, and the folder also changes en-US/subtitle.txt, en-US/description.txt, copyright.txt. "
            + "Nothing was sent. Put those changes in a new version (--version X.Y --create-version), or make the folder match the live "
            + "listing apart from promotional_text.txt (pull it with --live).\n")
        #expect(try writes().count == 1)
        #expect(try Snapshot.of(folder.path) == before)

        let both = try metadata(["push", "--live", "--version", "1.2.0"])
        #expect(both.status == 64 && both.standardError.contains("--live and --version both name the version: give one."), "\(both.standardError)")
        #expect(try fake.state().violations == [])
    }

    @Test func theLiveVersionsScreenshotsAreComparedNotChanged() throws {
        _ = try seedLive()
        try writeShot("en-US", "1.png", seed: 1)
        let before = try Snapshot.of(folder.path)
        let refused = try metadata(["push", "--live"])
        #expect(refused.status == 1)
        #expect(refused.standardError == "error: App Store version 1.2.0 (IOS) is READY_FOR_DISTRIBUTION, on the App Store: only its promotional "
            + "text can change without a new version, and the folder also changes the en-US APP_WATCH_SERIES_3 screenshots. "
            + "Nothing was sent. Put those changes in a new version (--version X.Y --create-version), or make the folder match the live "
            + "listing apart from promotional_text.txt (pull it with --live).\n")
        #expect(try writes().isEmpty)
        #expect(try Snapshot.of(folder.path) == before)
    }

    @Test func noEditableVersionNamesTheNewestFewAndCountsTheRest() throws {
        let appID = try fake.seedApp(bundleID: "com.example.app", name: "Example")
        let app = #"{"type": "apps", "id": "\#(appID)"}"#
        try fake.seed("appInfos", attributes: #"{"state": "READY_FOR_DISTRIBUTION"}"#, relationships: ["app": app])
        for minor in 0..<12 {
            let state = minor == 11 ? "READY_FOR_DISTRIBUTION" : "REPLACED_WITH_NEW_VERSION"
            try fake.seed("appStoreVersions", attributes: #"{"versionString": "1.\#(minor)", "platform": "IOS", "appVersionState": "\#(state)", "#
                          + #""releaseType": "AFTER_APPROVAL"}"#, relationships: ["app": app, "build": "null"])
        }
        try folder.write("fastlane/metadata/en-US/name.txt", "Example\n")
        let push = try metadata(["push", "--skip-screenshots"])
        #expect(push.status == 1)
        #expect(push.standardError == "error: 'Example' (com.example.app) has no App Store version on IOS that can be edited (its newest versions are "
            + "1.11 READY_FOR_DISTRIBUTION, 1.10 REPLACED_WITH_NEW_VERSION, 1.9 REPLACED_WITH_NEW_VERSION, 1.8 REPLACED_WITH_NEW_VERSION, "
            + "1.7 REPLACED_WITH_NEW_VERSION; 12 versions in all). Create one with --version X.Y --create-version (or in App Store Connect), "
            + "or pass --version of an editable one; promotional text alone can change on the version on the App Store with --live.\n")
        #expect(try writes().isEmpty)
    }
}
