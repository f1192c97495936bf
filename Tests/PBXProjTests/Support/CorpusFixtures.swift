import Foundation
import TestSupport
@testable import PBXProj

/// Access to the shared real-world corpus for the PBXProj tests.
enum CorpusFixtures {
    /// Files the corpus README names as not written by Xcode (or not readable on purpose): they
    /// must round-trip, but Xcode's canonical form is not expected of them.
    static let notWrittenByXcode: Set<String> = [
        "tuist__XcodeProj__WithoutWorkspace",  // SwiftPM's old generator
        "yonaskolb__XcodeGen__TestProject",  // XcodeGen
        "quicksilver__Quicksilver__UKProgressPanel",  // pre-Xcode-3 layout
        "CocoaPods__Xcodeproj__ProjectInMergeConflict",  // merge-conflict markers
        "rxhanson__Rectangle__Rectangle",  // hand edits
    ]

    /// The merge-conflict fixture, which must be refused.
    static let mergeConflict = "CocoaPods__Xcodeproj__ProjectInMergeConflict"

    /// The manifest's rows, or nil (after saying so) when the corpus is not there.
    static func entries(for test: String) throws -> [PBXProjCorpusEntry]? {
        guard let directory = Corpus.pbxprojDirectory else {
            print("SKIPPED \(test): the pbxproj corpus (../shared/corpus/pbxproj or $SLIPWAY_CORPUS) is absent")
            return nil
        }
        return try PBXProjCorpusManifest.entries(in: directory)
    }

    /// The readable rows (everything but the merge-conflict fixture).
    static func readableEntries(for test: String) throws -> [PBXProjCorpusEntry]? {
        try entries(for: test)?.filter { $0.baseName != mergeConflict }
    }

    /// Reads a corpus file the way a user's project is read: copied into a fresh temporary
    /// folder as `<Name>.xcodeproj/project.pbxproj` and opened by the folder's path.
    static func load(_ entry: PBXProjCorpusEntry, in directory: TemporaryDirectory) throws -> PBXProject {
        let folder = try entry.install(in: directory)
        return try PBXProject(contentsOf: folder)
    }
}

/// Line-level comparison helpers for the minimal-edit tests.
enum LineDiff {
    /// The file's lines (split on `\n`).
    static func lines(_ bytes: [UInt8]) -> [Substring] {
        String(decoding: bytes, as: UTF8.self).split(separator: "\n", omittingEmptySubsequences: false)
    }

    /// The lines of `bytes` that are neither inside the entries of `objects` nor mention any of
    /// `mentioning`: what an edit of those objects must leave identical, in order.
    static func untouchedLines(_ bytes: [UInt8], objects: Set<ObjectID>, mentioning: Set<String>) throws -> [Substring] {
        try untouchedLines(of: PBXProject(bytes: bytes, projectName: "Diff"), lines: lines(bytes), objects: objects, mentioning: mentioning)
    }

    /// The same for an already parsed project and its lines.
    static func untouchedLines(
        of project: PBXProject, lines: [Substring], objects: Set<ObjectID>, mentioning: Set<String>
    ) -> [Substring] {
        var covered = IndexSet()
        let index = LineIndex(project.tree.bytes)
        for id in objects {
            guard let entryIndex = project.table.find(id.rawValue, in: project.tree) else { continue }
            let entry = project.table.entries[entryIndex]
            let first = index.location(of: Int(project.tree.nodes[Int(entry.key)].start)).line - 1
            let last = index.location(of: Int(project.tree.nodes[Int(entry.value)].end)).line - 1
            covered.insert(integersIn: first...last)
        }
        return lines.enumerated().filter { index, line in
            !covered.contains(index) && !mentioning.contains { line.contains($0) }
        }.map(\.element)
    }

    /// How many lines differ, counted as removed plus added lines after trimming the common
    /// prefix and suffix (an upper bound of a real diff's size).
    static func changedLineCount(_ a: [UInt8], _ b: [UInt8]) -> Int {
        let left = lines(a), right = lines(b)
        var prefix = 0
        while prefix < left.count, prefix < right.count, left[prefix] == right[prefix] { prefix += 1 }
        var suffix = 0
        while suffix < left.count - prefix, suffix < right.count - prefix,
            left[left.count - 1 - suffix] == right[right.count - 1 - suffix] {
            suffix += 1
        }
        return (left.count - prefix - suffix) + (right.count - prefix - suffix)
    }
}

extension PBXProject {
    /// The ids of build files whose `fileRef` is `id`.
    func buildFiles(referencing id: ObjectID) -> [ObjectID] {
        objectIDs(isa: PBXIsa.buildFile).filter { object($0)?.reference("fileRef") == id }
    }
}
