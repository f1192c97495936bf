import Archives
import Foundation
import PropertyList

/// What App Store Connect needs to know about a build file: bundle id, version, build number,
/// platform, and how to upload it (name, size, UTI).
public struct IPAInfo: Sendable, Hashable {
    /// `CFBundleIdentifier`.
    public var bundleID: String
    /// `CFBundleShortVersionString`, e.g. `1.4.0`.
    public var version: String
    /// `CFBundleVersion`, e.g. `42`.
    public var buildNumber: String
    /// App Store Connect's platform: `IOS`, `MAC_OS`, `TV_OS` or `VISION_OS`.
    public var platform: String
    /// The file's path.
    public var path: String
    /// The file's size in bytes.
    public var fileSize: Int64
    /// `com.apple.ipa` or `com.apple.pkg`.
    public var uti: String

    /// The file's name.
    public var fileName: String { (path as NSString).lastPathComponent }

    /// Apple's limit on an app's total uncompressed size: "less than 4GB"
    /// (https://developer.apple.com/help/app-store-connect/reference/maximum-build-file-sizes).
    public static let maximumUncompressedSize: UInt64 = 4 << 30

    /// Explicit values that replace (or, for a `.pkg`, supply) what the archive says.
    public struct Overrides: Sendable, Hashable {
        public var bundleID: String?
        public var version: String?
        public var buildNumber: String?
        public var platform: String?

        public init(bundleID: String? = nil, version: String? = nil, buildNumber: String? = nil, platform: String? = nil) {
            self.bundleID = bundleID
            self.version = version
            self.buildNumber = buildNumber
            self.platform = platform
        }
    }

    /// Creates a value.
    public init(bundleID: String, version: String, buildNumber: String, platform: String, path: String, fileSize: Int64, uti: String) {
        self.bundleID = bundleID
        self.version = version
        self.buildNumber = buildNumber
        self.platform = platform
        self.path = path
        self.fileSize = fileSize
        self.uti = uti
    }

    /// Reads `Payload/NAME.app/Info.plist` (XML or binary) from the `.ipa` at `path`, or takes a
    /// `.pkg`'s facts from `overrides` (reading a pkg's xar archive is not supported).
    /// - Throws: `BuildUploadError` naming the file.
    public static func read(path: String, overrides: Overrides = Overrides()) throws -> IPAInfo {
        guard let attributes = try? FileManager.default.attributesOfItem(atPath: path),
              let size = (attributes[.size] as? NSNumber)?.int64Value, attributes[.type] as? FileAttributeType == .typeRegular
        else {
            throw BuildUploadError.missingFile(path: path)
        }
        if path.lowercased().hasSuffix(".pkg") {
            guard let bundleID = overrides.bundleID, let version = overrides.version, let build = overrides.buildNumber else {
                throw BuildUploadError.pkgNeedsOverrides(path: path)
            }
            return IPAInfo(bundleID: bundleID, version: version, buildNumber: build, platform: overrides.platform ?? "MAC_OS",
                           path: path, fileSize: size, uti: "com.apple.pkg")
        }
        let plist = try infoPlist(path: path)
        func value(_ key: String, _ override: String?) throws -> String {
            if let override, !override.isEmpty { return override }
            guard let text = plist[key] as? String, !text.isEmpty else { throw BuildUploadError.missingKey(path: path, key: key) }
            return text
        }
        return IPAInfo(bundleID: try value("CFBundleIdentifier", overrides.bundleID),
                       version: try value("CFBundleShortVersionString", overrides.version),
                       buildNumber: try value("CFBundleVersion", overrides.buildNumber),
                       platform: overrides.platform ?? platform(of: plist), path: path, fileSize: size, uti: "com.apple.ipa")
    }

    /// The app's Info.plist, read within `PropertyListLimits.standard`; every claim of the zip is
    /// checked against the file (sizes, offsets, overlaps) before a byte of an entry is read.
    private static func infoPlist(path: String) throws -> [String: Any] {
        let bytes: [UInt8]
        let entry: ZipDirectory.Entry
        do {
            let zip = try ZipDirectory(path: path)
            let total = try zip.totalUncompressedSize()
            guard total < maximumUncompressedSize else { throw BuildUploadError.tooLarge(path: path, uncompressedSize: total) }
            try zip.checkLayout()
            let plists = zip.entries.filter { entry in
                let parts = entry.name.split(separator: "/", omittingEmptySubsequences: false)
                return parts.count == 3 && parts[0] == "Payload" && parts[1].hasSuffix(".app") && parts[2] == "Info.plist"
            }
            guard let first = plists.first, first.uncompressedSize < 16 << 20 else { throw BuildUploadError.noInfoPlist(path: path) }
            entry = first
            bytes = try zip.contents(of: entry)
        } catch let error as ZipDirectory.Malformed {
            throw BuildUploadError.notAnArchive(path: path, reason: error.reason)
        }
        do {
            guard let plist = try PropertyListReader().read(bytes, file: entry.name).foundationObject as? [String: Any] else {
                throw BuildUploadError.unreadableInfoPlist(path: path, entry: entry.name)
            }
            return plist
        } catch let error as PropertyListError {
            guard case .overBudget(_, let limit) = error else { throw BuildUploadError.unreadableInfoPlist(path: path, entry: entry.name) }
            throw BuildUploadError.infoPlistOverBudget(path: path, entry: entry.name, limit: limit.description)
        }
    }

    private static func platform(of plist: [String: Any]) -> String {
        let platforms = plist["CFBundleSupportedPlatforms"] as? [String] ?? []
        if platforms.contains("AppleTVOS") { return "TV_OS" }
        if platforms.contains("XROS") { return "VISION_OS" }
        if platforms.contains("MacOSX") { return "MAC_OS" }
        return "IOS"
    }
}
