import Basics
import Foundation
import PBXProj
import Sync
import TestSupport

/// Issue #4's figures: planning the DuckDuckGo-macOS project against its rebuilt tree, the whole
/// `slipway sync` process on that tree (a fresh copy, committed to git, per run), and plan +
/// apply of synthetic projects (20,000 files in 2,000 groups, and smaller ones to show the
/// growth is linear).
///
/// `slipway-bench sync [--runs N] [--corpus DIR] [--project BASENAME] [--slipway PATH] [--sizes 5000,10000,20000]`
/// `slipway-bench sync write-corpus BASENAME DIR --corpus DIR [--unfold N]`: writes that corpus project's tree, committed.
enum SyncBenchmark {
    static let largeProject = "duckduckgo__apple-browsers__DuckDuckGo-macOS"

    static func run(_ arguments: [String]) async throws {
        if arguments.first == "plan-loop", arguments.count >= 3, let count = Int(arguments[2]) {
            return try planLoop(arguments[1], count: count)
        }
        if arguments.first == "write-synthetic", arguments.count >= 3, let files = Int(arguments[1]) {
            // A synthetic project committed to git, to run `slipway sync` on copies of it by hand
            // (under a profiler or strace).
            try SyntheticXcodeProject.write(files: files, groups: max(1, files / 10), in: arguments[2])
            try commitTree(arguments[2])
            return
        }
        if arguments.first == "write-corpus", arguments.count >= 3, let corpus = Bench.corpusDirectory(arguments),
           let entry = try PBXProjCorpusManifest.entries(in: corpus).first(where: { $0.baseName == arguments[1] }) {
            // A corpus project's rebuilt tree, committed to git, for profiling by hand
            // (`--unfold N`: made untidy as measured below).
            let bundle = try rebuild(entry, in: arguments[2])
            if let count = Bench.option("--unfold", arguments).flatMap({ Int($0) }) {
                let root = (bundle as NSString).deletingLastPathComponent
                print("unfolded \(try unfold(bundle, moves: count)) items")
                try GitFixture.run(["add", "-A"], in: root)
                try GitFixture.run(["commit", "--quiet", "-m", "untidy"], in: root)
            }
            print(bundle)
            return
        }
        let runs = Bench.option("--runs", arguments).flatMap { Int($0) } ?? 11
        let sizes = (Bench.option("--sizes", arguments) ?? "5000,10000,20000").split(separator: ",").compactMap { Int($0) }
        print("slipway-bench sync — medians of \(runs) runs")
        let folder = NSTemporaryDirectory() + "slipway-bench-sync-\(getpid())"
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let projectName = Bench.option("--project", arguments) ?? largeProject
        if let corpus = Bench.corpusDirectory(arguments), let entry = try PBXProjCorpusManifest.entries(in: corpus).first(where: { $0.baseName == projectName }) {
            let label = String(projectName.split(separator: "_").last ?? Substring(projectName))
            let pristine = try rebuild(entry, in: folder + "/pristine")
            try measurePlan(pristine, label: label, runs: runs)
            try await measureWholeProcess(pristine, label: label, folder: folder, runs: runs, arguments: arguments)
            // The same real tree made untidy (issue #11's duckduckgo/iOS had 1,327 moves to make).
            let untidy = try rebuild(entry, in: folder + "/untidy")
            let unfolded = try unfold(untidy, moves: 1_300)
            let untidyRoot = (untidy as NSString).deletingLastPathComponent
            try GitFixture.run(["add", "-A"], in: untidyRoot)
            try GitFixture.run(["commit", "--quiet", "-m", "untidy"], in: untidyRoot)
            try await measureWholeProcess(untidy, label: "\(label), \(unfolded) unfolded", folder: folder, runs: runs, arguments: arguments)
        } else {
            print("(no corpus: pass --corpus DIR or set SLIPWAY_CORPUS to measure the DuckDuckGo project)")
        }
        var perFile: [Double] = []
        for size in sizes {
            perFile.append(try await measureSynthetic(files: size, folder: folder, runs: size >= 20_000 ? max(5, runs / 2) : runs))
        }
        if perFile.count > 1, let first = perFile.first, let last = perFile.last {
            print(String(format: "growth: %.1f µs per file at %d files, %.1f at %d (ratio %.2f; 1.00 is linear)",
                         first * 1e6, sizes[0], last * 1e6, sizes[sizes.count - 1], last / first))
        }
    }

    // MARK: - DuckDuckGo-macOS

    /// The corpus project's tree (each file's content is its path), committed to git; returns
    /// the `.xcodeproj` path.
    private static func rebuild(_ entry: PBXProjCorpusEntry, in folder: String) throws -> String {
        let root = folder + "/work/project"
        let manager = FileManager.default
        // Files of a real project's sizes: duckduckgo/iOS holds 58 MB in the files its sync
        // moves, about 44 KB each; each file here is its path, then filler to 4-84 KB (a
        // deterministic spread around that mean), so that hashing costs what it would.
        for (number, path) in try entry.treePaths().sorted().enumerated() {
            let full = root + "/" + path
            try manager.createDirectory(atPath: (full as NSString).deletingLastPathComponent, withIntermediateDirectories: true)
            let size = 4_096 + (number * 7_919) % 81_920
            var bytes = Array((path + "\n").utf8)
            bytes += (0..<max(0, size - bytes.count)).map { UInt8(truncatingIfNeeded: 32 + ($0 * 31 + number) % 95) }
            try Data(bytes).write(to: URL(fileURLWithPath: full))
        }
        for (path, status) in try entry.outsidePaths() where status.hasPrefix("exists") {
            if status == "exists-dir" {
                try manager.createDirectory(atPath: root + "/" + path, withIntermediateDirectories: true)
            }
        }
        let bundle = root + "/" + entry.projectName + ".xcodeproj"
        try manager.createDirectory(atPath: bundle, withIntermediateDirectories: true)
        try Data(try entry.bytes()).write(to: URL(fileURLWithPath: bundle + "/project.pbxproj"))
        try GitFixture.run(["init", "--quiet", "--initial-branch=main"], in: root)
        try GitFixture.run(["add", "-A"], in: root)
        try GitFixture.run(["commit", "--quiet", "-m", "tree"], in: root)
        return bundle
    }

    /// Makes a tidy tree untidy the way synx users find theirs: groups keep their names but lose
    /// their folders (the folder's contents moved up into its parent), so that a sync has to move
    /// every one of those items back. Groups are taken in tree order, skipping any whose items'
    /// names clash with their parent folder's, until about `moves` items are out of place.
    /// Returns how many items were moved out (what the sync will move back).
    private static func unfold(_ bundle: String, moves wanted: Int) throws -> Int {
        let sync = ProjectSync(fileSystem: LocalFileSystem(), environment: Environment())
        let loaded = try sync.load(bundle)
        var project = loaded.project
        let manager = FileManager.default
        var moved = 0
        var chosen: [(id: ObjectID, name: String)] = []
        func visit(_ id: ObjectID, folder: String, isRoot: Bool) throws {
            guard moved < wanted, let group = project.fileElement(id), group.kind == .group,
                  group.sourceTree == "<group>" || isRoot else { return }
            let here = group.path.map { folder + "/" + $0 } ?? folder
            if !isRoot, let path = group.path, !path.contains("/"), !path.contains("."),
               let inner = try? manager.contentsOfDirectory(atPath: here), !inner.isEmpty,
               Set(inner).isDisjoint(with: Set(try manager.contentsOfDirectory(atPath: folder))) {
                for name in inner { try manager.moveItem(atPath: here + "/" + name, toPath: folder + "/" + name) }
                try manager.removeItem(atPath: here)
                chosen.append((id, path))
                moved += inner.count
                return  // its subgroups now resolve in `folder`, and stay as they are
            }
            for child in group.children { try visit(child, folder: here, isRoot: false) }
        }
        if let main = project.mainGroupID { try visit(main, folder: loaded.root, isRoot: true) }
        for (id, name) in chosen {
            if project.fileElement(id)?.name == nil { try project.setName(of: id, to: name) }
            try project.setPath(of: id, to: nil)
        }
        try Data(try project.serialized()).write(to: URL(fileURLWithPath: loaded.pbxprojPath))
        return moved
    }

    private static func measurePlan(_ bundle: String, label: String, runs: Int) throws {
        let sync = ProjectSync(fileSystem: LocalFileSystem(), environment: Environment())
        let loaded = try sync.load(bundle)
        let listing = try DirectoryListing.scan(root: loaded.root, fileSystem: LocalFileSystem())
        var plan = SyncPlan()
        let planTime = try Bench.median(runs: runs) {
            plan = try SyncPlanner.plan(project: loaded.project, listing: listing, options: SyncOptions(groupsWithoutPath: .folder), projectBundle: loaded.projectBundle)
        }
        let readTime = try Bench.median(runs: runs) { _ = try sync.load(bundle) }
        let scanTime = try Bench.median(runs: runs) { _ = try DirectoryListing.scan(root: loaded.root, fileSystem: LocalFileSystem()) }
        print("\(label): \(listing.count) entries on disk; the plan has \(plan.moves.count) move(s), \(plan.edits.count) pbxproj edit(s)")
        Bench.report("\(label): plan (pure)", Bench.ms(planTime), target: "≤ 50 ms")
        Bench.report("\(label): read + parse the pbxproj", Bench.ms(readTime), target: "—")
        Bench.report("\(label): list the folder", Bench.ms(scanTime), target: "—")
    }

    private static func measureWholeProcess(_ bundle: String, label: String, folder: String, runs: Int, arguments: [String]) async throws {
        let slipway = Bench.slipwayBinary(arguments)
        guard FileManager.default.isExecutableFile(atPath: slipway) else {
            print("(no slipway binary at \(slipway): build it with '\(Bench.buildCommand)' or pass --slipway PATH)")
            return
        }
        let pristine = ((bundle as NSString).deletingLastPathComponent as NSString).deletingLastPathComponent
        let name = (bundle as NSString).lastPathComponent
        // With and without git staging, alternately, on fresh copies whose index is up to date.
        var samples: [[Double]] = [[], []]
        for index in 0...runs {
            for (variant, extra) in [[], ["--no-git"]].enumerated() {
                let copy = folder + "/run\(index)-\(variant)"
                try await Bench.run("/bin/cp", ["-a", pristine, copy])
                try await Bench.run("/usr/bin/env", ["git", "-C", copy + "/project", "update-index", "-q", "--refresh"])
                try await Bench.run("/bin/sync", [])
                let start = ContinuousClock.now
                try await Bench.run(slipway, ["sync", copy + "/project/" + name, "--quiet", "--groups-without-path", "folder"] + extra)
                let elapsed = ContinuousClock.now - start
                if index > 0 { samples[variant].append(Bench.seconds(elapsed)) }
                try? FileManager.default.removeItem(atPath: copy)
            }
        }
        let git = samples[0].sorted()[samples[0].count / 2], noGit = samples[1].sorted()[samples[1].count / 2]
        Bench.report("\(label): whole 'slipway sync' (git)", Bench.ms(git), target: "≤ 500 ms")
        Bench.report("\(label): whole 'slipway sync --no-git'", Bench.ms(noGit), target: "—")
        Bench.report("\(label): git staging / --no-git", String(format: "%.2f×", git / noGit), target: "≤ 1.3×")
        // `--check` on a synced copy (exit 0), as CI runs it.
        let synced = folder + "/synced"
        try await Bench.run("/bin/cp", ["-a", pristine, synced])
        try await Bench.run(slipway, ["sync", synced + "/project/" + name, "--quiet", "--groups-without-path", "folder"])
        let check = try await Bench.median(runs: runs) { try await Bench.run(slipway, ["sync", synced + "/project/" + name, "--check", "--quiet", "--groups-without-path", "folder"]) }
        Bench.report("\(label): whole 'slipway sync --check' (in sync)", Bench.ms(check), target: "—")
    }

    /// `slipway-bench sync plan-loop PROJECT N`: plans PROJECT N times (for a profiler).
    private static func planLoop(_ bundle: String, count: Int) throws {
        let loaded = try ProjectSync(fileSystem: LocalFileSystem(), environment: Environment()).load(bundle)
        let listing = try DirectoryListing.scan(root: loaded.root, fileSystem: LocalFileSystem())
        let time = try Bench.median(runs: count) {
            _ = try SyncPlanner.plan(project: loaded.project, listing: listing, options: SyncOptions(groupsWithoutPath: .folder), projectBundle: loaded.projectBundle)
        }
        print("plan: \(Bench.ms(time)) median of \(count)")
    }

    // MARK: - Synthetic projects

    /// Plan + apply of `files` files in `files / 10` groups, without git and (at 20,000 files,
    /// alternately) with git staging; returns seconds per file without git.
    private static func measureSynthetic(files: Int, folder: String, runs: Int) async throws -> Double {
        let template = folder + "/synthetic\(files)"
        try SyntheticXcodeProject.write(files: files, groups: max(1, files / 10), in: template)
        let withGit = files >= 20_000
        if withGit { try commitTree(template) }
        let noGitSync = ProjectSync(fileSystem: LocalFileSystem(), environment: Environment(), git: { _ in nil })
        let gitSync = ProjectSync(fileSystem: LocalFileSystem(), environment: Environment())
        var samples: [[Double]] = [[], []]
        var moved = 0
        for index in 0...runs {
            for variant in withGit ? [0, 1] : [0] {
                let copy = folder + "/synthetic-run\(index)-\(variant)"
                try await Bench.run("/bin/cp", ["-a", template, copy])
                if withGit { try await Bench.run("/usr/bin/env", ["git", "-C", copy, "update-index", "-q", "--refresh"]) }
                // Flush the copy's dirty pages first, so that their write-back does not land in the timing.
                try await Bench.run("/bin/sync", [])
                let start = ContinuousClock.now
                let report = variant == 0
                    ? try noGitSync.run(copy + "/App.xcodeproj", options: SyncOptions(useGit: false, groupsWithoutPath: .folder), mode: .apply)
                    : try gitSync.run(copy + "/App.xcodeproj", options: SyncOptions(groupsWithoutPath: .folder), mode: .apply)
                let elapsed = ContinuousClock.now - start
                moved = report.applied?.moved ?? 0
                if index > 0 { samples[variant].append(Bench.seconds(elapsed)) }
                try? FileManager.default.removeItem(atPath: copy)
            }
        }
        let value = samples[0].sorted()[samples[0].count / 2]
        Bench.report("synthetic \(files) files, \(max(1, files / 10)) groups, \(moved) moves: plan + apply", Bench.ms(value),
                     target: files >= 20_000 ? "≤ 2 s" : "linear")
        if withGit {
            let git = samples[1].sorted()[samples[1].count / 2]
            Bench.report("synthetic \(files) files: plan + apply + git staging", Bench.ms(git), target: "—")
            Bench.report("synthetic \(files) files: git staging / no git", String(format: "%.2f×", git / value), target: "≤ 1.3×")
        }
        return value / Double(files)
    }

    // MARK: - Helpers

    /// `git init` + add + commit of the whole folder.
    private static func commitTree(_ folder: String) throws {
        try GitFixture.run(["init", "--quiet", "--initial-branch=main"], in: folder)
        try GitFixture.run(["add", "-A"], in: folder)
        try GitFixture.run(["commit", "--quiet", "-m", "tree"], in: folder)
    }




}
