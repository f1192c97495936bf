import Basics
import Foundation
import PBXProj

/// Issue #16's evaluation on real history: for every merge commit of a local clone whose two
/// parents both changed a `project.pbxproj` since their merge base, runs the driver on
/// (base, parent 1, parent 2) and `git merge-file` on the same three files, and compares the
/// driver's clean merges with what the developers committed (both in Xcode's form).
///
/// `slipway-bench merge eval CLONE [--max N] [--verbose]`
enum MergeEvaluation {
    struct Tally {
        var merges = 0
        var driverClean = 0
        var lineClean = 0
        var equalCommitted = 0
        var driverFallback = 0
        var driverOnlyConflicted = 0
        /// How often each key (last key of the path) conflicted.
        var conflictKeys: [String: Int] = [:]
        var differing: [String] = []
    }

    static func run(_ arguments: [String]) async throws {
        guard let clone = arguments.first(where: { !$0.hasPrefix("--") }) else {
            throw BenchError("usage: slipway-bench merge eval CLONE_PATH [--max N]")
        }
        let limit = Bench.option("--max", arguments).flatMap { Int($0) } ?? 500
        let git = Git(directory: clone)
        let lines = try await git.text(["rev-list", "--merges", "--parents", "--all", "-n", String(limit * 20)]).split(separator: "\n")
        var tally = Tally()
        let scratch = NSTemporaryDirectory() + "slipway-merge-eval-\(getpid())"
        try FileManager.default.createDirectory(atPath: scratch, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: scratch) }
        for line in lines where tally.merges < limit {
            let ids = line.split(separator: " ").map(String.init)
            guard ids.count == 3 else { continue }
            let (merge, first, second) = (ids[0], ids[1], ids[2])
            guard let base = try? await git.text(["merge-base", first, second]).trimmingCharacters(in: .whitespacesAndNewlines),
                !base.isEmpty
            else { continue }
            let changedFirst = Set(try await git.lines(["diff", "--name-only", base, first, "--", "*.pbxproj"]))
            let changedSecond = try await git.lines(["diff", "--name-only", base, second, "--", "*.pbxproj"])
            for path in changedSecond where changedFirst.contains(path) && tally.merges < limit {
                try await evaluate(git: git, merge: merge, versions: [base, first, second], path: path, scratch: scratch, tally: &tally)
            }
        }
        print("merge evaluation of \(clone)")
        print("  merges touching a project.pbxproj on both parents: \(tally.merges)")
        print("  clean by the driver: \(tally.driverClean) (line-merge fallback for unreadable input: \(tally.driverFallback))")
        print("  clean by git merge-file: \(tally.lineClean) (clean by git merge-file but conflicted by the driver: \(tally.driverOnlyConflicted))")
        print("  driver's clean merge equal to the committed one (Xcode's form): \(tally.equalCommitted)")
        let keys = tally.conflictKeys.sorted { ($0.value, $1.key) > ($1.value, $0.key) }.prefix(6)
        print("  the driver's conflicts by key: " + keys.map { "\($0.key) \($0.value)" }.joined(separator: ", "))
        for difference in tally.differing { print("  differs: \(difference)") }
    }

    private static func evaluate(
        git: Git, merge: String, versions: [String], path: String, scratch: String, tally: inout Tally
    ) async throws {
        var blobs: [[UInt8]] = []
        for version in versions + [merge] {
            guard let blob = try? await git.bytes(["show", "\(version):\(path)"]) else { return }
            blobs.append(blob)
        }
        tally.merges += 1
        let files = ["base", "ours", "theirs"].map { scratch + "/" + $0 }
        for (file, blob) in zip(files, blobs) { try Data(blob).write(to: URL(fileURLWithPath: file)) }
        let lineMerge = try await git.run(["merge-file", "-p", files[1], files[0], files[2]])
        let lineClean = lineMerge.status == .exited(0)
        if lineClean { tally.lineClean += 1 }
        let result: PBXProjMergeResult
        do {
            result = try PBXProjMerge.merge(base: blobs[0], ours: blobs[1], theirs: blobs[2])
        } catch {
            tally.driverFallback += 1
            return
        }
        for conflict in result.conflicts { tally.conflictKeys[conflict.keyPath.last ?? "(object)", default: 0] += 1 }
        guard result.conflicts.isEmpty else {
            if lineClean {
                tally.driverOnlyConflicted += 1
                tally.differing.append("\(merge.prefix(10)) \(path): conflicted by the driver, clean by git merge-file: \(result.conflicts.prefix(2).map(\.description).joined(separator: "; "))")
            }
            return
        }
        tally.driverClean += 1
        let subject = "\(merge.prefix(10)) \(path)"
        guard let committed = try? PBXProject(bytes: blobs[3], projectName: "Project").canonicalSerialized() else {
            tally.differing.append("\(subject): the committed file does not read as a project")
            return
        }
        let ours = try PBXProject(bytes: result.bytes, projectName: "Project").canonicalSerialized()
        if ours == committed {
            tally.equalCommitted += 1
        } else {
            tally.differing.append("\(subject): \(explain(driver: result.bytes, committed: blobs[3], ours, committed))")
        }
    }

    /// How the driver's merge and the committed one differ, object by object: objects only one
    /// of them has, and objects both have with different values (the keys named).
    static func explain(driver: [UInt8], committed: [UInt8], _ canonicalDriver: [UInt8], _ canonicalCommitted: [UInt8]) -> String {
        guard let a = try? PBXProject(bytes: driver, projectName: "Project"),
            let b = try? PBXProject(bytes: committed, projectName: "Project")
        else { return firstDifference(canonicalDriver, canonicalCommitted) }
        let idsA = Set(a.objectIDs), idsB = Set(b.objectIDs)
        func describe(_ project: PBXProject, _ ids: [ObjectID]) -> String {
            ids.prefix(3).map { id in
                let object = project.object(id)
                return "\(object?.isa ?? "?") \(object?.string("name") ?? object?.string("path") ?? id.rawValue)"
            }.joined(separator: ", ") + (ids.count > 3 ? ", ..." : "")
        }
        var parts: [String] = []
        let onlyCommitted = idsB.subtracting(idsA).sorted()
        let onlyDriver = idsA.subtracting(idsB).sorted()
        if !onlyCommitted.isEmpty { parts.append("committed has \(onlyCommitted.count) object(s) neither side had (\(describe(b, onlyCommitted)))") }
        if !onlyDriver.isEmpty { parts.append("committed dropped \(onlyDriver.count) object(s) a side kept (\(describe(a, onlyDriver)))") }
        var changed: [String] = []
        for id in idsA.intersection(idsB).sorted() {
            guard let x = a.object(id), let y = b.object(id), x.properties != y.properties else { continue }
            let keys = Set(x.properties.keys + y.properties.keys).filter { x[$0] != y[$0] }.sorted()
            changed.append("\(x.isa) \(x.string("name") ?? x.string("path") ?? id.rawValue) [\(keys.joined(separator: ","))]")
        }
        if !changed.isEmpty {
            parts.append("\(changed.count) object(s) differ: " + changed.prefix(3).joined(separator: "; ") + (changed.count > 3 ? "; ..." : ""))
        }
        return parts.isEmpty ? "same objects and values; " + firstDifference(canonicalDriver, canonicalCommitted) : parts.joined(separator: "; ")
    }

    /// The first differing line of two texts, for the report.
    static func firstDifference(_ a: [UInt8], _ b: [UInt8]) -> String {
        let left = String(decoding: a, as: UTF8.self).split(separator: "\n", omittingEmptySubsequences: false)
        let right = String(decoding: b, as: UTF8.self).split(separator: "\n", omittingEmptySubsequences: false)
        for index in 0..<max(left.count, right.count) {
            let l = index < left.count ? String(left[index]) : "(end)"
            let r = index < right.count ? String(right[index]) : "(end)"
            if l != r {
                return "line \(index + 1): driver `\(l.trimmingCharacters(in: .whitespaces))` vs committed `\(r.trimmingCharacters(in: .whitespaces))`"
            }
        }
        return "same lines"
    }

    /// git in the clone.
    struct Git {
        let directory: String
        let runner = LocalProcessRunner()

        func run(_ arguments: [String]) async throws -> ProcessResult {
            try await runner.run(ProcessSpec(
                executable: "git", arguments: arguments, environment: ProcessInfo.processInfo.environment, workingDirectory: directory))
        }

        func bytes(_ arguments: [String]) async throws -> [UInt8] {
            let result = try await run(arguments)
            guard result.status.isSuccess else { throw BenchError("git \(arguments.joined(separator: " ")): \(result.errorText)") }
            return result.standardOutput
        }

        func text(_ arguments: [String]) async throws -> String {
            String(decoding: try await bytes(arguments), as: UTF8.self)
        }

        func lines(_ arguments: [String]) async throws -> [String] {
            try await text(arguments).split(separator: "\n").map(String.init)
        }
    }
}
