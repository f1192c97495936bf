import Crypto
import Foundation
import Testing
import TestSupport
import TestThreads

/// `slipway appstore metadata pull|push` through the built binary, against the App Store Connect
/// contract fake.
@Suite("slipway appstore metadata", .dedicatedThreads)
struct AppStoreMetadataCommandTests {
    static let issuer = "69a6de7e-2f4c-47e3-e053-5b8c7c11a4d1"
    let key = P256.Signing.PrivateKey()
    let folder: TemporaryDirectory
    let fake: AppStoreConnectContractFake
    let seeded: AppStoreConnectContractFake.SeededListing

    init() throws {
        folder = try TemporaryDirectory(prefix: "slipway-appstore-metadata")
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

    func writes() throws -> [String] { try fake.state().requests.filter { $0.method != "GET" }.map(\.line) }

    func writeFolder() throws {
        try folder.write("fastlane/metadata/en-US/name.txt", "Example\n")
        try folder.write("fastlane/metadata/en-US/description.txt", "An example app.\n")
        try folder.write("fastlane/metadata/de-DE/name.txt", "Beispiel\n")
        try folder.write("fastlane/metadata/copyright.txt", "2026 Example Inc.\n")
        try folder.write("fastlane/metadata/primary_category.txt", "MZGenre.Lifestyle\n")
    }

    @Test func pushSendsWhatChangedAndARerunSendsNothing() throws {
        try writeFolder()
        let dry = try metadata(["push", "--dry-run", "--skip-screenshots"])
        #expect(dry.status == 0, "\(dry.standardError)")
        #expect(dry.standardOutput == """
            App Store version 1.2.0 (IOS): would send 4 texts (dry run: nothing was sent)
              + de-DE name (8 characters)
              + en-US name (7 characters)
              + en-US description (15 characters)
              + copyright (17 characters)
            unchanged: 0 locales, 0 texts
            not sent: primary_category.txt (app categories are the app info's relationships; Slipway does not send them yet: set them in App Store Connect)

            """)
        #expect(try writes().isEmpty)

        let push = try metadata(["push"])
        #expect(push.status == 0, "\(push.standardError)")
        #expect(push.standardOutput.hasPrefix("App Store version 1.2.0 (IOS): sent 4 texts\n"))
        #expect(push.standardOutput.hasSuffix("screenshots: none sent, there is no folder 'fastlane/screenshots' (give --screenshots-path, or --skip-screenshots)\n"))
        #expect(try writes().count == 4)

        try folder.write("fastlane/metadata/en-US/description.txt", "A better example app.\n")
        let again = try metadata(["push", "--json"])
        #expect(again.status == 0, "\(again.standardError)")
        #expect(again.standardOutput == """
            {"changes":[{"after":21,"before":15,"field":"description","kind":"changed","locale":"en-US"}],"dryRun":false,\
            "notSent":[{"path":"primary_category.txt","reason":"app categories are the app info's relationships; Slipway does not send them yet: set them in App Store Connect"}],\
            "screenshots":{"dryRun":false,"entries":[],"pulled":false},"unchangedLocales":["de-DE"],"unchangedTexts":3,"version":"1.2.0","versionCreated":false,"versionId":"\(seeded.versionID)"}

            """)
        #expect(try writes().count == 5)
        #expect(try fake.state().violations == [])
    }

    @Test func pullWritesTheFolderAndARepeatWritesNothing() throws {
        try writeFolder()
        #expect(try metadata(["push", "--skip-screenshots"]).status == 0)
        let pull = try metadata(["pull", "--metadata-path", "pulled", "--locales", "de-DE", "--skip-screenshots"])
        #expect(pull.status == 0, "\(pull.standardError)")
        #expect(pull.standardOutput.hasPrefix("App Store version 1.2.0 (IOS, PREPARE_FOR_SUBMISSION): 1 locale; wrote 10 files\n  wrote de-DE/name.txt\n"))
        #expect(try String(contentsOfFile: folder.path + "/pulled/de-DE/name.txt", encoding: .utf8) == "Beispiel\n")
        #expect(!FileManager.default.fileExists(atPath: folder.path + "/pulled/en-US"))
        let again = try metadata(["pull", "--metadata-path", "pulled", "--locales", "de-DE", "--json", "--skip-screenshots"])
        #expect(again.standardOutput == """
            {"dryRun":false,"locales":["de-DE"],"screenshots":null,"state":"PREPARE_FOR_SUBMISSION","version":"1.2.0","versionId":"\(seeded.versionID)","written":[]}

            """)
    }

    @Test func badInputIsExit2AndNothingIsSentOrWritten() throws {
        try writeFolder()
        try folder.write("fastlane/metadata/en/name.txt", "Example\n")
        let before = try Snapshot.of(folder.path)
        let unknown = try metadata(["push"])
        #expect(unknown.status == 2)
        #expect(unknown.standardError == "error: the folder '\(folder.path)/fastlane/metadata/en' is not an App Store locale (codes are case-sensitive); "
            + "did you mean one of 'en-AU', 'en-CA', 'en-GB', 'en-US'? Rename it to an accepted code (listed in docs/appstore-metadata.md), "
            + "or move it out of the metadata folder.\n")
        let pull = try metadata(["pull"])
        #expect(pull.status == 2 && pull.standardError == unknown.standardError)

        try FileManager.default.removeItem(atPath: folder.path + "/fastlane/metadata/en")
        try folder.write("fastlane/metadata/en-US/subtitle.txt", String(repeating: "s", count: 31) + "\n")
        try folder.write("fastlane/metadata/en-US/support_url.txt", "www.example.com\n")
        let middle = try Snapshot.of(folder.path)
        let limits = try metadata(["push"])
        #expect(limits.status == 2)
        #expect(limits.standardError == """
            error: 2 texts would be refused by App Store Connect, so nothing was sent:
              en-US/subtitle.txt: subtitle is 31 characters; App Store Connect accepts at most 30 (App Store Connect Help, App information)
              en-US/support_url.txt: support URL 'www.example.com' is not an http:// or https:// URL; App Store Connect accepts only those
            Shorten or correct them and run again.

            """)
        let locales = try metadata(["push", "--locales", "en_US"])
        #expect(locales.status == 2)
        #expect(locales.standardError == "error: --locales names 'en_US', which is not a locale App Store Connect accepts (codes are case-sensitive); "
            + "did you mean 'en-US'? The accepted codes are listed in docs/appstore-metadata.md.\n")
        let create = try metadata(["push", "--create-version"])
        #expect(create.status == 64 && create.standardError.contains("--create-version needs --version (the version to create)."))
        let platform = try metadata(["push", "--platform", "ios"])
        #expect(platform.status == 64 && platform.standardError.contains("--platform must be one of IOS, MAC_OS, TV_OS, VISION_OS, not 'ios'."))
        let missing = try metadata(["push", "--metadata-path", "nowhere"])
        #expect(missing.status == 2)
        #expect(missing.standardError == "error: the metadata folder '\(folder.path)/nowhere' does not exist. Give its path with --metadata-path "
            + "(deliver's is fastlane/metadata), or run 'slipway appstore metadata pull' to make it from App Store Connect.\n")
        #expect(try Snapshot.of(folder.path) == middle)
        #expect(before != middle)
        #expect(try fake.state().requests.isEmpty)
    }

    @Test func noEditableVersionSaysWhatToDo() throws {
        try writeFolder()
        let result = try metadata(["push", "--version", "2.0"])
        #expect(result.status == 1)
        #expect(result.standardError == "error: 'Example' (com.example.app) has no App Store version 2.0 on IOS. "
            + "Add --create-version to create it, or check --version and --platform.\n")
        #expect(try writes().isEmpty)
    }

    @Test func helpTeachesTheLayoutAndTheLimits() throws {
        let push = try CommandResult.run(Binaries.slipway, ["appstore", "metadata", "push", "--help"], in: folder.path)
        #expect(push.status == 0)
        // Help is wrapped to the terminal's width: compare it as one line.
        let text = push.standardOutput.replacingOccurrences(of: "\n", with: " ")
        #expect(text.contains("keywords 100, promotional text 170, description and What's New 4,000"), "\(push.standardOutput)")
        #expect(push.standardOutput.contains("--create-version") && push.standardOutput.contains("--dry-run"))
        #expect(text.contains("screenshots the folder lacks are kept unless --remove-screenshots"), "\(push.standardOutput)")
        let group = try CommandResult.run(Binaries.slipway, ["appstore", "metadata", "--help"], in: folder.path)
        #expect(group.standardOutput.replacingOccurrences(of: "\n", with: " ").contains("default/ fills in for a locale that lacks a file"),
                "\(group.standardOutput)")
    }
}
