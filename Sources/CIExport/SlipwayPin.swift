import Archives
import Basics
import Crypto
import Foundation
import Lanes
import Pins

/// Slipway's own entry in Toolfile.lock (a Toolfile tool named `slipway`, an archive), checked
/// so that every value can be written into the install script of an exported job.
///
/// Toolfile.lock comes from the checkout, which is untrusted: a URL, checksum or path in it must
/// not end a quoted shell word or a YAML line. Every value is checked against a conservative
/// character set here and single-quoted in the script (`SlipwayBootstrap`).
public struct SlipwayPin: Sendable, Equatable {
    /// One platform's download.
    public struct Download: Sendable, Equatable {
        /// The platform as Toolfile.lock spells it: `linux-x86_64`, `macos-arm64`.
        public var platform: String
        /// The archive's URL (http or https).
        public var url: String
        /// The archive's SHA-256, 64 lowercase hexadecimal digits.
        public var sha256: String
        /// The SHA-256 of the executable inside the archive.
        public var executableSHA256: String
        /// How the archive is unpacked.
        public var format: ArchiveFormat
    }

    /// The tool's name in the Toolfile and its lock.
    public static let toolName = "slipway"
    /// The lock file's name, as messages show it.
    public static let lockfileName = "Toolfile.lock"

    /// The locked version, e.g. `1.4.0`.
    public var version: String
    /// The executable's path inside the archive, e.g. `bin/slipway`.
    public var executable: String
    /// The downloads, sorted by platform.
    public var downloads: [Download]

    /// The pin in `tool` (the `slipway` entry of a Toolfile.lock).
    /// - Throws: `CIExportError.slipwayPinNotArchive` for a git or system entry,
    ///   `.slipwayPinUnsafe` for a value that is malformed or could change the script.
    public init(_ tool: LockedTool) throws {
        guard tool.source == .archive, let archive = tool.archive else {
            throw CIExportError.slipwayPinNotArchive(source: tool.source.rawValue)
        }
        version = tool.version.description
        executable = archive.executable
        try Self.check(version, field: "version", allowed: Self.versionCharacters, reason: "is not a plain version (digits, letters, '.', '-', '+')")
        try Self.checkExecutable(executable)
        guard !archive.platforms.isEmpty else {
            throw CIExportError.slipwayPinUnsafe(field: "archive.platforms", value: "{}", reason: "lists no platform")
        }
        downloads = try archive.platforms.keys.sorted().map { key in
            let download = archive.platforms[key] ?? LockedDownload(url: "", sha256: "")
            let field = "archive.platforms.\(LaneNames.escaped(key))"
            guard ToolPlatform(key) != nil else {
                throw CIExportError.slipwayPinUnsafe(field: "archive.platforms", value: key,
                                                     reason: "is not a platform Slipway knows (\(ToolPlatform.all.joined(separator: ", ")))")
            }
            try Self.checkURL(download.url, field: field + ".url")
            guard let format = ArchiveFormat(url: download.url) else {
                throw CIExportError.slipwayPinUnsafe(field: field + ".url", value: download.url, reason: "is not a .tar.gz, .tgz or .zip archive")
            }
            try Self.checkSHA256(download.sha256, field: field + ".sha256")
            guard let executableSHA256 = tool.executables[key] else {
                throw CIExportError.slipwayPinUnsafe(field: "executables.\(LaneNames.escaped(key))", value: "",
                                                     reason: "is missing (the executable's sha256 for that platform)")
            }
            try Self.checkSHA256(executableSHA256, field: "executables.\(LaneNames.escaped(key))")
            return Download(platform: key, url: download.url, sha256: download.sha256, executableSHA256: executableSHA256, format: format)
        }
    }

    /// The pin in the Toolfile.lock at `path`; nil when there is no lock file or it has no
    /// `slipway` entry.
    /// - Throws: what `LockfileStore.load` throws for a corrupt lock, and what `init` throws.
    public static func load(lockfile path: String, fileSystem: any FileSystem) throws -> SlipwayPin? {
        let store = LockfileStore(path: path, displayName: lockfileName, fileSystem: fileSystem)
        guard let tool = try store.load()?.tools[toolName] else { return nil }
        return try SlipwayPin(tool)
    }

    /// The platforms, as Toolfile.lock spells them.
    public var platforms: [String] { downloads.map(\.platform) }

    /// 16 hexadecimal digits of a SHA-256 over the version and every download's URL and
    /// checksums: the cache key changes whenever the pin does.
    public var digest: String {
        let text = ([version, executable] + downloads.map { "\($0.platform) \($0.url) \($0.sha256) \($0.executableSHA256)" })
            .joined(separator: "\n")
        return String(SHA256.hash(data: Array(text.utf8)).hexString.prefix(16))
    }

    /// Where the install script keeps this version in Slipway's cache folder, relative to it:
    /// where `slipway tools install` installs it too.
    public var cacheSubpath: String { "tools/slipway/\(version)" }

    // MARK: - Checks

    static let versionCharacters = Set("0123456789abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ.-+")
    static let pathCharacters = Set("0123456789abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ._-/")
    /// URL characters that mean nothing to a shell inside single quotes nor to YAML in a block:
    /// no quote, `$`, backquote, backslash, space or control character.
    static let urlCharacters = Set("0123456789abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ-._~:/?&=%+,@")
    static let hexDigits = Set("0123456789abcdef")

    static func check(_ value: String, field: String, allowed: Set<Character>, reason: String) throws {
        guard !value.isEmpty, value.allSatisfy(allowed.contains) else {
            throw CIExportError.slipwayPinUnsafe(field: field, value: value, reason: reason)
        }
    }

    static func checkURL(_ url: String, field: String) throws {
        let lowered = url.lowercased()
        guard lowered.hasPrefix("https://") || lowered.hasPrefix("http://") else {
            throw CIExportError.slipwayPinUnsafe(field: field, value: url, reason: "is not an http:// or https:// URL")
        }
        try check(url, field: field, allowed: urlCharacters,
                  reason: "has a character outside letters, digits and -._~:/?&=%+,@ (a quote, '$', space or line break could change the script)")
    }

    static func checkSHA256(_ value: String, field: String) throws {
        guard value.count == 64, value.allSatisfy(hexDigits.contains) else {
            throw CIExportError.slipwayPinUnsafe(field: field, value: value, reason: "is not a sha256 (64 lowercase hexadecimal digits)")
        }
    }

    static func checkExecutable(_ path: String) throws {
        try check(path, field: "archive.executable", allowed: pathCharacters,
                  reason: "is not a relative path of letters, digits, '.', '_', '-' and '/'")
        let parts = path.split(separator: "/", omittingEmptySubsequences: false)
        guard !path.hasPrefix("/"), !parts.contains(".."), !parts.contains("") else {
            throw CIExportError.slipwayPinUnsafe(field: "archive.executable", value: path, reason: "is not a path inside the archive")
        }
        guard parts.last == "slipway" else {
            throw CIExportError.slipwayPinUnsafe(field: "archive.executable", value: path,
                                                 reason: "does not name a file 'slipway' (jobs put its folder on PATH and call 'slipway')")
        }
    }
}
