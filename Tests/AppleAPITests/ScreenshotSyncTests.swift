import AppleAPI
import Basics
import Foundation
import TestSupport
import TestThreads
import Testing

@Suite("Screenshot push against the contract fake", .dedicatedThreads)
struct ScreenshotSyncTests {
    let fixture: ScreenshotFixture

    init() throws {
        fixture = try ScreenshotFixture()
    }

    /// en-US: three Series 3 screenshots (natural order 1_a, 2_b, 10_c) and one Series 4 JPEG; de-DE: one.
    func writeStandardFolder() throws {
        try fixture.write("en-US/10_c.png", ScreenshotFixture.watch(3))
        try fixture.write("en-US/2_b.png", ScreenshotFixture.watch(2))
        try fixture.write("en-US/1_a.png", ScreenshotFixture.watch(1))
        try fixture.write("en-US/watch4.jpg", ScreenshotImages.jpeg(width: 368, height: 448))
        try fixture.write("de-DE/1.png", ScreenshotFixture.watch(5))
        try fixture.write("en-US/notes.txt", Array("not a screenshot".utf8))
    }

    func push(removeMissing: Bool = false, dryRun: Bool = false) async throws -> ScreenshotReport {
        try await fixture.sync().push(folder: fixture.root, localizations: fixture.localizations,
                                      options: ScreenshotPushOptions(removeMissing: removeMissing, dryRun: dryRun, pollInterval: .seconds(1)))
    }

    @Test func theFirstPushUploadsEverySetInOrderWithItsMD5() async throws {
        try writeStandardFolder()
        let report = try await push()
        #expect(report.lines == ["de-DE APP_WATCH_SERIES_3: 1 uploaded (1.png)",
                                 "en-US APP_WATCH_SERIES_3: 3 uploaded (1_a.png, 2_b.png, 10_c.png)",
                                 "en-US APP_WATCH_SERIES_4: 1 uploaded (watch4.jpg)"])
        let sums = [1, 2, 3].map { ScreenshotFixture.md5(ScreenshotFixture.watch($0)) }
        #expect(try fixture.remote("en-US") == [
            "APP_WATCH_SERIES_3": [.init(name: "1_a.png", checksum: sums[0], state: "COMPLETE"),
                                   .init(name: "2_b.png", checksum: sums[1], state: "COMPLETE"),
                                   .init(name: "10_c.png", checksum: sums[2], state: "COMPLETE")],
            "APP_WATCH_SERIES_4": [.init(name: "watch4.jpg", checksum: ScreenshotFixture.md5(ScreenshotImages.jpeg(width: 368, height: 448)),
                                         state: "COMPLETE")],
        ])
        #expect(try fixture.remote("de-DE") == ["APP_WATCH_SERIES_3": [.init(name: "1.png", checksum: ScreenshotFixture.md5(ScreenshotFixture.watch(5)),
                                                                              state: "COMPLETE")]])
        // Each 15,9xx-byte PNG goes in 4 parts of at most 4,000 bytes, then is committed; no reorder is needed.
        let writes = try fixture.writes(from: 0)
        #expect(writes.filter { $0.hasPrefix("PUT /upload-parts/screenshots/") }.count == 4 * 4 + 1)
        #expect(writes.filter { $0.hasPrefix("POST /v1/appScreenshotSets") }.count == 3)
        #expect(!writes.contains { $0.contains("relationships") })
        #expect(writes.allSatisfy { $0.hasSuffix(" 200") || $0.hasSuffix(" 201") })
    }

    @Test func aRerunSendsNothing() async throws {
        try writeStandardFolder()
        _ = try await push()
        let before = try fixture.requestCount()
        let report = try await push()
        #expect(report.lines == ["de-DE APP_WATCH_SERIES_3: 1 unchanged", "en-US APP_WATCH_SERIES_3: 3 unchanged",
                                 "en-US APP_WATCH_SERIES_4: 1 unchanged"])
        #expect(try fixture.writes(from: before) == [])
    }

    @Test func oneChangedFileIsOneUploadAndAReorder() async throws {
        try writeStandardFolder()
        _ = try await push()
        try fixture.write("en-US/2_b.png", ScreenshotFixture.watch(9))
        let before = try fixture.requestCount()
        let report = try await push()
        #expect(report.entries.first { $0.locale == "en-US" && $0.displayType == "APP_WATCH_SERIES_3" }.map {
            [$0.uploaded, $0.unchanged, $0.replaced, $0.removed, $0.kept]
        } == [["2_b.png"], ["1_a.png", "10_c.png"], ["2_b.png"], [], []])
        #expect(report.lines[1] == "en-US APP_WATCH_SERIES_3: 1 uploaded (2_b.png), 2 unchanged, 1 replaced (2_b.png), reordered")
        #expect(try fixture.writes(from: before) == [
            "DELETE /v1/appScreenshots/# 204", "POST /v1/appScreenshots 201",
            "PUT /upload-parts/screenshots/#/# 200", "PUT /upload-parts/screenshots/#/# 200", "PUT /upload-parts/screenshots/#/# 200",
            "PUT /upload-parts/screenshots/#/# 200", "PATCH /v1/appScreenshots/# 200",
            "PATCH /v1/appScreenshotSets/#/relationships/appScreenshots 204",
        ])
        #expect(try fixture.remote("en-US")["APP_WATCH_SERIES_3"]?.map(\.name) == ["1_a.png", "2_b.png", "10_c.png"])
        #expect(try fixture.remote("en-US")["APP_WATCH_SERIES_3"]?[1].checksum == ScreenshotFixture.md5(ScreenshotFixture.watch(9)))
    }

    @Test func aChangedOrderIsOnlyAReorder() async throws {
        try writeStandardFolder()
        _ = try await push()
        try FileManager.default.moveItem(atPath: fixture.root + "/en-US/1_a.png", toPath: fixture.root + "/en-US/99_a.png")
        let before = try fixture.requestCount()
        let report = try await push()
        #expect(report.lines[1] == "en-US APP_WATCH_SERIES_3: 3 unchanged, reordered")
        #expect(try fixture.writes(from: before) == ["PATCH /v1/appScreenshotSets/#/relationships/appScreenshots 204"])
        #expect(try fixture.remote("en-US")["APP_WATCH_SERIES_3"]?.map(\.name) == ["2_b.png", "10_c.png", "1_a.png"])
    }

    @Test func aFileRemovedLocallyIsKeptWithoutTheFlagAndDeletedWithIt() async throws {
        try writeStandardFolder()
        _ = try await push()
        try FileManager.default.removeItem(atPath: fixture.root + "/en-US/10_c.png")
        var before = try fixture.requestCount()
        let kept = try await push()
        #expect(kept.lines[1] == "en-US APP_WATCH_SERIES_3: 2 unchanged, 1 kept (10_c.png: absent locally; --remove-screenshots deletes it)")
        #expect(try fixture.writes(from: before) == [])
        #expect(try fixture.remote("en-US")["APP_WATCH_SERIES_3"]?.map(\.name) == ["1_a.png", "2_b.png", "10_c.png"])

        before = try fixture.requestCount()
        let removed = try await push(removeMissing: true)
        #expect(removed.lines[1] == "en-US APP_WATCH_SERIES_3: 2 unchanged, 1 removed (10_c.png)")
        #expect(try fixture.writes(from: before) == ["DELETE /v1/appScreenshots/# 204"])
        #expect(try fixture.remote("en-US")["APP_WATCH_SERIES_3"]?.map(\.name) == ["1_a.png", "2_b.png"])
        // A locale without a folder is never touched, even with the flag.
        try FileManager.default.removeItem(atPath: fixture.root + "/de-DE")
        before = try fixture.requestCount()
        _ = try await push(removeMissing: true)
        #expect(try fixture.writes(from: before) == [])
        #expect(try fixture.remote("de-DE")["APP_WATCH_SERIES_3"]?.count == 1)
    }

    @Test func aDryRunReportsThePlanAndSendsNothing() async throws {
        try writeStandardFolder()
        let report = try await push(dryRun: true)
        #expect(report.dryRun)
        #expect(report.lines == ["de-DE APP_WATCH_SERIES_3: 1 to upload (1.png)",
                                 "en-US APP_WATCH_SERIES_3: 3 to upload (1_a.png, 2_b.png, 10_c.png)",
                                 "en-US APP_WATCH_SERIES_4: 1 to upload (watch4.jpg)"])
        #expect(try fixture.writes(from: 0) == [])
        #expect(report.json().contains(#""dryRun" : true"#))
    }

    @Test func badFilesAreAllReportedAndNothingIsSentOrChanged() async throws {
        try fixture.write("default/1.png", ScreenshotFixture.watch(1))
        try fixture.write("en-US/small.png", ScreenshotImages.png(width: 100, height: 100))
        try fixture.write("en-US/photo.png", ScreenshotImages.jpeg(width: 312, height: 390))
        try fixture.write("en-US/cut.png", Array(ScreenshotFixture.watch(1).prefix(20)))
        try fixture.write("en-US/good.png", ScreenshotFixture.watch(1))
        try fixture.write("fr-FR/1.png", ScreenshotFixture.watch(1))
        let root = fixture.root
        let before = try Snapshot.of(fixture.folder.path)
        let error = await #expect(throws: ScreenshotError.self) { try await push() }
        #expect(error?.errorDescription == """
            the screenshots in '\(root)' have 5 problems; nothing was sent:
              - '\(root)/default' (deliver's screenshots for every language) is not supported: copy its files into each locale's folder
              - '\(root)/en-US/cut.png' is a PNG cut short: 20 bytes, too few for its IHDR chunk: export it again as PNG or JPEG
              - '\(root)/en-US/photo.png' is a JPEG image named .png: rename it to 'photo.jpg'
              - '\(root)/en-US/small.png' is 100x100 pixels, which no App Store display type accepts. Accepted sizes \
            (https://developer.apple.com/help/app-store-connect/reference/screenshot-specifications): \(ScreenshotDisplayTypes.acceptedSizesText(iMessage: false))
              - '\(root)/fr-FR' holds screenshots for 'fr-FR', which is not a localization of this version (it has de-DE, en-US): \
            add the localization, or rename the folder to its locale
            """)
        #expect(ScreenshotDisplayTypes.acceptedSizesText(iMessage: false).hasPrefix("APP_IPHONE_67 1260x2736, 2736x1260, 1290x2796, 2796x1290"))
        #expect(try fixture.fake.state().requests.isEmpty)
        #expect(try Snapshot.of(fixture.folder.path) == before)
    }

    @Test func moreThanTenInASetIsRefusedBeforeAnythingIsSent() async throws {
        for index in 1...11 { try fixture.write("en-US/\(index).png", ScreenshotFixture.watch(index)) }
        let error = await #expect(throws: ScreenshotError.self) { try await push() }
        #expect(error?.errorDescription == """
            the screenshots in '\(fixture.root)' have 1 problem; nothing was sent:
              - '\(fixture.root)/en-US' has 11 screenshots for APP_WATCH_SERIES_3; Apple takes at most 10 per display type and locale \
            (https://developer.apple.com/help/app-store-connect/reference/screenshot-specifications): remove 1
            """)
        #expect(try fixture.fake.state().requests.isEmpty)
    }

    @Test func keptRemoteScreenshotsCountTowardsTheLimit() async throws {
        for index in 1...6 { try fixture.write("en-US/\(index).png", ScreenshotFixture.watch(index)) }
        _ = try await push()
        for index in 1...6 { try FileManager.default.removeItem(atPath: fixture.root + "/en-US/\(index).png") }
        for index in 7...11 { try fixture.write("en-US/\(index).png", ScreenshotFixture.watch(index)) }
        let before = try fixture.requestCount()
        let error = await #expect(throws: ScreenshotError.self) { try await push() }
        #expect(error?.errorDescription == """
            the screenshots in '\(fixture.root)' have 1 problem; nothing was sent:
              - en-US APP_WATCH_SERIES_3: 5 local screenshots and 6 kept on App Store Connect (1.png, 2.png, 3.png, 4.png, 5.png, 6.png) \
            are more than Apple's 10: pass --remove-screenshots to delete the ones absent locally
            """)
        #expect(try fixture.writes(from: before) == [])
        let report = try await push(removeMissing: true)
        #expect(report.lines == ["en-US APP_WATCH_SERIES_3: 5 uploaded (7.png, 8.png, 9.png, 10.png, 11.png), "
                                 + "6 removed (1.png, 2.png, 3.png, 4.png, 5.png, 6.png)"])
    }

    @Test func aFailedPartUploadIsRetried() async throws {
        try fixture.write("en-US/1.png", ScreenshotFixture.watch(1))
        try fixture.fake.inject(.status(500, method: "PUT", path: "/upload-parts/screenshots/"))
        let said = Recorder<String>()
        let report = try await fixture.sync().push(folder: fixture.root, localizations: fixture.localizations,
                                                   options: ScreenshotPushOptions(progress: { said.append($0) }, pollInterval: .seconds(1)))
        #expect(report.lines == ["en-US APP_WATCH_SERIES_3: 1 uploaded (1.png)"])
        #expect(said.values == ["en-US APP_WATCH_SERIES_3: creating the screenshot set", "en-US APP_WATCH_SERIES_3: uploading 1.png"])
        let json = try JSONSerialization.jsonObject(with: Data(report.json().utf8)) as? [String: Any]
        let entry = (json?["entries"] as? [[String: Any]])?.first
        #expect(json?["dryRun"] as? Bool == false && json?["pulled"] as? Bool == false)
        #expect(entry?["locale"] as? String == "en-US" && entry?["displayType"] as? String == "APP_WATCH_SERIES_3")
        #expect(entry?["uploaded"] as? [String] == ["1.png"] && entry?["kept"] as? [String] == [] && entry?["reordered"] as? Bool == false)
        #expect(try fixture.writes(from: 0).filter { $0.hasPrefix("PUT") }.map { String($0.suffix(3)) } == ["500", "200", "200", "200", "200"])
        #expect(fixture.base.sleeps.values.count == 1)
        #expect(try fixture.remote("en-US")["APP_WATCH_SERIES_3"]?.map(\.state) == ["COMPLETE"])
    }

    @Test func aChecksumMismatchIsReportedAsFailedAndTheNextRunReplacesIt() async throws {
        let path = try fixture.write("en-US/1.png", ScreenshotFixture.watch(1))
        try fixture.write("en-US/2.png", ScreenshotFixture.watch(2))
        try fixture.fake.set(["screenshot_corrupt_parts": "true"])
        let error = await #expect(throws: ScreenshotError.self) { try await push() }
        #expect(error?.errorDescription?.hasPrefix("""
            App Store Connect did not accept 2 screenshots:
              - en-US APP_WATCH_SERIES_3 '\(path)': App Store Connect marked it FAILED \
            (ASSET_CHECKSUM_MISMATCH: The uploaded file's checksum does not match sourceFileChecksum.)
            """) == true)
        #expect(error?.errorDescription?.hasSuffix("\nFix the files Apple refused and run again: screenshots it accepted are not sent again.") == true)
        #expect(try fixture.remote("en-US")["APP_WATCH_SERIES_3"]?.map(\.state) == ["FAILED", "FAILED"])

        try fixture.fake.set(["screenshot_corrupt_parts": "false"])
        let report = try await push()
        #expect(report.lines == ["en-US APP_WATCH_SERIES_3: 2 uploaded (1.png, 2.png), 2 replaced (1.png, 2.png)"])
        #expect(try fixture.remote("en-US")["APP_WATCH_SERIES_3"]?.map(\.state) == ["COMPLETE", "COMPLETE"])
    }

    @Test func deliversSpecialFoldersAreReadAsDeliverReadsThem() async throws {
        try fixture.write("en-US/1.png", ScreenshotFixture.watch(1))
        try fixture.write("en-US/1_framed.png", ScreenshotFixture.watch(2))
        try fixture.write("en-US/watch_1.png", ScreenshotImages.png(width: 368, height: 448))
        try fixture.write("appleTV/en-US/tv.png", ScreenshotImages.png(width: 1920, height: 1080))
        try fixture.write("iMessage/de-DE/chat.jpg", ScreenshotImages.jpeg(width: 750, height: 1334))
        try fixture.write("android/en-US/phone.png", ScreenshotImages.png(width: 100, height: 100))
        let report = try await push(dryRun: true)
        #expect(report.lines == ["de-DE IMESSAGE_APP_IPHONE_47: 1 to upload (chat.jpg)",
                                 "en-US APP_APPLE_TV: 1 to upload (tv.png)",
                                 "en-US APP_WATCH_SERIES_3: 1 to upload (1_framed.png)",
                                 "en-US APP_WATCH_SERIES_4: 1 to upload (watch_1.png)"])
        #expect(try fixture.writes(from: 0) == [])
    }

    @Test func aScreenshotStillProcessingIsReportedAndLeftAloneNextTime() async throws {
        let path = try fixture.write("en-US/1.png", ScreenshotFixture.watch(1))
        try fixture.fake.set(["screenshot_polls": "5"])
        let error = await #expect(throws: ScreenshotError.self) {
            try await fixture.sync().push(folder: fixture.root, localizations: fixture.localizations,
                                          options: ScreenshotPushOptions(processingPolls: 2, pollInterval: .seconds(3)))
        }
        #expect(error?.errorDescription == """
            App Store Connect did not accept 1 screenshot:
              - en-US APP_WATCH_SERIES_3 '\(path)': still UPLOAD_COMPLETE after 2 polls; run again later (a screenshot Apple finishes is then left alone)
            Fix the files Apple refused and run again: screenshots it accepted are not sent again.
            """)
        #expect(fixture.base.sleeps.values == [.seconds(3)])
        let pulled = try await fixture.sync().pull(folder: fixture.folder.path + "/pulled", localizations: fixture.localizations)
        #expect(pulled.lines == ["en-US APP_WATCH_SERIES_3: 1 skipped (1.png UPLOAD_COMPLETE: not processed by App Store Connect yet)"])
        #expect(!FileManager.default.fileExists(atPath: fixture.folder.path + "/pulled/en-US/0_APP_WATCH_SERIES_3_0.png"))
        let before = try fixture.requestCount()
        let report = try await push()
        #expect(report.lines == ["en-US APP_WATCH_SERIES_3: 1 unchanged"])
        #expect(try fixture.writes(from: before) == [])
    }
}
