import AppleAPI
import Basics
import Foundation
import Testing
import TestSupport
import TestThreads

/// Pushing and pulling listing texts against the App Store Connect contract fake.
@Suite("Listing push and pull against the contract fake", .dedicatedThreads)
struct ListingSyncTests {
    let fixture: AppleAPIFixture
    let seeded: AppStoreConnectContractFake.SeededListing
    let app: AppStoreConnectApp
    let folder: TemporaryDirectory

    init() throws {
        fixture = try AppleAPIFixture()
        seeded = try fixture.fake.seedListing()
        app = AppStoreConnectApp(id: seeded.appID, bundleID: "com.example.app", name: "Example")
        folder = try TemporaryDirectory(prefix: "slipway-listing-sync")
    }

    var sync: ListingSync { ListingSync(client: fixture.client(), fileSystem: LocalFileSystem()) }
    func listing(_ name: String = "metadata") -> ListingFolder { ListingFolder(path: folder.path + "/" + name, fileSystem: LocalFileSystem()) }

    func writeExample() throws {
        try folder.write("metadata/en-US/name.txt", "Example\n")
        try folder.write("metadata/en-US/subtitle.txt", "Do things\n")
        try folder.write("metadata/en-US/description.txt", "An example app.\n")
        try folder.write("metadata/en-US/release_notes.txt", "Bug fixes.\n")
        try folder.write("metadata/en-US/support_url.txt", "https://example.com/help\n")
        try folder.write("metadata/de-DE/name.txt", "Beispiel\n")
        try folder.write("metadata/default/keywords.txt", "example,app\n")
        try folder.write("metadata/copyright.txt", "2026 Example Inc.\n")
    }

    @Test func pushSendsEverythingOnceThenOnlyWhatChanged() async throws {
        try writeExample()
        let first = try await sync.push(folder: listing(), app: app, options: ListingOptions())
        #expect(first.versionID == seeded.versionID && !first.dryRun)
        #expect(first.changes.map { "\($0.kind.rawValue) \($0.locale ?? "-") \($0.field?.rawValue ?? "copyright") \($0.after)" } == [
            "new de-DE name 8", "new de-DE keywords 11", "new en-US name 7", "new en-US subtitle 9", "new en-US description 15",
            "new en-US keywords 11", "new en-US release_notes 10", "new en-US support_url 24", "new - copyright 17",
        ])
        #expect(first.versionLocalizationIDs.keys.sorted() == ["de-DE", "en-US"])
        #expect(try fixture.changes() == ["POST /v1/appInfoLocalizations", "POST /v1/appStoreVersionLocalizations", "POST /v1/appInfoLocalizations",
                                          "POST /v1/appStoreVersionLocalizations", "PATCH /v1/appStoreVersions/\(seeded.versionID)"])

        let again = try await sync.push(folder: listing(), app: app, options: ListingOptions())
        #expect(again.changes.isEmpty && again.unchangedLocales == ["de-DE", "en-US"] && again.unchangedTexts == 9)
        #expect(try fixture.changes().count == 5)

        try folder.write("metadata/en-US/description.txt", "A better example app.\n")
        let third = try await sync.push(folder: listing(), app: app, options: ListingOptions())
        #expect(third.changes == [ListingChange(locale: "en-US", field: .description, kind: .changed, before: 15, after: 21)])
        #expect(third.unchangedLocales == ["de-DE"])
        let writes = try fixture.changes()
        #expect(writes.count == 6 && writes.last?.hasPrefix("PATCH /v1/appStoreVersionLocalizations/") == true)
        let body = try #require(try fixture.fake.state().requests.last { $0.method == "PATCH" }?.body)
        #expect(body.contains("A better example app.") && !body.contains("whatsNew") && !body.contains("keywords"))
        #expect(try fixture.fake.state().violations == [])
    }

    @Test func aDryRunPlansAndSendsNothing() async throws {
        try writeExample()
        let plan = try await sync.push(folder: listing(), app: app, options: ListingOptions(dryRun: true))
        #expect(plan.dryRun && plan.changes.count == 9)
        #expect(ListingReport.lines(plan, platform: "IOS").prefix(3) == [
            "App Store version 1.2.0 (IOS): would send 9 texts (dry run: nothing was sent)", "  + de-DE name (8 characters)",
            "  + de-DE keywords (11 characters)",
        ])
        #expect(try fixture.changes().isEmpty)
    }

    @Test func textsOverTheLimitsSendNothing() async throws {
        try writeExample()
        try folder.write("metadata/de-DE/subtitle.txt", String(repeating: "x", count: 31))
        do {
            _ = try await sync.push(folder: listing(), app: app, options: ListingOptions())
            Issue.record("expected an error")
        } catch let error as AppStoreListingError {
            #expect(error == .invalidTexts([ListingViolation(file: "de-DE/subtitle.txt", problem:
                "subtitle is 31 characters; App Store Connect accepts at most 30 (App Store Connect Help, App information)")]))
        }
        #expect(try fixture.fake.state().requests.isEmpty)
    }

    @Test func theFakeRefusesTextsOverTheLimitsFromAClientThatDidNotCheck() async throws {
        let client = fixture.client()
        await #expect(throws: AppStoreConnectError.self) {
            _ = try await client.createAppInfoLocalization(appInfoID: seeded.appInfoID, locale: "en-US", texts: [.name: String(repeating: "n", count: 31)])
        }
        await #expect(throws: AppStoreConnectError.self) {
            _ = try await client.createVersionLocalization(versionID: seeded.versionID, locale: "en-US",
                                                           attributes: ["keywords": .string(String(repeating: "k", count: 101))], action: "test")
        }
        await #expect(throws: AppStoreConnectError.self) {
            _ = try await client.createVersionLocalization(versionID: seeded.versionID, locale: "en-US",
                                                           attributes: ["supportUrl": "mailto:help@example.com"], action: "test")
        }
        #expect(try fixture.fake.stored("appInfoLocalizations").isEmpty && fixture.fake.stored("appStoreVersionLocalizations").isEmpty)
        #expect(try fixture.fake.state().violations == [])
    }

    @Test func versionsThatCannotBeEditedAreNamed() async throws {
        try writeExample()
        await #expect(throws: AppStoreListingError.versionNotFound(app: "'Example' (com.example.app)", version: "2.0", platform: "IOS")) {
            _ = try await sync.push(folder: listing(), app: app, options: ListingOptions(version: "2.0"))
        }
        await #expect(throws: AppStoreListingError.noEditableVersion(app: "'Example' (com.example.app)", platform: "MAC_OS", states: [])) {
            _ = try await sync.push(folder: listing(), app: app, options: ListingOptions(platform: "MAC_OS"))
        }
        #expect(try fixture.changes().isEmpty)
        #expect(AppStoreListingError.versionNotFound(app: "'Example' (com.example.app)", version: "2.0", platform: "IOS").localizedDescription
            == "'Example' (com.example.app) has no App Store version 2.0 on IOS. Add --create-version to create it, or check --version and --platform.")
    }

    /// The contract fake keeps Apple's rule for a live version: a PATCH of promotional text alone
    /// is taken, any other text is refused (409 STATE_ERROR).
    @Test func theFakeTakesOnlyPromotionalTextOnALiveVersion() async throws {
        let live = try fixture.fake.seedListing(bundleID: "com.example.live", name: "Live", state: "READY_FOR_SALE")
        let localization = try fixture.fake.seed("appStoreVersionLocalizations", attributes: #"{"locale": "en-US", "description": "Text."}"#,
                                                 relationships: ["appStoreVersion": #"{"type": "appStoreVersions", "id": "\#(live.versionID)"}"#])
        let client = fixture.client()
        try await client.updateVersionLocalization(id: localization, attributes: ["promotionalText": .string("Sale!")], action: "promote")
        await #expect(throws: AppStoreConnectError.self) {
            try await client.updateVersionLocalization(id: localization, attributes: ["description": .string("Other.")], action: "describe")
        }
        await #expect(throws: AppStoreConnectError.self) {
            try await client.updateVersionLocalization(id: localization, attributes: ["description": .string("Other."), "promotionalText": .null],
                                                       action: "describe")
        }
        #expect(try fixture.fake.state().requests.filter { $0.method == "PATCH" }.map(\.status) == [200, 409, 409])
        #expect(try fixture.fake.state().violations == [])
    }

    @Test func aLockedAppInfoStopsANameChangeBeforeAnythingIsSent() async throws {
        let other = try fixture.fake.seedListing(bundleID: "com.example.live", name: "Live", appInfoState: "READY_FOR_DISTRIBUTION")
        try folder.write("metadata/en-US/name.txt", "Live\n")
        try folder.write("metadata/en-US/description.txt", "Text.\n")
        let live = AppStoreConnectApp(id: other.appID, bundleID: "com.example.live", name: "Live")
        do {
            _ = try await sync.push(folder: listing(), app: live, options: ListingOptions())
            Issue.record("expected an error")
        } catch {
            #expect(error.localizedDescription == "'Live' (com.example.live) has no app info that can be edited (its app infos are READY_FOR_DISTRIBUTION), "
                + "so name, subtitle and privacy URL cannot change now. Create a new App Store version first; App Store Connect then opens a new app info.")
        }
        #expect(try fixture.changes().isEmpty)
    }

    @Test func createVersionMakesTheVersionFirst() async throws {
        try folder.write("metadata/en-US/release_notes.txt", "New.\n")
        let plan = try await sync.push(folder: listing(), app: app, options: ListingOptions(version: "1.3.0", createVersion: true, dryRun: true))
        #expect(plan.versionCreated && plan.versionID.isEmpty && plan.changes.count == 1)
        #expect(try fixture.changes().isEmpty)
        // 1.2.0 is still in preparation, so the fake (as Apple) refuses a second one.
        await #expect(throws: AppStoreConnectError.self) {
            _ = try await sync.push(folder: listing(), app: app, options: ListingOptions(version: "1.3.0", createVersion: true))
        }
        #expect(try fixture.changes() == ["POST /v1/appStoreVersions"])
    }

    @Test func pullWritesEveryTextAndARepeatWritesNothing() async throws {
        try writeExample()
        _ = try await sync.push(folder: listing(), app: app, options: ListingOptions())
        let pulled = try await sync.pull(folder: listing("pulled"), app: app, options: ListingOptions())
        #expect(pulled.locales == ["de-DE", "en-US"] && pulled.written.count == 19)
        #expect(try String(contentsOfFile: folder.path + "/pulled/de-DE/keywords.txt", encoding: .utf8) == "example,app\n")
        #expect(try String(contentsOfFile: folder.path + "/pulled/en-US/marketing_url.txt", encoding: .utf8) == "\n")
        #expect(try String(contentsOfFile: folder.path + "/pulled/copyright.txt", encoding: .utf8) == "2026 Example Inc.\n")
        let again = try await sync.pull(folder: listing("pulled"), app: app, options: ListingOptions())
        #expect(again.written.isEmpty)
        let before = try Snapshot.of(folder.path)
        let dry = try await sync.pull(folder: listing("other"), app: app, options: ListingOptions(locales: ["de-DE"], dryRun: true))
        #expect(dry.written.count == 10 && dry.locales == ["de-DE"])
        #expect(try Snapshot.of(folder.path) == before)
        #expect(try fixture.fake.state().violations == [])
    }

    @Test func defaultFillsInForLocalesAppStoreConnectAlreadyHas() async throws {
        try folder.write("metadata/ja/name.txt", "例のアプリ\n")
        try folder.write("metadata/ja/description.txt", "説明\n")
        _ = try await sync.push(folder: listing(), app: app, options: ListingOptions())
        try folder.write("metadata2/en-US/name.txt", "Example\n")
        try folder.write("metadata2/default/promotional_text.txt", "Now with widgets.\n")
        let result = try await sync.push(folder: listing("metadata2"), app: app, options: ListingOptions())
        #expect(result.changes.map { "\($0.locale ?? "-") \($0.field?.rawValue ?? "")" } == [
            "en-US name", "en-US promotional_text", "ja promotional_text",
        ])
        let stored = try fixture.fake.stored("appStoreVersionLocalizations")
        let japanese = try #require(stored.first { ($0["attributes"] as? [String: Any])?["locale"] as? String == "ja" })
        #expect((japanese["attributes"] as? [String: Any])?["description"] as? String == "説明")
        #expect((japanese["attributes"] as? [String: Any])?["promotionalText"] as? String == "Now with widgets.")
        #expect(try fixture.fake.state().violations == [])
    }

    @Test func aNewLocaleWithoutANameStopsThePushBeforeAnythingIsSent() async throws {
        try folder.write("metadata/en-US/name.txt", "Example\n")
        try folder.write("metadata/fr-FR/subtitle.txt", "Faire des choses\n")
        do {
            _ = try await sync.push(folder: listing(), app: app, options: ListingOptions())
            Issue.record("expected an error")
        } catch {
            #expect(error.localizedDescription == "'fr-FR' is new on App Store Connect and App Store Connect requires a name for a new locale: "
                + "add fr-FR/name.txt (or default/name.txt).")
        }
        #expect(try fixture.changes().isEmpty)
    }

    @Test func withALiveAndAnEditableAppInfoTheEditableOneIsWritten() async throws {
        let appLink = #"{"type": "apps", "id": "\#(seeded.appID)"}"#
        let live = try fixture.fake.seed("appInfos", attributes: #"{"state": "READY_FOR_DISTRIBUTION"}"#, relationships: ["app": appLink])
        let liveName = try fixture.fake.seed("appInfoLocalizations", attributes: #"{"locale": "en-US", "name": "Old"}"#,
                                             relationships: ["appInfo": #"{"type": "appInfos", "id": "\#(live)"}"#])
        let draftName = try fixture.fake.seed("appInfoLocalizations", attributes: #"{"locale": "en-US", "name": "Old"}"#,
                                              relationships: ["appInfo": #"{"type": "appInfos", "id": "\#(seeded.appInfoID)"}"#])
        try folder.write("metadata/en-US/name.txt", "New Name\n")
        let result = try await sync.push(folder: listing(), app: app, options: ListingOptions())
        #expect(result.changes == [ListingChange(locale: "en-US", field: .name, kind: .changed, before: 3, after: 8)])
        #expect(try fixture.changes() == ["PATCH /v1/appInfoLocalizations/\(draftName)"])
        let names = try fixture.fake.stored("appInfoLocalizations").reduce(into: [String: String]()) { names, item in
            names[item["id"] as? String ?? ""] = (item["attributes"] as? [String: Any])?["name"] as? String
        }
        #expect(names == [liveName: "Old", draftName: "New Name"])
        #expect(try fixture.fake.state().violations == [])
    }
}
