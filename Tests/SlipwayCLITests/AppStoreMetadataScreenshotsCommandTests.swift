import Crypto
import Foundation
import Testing
import TestSupport
import TestThreads

/// `slipway appstore metadata push|pull` with deliver's screenshots folder beside the metadata
/// folder, through the built binary, against the App Store Connect contract fake: the texts and
/// the screenshots in one command, checked before anything is sent.
@Suite("slipway appstore metadata: screenshots", .dedicatedThreads)
struct AppStoreMetadataScreenshotsCommandTests {
    static let issuer = "69a6de7e-2f4c-47e3-e053-5b8c7c11a4d1"
    let key = P256.Signing.PrivateKey()
    let folder: TemporaryDirectory
    let fake: AppStoreConnectContractFake

    init() throws {
        folder = try TemporaryDirectory(prefix: "slipway-appstore-screenshots")
        try folder.write("AuthKey_ABC123DEFG.p8", key.pemRepresentation)
        fake = try AppStoreConnectContractFake(keys: [.init(issuerID: Self.issuer, keyID: "ABC123DEFG",
                                                            publicKeyPEM: key.publicKey.pemRepresentation)],
                                                 onViolations: recordContractViolations)
        _ = try fake.seedListing()
        try folder.write("fastlane/metadata/en-US/name.txt", "Example\n")
    }

    func metadata(_ extra: [String]) throws -> CommandResult {
        try CommandResult.run(Binaries.slipway, ["appstore", "metadata"] + extra + [
            "--bundle-id", "com.example.app", "--issuer-id", Self.issuer, "--key-id", "ABC123DEFG", "--key-file", "AuthKey_ABC123DEFG.p8",
            "--api-url", fake.url,
        ], in: folder.path)
    }

    func writes() throws -> [String] { try fake.state().requests.filter { $0.method != "GET" }.map(\.line) }

    /// A 312x390 PNG: Apple's APP_WATCH_SERIES_3 size.
    func writeShot(_ name: String, seed: Int, width: Int = 312, height: Int = 390) throws {
        try FileManager.default.createDirectory(atPath: folder.path + "/fastlane/screenshots/en-US", withIntermediateDirectories: true)
        try Data(ScreenshotImages.png(width: width, height: height, seed: seed)).write(to: URL(fileURLWithPath: folder.path + "/fastlane/screenshots/en-US/" + name))
    }

    @Test func pushSendsTextsAndScreenshotsThenOnlyWhatChanged() throws {
        try writeShot("1.png", seed: 1)
        try writeShot("2.png", seed: 2)
        let push = try metadata(["push"])
        #expect(push.status == 0, "\(push.standardError)")
        #expect(push.standardOutput.hasSuffix("en-US APP_WATCH_SERIES_3: 2 uploaded (1.png, 2.png)\n"))
        #expect(push.standardError.contains("screenshots: "))
        let sent = try writes()
        #expect(sent.filter { $0 == "POST /v1/appScreenshots" }.count == 2)

        let again = try metadata(["push"])
        #expect(again.status == 0, "\(again.standardError)")
        #expect(again.standardOutput.hasSuffix("en-US APP_WATCH_SERIES_3: 2 unchanged\n"))
        #expect(try writes() == sent)

        try FileManager.default.removeItem(atPath: folder.path + "/fastlane/screenshots/en-US/2.png")
        let kept = try metadata(["push", "--json"])
        #expect(kept.status == 0, "\(kept.standardError)")
        #expect(kept.standardOutput.contains("\"screenshots\":{\"dryRun\":false,\"entries\":[{\"displayType\":\"APP_WATCH_SERIES_3\",\"kept\":[\"2.png\"]"))
        #expect(try writes() == sent)
        let removed = try metadata(["push", "--remove-screenshots"])
        #expect(removed.status == 0, "\(removed.standardError)")
        #expect(removed.standardOutput.hasSuffix("en-US APP_WATCH_SERIES_3: 1 unchanged, 1 removed (2.png)\n"))
        #expect(try writes().filter { $0.hasPrefix("DELETE /v1/appScreenshots/") }.count == 1)
        #expect(try fake.state().violations == [])
    }

    @Test func aBadScreenshotStopsTheTextsToo() throws {
        try writeShot("1.png", seed: 1)
        try writeShot("small.png", seed: 3, width: 100, height: 100)
        let before = try Snapshot.of(folder.path)
        let push = try metadata(["push"])
        #expect(push.status == 2)
        #expect(push.standardError.hasPrefix("error: the screenshots in '\(folder.path)/fastlane/screenshots' have 1 problem; nothing was sent:\n"
            + "  - '\(folder.path)/fastlane/screenshots/en-US/small.png' is 100x100 pixels, which no App Store display type accepts."))
        #expect(try fake.state().requests.isEmpty)
        #expect(try Snapshot.of(folder.path) == before)

        try FileManager.default.removeItem(atPath: folder.path + "/fastlane/screenshots/en-US/small.png")
        try FileManager.default.createDirectory(atPath: folder.path + "/fastlane/screenshots/en_US", withIntermediateDirectories: true)
        try FileManager.default.copyItem(atPath: folder.path + "/fastlane/screenshots/en-US/1.png", toPath: folder.path + "/fastlane/screenshots/en_US/1.png")
        let misnamed = try metadata(["push", "--dry-run"])
        #expect(misnamed.status == 2)
        #expect(misnamed.standardError.contains("'\(folder.path)/fastlane/screenshots/en_US' is not named after an App Store locale (codes are case-sensitive); did you mean 'en-US'"))
        #expect(try fake.state().requests.isEmpty)
    }

    @Test func withoutAFolderItSaysSoAndPullWritesDeliversNames() throws {
        let push = try metadata(["push"])
        #expect(push.status == 0, "\(push.standardError)")
        #expect(push.standardOutput.hasSuffix("screenshots: none sent, there is no folder 'fastlane/screenshots' (give --screenshots-path, or --skip-screenshots)\n"))

        try writeShot("a.png", seed: 5)
        #expect(try metadata(["push"]).status == 0)
        let pull = try metadata(["pull", "--metadata-path", "pulled/metadata", "--screenshots-path", "pulled/screenshots"])
        #expect(pull.status == 0, "\(pull.standardError)")
        #expect(pull.standardOutput.hasSuffix("en-US APP_WATCH_SERIES_3: 1 written (0_APP_WATCH_SERIES_3_0.png)\n"))
        let pulled = try Data(contentsOf: URL(fileURLWithPath: folder.path + "/pulled/screenshots/en-US/0_APP_WATCH_SERIES_3_0.png"))
        #expect(pulled == Data(ScreenshotImages.png(width: 312, height: 390, seed: 5)))
        let skipped = try metadata(["pull", "--metadata-path", "pulled/metadata", "--screenshots-path", "pulled/screenshots", "--json"])
        #expect(skipped.standardOutput.contains("\"screenshots\":{\"dryRun\":false,\"entries\":[{\"displayType\":\"APP_WATCH_SERIES_3\""))
    }
}

/// A checkout's symbolic links never make the metadata commands read or write outside the
/// folders (the checkout may be a pull request's).
@Suite("slipway appstore metadata: links in the folders", .dedicatedThreads)
struct AppStoreMetadataLinkTests {
    let key = P256.Signing.PrivateKey()
    let folder: TemporaryDirectory
    let outside: TemporaryDirectory
    let fake: AppStoreConnectContractFake

    init() throws {
        folder = try TemporaryDirectory(prefix: "slipway-appstore-links")
        outside = try TemporaryDirectory(prefix: "slipway-appstore-victim")
        try folder.write("AuthKey_ABC123DEFG.p8", key.pemRepresentation)
        fake = try AppStoreConnectContractFake(keys: [.init(issuerID: AppStoreMetadataScreenshotsCommandTests.issuer, keyID: "ABC123DEFG",
                                                            publicKeyPEM: key.publicKey.pemRepresentation)],
                                                 onViolations: recordContractViolations)
        _ = try fake.seedListing()
        try folder.write("fastlane/metadata/en-US/name.txt", "Example\n")
        try outside.write("secret.txt", "not for the App Store\n")
        try outside.write("en-US/name.txt", "Victim\n")
    }

    func metadata(_ extra: [String]) throws -> CommandResult {
        try CommandResult.run(Binaries.slipway, ["appstore", "metadata"] + extra + [
            "--bundle-id", "com.example.app", "--issuer-id", AppStoreMetadataScreenshotsCommandTests.issuer, "--key-id", "ABC123DEFG",
            "--key-file", "AuthKey_ABC123DEFG.p8", "--api-url", fake.url,
        ], in: folder.path)
    }

    @Test func aLinkedTextIsNotReadAndALinkedFolderIsNotWritten() throws {
        try FileManager.default.createSymbolicLink(atPath: folder.path + "/fastlane/metadata/en-US/description.txt",
                                                   withDestinationPath: outside.path + "/secret.txt")
        let victim = try Snapshot.of(outside.path)
        let push = try metadata(["push", "--skip-screenshots"])
        #expect(push.status == 2)
        #expect(push.standardError == "error: '\(folder.path)/fastlane/metadata/en-US/description.txt' is a symbolic link, which Slipway does not follow "
            + "in the metadata folder. Nothing was sent or written; replace it with a regular file (or a folder) of the metadata folder.\n")
        #expect(try fake.state().requests.isEmpty)

        // pull into a folder whose locale folder links outside: refused, the victim unchanged.
        try FileManager.default.removeItem(atPath: folder.path + "/fastlane/metadata/en-US/description.txt")
        try FileManager.default.createDirectory(atPath: folder.path + "/pulled", withIntermediateDirectories: true)
        try FileManager.default.createSymbolicLink(atPath: folder.path + "/pulled/en-US", withDestinationPath: outside.path + "/en-US")
        #expect(try metadata(["push", "--skip-screenshots"]).status == 0)
        let pull = try metadata(["pull", "--metadata-path", "pulled", "--skip-screenshots"])
        #expect(pull.status == 2)
        #expect(pull.standardError.contains("'\(folder.path)/pulled/en-US' is a symbolic link, which pull does not write through"), "\(pull.standardError)")
        // the whole metadata folder linked outside
        try FileManager.default.createSymbolicLink(atPath: folder.path + "/linked", withDestinationPath: outside.path)
        let linked = try metadata(["pull", "--metadata-path", "linked/meta", "--skip-screenshots"])
        #expect(linked.status == 2)
        #expect(linked.standardError.hasPrefix("error: '\(folder.path)/linked' is a symbolic link: pull does not write into 'linked/meta' through a symbolic link"),
                "\(linked.standardError)")
        #expect(try Snapshot.of(outside.path) == victim)
    }

    @Test func aLinkedScreenshotIsRefused() throws {
        try FileManager.default.createDirectory(atPath: folder.path + "/fastlane/screenshots/en-US", withIntermediateDirectories: true)
        try Data(ScreenshotImages.png(width: 312, height: 390, seed: 1)).write(to: URL(fileURLWithPath: outside.path + "/shot.png"))
        try FileManager.default.createSymbolicLink(atPath: folder.path + "/fastlane/screenshots/en-US/1.png", withDestinationPath: outside.path + "/shot.png")
        let push = try metadata(["push"])
        #expect(push.status == 2)
        #expect(push.standardError.contains("'\(folder.path)/fastlane/screenshots/en-US/1.png' is a symbolic link, which slipway does not follow "
            + "in the screenshots folder: copy the image in its place"), "\(push.standardError)")
        #expect(try fake.state().requests.isEmpty)
    }
}
