import Basics
import Foundation

/// One row of `slipway tools outdated`.
public struct OutdatedTool: Sendable, Hashable, Codable {
    /// The tool.
    public var name: String
    /// Its source kind.
    public var source: ToolSourceKind
    /// The locked version; nil when not locked.
    public var locked: String?
    /// The highest version the constraint accepts; nil when it cannot be known.
    public var wanted: String?
    /// The highest release available, whatever the constraint; nil when it cannot be known.
    public var latest: String?
    /// Why something is unknown, or what was found.
    public var note: String?

    /// True when a newer acceptable version, or a newer release outside the constraint, exists.
    public var isOutdated: Bool {
        guard let locked, let lockedVersion = SemanticVersion(locked) else { return wanted != nil }
        let newer = [wanted, latest].compactMap { $0.flatMap { SemanticVersion($0) } }
        return newer.contains { $0 > lockedVersion }
    }
}

/// `slipway tools outdated`: for git tools, lists the remote's tags and shows what the
/// constraint would pick now and the newest release. Archive versions cannot be listed.
public struct OutdatedChecker: Sendable {
    /// The project and its services.
    public let context: PinsContext

    /// A checker for the project in `context`.
    public init(context: PinsContext) {
        self.context = context
    }

    /// One row per tool, in Toolfile order.
    /// - Throws: what loading the Toolfile and lock throws; a remote that cannot be read gives
    ///   a note in its row instead.
    public func check() async throws -> [OutdatedTool] {
        let toolfile = try context.loadToolfile()
        let lockfile = try context.lockfileStore.load()
        var rows: [OutdatedTool] = []
        for spec in toolfile.tools {
            let locked = lockfile?.tools[spec.name]
            var row = OutdatedTool(name: spec.name, source: spec.source.kind, locked: locked?.version.description)
            switch spec.source {
            case .git(let url, _):
                do {
                    let versions = Array(ToolLocker.versionTags(try await context.git.remoteTags(url: url)).keys)
                    row.wanted = spec.constraint.best(of: versions)?.description
                    row.latest = (versions.filter { !$0.isPrerelease }.max() ?? versions.max())?.description
                } catch {
                    row.note = "could not list the tags: \(errorText(error))"
                }
            case .archive:
                row.note = "an archive's versions cannot be listed; check the publisher's releases"
            case .system:
                row.note = "installed by the system; verify checks it against '\(spec.constraint)'"
            }
            rows.append(row)
        }
        return rows
    }
}

extension OutdatedTool {
    init(name: String, source: ToolSourceKind, locked: String?) {
        self.init(name: name, source: source, locked: locked, wanted: nil, latest: nil, note: nil)
    }
}
