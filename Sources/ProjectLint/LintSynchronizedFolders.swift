import PBXProj

/// The project's synchronized folders (Xcode 16's `PBXFileSystemSynchronizedRootGroup`), where
/// they are: every file inside one, at any depth, is in the project through the folder (its
/// exception sets only say which targets and build phases take it). No rule may call such a file
/// unreferenced, or advise deleting or adding it. Computed once per context.
struct LintSynchronizedFolders: Sendable {
    /// Each synchronized folder's path relative to the project's folder (normalized; folders
    /// under a source tree Slipway cannot resolve, or absolute ones, are left out).
    let paths: [String]

    init(_ context: LintContext) {
        guard let tree = context.groupTree else {
            paths = []
            return
        }
        var found: [String] = []
        var seen = Set<String>()
        for node in tree.nodes where node.element.kind == .synchronizedRootGroup {
            guard case .relative(let path) = node.resolvedPath else { continue }
            let normalized = ProjectPath.normalize(path)
            if seen.insert(normalized).inserted { found.append(normalized) }
        }
        paths = found
    }

    /// Whether `path` (relative to the project's folder) is a synchronized folder or lies inside one.
    func contains(_ path: String) -> Bool {
        guard !paths.isEmpty else { return false }
        let normalized = ProjectPath.normalize(path)
        return paths.contains { ProjectPath.isWithin(normalized, $0) }
    }
}

extension LintContext {
    /// The synchronized folders (computed once).
    var synchronizedFolders: LintSynchronizedFolders {
        memo.synchronizedFolders.get { LintSynchronizedFolders(self) }
    }
}
