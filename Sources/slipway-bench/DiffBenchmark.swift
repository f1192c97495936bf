import Basics
import Foundation
import PBXProj

/// Issue #16's `xcodeproj diff` figure: the largest corpus project (DuckDuckGo-macOS, 1.47 MB)
/// against a copy with a few edits (a setting changed, a file renamed, a file moved to another
/// group, a file added, a target dependency removed), both read from bytes, reduced and
/// compared, as the command does.
///
/// `slipway-bench diff [--runs N] [--corpus DIR]`
enum DiffBenchmark {
    static func run(_ arguments: [String]) async throws {
        let runs = Bench.option("--runs", arguments).flatMap { Int($0) } ?? 21
        guard let old = try Bench.largeProjectBytes(arguments) else { return }
        let new = try edited(old)
        print("slipway-bench diff — medians of \(runs) runs")
        var difference = ProjectDiff()
        let full = try Bench.median(runs: runs) {
            difference = try ProjectDiff(
                from: PBXProject(bytes: old, projectName: "DuckDuckGo-macOS"), to: PBXProject(bytes: new, projectName: "DuckDuckGo-macOS"))
        }
        Bench.report("DuckDuckGo-macOS (\(String(format: "%.2f", Double(old.count) / 1_000_000)) MB) vs. a copy with 5 edits: read both + diff",
                     Bench.ms(full), target: "≤ 50 ms")
        if arguments.contains("--show") { print(difference.humanText(), terminator: "") }
        let lines = difference.humanText().split(separator: "\n").count
        print("  (\(lines) lines of difference: \(difference.files.moved.count) moved, \(difference.files.renamed.count) renamed, \(difference.files.added.count) added, \(difference.buildSettings.count) configurations changed, \(difference.targets.changed.count) targets changed)")
        let oldProject = try PBXProject(bytes: old, projectName: "DuckDuckGo-macOS")
        let newProject = try PBXProject(bytes: new, projectName: "DuckDuckGo-macOS")
        let compare = try Bench.median(runs: runs) { difference = try ProjectDiff(from: oldProject, to: newProject) }
        Bench.report("  of which reduce both + compare (already read)", Bench.ms(compare), target: "-")
        var size = 0
        let textconv = try Bench.median(runs: runs) {
            size = try ProjectSnapshot(PBXProject(bytes: old, projectName: "DuckDuckGo-macOS")).semanticText().utf8.count
        }
        Bench.report("--textconv of the same project (\(size / 1000) kB of text)", Bench.ms(textconv), target: "-")
    }

    /// The project with a setting changed, a file renamed, a file moved, a file added and a
    /// target dependency removed.
    private static func edited(_ bytes: [UInt8]) throws -> [UInt8] {
        var project = try PBXProject(bytes: bytes, projectName: "DuckDuckGo-macOS")
        let tree = try project.groupTree()
        let files = tree.nodes.filter { $0.element.kind == .fileReference && $0.parent != nil }
        let groups = tree.nodes.filter { $0.element.kind == .group && $0.parent != nil }
        guard files.count > 2, groups.count > 2, let configuration = project.objectIDs(isa: PBXIsa.buildConfiguration).first,
              let renamed = files.first, let moved = files.last, let parent = moved.parent,
              let target = groups.last(where: { $0.element.id != tree.nodes[parent].element.id })
        else { throw PBXProjError.invalidArgument(message: "the benchmark project has too few files and groups") }
        try project.setBuildSetting("SWIFT_VERSION", to: "6.0", in: configuration)
        try project.setPath(of: renamed.element.id, to: "Renamed-" + (renamed.element.path ?? "file"))
        let from = tree.nodes[parent].element
        try project.setChildren(of: from.id, to: from.children.filter { $0 != moved.element.id })
        try project.setChildren(of: target.element.id, to: target.element.children + [moved.element.id])
        try project.addFileReference(path: "Added.swift", lastKnownFileType: "sourcecode.swift", to: target.element.id)
        if let dependent = project.targets.first(where: { !$0.dependencies.isEmpty }) {
            try project.modify(dependent.id) { $0["dependencies"] = .array(dependent.dependencies.dropLast().map { .string($0.rawValue) }) }
        }
        return try project.serialized()
    }
}
