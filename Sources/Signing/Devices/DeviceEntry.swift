import Foundation

/// A device to register: its UDID, name and platform (IOS or MAC_OS), with where it came from.
public struct DeviceEntry: Sendable, Hashable {
    /// The UDID as given.
    public var udid: String
    /// The name to register it under.
    public var name: String
    /// Apple's platform: IOS or MAC_OS.
    public var platform: String
    /// `file:line` for an imported line, or nil for one given on the command line.
    public var location: String?

    /// Creates an entry.
    public init(udid: String, name: String, platform: String, location: String? = nil) {
        self.udid = udid
        self.name = name
        self.platform = platform
        self.location = location
    }

    /// The longest device name Slipway accepts. Apple's API documents no limit; the developer
    /// portal's form is the reference, and longer names are cut short in Xcode's lists.
    public static let maximumNameLength = 50

    /// The UDID as compared: lowercased, without dashes (as fastlane's register_devices compares).
    public var key: String { Self.key(udid) }

    /// `udid` lowercased, without dashes.
    public static func key(_ udid: String) -> String { udid.lowercased().replacingOccurrences(of: "-", with: "") }

    /// Why `udid` is not a device identifier Apple registers, or nil when it is one: 40 hex
    /// characters (devices before 2018), 8-16 hex characters with a dash (`00008030-001A2B3C4D5E6F70`,
    /// newer iPhones, iPads and Apple silicon Macs), or a Mac's hardware UUID (8-4-4-4-12, for Macs only).
    public static func problem(udid: String, platform: String) -> String? {
        let parts = udid.split(separator: "-", omittingEmptySubsequences: false).map(String.init)
        let hex = parts.allSatisfy { !$0.isEmpty && $0.allSatisfy(\.isHexDigit) && $0.allSatisfy(\.isASCII) }
        let lengths = parts.map(\.count)
        if hex && (lengths == [40] || lengths == [8, 16]) { return nil }
        if hex && lengths == [8, 4, 4, 4, 12] {
            return platform == "MAC_OS" ? nil
                : "'\(udid)' is a Mac hardware UUID; give the platform mac (or --platform macos) for a Mac, or the device's own UDID"
        }
        return "'\(udid)' is not a device UDID: use the 40 hex characters of older devices, the newer form "
            + "00008030-001A2B3C4D5E6F70 (8 and 16 hex characters), or a Mac's hardware UUID (Finder, Xcode's Devices "
            + "window or System Information show it)"
    }

    /// Why `name` cannot be a device name, or nil.
    public static func problem(name: String) -> String? {
        if name.trimmingCharacters(in: .whitespaces).isEmpty { return "the device name is empty; give each device a name" }
        if name.count > maximumNameLength {
            return "the device name '\(name)' has \(name.count) characters; shorten it to \(maximumNameLength) or fewer"
        }
        if name.contains(where: { $0.isNewline || ($0.unicodeScalars.first?.properties.generalCategory == .control) }) {
            return "the device name '\(name.debugDescription.dropFirst().dropLast())' has control characters; remove them"
        }
        return nil
    }

    /// Apple's platform for a platform word of a devices file or `--platform`: ios → IOS;
    /// mac, macos → MAC_OS (case-insensitive); nil for others.
    public static func platform(_ word: String) -> String? {
        switch word.lowercased() {
        case "ios": return "IOS"
        case "mac", "macos": return "MAC_OS"
        default: return nil
        }
    }
}
