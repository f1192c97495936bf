import AppleAPI
import Basics
import Foundation
import Testing
import TestSupport
import TestThreads

/// deliver's metadata folder: reading (default/, locales, trailing newlines, files not sent),
/// writing (only what changed, never deleting) and Apple's limits, offline.
@Suite("Listing folder", .dedicatedThreads)
struct ListingFolderTests {
    let folder: TemporaryDirectory

    init() throws {
        folder = try TemporaryDirectory(prefix: "slipway-listing-folder")
    }

    var listing: ListingFolder { ListingFolder(path: folder.path + "/metadata", fileSystem: LocalFileSystem()) }

    @Test func readsLocalesDefaultsCopyrightAndTrimsTrailingLineBreaks() throws {
        try folder.write("metadata/en-US/name.txt", "Example\n")
        try folder.write("metadata/en-US/description.txt", "  Line one\r\nLine two\r\n\r\n")
        try folder.write("metadata/de-DE/name.txt", "Beispiel")
        try folder.write("metadata/default/keywords.txt", "alpha,beta\n")
        try folder.write("metadata/default/name.txt", "Fallback\n")
        try folder.write("metadata/copyright.txt", "2026 Example Inc.\n")
        let contents = try listing.read()
        #expect(contents.locales["en-US"] == [.name: "Example", .description: "  Line one\r\nLine two"])
        #expect(contents.locales["de-DE"] == [.name: "Beispiel"])
        #expect(contents.defaults == [.keywords: "alpha,beta", .name: "Fallback"])
        #expect(contents.effective("de-DE") == [.name: "Beispiel", .keywords: "alpha,beta"])
        #expect(contents.copyright == "2026 Example Inc.")
        #expect(contents.unsent.isEmpty)
        #expect(try listing.read(only: ["de-DE"]).locales.keys.sorted() == ["de-DE"])
    }

    @Test func filesSlipwayDoesNotSendAreReportedWithTheReason() throws {
        try folder.write("metadata/en-US/name.txt", "Example\n")
        try folder.write("metadata/en-US/apple_tv_privacy_policy.txt", "\n")
        try folder.write("metadata/en-US/notes.md", "x")
        try folder.write("metadata/primary_category.txt", "MZGenre.Lifestyle\n")
        try folder.write("metadata/review_information/notes.txt", "hi\n")
        try folder.write("metadata/app_icon.png", "png")
        let unsent = try listing.read().unsent.map(\.description)
        #expect(unsent == [
            "not sent: app_icon.png (App Store Connect's API has no call for the App Store icon: it comes from the build's asset catalog)",
            "not sent: en-US/apple_tv_privacy_policy.txt (the tvOS privacy policy text (privacyPolicyText); Slipway does not send it yet)",
            "not sent: en-US/notes.md (not a file of deliver's metadata layout)",
            "not sent: primary_category.txt (app categories are the app info's relationships; Slipway does not send them yet: set them in App Store Connect)",
            "not sent: review_information/notes.txt (App Review contact and notes; Slipway does not send them yet: enter them in App Store Connect)",
        ])
    }

    @Test func anUnknownLocaleFolderIsNamedWithTheNearestCodes() throws {
        try folder.write("metadata/en/name.txt", "Example\n")
        #expect(throws: AppStoreListingError.unknownLocaleFolder(path: folder.path + "/metadata/en", suggestions: ["en-AU", "en-CA", "en-GB", "en-US"])) {
            try listing.read()
        }
        let error = AppStoreListingError.unknownLocaleFolder(path: "fastlane/metadata/de_DE", suggestions: AppStoreLocales.suggestions(for: "de_DE"))
        #expect(error.localizedDescription == "the folder 'fastlane/metadata/de_DE' is not an App Store locale (codes are case-sensitive); "
            + "did you mean 'de-DE'? Rename it to an accepted code (listed in docs/appstore-metadata.md), or move it out of the metadata folder.")
        #expect(throws: AppStoreListingError.folderMissing(folder.path + "/missing")) {
            try ListingFolder(path: folder.path + "/missing", fileSystem: LocalFileSystem()).read()
        }
    }

    @Test func writesOnlyWhatChangedAndDeletesNothing() throws {
        try folder.write("metadata/en-US/name.txt", "Example\r\n")
        try folder.write("metadata/en-US/mine.txt", "kept\n")
        try folder.write("metadata/default/keywords.txt", "alpha\n")
        let before = try Snapshot.of(folder.path)
        var texts = ListingTexts(copyright: "2026 Example")
        texts.locales["en-US"] = [.name: "Example", .keywords: "alpha", .description: "New\n"]
        let dry = try listing.write(texts, over: try listing.read(), dryRun: true)
        #expect(try Snapshot.of(folder.path) == before)
        let written = try listing.write(texts, over: try listing.read())
        #expect(written == dry)
        // name (same meaning) and keywords (default/ gives it) are left; every other field is written.
        #expect(written == ["en-US/subtitle.txt", "en-US/privacy_url.txt", "en-US/description.txt", "en-US/promotional_text.txt",
                            "en-US/release_notes.txt", "en-US/support_url.txt", "en-US/marketing_url.txt", "copyright.txt"])
        #expect(try String(contentsOfFile: folder.path + "/metadata/en-US/name.txt", encoding: .utf8) == "Example\r\n")
        #expect(try String(contentsOfFile: folder.path + "/metadata/en-US/description.txt", encoding: .utf8) == "New\n")
        #expect(try String(contentsOfFile: folder.path + "/metadata/en-US/subtitle.txt", encoding: .utf8) == "\n")
        #expect(try String(contentsOfFile: folder.path + "/metadata/en-US/mine.txt", encoding: .utf8) == "kept\n")
        #expect(try listing.write(texts, over: try listing.read()).isEmpty)
    }

    @Test func everyLimitIsCheckedAndAllViolationsAreReportedAtOnce() throws {
        try folder.write("metadata/en-US/name.txt", String(repeating: "n", count: 31) + "\n")
        try folder.write("metadata/en-US/subtitle.txt", String(repeating: "s", count: 30) + "\n")
        try folder.write("metadata/en-US/keywords.txt", String(repeating: "k", count: 101))
        try folder.write("metadata/en-US/promotional_text.txt", String(repeating: "p", count: 171))
        try folder.write("metadata/en-US/description.txt", String(repeating: "d", count: 4001))
        try folder.write("metadata/en-US/release_notes.txt", String(repeating: "é", count: 4001))
        try folder.write("metadata/en-US/support_url.txt", "ftp://example.com\n")
        try folder.write("metadata/de-DE/name.txt", "B\n")
        try folder.write("metadata/fr-FR/name.txt", "\n")
        try folder.write("metadata/de-DE/subtitle.txt", String(repeating: "ü", count: 30))
        try folder.write("metadata/default/marketing_url.txt", "example.com\n")
        try folder.write("metadata/default/privacy_url.txt", "https://example.com/privacy\n")
        let before = try Snapshot.of(folder.path)
        do {
            _ = try ListingSync.check(folder: listing, options: ListingOptions())
            Issue.record("expected an error")
        } catch {
            #expect(error.localizedDescription == """
                9 texts would be refused by App Store Connect, so nothing was sent:
                  de-DE/name.txt: name is 1 character; App Store Connect needs at least 2 (App Store Connect Help, App information)
                  default/marketing_url.txt: marketing URL 'example.com' is not an http:// or https:// URL; App Store Connect accepts only those
                  en-US/name.txt: name is 31 characters; App Store Connect accepts at most 30 (App Store Connect Help, App information)
                  en-US/description.txt: description is 4001 characters; App Store Connect accepts at most 4000 (App Store Connect Help, Platform version information)
                  en-US/keywords.txt: keywords is 101 characters; App Store Connect accepts at most 100 (App Store Connect Help, Platform version information)
                  en-US/promotional_text.txt: promotional text is 171 characters; App Store Connect accepts at most 170 (App Store Connect Help, Platform version information)
                  en-US/release_notes.txt: What's New is 4001 characters; App Store Connect accepts at most 4000 (App Store Connect Help, Platform version information)
                  en-US/support_url.txt: support URL 'ftp://example.com' is not an http:// or https:// URL; App Store Connect accepts only those
                  fr-FR/name.txt: name is empty; App Store Connect needs a name of 2 to 30 characters (App Store Connect Help, App information)
                Shorten or correct them and run again.
                """)
        }
        #expect(try Snapshot.of(folder.path) == before)
    }
}
