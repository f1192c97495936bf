import Foundation

/// The checker's two sides: what a tree names before a sync, and what broke after it.
struct SyncTreesSnapshot {
    /// Every named path that exists (with who names it).
    var named: [NamedPath] = []
    /// Each named folder → the files inside it (relative to the root).
    var folderFiles: [String: [String]] = [:]
    /// `.xcodeproj` → object id → resolved path, for every element whose path exists.
    var references: [String: [String: String]] = [:]
    /// The `.xcodeproj` bundles.
    var projects: [String] = []

    /// Reads the tree at `root`.
    static func take(root: String) -> SyncTreesSnapshot {
        let files = SyncTreesPathCollector.files(under: root)
        var snapshot = SyncTreesSnapshot()
        snapshot.projects = SyncTreesProjects.projects(in: files)
        let folders = Array(Set(snapshot.projects.map { ($0 as NSString).deletingLastPathComponent })).sorted()
        let collector = SyncTreesPathCollector(root: root, projectFolders: folders.isEmpty ? [""] : folders)
        snapshot.named = collector.collect(files: files)
        for bundle in snapshot.projects {
            guard let project = SyncTreesProjects.load(bundle, root: root) else { continue }
            snapshot.named += SyncTreesProjects.namedPaths(project, bundle: bundle, collector: collector)
            snapshot.references[bundle] = SyncTreesProjects.resolvedReferences(project, bundle: bundle, root: root)
        }
        let namedFolders = Set(snapshot.named.filter { $0.isFolder && !$0.path.isEmpty }.map(\.path))
        for file in files {
            var folder = file
            while let slash = folder.lastIndex(of: "/") {
                folder = String(folder[..<slash])
                if namedFolders.contains(folder) { snapshot.folderFiles[folder, default: []].append(file) }
            }
        }
        return snapshot
    }
}

/// The renames a sync made, in order (paths relative to the tree's root).
struct SyncTreesMoves {
    var moves: [(source: String, destination: String)] = []

    /// Where `path` is after every move (a move of a folder carries what is inside).
    func map(_ path: String) -> String {
        var current = path
        for move in moves {
            if current == move.source {
                current = move.destination
            } else if current.hasPrefix(move.source + "/") {
                current = move.destination + current.dropFirst(move.source.count)
            }
        }
        return current
    }
}

/// What a sync broke in one tree.
struct SyncTreesBreaks: Codable {
    /// A named path that existed before and not after, and that its namer does not name at its
    /// new place (a rewritten reference is not a break).
    struct Vanished: Codable, Hashable { var path: String; var now: String; var namer: String; var line: Int; var kind: String }
    /// A file that left a folder a tool reads whole.
    struct Left: Codable, Hashable { var file: String; var now: String; var folder: String; var kind: String }

    var vanished: [Vanished] = []
    var leftFolders: [Left] = []
    /// `bundle id path` of references that resolved before and not after.
    var unresolvedReferences: [String] = []
    /// Files whose content is nowhere after (git blobs; pbxproj and xcconfig files excepted).
    var lostFiles: [String] = []

    /// Distinct paths that existed before and not after.
    var vanishedPaths: Int { Set(vanished.map(\.path)).count }
    /// Distinct files that left a named folder.
    var filesLeft: Int { Set(leftFolders.map(\.file)).count }
    /// Everything counted as broken.
    var total: Int { vanishedPaths + filesLeft + unresolvedReferences.count + lostFiles.count }

    /// Compares the tree at `root` after a sync with its snapshot before.
    static func compare(before: SyncTreesSnapshot, after: SyncTreesSnapshot, moves: SyncTreesMoves, root: String) -> SyncTreesBreaks {
        var breaks = SyncTreesBreaks()
        var namedAfter: [String: Set<String>] = [:]
        for site in after.named { namedAfter[site.namer, default: []].insert(site.path) }
        func exists(_ path: String) -> Bool {
            (try? FileManager.default.attributesOfItem(atPath: root + "/" + path)) != nil
        }
        var seen: Set<NamedPath> = []
        for site in before.named where seen.insert(site).inserted && !exists(site.path) {
            let now = moves.map(site.path)
            if site.namer != NamedPath.locatedByTools, now != site.path, exists(now),
               namedAfter[moves.map(site.namer)]?.contains(now) == true { continue }  // rewritten
            breaks.vanished.append(Vanished(path: site.path, now: now, namer: site.namer, line: site.line, kind: site.kind))
        }
        var kindOfFolder: [String: String] = [:]
        for site in before.named where site.isFolder && kindOfFolder[site.path] == nil { kindOfFolder[site.path] = site.kind }
        for (folder, files) in before.folderFiles.sorted(by: { $0.key < $1.key }) {
            let folderNow = exists(folder) ? folder : moves.map(folder)
            for file in files {
                let now = moves.map(file)
                if now.hasPrefix(folderNow + "/") { continue }
                breaks.leftFolders.append(Left(file: file, now: now, folder: folder, kind: kindOfFolder[folder] ?? "?"))
            }
        }
        for (bundle, references) in before.references.sorted(by: { $0.key < $1.key }) {
            let resolved = after.references[moves.map(bundle)] ?? [:]
            for (id, path) in references.sorted(by: { $0.key < $1.key }) where resolved[id] == nil {
                breaks.unresolvedReferences.append("\(bundle) \(id) \(path)")
            }
        }
        return breaks
    }

    /// Blob entries (`sha path`) before whose content is not in any file after, except the
    /// formats a sync rewrites (pbxproj, xcconfig).
    static func lost(before: [(sha: String, path: String)], after: [(sha: String, path: String)]) -> [String] {
        var remaining: [String: Int] = [:]
        for entry in after { remaining[entry.sha, default: 0] += 1 }
        var lost: [String] = []
        for entry in before {
            if let count = remaining[entry.sha], count > 0 {
                remaining[entry.sha] = count - 1
            } else if !entry.path.hasSuffix(".pbxproj"), !entry.path.hasSuffix(".xcconfig") {
                lost.append(entry.path)
            }
        }
        return lost
    }
}
