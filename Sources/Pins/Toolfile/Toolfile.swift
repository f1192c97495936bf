import Basics
import Foundation

/// A project's `Toolfile`: the tools it uses, where each comes from, and which versions are
/// acceptable. Parsed by `ToolfileParser`.
public struct Toolfile: Sendable, Hashable {
    /// The file's name as shown in messages (relative to the project when possible).
    public var file: String
    /// The tools, in file order.
    public var tools: [ToolSpec]

    /// Creates a Toolfile value.
    public init(file: String, tools: [ToolSpec]) {
        self.file = file
        self.tools = tools
    }

    /// The tool called `name`, or nil.
    public func tool(named name: String) -> ToolSpec? {
        tools.first { $0.name == name }
    }

    /// The tools' names, in file order.
    public var names: [String] { tools.map(\.name) }
}

/// One tool of the Toolfile.
public struct ToolSpec: Sendable, Hashable {
    /// The tool's name: the key in the Toolfile, the lock and the cache, and what `exec` takes.
    public var name: String
    /// Where it comes from.
    public var source: ToolSource
    /// Which versions are acceptable.
    public var constraint: VersionConstraint
    /// The arguments that make the tool print its version (default `--version`).
    public var versionArguments: [String]
    /// A regular expression whose first group (or whole match) is the version in that output;
    /// nil finds the first semantic version in it.
    public var versionPattern: String?
    /// Where the tool's entry starts in the Toolfile.
    public var location: SourceLocation

    /// Creates a tool description.
    public init(name: String, source: ToolSource, constraint: VersionConstraint, versionArguments: [String] = ["--version"],
                versionPattern: String? = nil, location: SourceLocation) {
        self.name = name
        self.source = source
        self.constraint = constraint
        self.versionArguments = versionArguments
        self.versionPattern = versionPattern
        self.location = location
    }

    /// The executable's path relative to the tool's install folder (system tools: its name).
    public var executableSubpath: String {
        switch source {
        case .git(_, let product): return product
        case .archive(let archive): return archive.executable
        case .system(let executable): return executable
        }
    }
}

/// The three kinds of source.
public enum ToolSourceKind: String, Sendable, Hashable, Codable, CaseIterable {
    /// A git repository of a Swift package, built from source.
    case git
    /// A downloadable archive with a prebuilt executable.
    case archive
    /// Whatever is installed on PATH: only verified, never installed.
    case system
}

/// Where a tool comes from.
public enum ToolSource: Sendable, Hashable {
    /// A Swift package's repository; `product` is built with `swift build -c release --product`.
    case git(url: String, product: String)
    /// A prebuilt archive.
    case archive(ArchiveSource)
    /// An executable found on PATH.
    case system(executable: String)

    /// Which kind of source this is.
    public var kind: ToolSourceKind {
        switch self {
        case .git: return .git
        case .archive: return .archive
        case .system: return .system
        }
    }
}

/// A prebuilt archive: a URL template and the executable's path inside the archive.
public struct ArchiveSource: Sendable, Hashable {
    /// The URL with `{version}`, `{os}` and `{arch}` placeholders.
    public var urlTemplate: String
    /// The executable's path inside the unpacked archive.
    public var executable: String
    /// The platforms the URL serves, sorted.
    public var platforms: [ToolPlatform]
    /// What `{os}` becomes for each OS when the publisher spells it differently (`macos: darwin`).
    public var osNames: [String: String]
    /// What `{arch}` becomes for each CPU (`arm64: aarch64`).
    public var archNames: [String: String]

    /// The placeholders a URL template may use.
    public static let placeholders = ["{version}", "{os}", "{arch}"]

    /// Creates an archive source.
    public init(urlTemplate: String, executable: String, platforms: [ToolPlatform],
                osNames: [String: String] = [:], archNames: [String: String] = [:]) {
        self.urlTemplate = urlTemplate
        self.executable = executable
        self.platforms = platforms.sorted()
        self.osNames = osNames
        self.archNames = archNames
    }

    /// The URL for one version and platform.
    public func url(version: SemanticVersion, platform: ToolPlatform) -> String {
        urlTemplate
            .replacingOccurrences(of: "{version}", with: version.description)
            .replacingOccurrences(of: "{os}", with: osNames[platform.os] ?? platform.os)
            .replacingOccurrences(of: "{arch}", with: archNames[platform.arch] ?? platform.arch)
    }
}
