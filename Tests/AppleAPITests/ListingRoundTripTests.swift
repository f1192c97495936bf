import AppleAPI
import Basics
import Foundation
import Testing
import TestSupport
import TestThreads

/// A real metadata folder (Home Assistant's iOS app, Fixtures/listing/MANIFEST.md) pushed to the
/// contract fake, pulled, pushed again and pulled again.
@Suite("Listing round trip of a real metadata folder", .dedicatedThreads)
struct ListingRoundTripTests {
    static let fixture = URL(fileURLWithPath: #filePath).deletingLastPathComponent().path + "/Fixtures/listing/home-assistant/metadata"

    /// relative path → bytes of every file under `root`.
    func files(_ root: String) throws -> [String: Data] {
        var found: [String: Data] = [:]
        let enumerator = FileManager.default.enumerator(atPath: root)
        while let relative = enumerator?.nextObject() as? String {
            var isFolder: ObjCBool = false
            if FileManager.default.fileExists(atPath: root + "/" + relative, isDirectory: &isFolder), !isFolder.boolValue {
                found[relative] = FileManager.default.contents(atPath: root + "/" + relative)
            }
        }
        return found
    }

    @Test func pushPullPushPullIsByteIdenticalAndTheSecondPushSendsNothing() async throws {
        let api = try AppleAPIFixture()
        let seeded = try api.fake.seedListing(bundleID: "io.robbie.HomeAssistant", name: "Home Assistant")
        let app = AppStoreConnectApp(id: seeded.appID, bundleID: "io.robbie.HomeAssistant", name: "Home Assistant")
        let temporary = try TemporaryDirectory(prefix: "slipway-listing-roundtrip")
        let sync = ListingSync(client: api.client(), fileSystem: LocalFileSystem())
        let original = ListingFolder(path: Self.fixture, fileSystem: LocalFileSystem())
        let originalBytes = try files(Self.fixture)
        #expect(originalBytes.count == 137)

        let seededPush = try await sync.push(folder: original, app: app, options: ListingOptions())
        // every non-empty text of the 13 locales, and the copyright
        #expect(seededPush.unchangedLocales.isEmpty && seededPush.changes.count == 97 && seededPush.changes.allSatisfy { $0.kind == .new })
        let locales = ["de-DE", "en-US", "es-ES", "es-MX", "fi", "fr-FR", "it", "nl-NL", "no", "ru", "sv", "zh-Hans", "zh-Hant"]
        #expect(seededPush.unsent.map(\.path) == (locales.map { "\($0)/apple_tv_privacy_policy.txt" } + [
            "primary_category.txt", "primary_first_sub_category.txt", "primary_second_sub_category.txt",
            "secondary_category.txt", "secondary_first_sub_category.txt", "secondary_second_sub_category.txt",
        ]).sorted())
        #expect(seededPush.unsent.first?.description
            == "not sent: de-DE/apple_tv_privacy_policy.txt (the tvOS privacy policy text (privacyPolicyText); Slipway does not send it yet)")

        let first = ListingFolder(path: temporary.path + "/first", fileSystem: LocalFileSystem())
        let pulled = try await sync.pull(folder: first, app: app, options: ListingOptions())
        #expect(pulled.locales == locales)
        let writesBefore = try api.changes().count

        let repush = try await sync.push(folder: first, app: app, options: ListingOptions())
        #expect(repush.changes.isEmpty && repush.unchangedLocales == locales && repush.unsent.isEmpty)
        #expect(try api.changes().count == writesBefore)

        let second = ListingFolder(path: temporary.path + "/second", fileSystem: LocalFileSystem())
        _ = try await sync.pull(folder: second, app: app, options: ListingOptions())
        let firstBytes = try files(first.path), secondBytes = try files(second.path)
        #expect(firstBytes == secondBytes)
        let handled = originalBytes.filter { path, _ in
            path == "copyright.txt" || (path.split(separator: "/").count == 2 && ListingField(fileName: String(path.split(separator: "/")[1])) != nil)
        }
        #expect(handled.count == 13 * 9 + 1)
        #expect(Set(firstBytes.keys) == Set(handled.keys))
        for (path, bytes) in handled { #expect(firstBytes[path] == bytes, "\(path) differs after the round trip") }
        #expect(try api.fake.state().violations == [])
    }
}
