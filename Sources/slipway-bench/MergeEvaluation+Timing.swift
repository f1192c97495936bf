import Basics
import Foundation
import PBXProj

/// `merge eval --results` and `--time`: the driver's output per merge, and its cost as a whole
/// process beside `git merge-file` on each real merge.
extension MergeEvaluation {
    /// One merge's CPU medians: the driver as git runs it and `git merge-file`.
    struct MergeTiming {
        var subject: String
        var megabytes: Double
        var driver: Double
        var lineMerge: Double
        var ratio: Double { lineMerge > 0 ? driver / lineMerge : 0 }
    }

    /// What the driver did with one merge, in one line: its conflicts, its notes and a digest
    /// of the merged bytes (FNV-1a, 64 bits), to compare two builds merge by merge.
    static func resultLine(subject: String, _ result: PBXProjMergeResult) -> String {
        var hash: UInt64 = 0xcbf2_9ce4_8422_2325
        for byte in result.bytes { hash = (hash ^ UInt64(byte)) &* 0x100_0000_01b3 }
        let conflicts = result.conflicts.map { conflict in (conflict.kind.map { "CONFLICT (\($0)): " } ?? "") + "\(conflict)" }
        return [
            subject, "conflicts \(result.conflicts.count)", "canonical \(result.isCanonical)",
            String(hash, radix: 16), "bytes \(result.bytes.count)",
            "notes [" + result.notes.joined(separator: " | ") + "]", "[" + conflicts.joined(separator: " | ") + "]",
        ].joined(separator: "\t").replacingOccurrences(of: "\n", with: "\\n")
    }

    /// Runs the driver (`command base ours theirs`) and `git merge-file` on the
    /// three versions in `scratch` (as `evaluate` wrote them), three times each, interleaved, and
    /// returns the CPU medians.
    static func time(subject: String, scratch: String, driver command: [String]) async throws -> MergeTiming {
        let files = ["base", "ours", "theirs"].map { scratch + "/" + $0 }
        let ours = try Data(contentsOf: URL(fileURLWithPath: files[1]))
        let base = try Data(contentsOf: URL(fileURLWithPath: files[0]))
        let theirs = try Data(contentsOf: URL(fileURLWithPath: files[2]))
        let timed = (base: scratch + "/timed-base", ours: scratch + "/timed-ours", theirs: scratch + "/timed-theirs")
        try base.write(to: URL(fileURLWithPath: timed.base))
        try theirs.write(to: URL(fileURLWithPath: timed.theirs))
        let driver = command + [timed.base, timed.ours, timed.theirs]
        let lineMerge = ["git", "merge-file", timed.ours, timed.base, timed.theirs]
        var driverCPU: [Double] = [], lineCPU: [Double] = []
        for _ in 0..<3 {
            for (command, isDriver) in [(driver, true), (lineMerge, false)] {
                try ours.write(to: URL(fileURLWithPath: timed.ours))
                let figures = try await MergeBenchmark.measure(command, in: scratch)
                if isDriver { driverCPU.append(figures.cpu) } else { lineCPU.append(figures.cpu) }
            }
        }
        let median = { (values: [Double]) in values.sorted()[values.count / 2] }
        return MergeTiming(subject: subject, megabytes: Double(ours.count) / 1_000_000, driver: median(driverCPU), lineMerge: median(lineCPU))
    }

    /// The medians over all merges and the worst ratios.
    static func reportTimings(_ timings: [MergeTiming]) {
        let median = { (values: [Double]) in values.sorted()[values.count / 2] }
        let driver = median(timings.map(\.driver)), line = median(timings.map(\.lineMerge))
        print("  CPU as git runs them (medians of 3 per merge, \(timings.count) merges): driver median \(Bench.ms(driver)), "
            + "git merge-file median \(Bench.ms(line)); ratio per merge: median "
            + String(format: "%.2f×", median(timings.map(\.ratio))))
        let largest = timings.max { $0.megabytes < $1.megabytes }
        if let largest {
            print("  largest project (\(String(format: "%.2f MB", largest.megabytes))): \(largest.subject): driver \(Bench.ms(largest.driver)), git merge-file \(Bench.ms(largest.lineMerge)), "
                + String(format: "%.2f×", largest.ratio))
        }
        for timing in timings.sorted(by: { $0.ratio > $1.ratio }).prefix(5) {
            print("  worst ratio: \(timing.subject) (\(String(format: "%.2f MB", timing.megabytes))): driver \(Bench.ms(timing.driver)), "
                + "git merge-file \(Bench.ms(timing.lineMerge)), " + String(format: "%.2f×", timing.ratio))
        }
        for timing in timings.sorted(by: { $0.driver > $1.driver }).prefix(3) {
            print("  slowest: \(timing.subject) (\(String(format: "%.2f MB", timing.megabytes))): driver \(Bench.ms(timing.driver)), "
                + "git merge-file \(Bench.ms(timing.lineMerge)), " + String(format: "%.2f×", timing.ratio))
        }
    }
}
