import Basics
import Foundation

/// `slipway tools verify`, and what the lane runner calls before step one of a lane that
/// `requires:` tools: offline, and fast when nothing changed (hashes and version outputs are
/// cached by file identity in the tools cache).
///
/// For each tool: is it locked, does the lock still satisfy the Toolfile, is the executable
/// installed, does its SHA-256 equal the lock's, and does the version it prints equal the lock's
/// (system tools: is it on PATH and does its version satisfy the constraint).
public struct ToolVerifier: Sendable {
    /// The project and its services.
    public let context: PinsContext

    /// A verifier for the project in `context`.
    public init(context: PinsContext) {
        self.context = context
    }

    /// Verifies the named tools, or all tools and stale lock entries when `names` is nil.
    /// Drift is reported in the statuses, not thrown.
    /// - Throws: `PinsError.toolfileNotFound`, `.lockfileNotFound`, `.lockfileCorrupt`,
    ///   `.lockfileUnsupportedVersion`, `.unknownTool`; `DiagnosticsError` for a bad Toolfile.
    public func report(for names: [String]? = nil) async throws -> ToolVerifyReport {
        let toolfile = try context.loadToolfile()
        let lockfile = try context.lockfileStore.loadRequired()
        let specs = try select(names, from: toolfile)
        let cache = VerifyCache.load(from: context.cache.verifyCachePath, fileSystem: context.fileSystem)
        let outcomes = await checkAll(specs, lockfile: lockfile, cache: cache)
        var updated = cache
        for case let (_, (path, entry)?) in outcomes { updated.entries[path] = entry }
        if updated != cache { updated.save(to: context.cache.verifyCachePath, fileSystem: context.fileSystem) }
        var statuses = outcomes.map(\.0)
        if names == nil {
            statuses += staleEntries(lockfile, toolfile)
        }
        return ToolVerifyReport(platform: context.platform.description, tools: statuses)
    }

    /// The statuses of the named tools (the lane runner's `requires:` check); a tool passed
    /// when its status `isOK`.
    /// - Throws: as `report(for:)`.
    public func verify(names: [String]) async throws -> [ToolStatus] {
        try await report(for: names).tools
    }

    /// Verifies the named tools and throws when any of them drifted.
    /// - Throws: `PinsError.toolsNotVerified` with the statuses (its message lists each failed
    ///   check), and what `report(for:)` throws.
    public func requireVerified(names: [String]) async throws {
        let statuses = try await report(for: names).tools
        if statuses.contains(where: { !$0.isOK }) { throw PinsError.toolsNotVerified(statuses) }
    }

    /// Checks the tools. The cheap checks come first, in order; then the executables that the
    /// verify cache does not vouch for are hashed in parallel (one file per thread, as many
    /// threads as cores, biggest first so that the threads finish together); then the version
    /// commands run, only of executables whose checksum equals the lock's (system tools are not
    /// pinned by checksum). An executable that fails its checksum is never run: it may be
    /// checkout content (a GitLab tools cache lives in the checkout). Results in `specs` order.
    private func checkAll(_ specs: [ToolSpec], lockfile: Lockfile, cache: VerifyCache) async
        -> [(ToolStatus, (String, VerifyCache.Entry)?)] {
        let checks = specs.map { check($0, locked: lockfile.tools[$0.name], cache: cache) }
        var contents = checks.map(\.contents)
        var sizes: [String: Int64] = [:]
        for case let item? in contents where item.needsHash { sizes[item.path] = item.identity.size }
        let toHash = sizes.keys.sorted { (sizes[$0]!, $0) > (sizes[$1]!, $1) }
        let hashes = Dictionary(uniqueKeysWithValues: zip(toHash, await context.files.sha256(ofFiles: toHash)))
        for index in contents.indices {
            guard var item = contents[index] else { continue }
            if item.needsHash { item.entry.sha256 = hashes[item.path] ?? nil }
            if !checksumMatches(item.spec, locked: item.locked, sha256: item.entry.sha256) { item.needsProbe = false }
            contents[index] = item
        }
        let outputs = await probeVersions(contents.compactMap { $0 }.filter(\.needsProbe))
        return zip(checks, contents).map { check, item in
            guard let item else { return (check.status, nil) }
            var entry = item.entry
            if item.needsProbe { entry.versionOutputs[item.probeKey] = outputs[item.probeID] ?? "" }
            return (finish(item, entry: entry, status: check.status), (item.path, entry))
        }
    }

    /// Whether the executable's hash is the one the lock records for this platform (always
    /// true for system tools, whose contents are not pinned).
    private func checksumMatches(_ spec: ToolSpec, locked: LockedTool, sha256: String?) -> Bool {
        guard spec.source.kind != .system else { return true }
        guard let expected = locked.executables[context.platform.description] else { return false }
        return sha256 == expected
    }

    /// Runs the version commands, several at once (they mostly wait for the child process);
    /// the outputs by `probeID`.
    private func probeVersions(_ items: [ContentsCheck]) async -> [String: String] {
        let probe = VersionProbe(processRunner: context.processRunner, environment: context.environment)
        var seen: Set<String> = []
        let unique = items.filter { seen.insert($0.probeID).inserted }
        let width = max(4, 2 * ProcessInfo.processInfo.activeProcessorCount)
        return await withTaskGroup(of: (String, String).self) { group in
            var outputs: [String: String] = [:]
            for (index, item) in unique.enumerated() {
                if index >= width, let (id, output) = await group.next() { outputs[id] = output }
                group.addTask {
                    (item.probeID, (try? await probe.output(of: item.path, arguments: item.spec.versionArguments)) ?? "")
                }
            }
            for await (id, output) in group { outputs[id] = output }
            return outputs
        }
    }

    private func select(_ names: [String]?, from toolfile: Toolfile) throws -> [ToolSpec] {
        guard let names else { return toolfile.tools }
        return try names.map { name in
            guard let spec = toolfile.tool(named: name) else {
                throw PinsError.unknownTool(name: name, known: toolfile.names)
            }
            return spec
        }
    }

    private func staleEntries(_ lockfile: Lockfile, _ toolfile: Toolfile) -> [ToolStatus] {
        lockfile.tools.keys.sorted().filter { toolfile.tool(named: $0) == nil }.map { name in
            ToolStatus(name: name, source: nil, lockedVersion: lockfile.tools[name]?.version.description, executable: nil,
                       checks: [ToolCheck(check: .locked, ok: false, expected: "no entry (the Toolfile does not list '\(name)')",
                                          found: "an entry for \(lockfile.tools[name]?.version.description ?? "?")",
                                          file: "Toolfile.lock", advice: "Run 'slipway tools lock' to remove it.")])
        }
    }

    // MARK: - One tool

    /// A tool whose executable is installed: what remains to be checked of its contents.
    private struct ContentsCheck: Sendable {
        var spec: ToolSpec
        var locked: LockedTool
        var path: String
        var identity: FileIdentity
        /// The cached entry for this identity, or an empty one.
        var entry: VerifyCache.Entry
        var needsHash: Bool
        var probeKey: String
        var needsProbe: Bool
        /// Identifies one version command: the executable and its arguments.
        var probeID: String { path + "\u{1F}" + probeKey }
    }

    /// The checks that need neither hashing nor running the tool: locked, toolfile, installed.
    private func check(_ spec: ToolSpec, locked: LockedTool?, cache: VerifyCache)
        -> (status: ToolStatus, contents: ContentsCheck?) {
        let toolfileLocation = spec.location.description
        var status = ToolStatus(name: spec.name, source: spec.source.kind, lockedVersion: locked?.version.description,
                                executable: nil, checks: [])
        guard let locked else {
            status.checks.append(ToolCheck(check: .locked, ok: false, expected: "an entry in Toolfile.lock", found: "none",
                                           file: "Toolfile.lock", advice: "Run 'slipway tools lock'."))
            return (status, nil)
        }
        status.checks.append(ToolCheck(check: .locked, ok: true, expected: "an entry in Toolfile.lock",
                                       found: "\(locked.source.rawValue) \(locked.version)", file: "Toolfile.lock"))
        let mismatch = locked.mismatch(with: spec)
        status.checks.append(ToolCheck(check: .toolfile, ok: mismatch == nil, expected: expectation(of: spec),
                                       found: mismatch ?? "\(locked.version)", file: toolfileLocation,
                                       advice: "Run 'slipway tools lock' to lock what the Toolfile asks for."))
        guard mismatch == nil else { return (status, nil) }
        guard let path = executablePath(spec, locked: locked) else {
            status.checks.append(ToolCheck(check: .installed, ok: false, expected: "'\(spec.executableSubpath)' on PATH",
                                           found: "not found", file: "PATH", advice: "Install it, or change the Toolfile."))
            return (status, nil)
        }
        status.executable = path
        guard context.fileSystem.isExecutable(path), let identity = context.files.identity(of: path) else {
            status.checks.append(ToolCheck(check: .installed, ok: false, expected: "an executable file", found: "nothing",
                                           file: path, advice: "Run 'slipway tools install'."))
            return (status, nil)
        }
        status.checks.append(ToolCheck(check: .installed, ok: true, expected: "an executable file", found: "an executable file",
                                       file: path))
        let entry = cache.entry(for: path, identity: identity)
            ?? VerifyCache.Entry(identity: identity, sha256: nil, versionOutputs: [:])
        let key = spec.versionArguments.joined(separator: "\u{1F}")
        return (status, ContentsCheck(spec: spec, locked: locked, path: path, identity: identity, entry: entry,
                                      needsHash: spec.source.kind != .system && entry.sha256 == nil, probeKey: key,
                                      needsProbe: entry.versionOutputs[key] == nil))
    }

    /// The checksum and version checks, from the hash and version output in `entry`.
    private func finish(_ item: ContentsCheck, entry: VerifyCache.Entry, status: ToolStatus) -> ToolStatus {
        var status = status
        let (spec, path) = (item.spec, item.path)
        if spec.source.kind != .system {
            let expected = item.locked.executables[context.platform.description]
            let found = entry.sha256 ?? "unreadable"
            status.checks.append(ToolCheck(
                check: .checksum, ok: expected != nil && expected == found,
                expected: expected ?? "a checksum recorded for \(context.platform)", found: found, file: path,
                advice: expected == nil
                    ? "Run 'slipway tools install' on \(context.platform) to record it, and commit Toolfile.lock."
                    : "The installed executable was changed; run 'slipway tools install' to restore it."))
        }
        // A changed executable is not run to learn its version: the checksum failure says it all.
        guard checksumMatches(spec, locked: item.locked, sha256: entry.sha256) else { return status }
        status.checks.append(versionCheck(spec, locked: item.locked, output: entry.versionOutputs[item.probeKey] ?? "",
                                          path: path))
        return status
    }

    private func versionCheck(_ spec: ToolSpec, locked: LockedTool, output: String, path: String) -> ToolCheck {
        let parsed = VersionProbe.parse(output, pattern: spec.versionPattern)
        let command = ([spec.executableSubpath] + spec.versionArguments).joined(separator: " ")
        let found = parsed?.description ?? "no version in the output of '\(command)': '\(output.prefix(80))'"
        if spec.source.kind == .system {
            let ok = parsed.map(spec.constraint.isSatisfied) ?? false
            return ToolCheck(check: .version, ok: ok, expected: "a version satisfying '\(spec.constraint)'", found: found,
                             file: path, advice: "Install a version that satisfies '\(spec.constraint)', or change the Toolfile.")
        }
        let advice = parsed == nil
            ? "Set 'version-regex' or 'version-args' for '\(spec.name)' in the Toolfile."
            : "Run 'slipway tools install' to reinstall the locked version."
        return ToolCheck(check: .version, ok: parsed.map { $0 == locked.version } ?? false,
                         expected: locked.version.description, found: found, file: path, advice: advice)
    }

    private func expectation(of spec: ToolSpec) -> String {
        switch spec.source {
        case .git(let url, _): return "'\(spec.constraint)' from \(url)"
        case .archive(let archive): return "'\(spec.constraint)' from \(archive.urlTemplate)"
        case .system(let executable): return "'\(executable)' on PATH"
        }
    }

    // MARK: - Paths

    /// Where the locked executable is (installed, or found on PATH for system tools); nil for a
    /// system tool that is not on PATH.
    func executablePath(_ spec: ToolSpec, locked: LockedTool) -> String? {
        if case .system(let executable) = spec.source {
            return ExecutableLocator.find(executable, environment: context.environment.variables)
        }
        let folder = context.cache.installDirectory(tool: spec.name, version: locked.version, platform: context.platform)
        return folder + "/" + spec.executableSubpath
    }

    /// The pinned executable of tool `name` (it is not verified; see `requireVerified`).
    /// - Throws: `PinsError.unknownTool`, `.lockOutOfDate` when it is not locked,
    ///   `.systemToolMissing`, and what loading the Toolfile and lock throws.
    public func executablePath(for name: String) throws -> String {
        let toolfile = try context.loadToolfile()
        guard let spec = toolfile.tool(named: name) else { throw PinsError.unknownTool(name: name, known: toolfile.names) }
        let lockfile = try context.lockfileStore.loadRequired()
        guard let locked = lockfile.tools[name] else {
            throw PinsError.lockOutOfDate(path: "Toolfile.lock", problems: ["'\(name)' is not locked"])
        }
        guard let path = executablePath(spec, locked: locked) else {
            throw PinsError.systemToolMissing(tool: name, executable: spec.executableSubpath)
        }
        return path
    }

    /// The folders holding the pinned executables that are installed and intact (checksum equal
    /// to the lock's), in Toolfile order: put them first in a lane's plugin search path so that
    /// pinned `slipway-step-*` plugins win over PATH. A folder whose executable was changed is
    /// left out, so that a changed pinned plugin is never asked to describe itself. Empty when
    /// the project has no Toolfile or no lock.
    /// - Throws: what loading the Toolfile and lock throws.
    public func executableDirectories() throws -> [String] {
        guard context.fileSystem.exists(context.toolfilePath) else { return [] }
        let toolfile = try context.loadToolfile()
        guard let lockfile = try context.lockfileStore.load() else { return [] }
        let cache = VerifyCache.load(from: context.cache.verifyCachePath, fileSystem: context.fileSystem)
        var folders: [String] = []
        for spec in toolfile.tools where spec.source.kind != .system {
            guard let locked = lockfile.tools[spec.name], let path = executablePath(spec, locked: locked),
                  context.fileSystem.isExecutable(path), isIntact(path, spec: spec, locked: locked, cache: cache)
            else { continue }
            let folder = (path as NSString).deletingLastPathComponent
            if !folders.contains(folder) { folders.append(folder) }
        }
        return folders
    }

    /// Whether the executable at `path` hashes to the lock's checksum; the verify cache vouches
    /// for a file whose identity it recorded, otherwise the file is hashed.
    private func isIntact(_ path: String, spec: ToolSpec, locked: LockedTool, cache: VerifyCache) -> Bool {
        guard let identity = context.files.identity(of: path) else { return false }
        let sha256 = cache.entry(for: path, identity: identity)?.sha256 ?? (try? context.files.sha256(ofFile: path))
        return checksumMatches(spec, locked: locked, sha256: sha256)
    }
}
