import Basics
import Foundation
import PBXProj
import Sync
import Testing
import TestSupport
import TestThreads

/// Issue #4's invariants over every corpus project, rebuilt on disk and committed to git.
@Suite("Sync over the corpus", .dedicatedThreads)
struct CorpusSyncTests {
    /// The invariants, in the order they are reported.
    static let invariants = [
        "refuses-or-syncs", "references-still-resolve", "moved-files-in-group-folders", "contents-unchanged",
        "git-shows-renames", "second-sync-no-op", "check-1-before-0-after", "pbxproj-diff-minimal",
    ]

    /// synx's layout, folders for name-only groups, and the default (name-only groups virtual).
    static let layouts: [String: SyncOptions] = [
        "names": SyncOptions(foldersFrom: .names), "paths, name-only groups get folders": SyncOptions(groupsWithoutPath: .folder),
        "paths (the default)": SyncOptions(),
    ]

    @Test("every corpus project syncs without losing a file, and a second sync changes nothing", arguments: layouts.keys.sorted())
    func corpusInvariants(layout: String) throws {
        let options = try #require(Self.layouts[layout])
        guard let entries = try CorpusTree.entries(for: "corpusInvariants") else { return }
        var passes: [String: Int] = [:]
        var failures: [String] = []
        for entry in entries {
            let start = ContinuousClock.now
            let results = try check(entry, options: options)
            let elapsed = ContinuousClock.now - start
            if elapsed > .seconds(3) { print("sync corpus: \(entry.baseName) took \(elapsed)") }
            for name in Self.invariants {
                if results[name] == true { passes[name, default: 0] += 1 } else { failures.append("\(entry.baseName): \(name)") }
            }
        }
        for name in Self.invariants {
            print("sync corpus (\(layout)): \(name): \(passes[name] ?? 0) of \(entries.count)")
        }
        #expect(failures.isEmpty, "\(failures)")
    }

    /// Syncs one project and returns which invariants hold.
    private func check(_ entry: PBXProjCorpusEntry, options: SyncOptions) throws -> [String: Bool] {
        let tree = try CorpusTree(entry, git: true)
        let sync = ProjectSync(fileSystem: LocalFileSystem(), environment: Environment())
        let outer = tree.directory.path
        let before = TreeSnapshot(outer)
        let originalBytes = fileBytes(tree.pbxprojPath)
        guard let original = try? PBXProject(bytes: originalBytes, projectName: entry.projectName) else {
            // Unreadable (the merge-conflict fixture): the sync must refuse and change nothing.
            var refused = false
            do { _ = try sync.run(tree.projectPath, options: options, mode: .apply) } catch SyncError.unreadableProject {
                refused = true
            }
            let unchanged = TreeSnapshot(outer) == before
            return Dictionary(uniqueKeysWithValues: Self.invariants.map { ($0, refused && unchanged) })
        }
        var results: [String: Bool] = [:]
        let resolvedBefore = try existingReferences(original, root: tree.root)
        let checkBefore = try sync.run(tree.projectPath, options: options, mode: .check)
        // The tree's files hold their own paths, and the corpus projects' groups move `.github`
        // and the like: path references are accepted here (PathReferenceTests covers them); what
        // this test proves is that no file is lost.
        let report = try sync.run(tree.projectPath, options: options, mode: .apply, acceptPathReferences: true)
        if !report.plan.conflicts.isEmpty {
            // Only a real conflict is allowed (a file nothing refers to where a reference must
            // go, as when a group's files sit outside its folder next to a namesake): the sync
            // refuses, lists it and changes nothing.
            print("\(entry.baseName) (folders from \(options.foldersFrom)): refused: \(report.plan.conflicts.map(\.description))")
            let unchanged = TreeSnapshot(outer) == before && report.applied == nil
            let genuine = report.plan.conflicts.allSatisfy { $0.kind == .targetOccupied }
            return Dictionary(uniqueKeysWithValues: Self.invariants.map { ($0, unchanged && genuine && !checkBefore.isInSync) })
        }
        results["refuses-or-syncs"] = true
        let newBytes = fileBytes(tree.pbxprojPath)
        let synced = try PBXProject(bytes: newBytes, projectName: entry.projectName)
        let resolvedAfter = try existingReferences(synced, root: tree.root)
        let lost = resolvedBefore.subtracting(resolvedAfter)
        results["references-still-resolve"] = lost.isEmpty
        if !lost.isEmpty { print("\(entry.baseName): \(lost.count) references no longer resolve, e.g. \(lost.prefix(3).map(\.rawValue))") }
        results["moved-files-in-group-folders"] = try movesLandInGroupFolders(report.plan, project: synced, foldersFrom: options.foldersFrom)
        var after = TreeSnapshot(outer), beforeFiles = before
        let pbxprojEntry = "outer/inner/project/\(tree.bundle)/project.pbxproj"
        after.entries[pbxprojEntry] = nil
        beforeFiles.entries[pbxprojEntry] = nil
        results["contents-unchanged"] = after.contents == beforeFiles.contents
        if after.contents != beforeFiles.contents { print("\(entry.baseName): contents differ: \(after.difference(from: beforeFiles))") }
        results["git-shows-renames"] = try gitShowsRenames(tree, report: report)
        let second = try sync.run(tree.projectPath, options: options, mode: .check)
        results["second-sync-no-op"] = second.isInSync
        if !second.isInSync { print("\(entry.baseName): second sync: \(second.lines(limit: 5).joined(separator: "\n"))") }
        // `--check` looks at placement: the children's order alone does not make it fail.
        let placementNeeded = !report.plan.moves.isEmpty || report.plan.edits.contains { $0.key != .children }
        results["check-1-before-0-after"] = (checkBefore.isInSync == !placementNeeded) && second.isInSync
        results["pbxproj-diff-minimal"] = Self.diffIsMinimal(originalBytes, newBytes, entry: entry.baseName)
        return results
    }

    /// Ids of the elements whose resolved path exists on disk.
    private func existingReferences(_ project: PBXProject, root: String) throws -> Set<ObjectID> {
        var result: Set<ObjectID> = []
        for (id, resolved) in try project.groupTree().resolvedPaths() {
            guard let kind = project.fileElement(id)?.kind, kind != .group, kind != .variantGroup else { continue }
            guard let path = resolved.absolutePath(projectDirectory: root), path != root else { continue }
            var info = stat()
            if lstat(path, &info) == 0 { result.insert(id) }
        }
        return result
    }

    /// Each moved reference resolves to its destination, inside its group's folder (directly, or
    /// in its `.lproj`, with `--folders-from names`; at any depth by default).
    private func movesLandInGroupFolders(_ plan: SyncPlan, project: PBXProject, foldersFrom: FolderSource) throws -> Bool {
        let tree = try project.groupTree()
        var byPath: [String: Int] = [:]
        for (index, node) in tree.nodes.enumerated() {
            if case .relative(let path) = node.resolvedPath, byPath[path] == nil { byPath[path] = index }
        }
        for move in plan.referenceMoves {
            guard let index = byPath[move.destination], let parent = tree.nodes[index].parent,
                case .relative(let folder) = tree.nodes[parent].resolvedPath
            else {
                print("moved '\(move.destination)' is not where a reference resolves")
                return false
            }
            let container = (move.destination as NSString).deletingLastPathComponent
            let languageFolder = (container as NSString).deletingLastPathComponent
            let inside = foldersFrom == .paths ? ProjectPath.isWithin(container, folder)
                : container == folder || (container.hasSuffix(".lproj") && languageFolder == folder)
            if !inside {
                print("moved '\(move.destination)' is not in its group's folder '\(folder)'")
                return false
            }
        }
        return true
    }

    /// `git status` lists every move as a staged rename and the pbxproj as modified; nothing else.
    private func gitShowsRenames(_ tree: CorpusTree, report: SyncReport) throws -> Bool {
        let lines = try porcelainStatus(tree.root)
        let unexpected = lines.filter { !$0.hasPrefix("R  ") && $0 != "M  \(tree.bundle)/project.pbxproj" && !$0.hasPrefix("M  \"\(tree.bundle)/") }
        let renames = lines.filter { $0.hasPrefix("R  ") }.count
        if !unexpected.isEmpty { print("\(tree.entry.baseName): unexpected git status lines \(unexpected.prefix(5))") }
        return unexpected.isEmpty && (report.plan.moves.isEmpty || renames > 0)
    }

    /// Only `path`/`name`/`sourceTree` lines, the listed build settings and comments changed;
    /// reordered lines (sorting) are not changes.
    static func diffIsMinimal(_ old: [UInt8], _ new: [UInt8], entry: String) -> Bool {
        func lines(_ bytes: [UInt8]) -> [String: Int] {
            var result: [String: Int] = [:]
            for line in String(decoding: bytes, as: UTF8.self).split(separator: "\n", omittingEmptySubsequences: false) {
                result[String(line), default: 0] += 1
            }
            return result
        }
        let before = lines(old), after = lines(new)
        var removedStripped: [String: Int] = [:]
        for (line, count) in before where count > (after[line] ?? 0) { removedStripped[stripComments(line), default: 0] += count - (after[line] ?? 0) }
        for (line, count) in after where count > (before[line] ?? 0) {
            let allowed = line.contains("path = ") || line.contains("name = ") || line.contains("sourceTree = ")
                || ["INFOPLIST_FILE", "GCC_PREFIX_HEADER", "CODE_SIGN_ENTITLEMENTS", "SWIFT_OBJC_BRIDGING_HEADER", "MODULEMAP_FILE"].contains { line.contains($0) }
                || (removedStripped[stripComments(line)] ?? 0) > 0
            if !allowed {
                print("\(entry): unexpected pbxproj line: \(line)")
                return false
            }
        }
        return true
    }

    static func stripComments(_ line: String) -> String {
        var result = ""
        var rest = Substring(line)
        while let start = rest.range(of: "/*") {
            result += rest[..<start.lowerBound]
            guard let end = rest[start.upperBound...].range(of: "*/") else { return result }
            rest = rest[end.upperBound...]
        }
        return result + rest
    }
}
