import Basics
import Foundation
import PBXProj

/// Issue #16's evaluation on real history: for every merge commit of a local clone whose two
/// parents both changed a `project.pbxproj` since their merge base, runs the driver on
/// (base, parent 1, parent 2) and `git merge-file` on the same three files, and compares the
/// driver's clean merges with what the developers committed (both in Xcode's form).
///
/// `slipway-bench merge eval CLONE [--max N] [--symmetry] [--results FILE] [--driver PATH | --slipway PATH] [--time]`
///
/// `--results FILE` writes one line per merge (what the driver did, its notes and a digest of
/// the merged bytes), so that two builds can be compared merge by merge. `--time` also runs the
/// driver as git runs it (`--driver PATH`, slipway-merge-driver, or `--slipway PATH`, `slipway xcodeproj merge`: a whole process) and `git merge-file` on each
/// merge's three versions, interleaved, and reports the medians and the worst ratio.
enum MergeEvaluation {
    struct Tally {
        var merges = 0
        var driverClean = 0
        var lineClean = 0
        var equalCommitted = 0
        var equalButOrder = 0
        var driverFallback = 0
        var driverOnlyConflicted = 0
        var lineOnlyConflicted = 0
        var committedUnreadable = 0
        var crissCross = 0
        /// Clean merges that have a version number both sides raised (clean thanks to
        /// `PBXProjVersionBumps.higher`; a conflict with `.conflict`), and of those, where git
        /// merge-file conflicted.
        var cleanByVersionRule = 0
        var cleanByVersionRuleLineConflicted = 0
        /// The version choices against the committed value: the same, the lower side's, another.
        var versionKeptAsCommitted = 0
        var versionCommittedLower = 0
        var versionCommittedOther: [String] = []
        /// With `--symmetry`: each merge runs again with ours and theirs swapped, and the merges
        /// whose exit status changes are listed.
        var symmetry = false
        var symmetryChecked = 0
        var asymmetric: [String] = []
        /// Clean merges with a dangling reference or an added file resolved where no parent has it.
        var silentWrong: [String] = []
        /// How often each key (last key of the path) conflicted.
        var conflictKeys: [String: Int] = [:]
        /// The driver's conflicted merges by the set of what conflicted (a conflict's kind, else
        /// its last key), with one example each.
        var conflictedMerges: [String: (count: Int, example: String)] = [:]
        /// Differing clean merges by the set of reasons found in them.
        var reasons: [String: Int] = [:]
        var differing: [String] = []
        var fallbacks: [String] = []
        /// With `--results`: one line per merge.
        var results: [String] = []
        /// With `--time`: each merge's process figures.
        var timings: [MergeTiming] = []
    }

    static func run(_ arguments: [String]) async throws {
        let valued: Set<String> = ["--max", "--results", "--slipway", "--driver"]
        let positional = arguments.indices.filter { !arguments[$0].hasPrefix("--") && ($0 == 0 || !valued.contains(arguments[$0 - 1])) }
        guard let clone = positional.first.map({ arguments[$0] }) else {
            throw BenchError("usage: slipway-bench merge eval CLONE_PATH [--max N] [--symmetry] [--results FILE] [--driver PATH | --slipway PATH] [--time]")
        }
        let resultsFile = Bench.option("--results", arguments)
        // The driver git runs: slipway-merge-driver (--driver PATH), or slipway's command (--slipway PATH).
        var driver: [String]?
        if arguments.contains("--time") {
            if let small = Bench.option("--driver", arguments) {
                driver = [small]
            } else {
                driver = [Bench.slipwayBinary(arguments), "xcodeproj", "merge"]
            }
            if let path = driver?.first, !FileManager.default.isExecutableFile(atPath: path) {
                throw BenchError("no driver binary at \(path): build it with '\(Bench.buildCommand)' or pass --driver PATH / --slipway PATH")
            }
        }
        let limit = Bench.option("--max", arguments).flatMap { Int($0) } ?? Int.max

        let git = Git(directory: clone)
        let lines = try await git.text(["rev-list", "--merges", "--parents", "--all"]).split(separator: "\n")
        var tally = Tally()
        tally.symmetry = arguments.contains("--symmetry")
        let scratch = NSTemporaryDirectory() + "slipway-merge-eval-\(getpid())"
        try FileManager.default.createDirectory(atPath: scratch, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: scratch) }
        for line in lines where tally.merges < limit {
            let ids = line.split(separator: " ").map(String.init)
            guard ids.count == 3 else { continue }
            let (merge, first, second) = (ids[0], ids[1], ids[2])
            guard let bases = try? await git.lines(["merge-base", "--all", first, second]), let base = bases.first else { continue }
            let changedFirst = Set(try await git.lines(["diff", "--name-only", base, first, "--", "*.pbxproj"]))
            let changedSecond = try await git.lines(["diff", "--name-only", base, second, "--", "*.pbxproj"])
            for path in changedSecond where changedFirst.contains(path) && tally.merges < limit {
                let subject = "\(merge.prefix(10)) \(path)" + (bases.count > 1 ? " (criss-cross: \(bases.count) merge bases)" : "")
                if bases.count > 1 { tally.crissCross += 1 }
                try await evaluate(git: git, merge: merge, versions: [base, first, second], path: path, subject: subject, scratch: scratch, tally: &tally)
                if let driver { tally.timings.append(try await time(subject: subject, scratch: scratch, driver: driver)) }
            }
        }
        report(clone: clone, tally)
        if !tally.timings.isEmpty { reportTimings(tally.timings) }
        if let resultsFile { try Data((tally.results.joined(separator: "\n") + "\n").utf8).write(to: URL(fileURLWithPath: resultsFile)) }
    }

    private static func report(clone: String, _ tally: Tally) {
        print("merge evaluation of \(clone)")
        print("  merges touching a project.pbxproj on both parents: \(tally.merges) (criss-cross, first merge base used: \(tally.crissCross))")
        print("  clean by the driver: \(tally.driverClean), conflicted: \(tally.merges - tally.driverClean - tally.driverFallback), line-merge fallback for unreadable input: \(tally.driverFallback)")
        print("  clean by git merge-file: \(tally.lineClean), conflicted: \(tally.merges - tally.lineClean)")
        print("  conflicted by the driver only: \(tally.driverOnlyConflicted); by git merge-file only: \(tally.lineOnlyConflicted)")
        let lineConflicted = tally.merges - tally.lineClean
        print("  clean by the driver where git merge-file conflicted: \(tally.lineOnlyConflicted) of \(lineConflicted)")
        print("  clean only because a version number both sides raised kept the higher: \(tally.cleanByVersionRule) (where git merge-file conflicted: \(tally.cleanByVersionRuleLineConflicted))")
        print("  version numbers kept: the committed value \(tally.versionKeptAsCommitted), the commit has the lower side's \(tally.versionCommittedLower), another value \(tally.versionCommittedOther.count)")
        for other in tally.versionCommittedOther.prefix(10) { print("  version committed otherwise: \(other)") }
        if tally.symmetryChecked > 0 {
            print("  same exit status with ours and theirs swapped: \(tally.symmetryChecked - tally.asymmetric.count) of \(tally.symmetryChecked)")
            for entry in tally.asymmetric.prefix(10) { print("  asymmetric: \(entry)") }
        }
        print("  silent wrong (clean, but a new dangling reference or an added file where no parent has it): \(tally.silentWrong.count)")
        for wrong in tally.silentWrong { print("  silent wrong: \(wrong)") }
        print("  driver's clean merge equal to the committed one (Xcode's form): \(tally.equalCommitted); equal but for list order: \(tally.equalButOrder); committed file unreadable: \(tally.committedUnreadable)")
        let keys = tally.conflictKeys.sorted { ($0.value, $1.key) > ($1.value, $0.key) }.prefix(6)
        print("  the driver's conflicts by key: " + keys.map { "\($0.key) \($0.value)" }.joined(separator: ", "))
        for (signature, entry) in tally.conflictedMerges.sorted(by: { ($0.value.count, $1.key) > ($1.value.count, $0.key) }) {
            print("  conflicted merges by what conflicted [\(signature)]: \(entry.count), e.g. \(entry.example.prefix(400))")
        }
        for (reasons, count) in tally.reasons.sorted(by: { ($0.value, $1.key) > ($1.value, $0.key) }) {
            print("  differing clean merges explained by [\(reasons)]: \(count)")
        }
        for fallback in tally.fallbacks { print("  fallback: \(fallback)") }
        for difference in tally.differing { print("  differs: \(difference)") }
        print("SUMMARY\t\(clone)\t\(tally.merges)\t\(tally.driverClean)\t\(tally.lineClean)\t\(tally.equalCommitted)\t\(tally.equalButOrder)\t\(tally.driverFallback)\t\(tally.driverOnlyConflicted)\t\(tally.lineOnlyConflicted)\t\(tally.committedUnreadable)\t\(tally.crissCross)\t\(tally.silentWrong.count)\t\(tally.cleanByVersionRule)\t\(tally.cleanByVersionRuleLineConflicted)\t\(tally.versionKeptAsCommitted)\t\(tally.versionCommittedLower)\t\(tally.versionCommittedOther.count)")
    }

    private static func evaluate(
        git: Git, merge: String, versions: [String], path: String, subject: String, scratch: String, tally: inout Tally
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
            let reason = (error as? PBXProjMergeError)?.message ?? "\(error)"
            tally.results.append("\(subject)\tfallback\t\(reason)")
            tally.fallbacks.append("\(subject): \(reason); git merge-file: \(lineClean ? "clean" : "conflicted")")
            return
        }
        if tally.symmetry {
            tally.symmetryChecked += 1
            let swapped = try? PBXProjMerge.merge(base: blobs[0], ours: blobs[2], theirs: blobs[1])
            if swapped.map({ $0.conflicts.isEmpty }) != result.conflicts.isEmpty {
                tally.asymmetric.append("\(subject): \(result.conflicts.count) conflicts, swapped \(swapped.map { "\($0.conflicts.count)" } ?? "unreadable")")
            }
        }
        tally.results.append(resultLine(subject: subject, result))
        for conflict in result.conflicts { tally.conflictKeys[conflict.keyPath.last ?? "(object)", default: 0] += 1 }
        if !result.conflicts.isEmpty {
            let labels = Set(result.conflicts.map { $0.kind.map { "CONFLICT (\($0))" } ?? $0.keyPath.last ?? "(object)" }).sorted()
            let signature = labels.joined(separator: " + ") + (lineClean ? " [git merge-file clean]" : "")
            let example = "\(subject): " + result.conflicts.prefix(2).map(\.description).joined(separator: "; ")
            tally.conflictedMerges[signature, default: (0, example)].count += 1
        }
        guard result.conflicts.isEmpty else {
            if lineClean {
                tally.driverOnlyConflicted += 1
                tally.differing.append("\(subject): conflicted by the driver, clean by git merge-file: \(result.conflicts.prefix(2).map(\.description).joined(separator: "; "))")
            }
            return
        }
        tally.driverClean += 1
        if !lineClean { tally.lineOnlyConflicted += 1 }
        if !result.versionChoices.isEmpty {
            tally.cleanByVersionRule += 1
            if !lineClean { tally.cleanByVersionRuleLineConflicted += 1 }
            checkVersionChoices(result.versionChoices, committed: blobs[3], subject: subject, tally: &tally)
        }
        checkSilentWrong(result.bytes, blobs: blobs, subject: subject, tally: &tally)
        compare(result.bytes, blobs: blobs, subject: subject, tally: &tally)
    }

    /// Compares the driver's clean merge with the committed one and explains any difference.
    private static func compare(_ merged: [UInt8], blobs: [[UInt8]], subject: String, tally: inout Tally) {
        // Versions that repeat a definition with the same text read as Xcode reads them (the
        // driver does the same with its inputs).
        let read = { (bytes: [UInt8]) in try? RepeatedDefinitions.removeIdentical(bytes, projectName: "Project").project }
        guard let committed = read(blobs[3]), let committedText = try? committed.canonicalSerialized() else {
            tally.committedUnreadable += 1
            tally.differing.append("\(subject): the committed file does not read as a project")
            return
        }
        guard let driver = read(merged), let base = read(blobs[0]), let ours = read(blobs[1]), let theirs = read(blobs[2]),
            let driverText = try? driver.canonicalSerialized()
        else {
            tally.differing.append("\(subject): UNEXPLAINED: the driver's merge does not read back")
            return
        }
        if driverText == committedText {
            tally.equalCommitted += 1
            return
        }
        let findings = MergeDifferenceExplainer(base: base, ours: ours, theirs: theirs, driver: driver, committed: committed).explain()
        let kinds = Set(findings.map(\.kind)).sorted()
        if kinds == [.order] { tally.equalButOrder += 1 }
        let key = kinds.isEmpty ? "same objects and values, other text" : kinds.map(\.label).joined(separator: " + ")
        tally.reasons[key, default: 0] += 1
        var lines: [String] = []
        for kind in kinds {
            let ofKind = findings.filter { $0.kind == kind }
            lines.append("      \(kind.label): \(ofKind.count): " + ofKind.prefix(3).map(\.subject).joined(separator: "; ") + (ofKind.count > 3 ? "; ..." : ""))
        }
        if kinds.isEmpty { lines.append("      " + firstDifference(driverText, committedText)) }
        tally.differing.append(subject + "\n" + lines.joined(separator: "\n"))
    }

    /// Compares each version number the driver kept with the value the developers committed.
    private static func checkVersionChoices(_ choices: [PBXProjVersionChoice], committed: [UInt8], subject: String, tally: inout Tally) {
        let project = try? RepeatedDefinitions.removeIdentical(committed, projectName: "Project").project
        for choice in choices {
            var value: PBXValue? = project?.object(choice.objectID).map { .dictionary($0.properties) }
            for key in choice.keyPath { value = value?.dictionary?[key] }
            let lower = choice.kept == choice.ours ? choice.theirs : choice.ours
            switch value?.string {
            case choice.kept: tally.versionKeptAsCommitted += 1
            case lower: tally.versionCommittedLower += 1
            case let other: tally.versionCommittedOther.append("\(subject) \(choice.keyPath.joined(separator: ".")): kept \"\(choice.kept)\" (base \"\(choice.base)\", ours \"\(choice.ours)\", theirs \"\(choice.theirs)\"), committed \(other.map { "\"\($0)\"" } ?? "nothing")")
            }
        }
    }

    /// Runs the independent detector on a clean merge.
    private static func checkSilentWrong(_ merged: [UInt8], blobs: [[UInt8]], subject: String, tally: inout Tally) {
        let read = { (bytes: [UInt8]) in try? PBXProject(bytes: bytes, projectName: "Project") }
        guard let result = read(merged), let base = read(blobs[0]), let ours = read(blobs[1]), let theirs = read(blobs[2]) else { return }
        let problems = SilentWrongDetector(base: base, ours: ours, theirs: theirs).problems(in: result)
        if !problems.isEmpty { tally.silentWrong.append("\(subject): " + problems.prefix(3).joined(separator: "; ")) }
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
