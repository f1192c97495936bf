import Crypto
import Foundation
import Testing
import TestSupport
import TestThreads

/// Names an App Store Connect answer gives (locales, screenshot display types, screenshot file
/// names) never name a file outside `fastlane/metadata` and `fastlane/screenshots`: through the
/// built binary, against the contract fake seeded with hostile names.
@Suite("slipway appstore metadata pull: names from the server", .dedicatedThreads)
struct AppStoreMetadataServerNamesTests {
    static let issuer = "69a6de7e-2f4c-47e3-e053-5b8c7c11a4d1"
    /// From `fastlane/metadata` (and `fastlane/screenshots`), this is `<project>/victim`.
    static let hostileLocale = "../../victim"
    let key = P256.Signing.PrivateKey()
    let folder: TemporaryDirectory
    let fake: AppStoreConnectContractFake
    let seeded: AppStoreConnectContractFake.SeededListing

    init() throws {
        folder = try TemporaryDirectory(prefix: "slipway-appstore-names")
        try folder.write("AuthKey_ABC123DEFG.p8", key.pemRepresentation)
        fake = try AppStoreConnectContractFake(keys: [.init(issuerID: Self.issuer, keyID: "ABC123DEFG",
                                                            publicKeyPEM: key.publicKey.pemRepresentation)],
                                                 onViolations: recordContractViolations)
        seeded = try fake.seedListing()
    }

    func metadata(_ extra: [String]) throws -> CommandResult {
        try CommandResult.run(Binaries.slipway, ["appstore", "metadata"] + extra + [
            "--bundle-id", "com.example.app", "--issuer-id", Self.issuer, "--key-id", "ABC123DEFG", "--key-file", "AuthKey_ABC123DEFG.p8",
            "--api-url", fake.url,
        ], in: folder.path)
    }

    /// Everything in the project but the two folders pull owns.
    func outsideTheFolders() throws -> [String: String] {
        try Snapshot.of(folder.path).filter {
            $0.key != "fastlane" && !$0.key.hasPrefix("fastlane/metadata") && !$0.key.hasPrefix("fastlane/screenshots")
        }
    }

    @Test func aHostileLocaleIsSkippedWithAWarningAndNothingIsWrittenOrDeletedOutside() throws {
        let versionLink = #"{"type": "appStoreVersions", "id": "\#(seeded.versionID)"}"#
        let infoLink = #"{"type": "appInfos", "id": "\#(seeded.appInfoID)"}"#
        try fake.seed("appStoreVersionLocalizations", attributes: #"{"locale": "en-US", "description": "An example app."}"#,
                      relationships: ["appStoreVersion": versionLink])
        try fake.seed("appStoreVersionLocalizations", attributes: #"{"locale": "\#(Self.hostileLocale)", "description": "Evil"}"#,
                      relationships: ["appStoreVersion": versionLink])
        try fake.seed("appInfoLocalizations", attributes: #"{"locale": "en-US", "name": "Example"}"#, relationships: ["appInfo": infoLink])
        try fake.seed("appInfoLocalizations", attributes: #"{"locale": "\#(Self.hostileLocale)", "name": "Evil"}"#,
                      relationships: ["appInfo": infoLink])
        // What an earlier pull would have written there: screenshot pull's "stale" files.
        try folder.write("victim/0_APP_IPHONE_67_0.png", "mine\n")
        try folder.write("victim/iMessage-keep.txt", "mine\n")
        let before = try outsideTheFolders()

        let pull = try metadata(["pull"])
        #expect(pull.status == 0, "\(pull.standardError)")
        #expect(pull.standardError.contains("warning: App Store Connect named the locale '../../victim', which is not an App Store "
            + "locale: skipped, nothing was written for it (update Slipway if Apple has added it).\n"), "\(pull.standardError)")
        #expect(pull.standardOutput.hasPrefix("App Store version 1.2.0 (IOS, PREPARE_FOR_SUBMISSION): 1 locale; wrote "), "\(pull.standardOutput)")
        #expect(try String(contentsOfFile: folder.path + "/fastlane/metadata/en-US/name.txt", encoding: .utf8) == "Example\n")
        #expect(try outsideTheFolders() == before)
        #expect(!FileManager.default.fileExists(atPath: folder.path + "/victim/name.txt"))
        #expect(FileManager.default.fileExists(atPath: folder.path + "/victim/0_APP_IPHONE_67_0.png"))

        let json = try metadata(["pull", "--json", "--skip-screenshots"])
        #expect(json.status == 0, "\(json.standardError)")
        #expect(json.standardOutput.contains(#""ignoredLocales":["../../victim"]"#), "\(json.standardOutput)")
        #expect(try outsideTheFolders() == before)
    }

    @Test func aHostileDisplayTypeAndFileNameNameNoFileOutside() throws {
        // A real screenshot first, pushed through the binary, then its set and file renamed by the "server".
        try folder.write("fastlane/metadata/en-US/name.txt", "Example\n")
        try FileManager.default.createDirectory(atPath: folder.path + "/fastlane/screenshots/en-US", withIntermediateDirectories: true)
        try Data(ScreenshotImages.png(width: 312, height: 390, seed: 5))
            .write(to: URL(fileURLWithPath: folder.path + "/fastlane/screenshots/en-US/a.png"))
        let push = try metadata(["push"])
        #expect(push.status == 0, "\(push.standardError)")
        let shot = try #require(try resources("appScreenshots").first)
        try reseed(shot, attribute: "fileName", value: "../../../../victim/evil.png")
        let before = try outsideTheFolders()

        let renamed = try metadata(["pull"])
        #expect(renamed.status == 0, "\(renamed.standardError)")
        #expect(renamed.standardOutput.hasSuffix("en-US APP_WATCH_SERIES_3: 1 written (0_APP_WATCH_SERIES_3_0.png)\n"), "\(renamed.standardOutput)")
        #expect(try outsideTheFolders() == before)

        let set = try #require(try resources("appScreenshotSets").first)
        let hostileType = "/../../../../victim/x"
        try reseed(set, attribute: "screenshotDisplayType", value: hostileType)
        let pull = try metadata(["pull"])
        #expect(pull.status == 0, "\(pull.standardError)")
        #expect(pull.standardError.contains("warning: screenshots: App Store Connect named the en-US display type '\(hostileType)', "
            + "which is not a screenshot display type Slipway knows: skipped, nothing was written or removed for it.\n"),
            "\(pull.standardError)")
        #expect(try outsideTheFolders() == before)
        #expect(!FileManager.default.fileExists(atPath: folder.path + "/victim"))
        // The fake flags its own answer: the display type is not in the document's enum.
        #expect(try fake.acknowledgeViolations().allSatisfy { $0.contains("screenshotDisplayType") })
    }

    func resources(_ type: String) throws -> [[String: Any]] {
        (try JSONSerialization.jsonObject(with: fake.resources(type)) as? [[String: Any]]) ?? []
    }

    /// Stores `resource` again (same id) with one attribute changed.
    func reseed(_ resource: [String: Any], attribute: String, value: String) throws {
        var attributes = resource["attributes"] as? [String: Any] ?? [:]
        attributes[attribute] = value
        let relationships = (resource["relationships"] as? [String: Any] ?? [:]).mapValues { relation -> String in
            let data = (relation as? [String: Any])?["data"] ?? NSNull()
            let text = try? JSONSerialization.data(withJSONObject: data, options: [.fragmentsAllowed])
            return text.map { String(decoding: $0, as: UTF8.self) } ?? "null"
        }
        let attributesText = String(decoding: try JSONSerialization.data(withJSONObject: attributes), as: UTF8.self)
        try fake.seed(resource["type"] as? String ?? "", id: resource["id"] as? String, attributes: attributesText, relationships: relationships)
    }
}
