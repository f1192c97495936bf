import Basics
import Foundation
import PBXProj

/// Issue #16's merge figure: `PBXProjMerge` on three versions of the 1.47 MB DuckDuckGo project,
/// a few edits on each side (files added to one group, settings changed, a file removed), with
/// and without a conflict; then the driver as git runs it (`slipway-merge-driver` and `slipway
/// xcodeproj merge`, whole processes; `--before`: another build's) side by side with `git
/// merge-file` on the same files (issue 38: within 2×).
/// `--files BASE OURS THEIRS` measures three versions of your own side by side too.
///
/// `--save DIR` writes the benchmark's versions there (base, ours, theirs, theirs-conflicting).
///
/// `slipway-bench merge [--runs N] [--corpus DIR] [--driver PATH] [--slipway PATH] [--before PATH] [--files BASE OURS THEIRS] [--save DIR]`
enum MergeBenchmark {
    static let usage = """
        usage: slipway-bench merge [--runs N] [--corpus DIR] [--driver PATH] [--slipway PATH] [--before PATH] [--files BASE OURS THEIRS] [--save DIR]
               slipway-bench merge eval CLONE_PATH [--max N] [--symmetry] [--results FILE] [--driver PATH | --slipway PATH] [--time]
        The merge driver on the 1.47 MB DuckDuckGo project (edits, one conflict, identical versions), in process and as \
        whole processes side by side with 'git merge-file' (target: within 2x); 'eval' replays every merge of a clone's history.

        """

    static func run(_ arguments: [String]) async throws {
        if arguments.first == "--help" || arguments.first == "-h" {
            print(usage, terminator: "")
            return
        }
        if arguments.first == "eval" { return try await MergeEvaluation.run(Array(arguments.dropFirst())) }
        let runs = Bench.option("--runs", arguments).flatMap { Int($0) } ?? 21
        guard let base = try Bench.largeProjectBytes(arguments) else { return }
        let (ours, theirs, conflicting) = try sides(base)
        if let folder = Bench.option("--save", arguments) {
            // The benchmark's versions, to profile a driver on them (perf record ... DRIVER base ours theirs).
            for (name, bytes) in [("base", base), ("ours", ours), ("theirs", theirs), ("theirs-conflicting", conflicting)] {
                try Data(bytes).write(to: URL(fileURLWithPath: folder).appendingPathComponent(name))
            }
            print("wrote base, ours, theirs and theirs-conflicting to \(folder)")
        }
        print("slipway-bench merge — medians of \(runs) runs, \(String(format: "%.2f", Double(base.count) / 1_000_000)) MB project")
        var sink = 0
        let clean = try Bench.median(runs: runs) {
            sink &+= try PBXProjMerge.merge(base: base, ours: ours, theirs: theirs).bytes.count
        }
        let check = try PBXProjMerge.merge(base: base, ours: ours, theirs: theirs)
        Bench.report("merge, edits on both sides, \(check.conflicts.count) conflicts", Bench.ms(clean), target: "≤ 100 ms")
        let conflicted = try Bench.median(runs: runs) {
            sink &+= try PBXProjMerge.merge(base: base, ours: ours, theirs: conflicting).bytes.count
        }
        let conflicts = try PBXProjMerge.merge(base: base, ours: ours, theirs: conflicting).conflicts.count
        Bench.report("merge, \(conflicts) conflicting setting, markers", Bench.ms(conflicted), target: "—")
        let identical = try Bench.median(runs: runs) {
            sink &+= try PBXProjMerge.merge(base: base, ours: base, theirs: base).bytes.count
        }
        Bench.report("merge, three identical versions", Bench.ms(identical), target: "—")
        if sink == 42 { print("") }

        let drivers = driverCommands(arguments)
        guard !drivers.isEmpty else {
            print("(no slipway-merge-driver or slipway binary beside slipway-bench: build them with '\(Bench.buildCommand)' "
                + "and --product slipway-merge-driver, or pass --driver PATH / --slipway PATH)")
            return
        }
        print("whole processes, medians of \(runs) runs each, interleaved:")
        try await sideBySide(label: "edits on both sides", base: base, ours: ours, theirs: theirs, runs: runs, drivers: drivers)
        try await sideBySide(label: "one conflict", base: base, ours: ours, theirs: conflicting, runs: runs, drivers: drivers)
        try await sideBySide(label: "three identical versions", base: base, ours: base, theirs: base, runs: runs, drivers: drivers)
        if let index = arguments.firstIndex(of: "--files"), index + 3 < arguments.count {
            let files = try arguments[(index + 1)...(index + 3)].map { Array(try Data(contentsOf: URL(fileURLWithPath: $0))) }
            let megabytes = String(format: "%.2f MB", Double(files[1].count) / 1_000_000)
            try await sideBySide(label: "--files (\(megabytes))", base: files[0], ours: files[1], theirs: files[2], runs: runs, drivers: drivers)
        }
    }

    /// Ours: two files added to a group, one setting changed. Theirs: two files added to the same
    /// group, a file removed, another setting changed. Conflicting: theirs plus our setting
    /// changed to another value.
    private static func sides(_ bytes: [UInt8]) throws -> ([UInt8], [UInt8], [UInt8]) {
        let base = try PBXProject(bytes: bytes, projectName: "DuckDuckGo-macOS")
        guard let group = base.groups.dropFirst(base.groups.count / 3).first(where: { $0.path != nil })?.id,
            let removed = base.fileReferences.dropFirst(base.fileReferences.count / 2).first?.id,
            let configuration = base.objectIDs(isa: "XCBuildConfiguration").first
        else { throw BenchError("the project lacks groups, files or configurations") }
        var ours = base, theirs = base
        try ours.addFileReference(path: "OursOne.swift", lastKnownFileType: "sourcecode.swift", to: group)
        try ours.addFileReference(path: "OursTwo.swift", lastKnownFileType: "sourcecode.swift", to: group)
        try ours.setBuildSetting("SWIFT_STRICT_CONCURRENCY", to: "complete", in: configuration)
        try theirs.addFileReference(path: "TheirsOne.swift", lastKnownFileType: "sourcecode.swift", to: group)
        try theirs.addFileReference(path: "TheirsTwo.swift", lastKnownFileType: "sourcecode.swift", to: group)
        try theirs.removeFileReference(removed)
        try theirs.setBuildSetting("MARKETING_VERSION", to: "9.9.9", in: configuration)
        var conflicting = theirs
        try conflicting.setBuildSetting("SWIFT_STRICT_CONCURRENCY", to: "minimal", in: configuration)
        return (try ours.serialized(), try theirs.serialized(), try conflicting.serialized())
    }
}
