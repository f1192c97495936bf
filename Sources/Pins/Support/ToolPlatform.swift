import Foundation

/// An operating system and CPU pair, written `os-arch` (`linux-x86_64`, `macos-arm64`): the
/// key of per-platform entries in Toolfile.lock and of folders in the tools cache.
public struct ToolPlatform: Sendable, Hashable, Comparable, CustomStringConvertible {
    /// `linux` or `macos`.
    public let os: String
    /// `x86_64` or `arm64` (Linux's `aarch64` is spelt `arm64` too, so that one name means one CPU).
    public let arch: String

    /// The operating systems and CPUs Slipway knows.
    public static let knownOS = ["linux", "macos"]
    /// The CPU names Slipway knows.
    public static let knownArch = ["arm64", "x86_64"]

    /// A platform from its parts; nil when either is not known.
    public init?(os: String, arch: String) {
        guard Self.knownOS.contains(os), Self.knownArch.contains(arch) else { return nil }
        self.os = os
        self.arch = arch
    }

    /// Parses `os-arch`; nil when it is not a known platform.
    public init?(_ text: String) {
        guard let dash = text.firstIndex(of: "-") else { return nil }
        self.init(os: String(text[..<dash]), arch: String(text[text.index(after: dash)...]))
    }

    /// The platform this process runs on.
    public static var current: ToolPlatform {
        #if os(macOS)
        let os = "macos"
        #else
        let os = "linux"
        #endif
        #if arch(arm64)
        let arch = "arm64"
        #else
        let arch = "x86_64"
        #endif
        return ToolPlatform(os: os, arch: arch) ?? ToolPlatform(unchecked: os, arch)
    }

    private init(unchecked os: String, _ arch: String) {
        self.os = os
        self.arch = arch
    }

    /// Every known platform, for messages.
    public static var all: [String] {
        knownOS.flatMap { os in knownArch.map { "\(os)-\($0)" } }
    }

    /// `os-arch`.
    public var description: String { "\(os)-\(arch)" }

    /// Orders by the text, for deterministic listings.
    public static func < (lhs: ToolPlatform, rhs: ToolPlatform) -> Bool { lhs.description < rhs.description }
}
