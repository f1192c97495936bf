import AppleAPI
import Basics
import Foundation
import TestSupport
import TestThreads
import Testing

@Suite("Screenshot pull against the contract fake", .dedicatedThreads)
struct ScreenshotPullTests {
    let fixture: ScreenshotFixture

    init() throws {
        fixture = try ScreenshotFixture()
    }

    var pulled: String { fixture.folder.path + "/pulled" }

    func push(_ folder: String? = nil) async throws -> ScreenshotReport {
        try await fixture.sync().push(folder: folder ?? fixture.root, localizations: fixture.localizations,
                                      options: ScreenshotPushOptions(pollInterval: .seconds(1)))
    }

    func read(_ path: String) throws -> [UInt8] { Array(try Data(contentsOf: URL(fileURLWithPath: path))) }

    @Test func pullWritesDeliversLayoutAndASecondPullWritesNothing() async throws {
        try fixture.write("en-US/10_c.png", ScreenshotFixture.watch(3))
        try fixture.write("en-US/2_b.png", ScreenshotFixture.watch(2))
        try fixture.write("en-US/1_a.png", ScreenshotFixture.watch(1))
        try fixture.write("en-US/watch4.jpeg", ScreenshotImages.jpeg(width: 368, height: 448))
        try fixture.write("iMessage/de-DE/1.png", ScreenshotImages.png(width: 640, height: 1136))
        _ = try await push()

        let first = try await fixture.sync().pull(folder: pulled, localizations: fixture.localizations)
        #expect(first.lines == [
            "de-DE IMESSAGE_APP_IPHONE_40: 1 written (0_IMESSAGE_APP_IPHONE_40_0.png)",
            "en-US APP_WATCH_SERIES_3: 3 written (0_APP_WATCH_SERIES_3_0.png, 1_APP_WATCH_SERIES_3_1.png, 2_APP_WATCH_SERIES_3_2.png)",
            "en-US APP_WATCH_SERIES_4: 1 written (0_APP_WATCH_SERIES_4_0.jpeg)",
        ])
        #expect(try read(pulled + "/en-US/0_APP_WATCH_SERIES_3_0.png") == ScreenshotFixture.watch(1))
        #expect(try read(pulled + "/en-US/1_APP_WATCH_SERIES_3_1.png") == ScreenshotFixture.watch(2))
        #expect(try read(pulled + "/en-US/2_APP_WATCH_SERIES_3_2.png") == ScreenshotFixture.watch(3))
        #expect(try read(pulled + "/en-US/0_APP_WATCH_SERIES_4_0.jpeg") == ScreenshotImages.jpeg(width: 368, height: 448))
        #expect(try read(pulled + "/iMessage/de-DE/0_IMESSAGE_APP_IPHONE_40_0.png") == ScreenshotImages.png(width: 640, height: 1136))
        let downloads = try fixture.fake.state().requests.filter { $0.path.hasPrefix("/assets/") }
        #expect(downloads.count == 5)
        #expect(downloads.allSatisfy { $0.status == 200 && !$0.path.contains("{") })

        let snapshot = try Snapshot.of(pulled)
        let before = try fixture.requestCount()
        let second = try await fixture.sync().pull(folder: pulled, localizations: fixture.localizations)
        #expect(second.lines == ["de-DE IMESSAGE_APP_IPHONE_40: 1 unchanged", "en-US APP_WATCH_SERIES_3: 3 unchanged",
                                 "en-US APP_WATCH_SERIES_4: 1 unchanged"])
        #expect(try Snapshot.of(pulled) == snapshot)
        #expect(try fixture.fake.state().requests.dropFirst(before).filter { $0.path.hasPrefix("/assets/") }.isEmpty)

        // Round trip: pushing the pulled folder sends nothing.
        let pushedBack = try await push(pulled)
        #expect(pushedBack.entries.allSatisfy { $0.uploaded.isEmpty && !$0.reordered && $0.unchanged.count > 0 })
        #expect(try fixture.writes(from: before) == [])
    }

    @Test func aChangedFileOnDiskIsRewrittenAtomicallyAndOthersAreLeftAlone() async throws {
        try fixture.write("en-US/1.png", ScreenshotFixture.watch(1))
        try fixture.write("en-US/2.png", ScreenshotFixture.watch(2))
        _ = try await push()
        _ = try await fixture.sync().pull(folder: pulled, localizations: fixture.localizations)
        try fixture.write("en-US/1_APP_WATCH_SERIES_3_1.png", Array("edited".utf8), under: pulled)
        try fixture.write("en-US/mine.txt", Array("kept".utf8), under: pulled)
        // Files an earlier pull named that Apple no longer has go; look-alikes of no display type stay.
        try fixture.write("en-US/5_APP_WATCH_SERIES_3_5.png", ScreenshotFixture.watch(5), under: pulled)
        try fixture.write("en-US/0_APP_WATCH_SERIES_4_0.png", ScreenshotFixture.watch(6), under: pulled)
        try fixture.write("en-US/7_NOT_A_TYPE_7.png", ScreenshotFixture.watch(7), under: pulled)
        let report = try await fixture.sync().pull(folder: pulled, localizations: fixture.localizations)
        #expect(report.lines == ["en-US APP_WATCH_SERIES_3: 1 written (1_APP_WATCH_SERIES_3_1.png), 1 unchanged, 1 removed (5_APP_WATCH_SERIES_3_5.png)",
                                 "en-US APP_WATCH_SERIES_4: 1 removed (0_APP_WATCH_SERIES_4_0.png)"])
        #expect(try read(pulled + "/en-US/1_APP_WATCH_SERIES_3_1.png") == ScreenshotFixture.watch(2))
        #expect(try read(pulled + "/en-US/mine.txt") == Array("kept".utf8))
        #expect(try FileManager.default.contentsOfDirectory(atPath: pulled + "/en-US").sorted()
                == ["0_APP_WATCH_SERIES_3_0.png", "1_APP_WATCH_SERIES_3_1.png", "7_NOT_A_TYPE_7.png", "mine.txt"])
    }

    @Test func aDownloadLargerThanTheLimitIsRefusedAndNothingIsWritten() async throws {
        try fixture.write("en-US/1.png", ScreenshotFixture.watch(1))
        _ = try await push()
        try fixture.fake.set(["asset_padding": "100000"])
        try FileManager.default.createDirectory(atPath: pulled, withIntermediateDirectories: true)
        let before = try Snapshot.of(pulled)
        let error = await #expect(throws: ScreenshotError.self) {
            try await fixture.sync(maximumDownloadBytes: 50_000).pull(folder: pulled, localizations: fixture.localizations)
        }
        let shots = try JSONSerialization.jsonObject(with: fixture.fake.resources("appScreenshots")) as? [[String: Any]]
        let template = try #require(((shots?.first?["attributes"] as? [String: Any])?["imageAsset"] as? [String: Any])?["templateUrl"] as? String)
        let url = template.replacingOccurrences(of: "{w}x{h}bb.{f}", with: "312x390bb.png")
        #expect(error?.errorDescription == "the screenshot at '\(url)' is larger than "
                + "the 50000 bytes slipway downloads for one image; nothing was written. Check that the App Store Connect address is Apple's.")
        #expect(try Snapshot.of(pulled) == before)
    }
}
