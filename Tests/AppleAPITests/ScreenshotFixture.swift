import AppleAPI
import Basics
import Crypto
import Foundation
import TestSupport

/// The contract fake with two localizations (en-US, de-DE), a screenshots folder, and helpers
/// to write images and read what the fake holds.
struct ScreenshotFixture {
    let base: AppleAPIFixture
    let folder: TemporaryDirectory
    let localizations: [String: String]

    init() throws {
        base = try AppleAPIFixture()
        folder = try TemporaryDirectory(prefix: "screenshots")
        let en = try base.fake.seed("appStoreVersionLocalizations", attributes: #"{"locale": "en-US"}"#)
        let de = try base.fake.seed("appStoreVersionLocalizations", attributes: #"{"locale": "de-DE"}"#)
        localizations = ["en-US": en, "de-DE": de]
        try base.fake.set(["screenshot_part_size": "4000"])
    }

    var fake: AppStoreConnectContractFake { base.fake }
    var root: String { folder.path + "/screenshots" }

    func sync(maximumDownloadBytes: Int = 64 << 20) -> ScreenshotSync {
        ScreenshotSync(client: base.client(), fileSystem: LocalFileSystem(), maximumDownloadBytes: maximumDownloadBytes)
    }

    /// An Apple Watch Series 3 screenshot (312x390), different per seed.
    static func watch(_ seed: Int) -> [UInt8] { ScreenshotImages.png(width: 312, height: 390, seed: seed) }

    /// Writes `bytes` at `relative` under the screenshots folder; returns the path.
    @discardableResult
    func write(_ relative: String, _ bytes: [UInt8], under top: String? = nil) throws -> String {
        let path = (top ?? root) + "/" + relative
        try FileManager.default.createDirectory(atPath: (path as NSString).deletingLastPathComponent, withIntermediateDirectories: true)
        try Data(bytes).write(to: URL(fileURLWithPath: path))
        return path
    }

    static func md5(_ bytes: [UInt8]) -> String { Insecure.MD5.hash(data: bytes).map { String(format: "%02x", $0) }.joined() }

    /// The fake's sets of a locale: display type → [(fileName, sourceFileChecksum, state)] in the set's order.
    func remote(_ locale: String) throws -> [String: [Shot]] {
        let sets = try json(fake.resources("appScreenshotSets"))
        let shots = Dictionary(uniqueKeysWithValues: try json(fake.resources("appScreenshots")).map { ($0["id"] as? String ?? "", $0) })
        var result: [String: [Shot]] = [:]
        for set in sets {
            let relationships = set["relationships"] as? [String: Any] ?? [:]
            let localization = (relationships["appStoreVersionLocalization"] as? [String: Any])?["data"] as? [String: Any]
            guard localization?["id"] as? String == localizations[locale] else { continue }
            let type = (set["attributes"] as? [String: Any])?["screenshotDisplayType"] as? String ?? ""
            let ids = ((relationships["appScreenshots"] as? [String: Any])?["data"] as? [[String: Any]] ?? []).compactMap { $0["id"] as? String }
            result[type] = ids.map { id in
                let attributes = shots[id]?["attributes"] as? [String: Any] ?? [:]
                return Shot(name: attributes["fileName"] as? String ?? "", checksum: attributes["sourceFileChecksum"] as? String ?? "",
                            state: (attributes["assetDeliveryState"] as? [String: Any])?["state"] as? String ?? "")
            }
        }
        return result
    }

    struct Shot: Equatable, CustomStringConvertible {
        var name: String
        var checksum: String
        var state: String
        var description: String { "\(name) \(checksum) \(state)" }
    }

    /// The requests from `start` on that change something (not GETs), as "METHOD path" with ids as "#".
    func writes(from start: Int) throws -> [String] {
        try fake.state().requests.dropFirst(start).filter { $0.method != "GET" }.map { request in
            "\(request.method) \(request.path.replacingOccurrences(of: #"/\d+"#, with: "/#", options: .regularExpression)) \(request.status)"
        }
    }

    func requestCount() throws -> Int { try fake.state().requests.count }

    private func json(_ data: Data) throws -> [[String: Any]] {
        try JSONSerialization.jsonObject(with: data) as? [[String: Any]] ?? []
    }
}
