import Basics
import Foundation
import Git

/// `Toolfile.lock`: what `slipway tools lock` resolved, so that every machine installs and
/// verifies exactly the same tools. Deterministic JSON (sorted keys, one trailing newline) with a
/// `version` field that is read first; unknown versions are refused.
public struct Lockfile: Sendable, Hashable, Codable {
    /// The format version this build writes and reads.
    public static let formatVersion = 1

    /// The format version of this value.
    public var version: Int
    /// Locked tools by name.
    public var tools: [String: LockedTool]

    /// A lockfile of the current format.
    public init(tools: [String: LockedTool] = [:]) {
        self.version = Self.formatVersion
        self.tools = tools
    }
}

/// One tool as locked.
public struct LockedTool: Sendable, Hashable, Codable {
    /// The kind of source it was resolved from.
    public var source: ToolSourceKind
    /// The resolved version (for system tools: the version found when locking).
    public var version: SemanticVersion
    /// For git tools: where, which tag, and the commit the tag pointed to.
    public var git: LockedGit?
    /// For archive tools: the download for each platform.
    public var archive: LockedArchive?
    /// SHA-256 of the installed executable by platform (`linux-x86_64`). Archive tools have one
    /// per listed platform from locking on; a git tool's entry is recorded by the first install
    /// on each platform, since only building it tells.
    public var executables: [String: String]

    /// Creates an entry.
    public init(source: ToolSourceKind, version: SemanticVersion, git: LockedGit? = nil, archive: LockedArchive? = nil,
                executables: [String: String] = [:]) {
        self.source = source
        self.version = version
        self.git = git
        self.archive = archive
        self.executables = executables
    }

    enum CodingKeys: String, CodingKey {
        case source, version, git, archive, executables
    }

    /// Decodes an entry; `executables` may be absent (system tools).
    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        source = try container.decode(ToolSourceKind.self, forKey: .source)
        version = try container.decode(SemanticVersion.self, forKey: .version)
        git = try container.decodeIfPresent(LockedGit.self, forKey: .git)
        archive = try container.decodeIfPresent(LockedArchive.self, forKey: .archive)
        executables = try container.decodeIfPresent([String: String].self, forKey: .executables) ?? [:]
    }

    /// Encodes the entry, leaving out what its kind does not have.
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(source, forKey: .source)
        try container.encode(version, forKey: .version)
        try container.encodeIfPresent(git, forKey: .git)
        try container.encodeIfPresent(archive, forKey: .archive)
        if !executables.isEmpty { try container.encode(executables, forKey: .executables) }
    }
}

/// A git tool's lock: the repository, the tag and the commit it pointed to when locked.
public struct LockedGit: Sendable, Hashable, Codable {
    /// The repository URL.
    public var url: String
    /// The tag name (`1.2.3` or `v1.2.3`).
    public var tag: String
    /// The commit the tag pointed to; a tag that moves later is detected against it.
    public var commit: GitOID
    /// The product that is built.
    public var product: String

    /// Creates the git part of an entry.
    public init(url: String, tag: String, commit: GitOID, product: String) {
        self.url = url
        self.tag = tag
        self.commit = commit
        self.product = product
    }
}

/// An archive tool's lock: the executable's path and the download of each platform.
public struct LockedArchive: Sendable, Hashable, Codable {
    /// The executable's path inside the archive.
    public var executable: String
    /// The download for each platform (`linux-x86_64`).
    public var platforms: [String: LockedDownload]

    /// Creates the archive part of an entry.
    public init(executable: String, platforms: [String: LockedDownload]) {
        self.executable = executable
        self.platforms = platforms
    }
}

/// One download: where from and its SHA-256.
public struct LockedDownload: Sendable, Hashable, Codable {
    /// The URL, placeholders filled in.
    public var url: String
    /// The archive's SHA-256, lowercase hexadecimal.
    public var sha256: String

    /// Creates a download record.
    public init(url: String, sha256: String) {
        self.url = url
        self.sha256 = sha256
    }
}

extension LockedTool {
    /// Why this entry does not fit `spec` (another source, URL, product, platforms, or a version
    /// outside the constraint), or nil when it still does.
    public func mismatch(with spec: ToolSpec) -> String? {
        guard source == spec.source.kind else {
            return "'\(spec.name)' is locked as a \(source.rawValue) tool but the Toolfile says \(spec.source.kind.rawValue)"
        }
        switch spec.source {
        case .git(let url, let product):
            if git?.url != url { return "'\(spec.name)' is locked from '\(git?.url ?? "")' but the Toolfile says '\(url)'" }
            if git?.product != product { return "'\(spec.name)' is locked with product '\(git?.product ?? "")', not '\(product)'" }
        case .archive(let archive):
            if let reason = mismatch(with: archive, name: spec.name) { return reason }
        case .system:
            break
        }
        if spec.source.kind != .system, !spec.constraint.isSatisfied(by: version) {
            return "'\(spec.name)' is locked at \(version), which does not satisfy '\(spec.constraint)'"
        }
        return nil
    }

    private func mismatch(with archive: ArchiveSource, name: String) -> String? {
        guard let locked = self.archive else { return "'\(name)' has no archive in the lock" }
        if locked.executable != archive.executable {
            return "'\(name)' is locked with executable '\(locked.executable)', not '\(archive.executable)'"
        }
        for platform in archive.platforms {
            guard let download = locked.platforms[platform.description] else {
                return "'\(name)' is not locked for \(platform)"
            }
            if download.url != archive.url(version: version, platform: platform) {
                return "'\(name)' is locked from '\(download.url)' on \(platform), but the Toolfile's URL is now "
                    + "'\(archive.url(version: version, platform: platform))'"
            }
        }
        return nil
    }
}
