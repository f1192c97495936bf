import AppleAPI
import Foundation
import TestSupport
import TestThreads
import Testing

@Suite("Screenshot headers and display types", .dedicatedThreads)
struct ScreenshotImageTests {
    @Test func pngAndJPEGSizesAreReadFromTheirHeaders() throws {
        let png = try ScreenshotImageHeader.read(ScreenshotImages.png(width: 1290, height: 2796)).get()
        #expect(png == ScreenshotImageHeader(format: .png, size: ScreenshotPixelSize(1290, 2796)))
        let jpeg = try ScreenshotImageHeader.read(ScreenshotImages.jpeg(width: 2868, height: 1320, seed: 3)).get()
        #expect(jpeg == ScreenshotImageHeader(format: .jpeg, size: ScreenshotPixelSize(2868, 1320)))
    }

    @Test func brokenHeadersAreProblemsNamingWhatIsWrong() {
        let png = ScreenshotImages.png(width: 312, height: 390)
        #expect(problem(Array(png.prefix(20))) == "is a PNG cut short: 20 bytes, too few for its IHDR chunk")
        var renamedChunk = png
        renamedChunk[12] = UInt8(ascii: "X")
        #expect(problem(renamedChunk) == "is a PNG whose first chunk is not a 13-byte IHDR")
        let jpeg = ScreenshotImages.jpeg(width: 312, height: 390)
        #expect(problem(Array(jpeg.prefix(30))) == "is a JPEG cut short: no frame header (SOF) in its 30 bytes")
        #expect(problem(Array("GIF89a....".utf8)) == "is neither a PNG nor a JPEG image (its first bytes are 47 49 46 38 39 61 2e 2e)")
        #expect(problem([]) == "is empty (0 bytes)")
        var zeroLength = jpeg
        zeroLength[4] = 0
        zeroLength[5] = 0
        #expect(problem(zeroLength) == "is a JPEG with a segment of impossible length 0 at byte 2")
    }

    @Test func displayTypesFollowDeliversSizesAndTieBreaks() {
        func type(_ width: Int, _ height: Int, _ path: String = "/s/en-US/1.png", iMessage: Bool = false) -> String? {
            ScreenshotDisplayTypes.displayType(of: ScreenshotPixelSize(width, height), path: path, iMessage: iMessage)
        }
        #expect(type(1320, 2868) == "APP_IPHONE_67")
        #expect(type(2796, 1290) == "APP_IPHONE_67")
        #expect(type(1284, 2778) == "APP_IPHONE_65")
        #expect(type(1206, 2622) == "APP_IPHONE_61")
        #expect(type(1242, 2208) == "APP_IPHONE_55")
        #expect(type(2064, 2752) == "APP_IPAD_PRO_3GEN_129")
        #expect(type(2048, 2732) == "APP_IPAD_PRO_3GEN_129")
        #expect(type(2048, 2732, "/s/en-US/APP_IPAD_PRO_129_1.png") == "APP_IPAD_PRO_129")
        #expect(type(2048, 2732, "/s/en-US/iPad Pro (12.9-inch) (2nd generation)-1.png") == "APP_IPAD_PRO_129")
        #expect(type(3840, 2160) == "APP_APPLE_TV")
        #expect(type(3840, 2160, "/s/en-US/vision-1.png") == "APP_APPLE_VISION_PRO")
        #expect(type(2880, 1800) == "APP_DESKTOP")
        #expect(type(410, 502) == "APP_WATCH_ULTRA")
        #expect(type(640, 1136, iMessage: true) == "IMESSAGE_APP_IPHONE_40")
        #expect(type(2048, 2732, iMessage: true) == "IMESSAGE_APP_IPAD_PRO_3GEN_129")
        #expect(type(640, 960, iMessage: true) == nil)
        #expect(type(100, 100) == nil)
    }

    @Test func everyDisplayTypeIsOneOfApplesEnumValues() throws {
        // ScreenshotDisplayType in Apple's OpenAPI document 4.4.1.
        let apple: Set = ["APP_IPHONE_67", "APP_IPHONE_61", "APP_IPHONE_65", "APP_IPHONE_58", "APP_IPHONE_55", "APP_IPHONE_47", "APP_IPHONE_40",
                          "APP_IPHONE_35", "APP_IPAD_PRO_3GEN_129", "APP_IPAD_PRO_3GEN_11", "APP_IPAD_PRO_129", "APP_IPAD_105", "APP_IPAD_97",
                          "APP_DESKTOP", "APP_WATCH_ULTRA", "APP_WATCH_SERIES_10", "APP_WATCH_SERIES_7", "APP_WATCH_SERIES_4", "APP_WATCH_SERIES_3",
                          "APP_APPLE_TV", "APP_APPLE_VISION_PRO", "IMESSAGE_APP_IPHONE_67", "IMESSAGE_APP_IPHONE_61", "IMESSAGE_APP_IPHONE_65",
                          "IMESSAGE_APP_IPHONE_58", "IMESSAGE_APP_IPHONE_55", "IMESSAGE_APP_IPHONE_47", "IMESSAGE_APP_IPHONE_40",
                          "IMESSAGE_APP_IPAD_PRO_3GEN_129", "IMESSAGE_APP_IPAD_PRO_3GEN_11", "IMESSAGE_APP_IPAD_PRO_129", "IMESSAGE_APP_IPAD_105",
                          "IMESSAGE_APP_IPAD_97"]
        let ours = Set((ScreenshotDisplayTypes.table + ScreenshotDisplayTypes.iMessageTable).map(\.type))
        #expect(ours == apple)
    }

    private func problem(_ bytes: [UInt8]) -> String? {
        if case .failure(let problem) = ScreenshotImageHeader.read(bytes) { return problem.text }
        return nil
    }
}
