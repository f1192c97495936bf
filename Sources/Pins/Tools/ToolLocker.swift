import Basics
import Foundation
import Git

/// Which lock entries `lock` resolves again.
public enum LockUpdate: Sendable, Hashable {
    /// Only tools that are new or whose entry no longer fits the Toolfile.
    case outdatedOnly
    /// Every tool.
    case all
    /// These tools, plus those that are new or no longer fit.
    case tools([String])
}

/// What `lock` did to one tool's entry.
public struct LockChange: Sendable, Hashable, Codable {
    /// What happened.
    public enum Kind: String, Sendable, Hashable, Codable { case added, updated, kept, removed }

    /// The tool.
    public var tool: String
    /// What happened.
    public var kind: Kind
    /// The version before (updated, kept, removed).
    public var from: String?
    /// The version after (added, updated, kept).
    public var to: String?
}

/// The lockfile written by `lock` and what changed.
public struct LockResult: Sendable, Hashable {
    /// The lockfile as written.
    public var lockfile: Lockfile
    /// One change per tool, in Toolfile order, then removed entries.
    public var changes: [LockChange]
    /// False when the file already had this content and was left alone.
    public var wrote: Bool
}

/// `slipway tools lock`: resolves each tool's constraint (git tags through ls-remote, archive
/// versions as given, system tools as found on PATH) and writes Toolfile.lock atomically.
/// Entries that still fit the Toolfile are kept unless an update asks for them.
public struct ToolLocker: Sendable {
    /// The project and its services.
    public let context: PinsContext
    /// Progress events.
    public let events: PinsEventHandler?

    /// A locker for the project in `context`.
    public init(context: PinsContext, events: PinsEventHandler? = nil) {
        self.context = context
        self.events = events
    }

    /// Resolves and writes the lock.
    /// - Throws: `DiagnosticsError` (Toolfile), `PinsError.lockfileCorrupt` /
    ///   `.lockfileUnsupportedVersion` (the old lock is never overwritten blindly),
    ///   `.unknownTool`, `.unsatisfiable`, `.fetchFailed`, `.downloadFailed`,
    ///   `.systemToolMissing`, `.versionUnparsable`. Nothing is written when anything throws.
    public func lock(update: LockUpdate = .outdatedOnly) async throws -> LockResult {
        let toolfile = try context.loadToolfile()
        let store = context.lockfileStore
        let existing = try store.load()
        if case .tools(let names) = update {
            for name in names where toolfile.tool(named: name) == nil {
                throw PinsError.unknownTool(name: name, known: toolfile.names)
            }
        }
        var lockfile = Lockfile()
        var changes: [LockChange] = []
        for spec in toolfile.tools {
            let old = existing?.tools[spec.name]
            if let old, old.mismatch(with: spec) == nil, !wantsUpdate(spec.name, update) {
                lockfile.tools[spec.name] = old
                changes.append(LockChange(tool: spec.name, kind: .kept, from: old.version.description, to: old.version.description))
                events?(.kept(tool: spec.name, version: old.version.description))
                continue
            }
            events?(.resolving(tool: spec.name))
            // A tool named in `--update NAME` starts afresh: its downloads are checked again and a
            // git tool's recorded checksums are dropped, so that the next install records them
            // (the way to accept another toolchain's build). A bulk update keeps what still holds.
            let entry = try await resolve(spec, previous: Self.isNamed(spec.name, in: update) ? nil : old)
            lockfile.tools[spec.name] = entry
            events?(.resolved(tool: spec.name, version: entry.version.description))
            let kind: LockChange.Kind = old == nil ? .added : old == entry ? .kept : .updated
            changes.append(LockChange(tool: spec.name, kind: kind, from: old?.version.description, to: entry.version.description))
        }
        for name in (existing?.tools.keys.sorted() ?? []) where toolfile.tool(named: name) == nil {
            changes.append(LockChange(tool: name, kind: .removed, from: existing?.tools[name]?.version.description, to: nil))
        }
        let unchanged = existing == lockfile && context.fileSystem.exists(store.path)
        if !unchanged { try store.save(lockfile) }
        return LockResult(lockfile: lockfile, changes: changes, wrote: !unchanged)
    }

    private static func isNamed(_ name: String, in update: LockUpdate) -> Bool {
        if case .tools(let names) = update { return names.contains(name) }
        return false
    }

    private func wantsUpdate(_ name: String, _ update: LockUpdate) -> Bool {
        switch update {
        case .outdatedOnly: return false
        case .all: return true
        case .tools(let names): return names.contains(name)
        }
    }

    private func resolve(_ spec: ToolSpec, previous: LockedTool?) async throws -> LockedTool {
        switch spec.source {
        case .git(let url, let product):
            return try await resolveGit(spec, url: url, product: product, previous: previous)
        case .archive(let archive):
            return try await resolveArchive(spec, archive: archive, previous: previous)
        case .system(let executable):
            return try await resolveSystem(spec, executable: executable)
        }
    }

    private func resolveGit(_ spec: ToolSpec, url: String, product: String, previous: LockedTool?) async throws -> LockedTool {
        let tags: [String: GitOID]
        do {
            tags = try await context.git.remoteTags(url: url)
        } catch {
            throw PinsError.fetchFailed(tool: spec.name, url: url, reason: errorText(error))
        }
        let candidates = Self.versionTags(tags)
        guard let best = spec.constraint.best(of: Array(candidates.keys)), let chosen = candidates[best] else {
            throw PinsError.unsatisfiable(tool: spec.name, constraint: spec.constraint.text,
                                          available: candidates.keys.sorted().map(\.description))
        }
        let git = LockedGit(url: url, tag: chosen.tag, commit: chosen.commit, product: product)
        // A checksum recorded for the same commit and product stays true.
        let executables = previous?.git == git ? previous?.executables ?? [:] : [:]
        return LockedTool(source: .git, version: best, git: git, executables: executables)
    }

    /// The tags that name versions (`1.2.3` or `v1.2.3`); when both spell one version, the one
    /// without `v` wins, so that the choice does not depend on dictionary order.
    static func versionTags(_ tags: [String: GitOID]) -> [SemanticVersion: (tag: String, commit: GitOID)] {
        var result: [SemanticVersion: (tag: String, commit: GitOID)] = [:]
        for (tag, commit) in tags {
            guard let version = SemanticVersion(tag: tag) else { continue }
            if let existing = result[version], existing.tag < tag { continue }
            result[version] = (tag, commit)
        }
        return result
    }

    private func resolveArchive(_ spec: ToolSpec, archive: ArchiveSource, previous: LockedTool?) async throws -> LockedTool {
        guard let version = spec.constraint.exactVersion else {
            throw PinsError.archiveNeedsExactVersion(tool: spec.name, constraint: spec.constraint.text)
        }
        var downloads: [String: LockedDownload] = [:]
        var executables: [String: String] = [:]
        let staging = Staging(cache: context.cache, fileSystem: context.fileSystem)
        for platform in archive.platforms {
            let key = platform.description
            let url = archive.url(version: version, platform: platform)
            if let previous, previous.version == version, previous.archive?.executable == archive.executable,
               let known = previous.archive?.platforms[key], known.url == url, let executable = previous.executables[key] {
                downloads[key] = known
                executables[key] = executable
                continue
            }
            let folder = try staging.makeFolder(label: "lock-\(spec.name)")
            defer { try? context.fileSystem.remove(folder) }
            let fetched = try await ArchiveFetcher(context: context, events: events)
                .fetch(tool: spec.name, url: url, executable: archive.executable, expectedSHA256: nil, in: folder)
            downloads[key] = LockedDownload(url: url, sha256: fetched.archiveSHA256)
            executables[key] = fetched.executableSHA256
        }
        return LockedTool(source: .archive, version: version,
                          archive: LockedArchive(executable: archive.executable, platforms: downloads), executables: executables)
    }

    private func resolveSystem(_ spec: ToolSpec, executable: String) async throws -> LockedTool {
        guard let path = ExecutableLocator.find(executable, environment: context.environment.variables) else {
            throw PinsError.systemToolMissing(tool: spec.name, executable: executable)
        }
        let probe = VersionProbe(processRunner: context.processRunner, environment: context.environment)
        let output = try await probe.output(of: path, arguments: spec.versionArguments)
        guard let version = VersionProbe.parse(output, pattern: spec.versionPattern) else {
            throw PinsError.versionUnparsable(tool: spec.name, command: ([executable] + spec.versionArguments)
                .joined(separator: " "), output: output)
        }
        guard spec.constraint.isSatisfied(by: version) else {
            throw PinsError.unsatisfiable(tool: spec.name, constraint: spec.constraint.text, available: [version.description])
        }
        return LockedTool(source: .system, version: version)
    }
}
