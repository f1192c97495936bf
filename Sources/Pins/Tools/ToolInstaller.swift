import Basics
import Foundation

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// One tool that `install` handled.
public struct InstalledTool: Sendable, Hashable, Codable {
    /// The tool.
    public var name: String
    /// The installed version.
    public var version: String
    /// The executable's path.
    public var path: String
    /// True when it was already installed and intact, so nothing was done.
    public var wasPresent: Bool
}

/// What `install` did.
public struct InstallResult: Sendable, Hashable {
    /// The git and archive tools, in Toolfile order (system tools are never installed).
    public var tools: [InstalledTool]
    /// True when executable checksums of git tools were recorded in Toolfile.lock.
    public var lockUpdated: Bool
}

/// `slipway tools install`: installs exactly the locked versions into the tools cache, each
/// atomically — built or unpacked in a temporary folder inside the cache, checked (archive
/// checksum, executable checksum, version), then renamed into place. A failure or a kill at any
/// point leaves the old state or nothing, never half a tool; leftovers of killed runs are
/// removed when the next install starts.
public struct ToolInstaller: Sendable {
    /// The project and its services.
    public let context: PinsContext
    /// Progress events.
    public let events: PinsEventHandler?

    /// An installer for the project in `context`.
    public init(context: PinsContext, events: PinsEventHandler? = nil) {
        self.context = context
        self.events = events
    }

    /// Installs the named tools, or all, holding the tools cache's lock (`ToolsCache.lock`).
    /// - Throws: `LockError.busy` when another install uses the cache (nothing is installed
    ///   then); `PinsError.lockOutOfDate` when the lock does not match the Toolfile (nothing is
    ///   installed then), `.unknownTool`, `.tagMoved`, `.tagMissing`, `.checksumMismatch`,
    ///   `.buildNotReproducible`, `.versionUnparsable`, `.versionMismatch`, `.platformNotLocked`,
    ///   download, unpack and build errors; plus what loading the Toolfile and lock throws.
    public func install(names: [String]? = nil) async throws -> InstallResult {
        let toolfile = try context.loadToolfile()
        var lockfile = try context.lockfileStore.loadRequired()
        try Self.checkConsistency(toolfile, lockfile)
        let specs = try (names ?? toolfile.names).map { name in
            guard let spec = toolfile.tool(named: name) else { throw PinsError.unknownTool(name: name, known: toolfile.names) }
            return spec
        }
        let lock = try context.cache.lock(fileSystem: context.fileSystem, projectDirectory: context.projectDirectory)
        defer { lock.release() }
        let removed = Staging(cache: context.cache, fileSystem: context.fileSystem).removeLeftovers()
        if removed > 0 { events?(.removedLeftovers(count: removed)) }
        var installed: [InstalledTool] = []
        var checksums: [(path: String, sha256: String)] = []
        var recorded = false
        for spec in specs where spec.source.kind != .system {
            guard let locked = lockfile.tools[spec.name] else { continue }
            let (tool, checksum) = try await install(spec, locked: locked)
            installed.append(tool)
            if let checksum { checksums.append((tool.path, checksum)) }
            if let checksum, locked.executables[context.platform.description] == nil {
                lockfile.tools[spec.name]?.executables[context.platform.description] = checksum
                recorded = true
                events?(.recordedChecksum(tool: spec.name, platform: context.platform.description))
            }
        }
        if recorded { try context.lockfileStore.save(lockfile) }
        seedVerifyCache(with: checksums)
        return InstallResult(tools: installed, lockUpdated: recorded)
    }

    /// Records the checksums install has just established (each one the hash of the executable
    /// now in place) in the verify cache, keyed by the files' identity as they are now, so that
    /// the `tools verify` that usually follows an install in CI does not hash them again. The
    /// version commands still run at that verify; any later change to a file changes its
    /// identity and makes verify hash it again.
    private func seedVerifyCache(with checksums: [(path: String, sha256: String)]) {
        guard !checksums.isEmpty else { return }
        let path = context.cache.verifyCachePath
        let before = VerifyCache.load(from: path, fileSystem: context.fileSystem)
        var cache = before
        for (executable, sha256) in checksums {
            guard let identity = context.files.identity(of: executable) else { continue }
            var entry = cache.entry(for: executable, identity: identity)
                ?? VerifyCache.Entry(identity: identity, sha256: nil, versionOutputs: [:])
            entry.sha256 = sha256
            cache.entries[executable] = entry
        }
        if cache != before { cache.save(to: path, fileSystem: context.fileSystem) }
    }

    /// Throws when the lock is missing entries, has stale ones, or has entries that no longer
    /// fit the Toolfile.
    static func checkConsistency(_ toolfile: Toolfile, _ lockfile: Lockfile) throws {
        var problems: [String] = []
        for spec in toolfile.tools {
            guard let locked = lockfile.tools[spec.name] else {
                problems.append("'\(spec.name)' is not locked")
                continue
            }
            if let mismatch = locked.mismatch(with: spec) { problems.append(mismatch) }
        }
        for name in lockfile.tools.keys.sorted() where toolfile.tool(named: name) == nil {
            problems.append("'\(name)' is locked but the Toolfile no longer lists it")
        }
        if !problems.isEmpty { throw PinsError.lockOutOfDate(path: "Toolfile.lock", problems: problems) }
    }

    /// Installs one tool unless it is intact already; returns it and its executable's checksum.
    private func install(_ spec: ToolSpec, locked: LockedTool) async throws -> (InstalledTool, String?) {
        let destination = context.cache.installDirectory(tool: spec.name, version: locked.version, platform: context.platform)
        let executable = destination + "/" + spec.executableSubpath
        let expected = locked.executables[context.platform.description]
        if context.fileSystem.isExecutable(executable), let expected,
           (try? context.files.sha256(ofFile: executable)) == expected {
            events?(.alreadyInstalled(tool: spec.name, version: locked.version.description))
            return (InstalledTool(name: spec.name, version: locked.version.description, path: executable, wasPresent: true), expected)
        }
        let staging = Staging(cache: context.cache, fileSystem: context.fileSystem)
        let folder = try staging.makeFolder(label: spec.name)
        defer { try? context.fileSystem.remove(folder) }
        let staged: (payload: String, checksum: String)
        switch spec.source {
        case .archive(let archive):
            staged = try await stageArchive(spec, archive: archive, locked: locked, in: folder)
        case .git:
            staged = try await GitToolBuilder(context: context, events: events)
                .build(spec, locked: locked, in: folder)
        case .system:
            return (InstalledTool(name: spec.name, version: locked.version.description, path: executable, wasPresent: true), nil)
        }
        try await checkVersion(spec, locked: locked, executable: staged.payload + "/" + spec.executableSubpath)
        try moveIntoPlace(staged.payload, to: destination, scratch: folder)
        events?(.installed(tool: spec.name, version: locked.version.description, path: executable))
        return (InstalledTool(name: spec.name, version: locked.version.description, path: executable, wasPresent: false),
                staged.checksum)
    }

    private func stageArchive(_ spec: ToolSpec, archive: ArchiveSource, locked: LockedTool, in folder: String) async throws
        -> (payload: String, checksum: String) {
        let platform = context.platform.description
        guard let download = locked.archive?.platforms[platform] else {
            throw PinsError.platformNotLocked(tool: spec.name, platform: platform)
        }
        let fetched = try await ArchiveFetcher(context: context, events: events)
            .fetch(tool: spec.name, url: download.url, executable: archive.executable, expectedSHA256: download.sha256, in: folder)
        if let expected = locked.executables[platform], expected != fetched.executableSHA256 {
            throw PinsError.checksumMismatch(tool: spec.name, subject: "The executable '\(archive.executable)' in '\(download.url)'",
                                             expected: expected, found: fetched.executableSHA256)
        }
        return (fetched.payload, fetched.executableSHA256)
    }

    /// Runs the staged executable's version command; it must print the locked version.
    private func checkVersion(_ spec: ToolSpec, locked: LockedTool, executable: String) async throws {
        let probe = VersionProbe(processRunner: context.processRunner, environment: context.environment)
        let output = (try? await probe.output(of: executable, arguments: spec.versionArguments)) ?? ""
        let command = ([spec.executableSubpath] + spec.versionArguments).joined(separator: " ")
        guard let version = VersionProbe.parse(output, pattern: spec.versionPattern) else {
            throw PinsError.versionUnparsable(tool: spec.name, command: command, output: output)
        }
        guard version == locked.version else {
            throw PinsError.versionMismatch(tool: spec.name, expected: locked.version.description, found: version.description)
        }
    }

    /// Renames the staged folder to `destination`, moving an older install out of the way
    /// first (into the scratch folder, which is removed afterwards).
    private func moveIntoPlace(_ payload: String, to destination: String, scratch: String) throws {
        // Test hook for the "killed between unpack and rename" recovery test: the process dies
        // here as it would under SIGKILL, leaving only its temporary folder behind.
        if context.environment["SLIPWAY_TEST_KILL_BEFORE_RENAME"] == "1" { kill(getpid(), SIGKILL) }
        try context.fileSystem.createDirectory((destination as NSString).deletingLastPathComponent)
        if context.fileSystem.exists(destination) {
            try context.fileSystem.move(destination, to: scratch + "/previous")
        }
        try context.fileSystem.move(payload, to: destination)
    }
}
