import Basics
import Foundation

/// Issue #38's measurement: `slipway sync` on real app trees, counted by a checker independent
/// of Slipway's own scanner (`SyncTreesPathCollector`).
///
/// `slipway-bench sync-trees FOLDER [--slipway PATH] [--only a,b] [--no-git] [--no-lint] [--details N] [--json | --json-out FILE]`
/// `slipway-bench sync-trees --self-test`
/// `slipway-bench sync-trees --from-json FILE [--details N]`: prints an earlier run's table again.
/// `slipway-bench sync-trees --list-named TREE`: what the checker collects from one tree (to audit it).
///
/// Each sub-folder of FOLDER is one tree (a checkout). Per tree, a temporary copy is made and,
/// unless `--no-git`, `git init` + `git add -A --force` + commit, so that sync's git path (clean
/// check, staging) is what is measured. For each of its `.xcodeproj` (skipping Pods, Carthage
/// and build folders), on a fresh copy of that: the plans of `--dry-run --json` by default, with
/// `--groups-without-path virtual` and with `folder`; `slipway sync` (and, when it refuses with
/// exit 2 and the binary has `--accept-path-references`, again with it, to measure); then what
/// broke (`SyncTreesBreaks`), `xcodeproj verify` and `lint` before and after, and a second sync.
enum SyncTreesBenchmark {
    /// One project's figures.
    struct Row: Codable {
        var tree: String
        var project: String
        var namedPaths = 0
        var namedFolders = 0
        var references = 0
        var planned: [String: Int] = [:]
        var plannedExit: [String: Int32] = [:]
        var conflicts = 0
        var syncExit: Int32 = -1
        var refusal: [String] = []
        var accepted: Bool?
        var moved = 0
        var breaks = SyncTreesBreaks()
        var verifyBefore: Int32 = -1
        var verifyAfter: Int32 = -1
        var lintErrorsBefore: [String: Int] = [:]
        var lintErrorsAfter: [String: Int] = [:]
        /// False with `--no-git`: lost files are counted from git's blobs.
        var lostMeasured: Bool?
        var checkBefore: Int32 = -1
        var checkAfter: Int32 = -1
        var secondSyncMoves = -1
        var secondSyncExit: Int32 = -1
        var seconds: [String: Double] = [:]
    }

    static let variants: [(name: String, options: [String])] = [
        ("default", []), ("virtual", ["--groups-without-path", "virtual"]), ("folder", ["--groups-without-path", "folder"]),
    ]
    static let acceptOption = "--accept-path-references"

    static func run(_ arguments: [String]) async throws {
        if arguments.contains("--self-test") { return try SyncTreesSelfTest.run() }
        if let tree = Bench.option("--list-named", arguments) {
            // What the checker collects from one tree, read in place (nothing is run or written),
            // to audit it by hand.
            let snapshot = SyncTreesSnapshot.take(root: tree)
            for site in snapshot.named {
                print("\(site.path)\(site.isFolder ? "/" : "")\t\(site.kind)\t\(site.namer)\(site.line > 0 ? ":\(site.line)" : "")")
            }
            print("\(Set(snapshot.named.map(\.path)).count) named path(s), \(snapshot.folderFiles.count) named folder(s), "
                  + "\(snapshot.references.values.map(\.count).reduce(0, +)) resolved reference(s) in \(snapshot.projects.count) project(s)")
            return
        }
        if let saved = Bench.option("--from-json", arguments) {
            // The table and details of an earlier run's `--json-out`, without running anything.
            let rows = try JSONDecoder().decode([Row].self, from: Data(contentsOf: URL(fileURLWithPath: saved)))
            let limit = Bench.option("--details", arguments).flatMap { Int($0) } ?? 10
            for row in rows { printDetails(row, limit: limit) }
            return printTable(rows)
        }
        let valued: Set<String> = ["--slipway", "--only", "--details", "--json-out", "--groups-without-path"]
        var folder: String?
        var index = 0
        while index < arguments.count {
            if valued.contains(arguments[index]) { index += 2; continue }
            if !arguments[index].hasPrefix("-") && folder == nil { folder = arguments[index] }
            index += 1
        }
        guard let folder else {
            throw BenchError("usage: slipway-bench sync-trees FOLDER [--slipway PATH] [--only a,b] [--no-git] [--no-lint] [--details N] [--groups-without-path folder|virtual] [--json | --json-out FILE] | --self-test")
        }
        let slipway = Bench.slipwayBinary(arguments)
        guard FileManager.default.isExecutableFile(atPath: slipway) else {
            throw BenchError("no slipway binary at \(slipway): build it ('swift build --product slipway') or pass --slipway PATH")
        }
        let only = Bench.option("--only", arguments).map { Set($0.split(separator: ",").map(String.init)) }
        let details = Bench.option("--details", arguments).flatMap { Int($0) } ?? 10
        let json = arguments.contains("--json")
        let useGit = !arguments.contains("--no-git")
        let lint = !arguments.contains("--no-lint")
        let layout = Bench.option("--groups-without-path", arguments)
        let help = try await call(slipway, ["sync", "--help"]).output
        let canAccept = help.contains(acceptOption)
        let trees = try FileManager.default.contentsOfDirectory(atPath: folder).sorted().filter { name in
            var isDirectory: ObjCBool = false
            return !name.hasPrefix(".") && (only?.contains(name) ?? true)
                && FileManager.default.fileExists(atPath: folder + "/" + name, isDirectory: &isDirectory) && isDirectory.boolValue
        }
        let work = NSTemporaryDirectory() + "slipway-bench-sync-trees-\(getpid())"
        try FileManager.default.createDirectory(atPath: work, withIntermediateDirectories: true)
        if !json {
            print("slipway-bench sync-trees — \(slipway) (\(useGit ? "git init + commit per tree" : "--no-git")); \(canAccept ? "has" : "no") \(acceptOption)")
        }
        var rows: [Row] = []
        do {
            for tree in trees {
                let measured = try await measure(tree: tree, source: folder + "/" + tree, work: work, slipway: slipway,
                                                 useGit: useGit, lint: lint, canAccept: canAccept, layout: layout)
                if !json { for row in measured { printDetails(row, limit: details) } }
                rows += measured
            }
            try await Bench.run("/bin/rm", ["-rf", work])
        } catch {
            _ = try? await Bench.run("/bin/rm", ["-rf", work])
            throw error
        }
        let data = try JSONEncoder.sorted.encode(rows)
        if let file = Bench.option("--json-out", arguments) { try data.write(to: URL(fileURLWithPath: file)) }
        if json {
            print(String(decoding: data, as: UTF8.self))
        } else {
            printTable(rows)
        }
    }

    // MARK: - Measuring

    private static func measure(tree: String, source: String, work: String, slipway: String,
                                useGit: Bool, lint: Bool, canAccept: Bool, layout: String?) async throws -> [Row] {
        let pristine = work + "/" + tree + "-pristine"
        try await Bench.run("/bin/cp", ["-a", source, pristine])
        do {
            let rows = try await measure(pristine: pristine, tree: tree, work: work, slipway: slipway, useGit: useGit, lint: lint,
                                         canAccept: canAccept, layout: layout)
            try await Bench.run("/bin/rm", ["-rf", pristine])
            return rows
        } catch {
            _ = try? await Bench.run("/bin/rm", ["-rf", pristine])
            throw error
        }
    }

    private static func measure(pristine: String, tree: String, work: String, slipway: String,
                                useGit: Bool, lint: Bool, canAccept: Bool, layout: String?) async throws -> [Row] {
        if useGit {
            // A checkout's own .git (its config may name hooks or an fsmonitor command) is never
            // used: the copy gets a fresh repository holding exactly the tree's files.
            try await Bench.run("/bin/rm", ["-rf", pristine + "/.git"])
            try await git(pristine, ["init", "--quiet", "--initial-branch=main"])
            try await git(pristine, ["add", "-A", "--force"])
            try await git(pristine, ["commit", "--quiet", "--no-verify", "-m", "tree"])
        }
        let start = ContinuousClock.now
        let before = SyncTreesSnapshot.take(root: pristine)
        let snapshotTime = Bench.seconds(ContinuousClock.now - start)
        let blobsBefore = useGit ? try await blobs(pristine) : []
        var rows: [Row] = []
        for bundle in before.projects {
            var row = Row(tree: tree, project: bundle)
            row.lostMeasured = false
            row.namedPaths = Set(before.named.map(\.path)).count
            row.namedFolders = before.folderFiles.count
            row.references = before.references[bundle]?.count ?? 0
            row.seconds["snapshot"] = snapshotTime
            let projectFolder = (bundle as NSString).deletingLastPathComponent
            for variant in variants {
                let began = ContinuousClock.now
                let result = try await call(slipway, ["sync", pristine + "/" + bundle, "--dry-run", "--json"] + variant.options)
                row.seconds["dry-run \(variant.name)"] = Bench.seconds(ContinuousClock.now - began)
                row.plannedExit[variant.name] = result.exit
                let plan = planOf(result.output)
                row.planned[variant.name] = plan.moves.count
                if variant.name == "default" { row.conflicts = plan.conflicts }
            }
            row.checkBefore = try await call(slipway, ["sync", pristine + "/" + bundle, "--check", "--quiet"]).exit
            row.verifyBefore = try await call(slipway, ["xcodeproj", "verify", pristine + "/" + bundle]).exit
            if lint { row.lintErrorsBefore = try await lintErrors(slipway, pristine + "/" + bundle) }

            let copy = work + "/" + tree + "-run"
            _ = try? await Bench.run("/bin/rm", ["-rf", copy])
            try await Bench.run("/bin/cp", ["-a", pristine, copy])
            if useGit { try await git(copy, ["update-index", "-q", "--refresh"]) }
            // The real sync (and its check and second run) in the layout asked for: the default, or
            // `--groups-without-path folder` (synx's folders), which moves far more.
            let extra = (useGit ? [] : ["--no-git"]) + (layout.map { ["--groups-without-path", $0] } ?? [])
            let began = ContinuousClock.now
            var result = try await call(slipway, ["sync", copy + "/" + bundle, "--json"] + extra)
            row.seconds["sync"] = Bench.seconds(ContinuousClock.now - began)
            row.syncExit = result.exit
            if result.exit == 2 {
                row.refusal = planOf(result.output).refusals + result.error.split(separator: "\n").map(String.init)
                if canAccept {
                    result = try await call(slipway, ["sync", copy + "/" + bundle, "--json", acceptOption] + extra)
                    row.accepted = result.exit == 0
                }
            }
            let plan = planOf(result.output)
            row.moved = result.exit == 0 ? plan.moves.count : 0
            var moves = SyncTreesMoves()
            if result.exit == 0 {
                moves.moves = plan.moves.map { (join(projectFolder, $0.source), join(projectFolder, $0.destination)) }
            }
            let after = SyncTreesSnapshot.take(root: copy)
            row.breaks = SyncTreesBreaks.compare(before: before, after: after, moves: moves, root: copy)
            if useGit {
                try await git(copy, ["add", "-A", "--force"])
                try await git(copy, ["commit", "--quiet", "--no-verify", "--allow-empty", "-m", "synced"])
                row.breaks.lostFiles = SyncTreesBreaks.lost(before: blobsBefore, after: try await blobs(copy))
                row.lostMeasured = true
            }
            row.verifyAfter = try await call(slipway, ["xcodeproj", "verify", copy + "/" + bundle]).exit
            row.checkAfter = try await call(slipway, ["sync", copy + "/" + bundle, "--check", "--quiet"] + extra).exit
            if lint { row.lintErrorsAfter = try await lintErrors(slipway, copy + "/" + bundle) }
            let second = try await call(slipway, ["sync", copy + "/" + bundle, "--json"] + extra)
            row.secondSyncExit = second.exit
            row.secondSyncMoves = planOf(second.output).moves.count
            try await Bench.run("/bin/rm", ["-rf", copy])
            rows.append(row)
        }
        return rows
    }

    /// Moves (relative to the project folder) and the conflict count of a `--json` report.
    /// and the conflicts as `'path': message` lines.
    static func planOf(_ output: String) -> (moves: [(source: String, destination: String)], conflicts: Int, refusals: [String]) {
        guard let object = try? JSONSerialization.jsonObject(with: Data(output.utf8)) as? [String: Any],
              let plan = object["plan"] as? [String: Any] else { return ([], 0, []) }
        let moves = (plan["moves"] as? [[String: Any]] ?? []).compactMap { move -> (String, String)? in
            guard let source = move["source"] as? String, let destination = move["destination"] as? String else { return nil }
            return (source, destination)
        }
        let conflicts = (plan["conflicts"] as? [[String: Any]] ?? []).map { conflict in
            "\(conflict["kind"] as? String ?? "?"): '\(conflict["path"] as? String ?? "")': \(conflict["message"] as? String ?? "")"
        }
        return (moves, conflicts.count, conflicts)
    }

    private static func lintErrors(_ slipway: String, _ bundle: String) async throws -> [String: Int] {
        let result = try await call(slipway, ["xcodeproj", "lint", bundle, "--json"])
        guard let object = try? JSONSerialization.jsonObject(with: Data(result.output.utf8)) as? [String: Any],
              let findings = object["findings"] as? [[String: Any]] else { return ["(no report, exit \(result.exit))": 1] }
        var counts: [String: Int] = [:]
        for finding in findings where finding["severity"] as? String == "error" {
            counts[finding["rule"] as? String ?? "?", default: 0] += 1
        }
        return counts
    }

    // MARK: - Processes

    private static func call(_ executable: String, _ arguments: [String]) async throws -> (exit: Int32, output: String, error: String) {
        let result = try await LocalProcessRunner().run(ProcessSpec(executable: executable, arguments: arguments,
                                                                    environment: Environment.current.variables))
        let code: Int32
        switch result.status {
        case .exited(let value): code = Int32(value)
        case .signalled(let signal): code = -Int32(signal)
        }
        return (code, result.outputText, result.errorText)
    }

    private static func git(_ folder: String, _ arguments: [String]) async throws {
        try await Bench.run("/usr/bin/env", ["git", "-C", folder, "-c", "user.name=slipway-bench", "-c", "user.email=bench@localhost",
                                             "-c", "commit.gpgsign=false", "-c", "core.autocrlf=false",
                                             // No detached gc or maintenance writing into the copy while it is removed.
                                             "-c", "gc.auto=0", "-c", "maintenance.auto=false"] + arguments)
    }

    private static func blobs(_ folder: String) async throws -> [(sha: String, path: String)] {
        let output = try await Bench.run("/usr/bin/env", ["git", "-C", folder, "ls-tree", "-r", "-z", "HEAD"])
        return output.split(separator: "\0").compactMap { record in
            let parts = record.split(separator: "\t", maxSplits: 1)
            let meta = parts.first?.split(separator: " ") ?? []
            guard parts.count == 2, meta.count == 3, meta[1] == "blob" else { return nil }
            return (String(meta[2]), String(parts[1]))
        }
    }

    private static func join(_ a: String, _ b: String) -> String { a.isEmpty ? b : a + "/" + b }

    // MARK: - Printing

    private static func printDetails(_ row: Row, limit: Int) {
        let breaks = row.breaks
        print("\n\(row.tree)/\(row.project): \(row.moved) moved (exit \(row.syncExit)); broken: \(breaks.vanishedPaths) path(s) gone, "
              + "\(breaks.filesLeft) file(s) out of a named folder, \(breaks.unresolvedReferences.count) reference(s) unresolved, \(breaks.lostFiles.count) lost")
        if !row.refusal.isEmpty {
            print("  refused (\(row.refusal.count) line(s))" + (row.accepted.map { $0 ? ", then run with \(acceptOption)" : ", and refused with \(acceptOption)" } ?? "") + ":")
            for line in row.refusal.prefix(limit) { print("    \(line)") }
        }
        var kinds: [String: Int] = [:]
        for item in breaks.vanished { kinds[item.kind, default: 0] += 1 }
        if !kinds.isEmpty { print("  gone, by namer kind: " + kinds.sorted { $0.key < $1.key }.map { "\($0.key) \($0.value)" }.joined(separator: ", ")) }
        for item in breaks.vanished.prefix(limit) {
            let namer = item.namer == NamedPath.locatedByTools ? item.namer : "\(item.namer):\(item.line)"
            print("  gone: \(item.path) → \(item.now)   [\(item.kind), \(namer)]")
        }
        var folders: [String: Int] = [:]
        for item in breaks.leftFolders { folders["\(item.folder) (\(item.kind))", default: 0] += 1 }
        for (folder, count) in folders.sorted(by: { $0.key < $1.key }).prefix(limit) { print("  left \(folder): \(count) file(s)") }
        for item in breaks.unresolvedReferences.prefix(limit) { print("  unresolved: \(item)") }
        for item in breaks.lostFiles.prefix(limit) { print("  lost: \(item)") }
    }

    private static func printTable(_ rows: [Row]) {
        print("\n| tree | project | moves default | virtual | folder | refused | sync exit | named paths | gone | left folder | refs broken | lost | verify before/after | --check before/after | lint errors before/after | 2nd sync moves | sync s |")
        print("|---|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---|---|---|---:|---:|")
        for row in rows {
            let lintBefore = row.lintErrorsBefore.values.reduce(0, +), lintAfter = row.lintErrorsAfter.values.reduce(0, +)
            let refused = row.syncExit == 2 ? "\(max(row.conflicts, row.refusal.count))" : "0"  // conflicts, or refusal lines
            print("| \(row.tree) | \(row.project) | \(planned(row, "default")) | \(planned(row, "virtual")) | \(planned(row, "folder")) | \(refused) | \(row.syncExit) "
                  + "| \(row.namedPaths) | \(row.breaks.vanishedPaths) | \(row.breaks.filesLeft) | \(row.breaks.unresolvedReferences.count) | \(row.lostMeasured != false ? "\(row.breaks.lostFiles.count)" : "n/a") "
                  + "| \(row.verifyBefore)/\(row.verifyAfter) | \(row.checkBefore)/\(row.checkAfter) | \(lintBefore)/\(lintAfter) | \(row.secondSyncExit == 0 ? "\(row.secondSyncMoves)" : "exit \(row.secondSyncExit)") | \(String(format: "%.2f", row.seconds["sync"] ?? 0)) |")
        }
        let broken = rows.filter { $0.breaks.total > 0 }
        print("\n\(rows.count) project(s) in \(Set(rows.map(\.tree)).count) tree(s); \(broken.count) project(s) in \(Set(broken.map(\.tree)).count) tree(s) broken by the sync"
              + " (\(rows.map(\.breaks.vanishedPaths).reduce(0, +)) path(s) gone, \(rows.map(\.breaks.filesLeft).reduce(0, +)) file(s) out of named folders, "
              + "\(rows.map(\.breaks.unresolvedReferences.count).reduce(0, +)) reference(s) unresolved, \(rows.map(\.breaks.lostFiles.count).reduce(0, +)) lost).")
    }

    /// `12` or `12 (exit 2)` when the dry run refused.
    private static func planned(_ row: Row, _ variant: String) -> String {
        let exit = row.plannedExit[variant] ?? -1
        return "\(row.planned[variant] ?? 0)" + (exit == 0 ? "" : " (exit \(exit))")
    }
}

extension JSONEncoder {
    /// Pretty, sorted keys (stable diffs).
    static var sorted: JSONEncoder {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
        return encoder
    }
}
