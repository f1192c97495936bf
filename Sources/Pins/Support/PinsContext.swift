import Basics
import Foundation

/// Everything the Pins operations work with: the project, the side effects (injected, as
/// everywhere), the platform and the tools cache. Built once by the caller, shared by the
/// locker, installer, verifier and auditor.
public struct PinsContext: Sendable {
    /// The project's root folder (where the Toolfile is), absolute.
    public var projectDirectory: String
    /// The file system.
    public var fileSystem: any FileSystem
    /// Runs `swift build`, `tar`, `unzip` and the tools' version commands.
    public var processRunner: any ProcessRunner
    /// The environment: PATH for system tools, cache locations, and the child processes'.
    public var environment: Environment
    /// Identities, hashing, links and modes of files.
    public var files: any ToolFiles
    /// ls-remote and clone.
    public var git: any GitAccess
    /// Downloads; nil for commands that must stay offline (verify).
    public var http: (any HTTPClient)?
    /// The platform tools are installed for.
    public var platform: ToolPlatform
    /// Where tools are installed.
    public var cache: ToolsCache

    /// A context with the real file operations and libgit2, the platform this process runs on
    /// and the cache from `environment` (`$SLIPWAY_CACHE_DIR`, `$XDG_CACHE_HOME`, `~/.cache`).
    public init(projectDirectory: String, fileSystem: any FileSystem, processRunner: any ProcessRunner,
                environment: Environment, http: (any HTTPClient)? = nil) {
        self.projectDirectory = projectDirectory
        self.fileSystem = fileSystem
        self.processRunner = processRunner
        self.environment = environment
        self.files = LocalToolFiles(fileSystem: fileSystem)
        self.git = LibGit2Access()
        self.http = http
        self.platform = .current
        self.cache = ToolsCache(root: ToolsCache.defaultRoot(environment: environment))
    }

    /// The Toolfile's absolute path.
    public var toolfilePath: String { projectDirectory + "/Toolfile" }
    /// The lockfile's absolute path.
    public var lockfilePath: String { projectDirectory + "/Toolfile.lock" }

    /// The lockfile store.
    public var lockfileStore: LockfileStore {
        LockfileStore(path: lockfilePath, displayName: "Toolfile.lock", fileSystem: fileSystem)
    }

    /// The parsed Toolfile.
    /// - Throws: `PinsError.toolfileNotFound`, `DiagnosticsError` for problems in it,
    ///   `FileSystemError` when it cannot be read.
    public func loadToolfile() throws -> Toolfile {
        guard fileSystem.exists(toolfilePath) else { throw PinsError.toolfileNotFound(path: toolfilePath) }
        return try ToolfileParser.parse(try fileSystem.readText(toolfilePath, as: .configuration), file: "Toolfile")
    }

    /// A path shown relative to the project when it lies inside it.
    func display(_ path: String) -> String {
        path.hasPrefix(projectDirectory + "/") ? String(path.dropFirst(projectDirectory.count + 1)) : path
    }
}

/// The tools cache: `<root>/<name>/<version>/<os>-<arch>/`, temporary folders in `<root>/.tmp`
/// (same file system, so that a finished install is renamed into place), and the verify cache.
public struct ToolsCache: Sendable, Hashable {
    /// The cache's folder, e.g. `~/.cache/slipway/tools`.
    public var root: String

    /// A cache at `root`.
    public init(root: String) {
        self.root = root
    }

    /// Slipway's cache folder: `$SLIPWAY_CACHE_DIR`, else `$XDG_CACHE_HOME/slipway`, else
    /// `~/.cache/slipway`.
    public static func slipwayCacheDirectory(environment: Environment) -> String {
        environment.slipwayCacheDirectory
    }

    /// The tools cache folder inside Slipway's cache folder.
    public static func defaultRoot(environment: Environment) -> String {
        slipwayCacheDirectory(environment: environment) + "/tools"
    }

    /// Where one version of a tool is installed for a platform.
    public func installDirectory(tool: String, version: SemanticVersion, platform: ToolPlatform) -> String {
        "\(root)/\(tool)/\(version)/\(platform)"
    }

    /// Where temporary install folders go.
    public var temporaryRoot: String { root + "/.tmp" }

    /// The verify cache's file.
    public var verifyCachePath: String { root + "/verify-cache.json" }

    /// Takes the cache's lock (`<root>/.slipway-lock`), which `tools install` holds from before
    /// it clears leftovers until its last tool is in place: two installs sharing a cache would
    /// otherwise rename into the same folders at once.
    ///
    /// The cache may sit in the checkout (CI configurations put `SLIPWAY_CACHE_DIR` in the
    /// project folder to cache it): when it is inside `projectDirectory`, no folder from the
    /// project down to the lock may be a symbolic link, and the lock file itself is opened
    /// without following one (`ExclusiveLock`).
    /// - Throws: `LockError.busy` when another install holds it; `LockError.unavailable` and
    ///   `FileSystemError` when the cache folder cannot be created; `StateFileError` for a
    ///   symbolic link on the way.
    public func lock(fileSystem: any FileSystem, projectDirectory: String? = nil) throws -> ExclusiveLock {
        let lockPath = root + "/" + ExclusiveLock.fileName
        let project = projectDirectory.flatMap { root.hasPrefix($0 + "/") ? $0 : nil }
        if let project { try StateFiles.checkPath(lockPath, below: project) }
        try fileSystem.createDirectory(root)
        if let project { try StateFiles.checkPath(lockPath, below: project) }
        return try ExclusiveLock.acquire(at: root + "/" + ExclusiveLock.fileName, activity: "installing tools into '\(root)'")
    }
}
