import Foundation

/// An image's size in pixels.
public struct ScreenshotPixelSize: Sendable, Hashable, CustomStringConvertible {
    /// Width in pixels.
    public var width: Int
    /// Height in pixels.
    public var height: Int

    /// A size.
    public init(_ width: Int, _ height: Int) {
        self.width = width
        self.height = height
    }

    /// "1290x2796".
    public var description: String { "\(width)x\(height)" }
}

/// App Store Connect's `ScreenshotDisplayType` values and the pixel sizes each accepts.
///
/// Sources: Apple's "Screenshot specifications" page in App Store Connect Help
/// (https://developer.apple.com/help/app-store-connect/reference/screenshot-specifications),
/// which lists per display size the accepted portrait and landscape sizes, 1 to 10 screenshots,
/// and the formats .jpeg, .jpg and .png; the enum values are those of `ScreenshotDisplayType` in
/// Apple's OpenAPI document 4.4.1. Which type a size belongs to follows fastlane deliver
/// (`Deliver::AppScreenshot`), so a folder deliver accepts is read the same way: the first type
/// in `table` order whose sizes include the image's, with deliver's two tie-breaks (2048x2732 is
/// the 13-inch iPad unless the path names `app_ipad_pro_129` or "12.9" with "2nd generation";
/// 3840x2160 is Apple TV unless the path names "vision").
public enum ScreenshotDisplayTypes {
    /// At most this many screenshots per display type and localization (Apple: "1–10").
    public static let maximumPerSet = 10

    /// Where Apple documents the sizes.
    public static let specificationURL = "https://developer.apple.com/help/app-store-connect/reference/screenshot-specifications"

    /// Display types and their sizes, in lookup order (App Store apps, not iMessage).
    public static let table: [(type: String, sizes: [ScreenshotPixelSize])] = [
        ("APP_IPHONE_67", both([(1260, 2736), (1290, 2796), (1320, 2868)])),      // 6.9" and 6.7" iPhones
        ("APP_IPHONE_65", both([(1242, 2688), (1284, 2778)])),
        ("APP_IPHONE_61", both([(1179, 2556), (1206, 2622)])),                    // 6.3" iPhones
        ("APP_IPHONE_58", both([(1170, 2532), (1125, 2436), (1080, 2340)])),      // 6.1" iPhones
        ("APP_IPHONE_55", both([(1242, 2208)])),
        ("APP_IPHONE_47", both([(750, 1334)])),
        ("APP_IPHONE_40", [.init(640, 1096), .init(640, 1136), .init(1136, 600), .init(1136, 640)]),
        ("APP_IPHONE_35", [.init(640, 920), .init(640, 960), .init(960, 600), .init(960, 640)]),
        ("APP_IPAD_97", [.init(1024, 748), .init(1024, 768), .init(2048, 1496), .init(2048, 1536),
                         .init(768, 1004), .init(768, 1024), .init(1536, 2008), .init(1536, 2048)]),
        ("APP_IPAD_105", both([(1668, 2224)])),
        ("APP_IPAD_PRO_3GEN_11", both([(1488, 2266), (1668, 2420), (1668, 2388), (1640, 2360)])),
        ("APP_IPAD_PRO_129", both([(2048, 2732)])),                                // 12.9" iPad Pro (2nd generation)
        ("APP_IPAD_PRO_3GEN_129", both([(2048, 2732), (2064, 2752)])),             // 13" iPads
        ("APP_DESKTOP", [.init(1280, 800), .init(1440, 900), .init(2560, 1600), .init(2880, 1800)]),
        ("APP_WATCH_SERIES_3", [.init(312, 390)]),
        ("APP_WATCH_SERIES_4", [.init(368, 448)]),
        ("APP_WATCH_SERIES_7", [.init(396, 484)]),
        ("APP_WATCH_SERIES_10", [.init(416, 496)]),
        ("APP_WATCH_ULTRA", [.init(410, 502), .init(422, 514)]),
        ("APP_APPLE_TV", [.init(1920, 1080), .init(3840, 2160)]),
        ("APP_APPLE_VISION_PRO", [.init(3840, 2160)]),
    ]

    /// The types an iMessage app's screenshots can have (deliver's `iMessage/<locale>` folders):
    /// `IMESSAGE_` + the iPhone and iPad types, with their sizes.
    public static let iMessageTable: [(type: String, sizes: [ScreenshotPixelSize])] = table
        .filter { $0.type.hasPrefix("APP_IPHONE_") && $0.type != "APP_IPHONE_35" || $0.type.hasPrefix("APP_IPAD_") }
        .map { ("IMESSAGE_" + $0.type, $0.sizes) }

    /// The display type of an image of `size` at `path` (deliver's rules), or nil when no type
    /// accepts that size.
    public static func displayType(of size: ScreenshotPixelSize, path: String, iMessage: Bool) -> String? {
        let types = iMessage ? iMessageTable : table
        guard let first = types.first(where: { $0.sizes.contains(size) })?.type else { return nil }
        let lower = path.lowercased()
        let prefix = iMessage ? "IMESSAGE_" : ""
        switch (size.width, size.height) {
        case (2048, 2732), (2732, 2048):
            let secondGeneration = lower.contains("app_ipad_pro_129") || (lower.contains("12.9") && lower.contains("2nd generation"))
            return prefix + (secondGeneration ? "APP_IPAD_PRO_129" : "APP_IPAD_PRO_3GEN_129")
        case (3840, 2160):
            return lower.contains("vision") ? "APP_APPLE_VISION_PRO" : "APP_APPLE_TV"
        default:
            return first
        }
    }

    /// The sizes a type accepts (nil for a type slipway does not know).
    public static func sizes(of type: String) -> [ScreenshotPixelSize]? {
        (table + iMessageTable).first { $0.type == type }?.sizes
    }

    /// "APP_IPHONE_67 1260x2736, 2736x1260, …; APP_IPHONE_65 …": every accepted size, for messages.
    public static func acceptedSizesText(iMessage: Bool) -> String {
        (iMessage ? iMessageTable : table).map { entry in
            entry.type + " " + entry.sizes.map(\.description).joined(separator: ", ")
        }.joined(separator: "; ")
    }

    private static func both(_ portraits: [(Int, Int)]) -> [ScreenshotPixelSize] {
        portraits.flatMap { [ScreenshotPixelSize($0.0, $0.1), ScreenshotPixelSize($0.1, $0.0)] }
    }
}
