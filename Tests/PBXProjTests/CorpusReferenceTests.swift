import Foundation
import Testing
import TestSupport
import TestThreads
@testable import PBXProj

/// Resolved paths of the corpus projects' `<group>` and `SOURCE_ROOT` references exist in the
/// projects' own file lists wherever the manifest's `ref_check` says they do.
@Suite("Corpus references", .dedicatedThreads)
struct CorpusReferenceTests {
    /// What a file list says about one resolved path.
    private func status(of path: String, files: Set<String>, folders: Set<String>, outside: [String: String]) -> Bool {
        if path.hasPrefix("../") { return outside[path]?.hasPrefix("exists") ?? false }
        return files.contains(path) || folders.contains(path)
    }

    private static func isPathElement(_ kind: FileElement.Kind) -> Bool {
        if case .other = kind { return false }
        return true
    }

    @Test("resolved paths match every project's file list")
    func referencesResolve() throws {
        guard let entries = try CorpusFixtures.readableEntries(for: "referencesResolve") else { return }
        let directory = try TemporaryDirectory(prefix: "pbx-refs")
        var matched = 0
        for entry in entries {
            let project = try CorpusFixtures.load(entry, in: directory)
            let files = try entry.treePaths()
            var folders: Set<String> = []
            for file in files {
                var parts = file.split(separator: "/")
                while parts.count > 1 {
                    parts.removeLast()
                    folders.insert(parts.joined(separator: "/"))
                }
            }
            let outside = try entry.outsidePaths()
            var checked = 0, exists = 0
            let resolved = try project.groupTree().resolvedPaths()
            for id in project.objectIDs {
                guard let element = project.fileElement(id), let path = element.path, !path.isEmpty,
                    Self.isPathElement(element.kind),
                    ["<group>", "SOURCE_ROOT"].contains(element.sourceTree ?? "<group>")
                else { continue }
                let target = try resolved[id] ?? project.resolvedPath(of: id)
                guard case .relative(let relative) = target else { continue }
                checked += 1
                if status(of: relative, files: files, folders: folders, outside: outside) { exists += 1 }
            }
            let expected = entry.referenceCheck
            let submodule = expected["in-submodule"] ?? 0
            #expect(checked == expected["checked"], "\(entry.baseName): checked \(checked), manifest \(expected["checked"] ?? -1)")
            // A path inside a git submodule is listed as one entry (the gitlink) or not at all.
            let low = expected["exists"] ?? 0
            #expect(exists >= low && exists <= low + submodule, "\(entry.baseName): \(exists) exist, manifest \(low) (+\(submodule) in submodules)")
            if checked == expected["checked"] && exists >= low && exists <= low + submodule { matched += 1 }
        }
        print("PBXProj reference resolution: \(matched)/\(entries.count) projects match their manifest's ref_check")
    }
}
