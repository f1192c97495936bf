import Basics
import Foundation

#if canImport(Glibc)
import Glibc
#endif

/// The driver as git runs it, side by side with `git merge-file` on the same three files in the
/// same run: both are whole processes that read base, ours and theirs and write the result into
/// ours (git's %A), so start-up and file I/O count for both.
extension MergeBenchmark {
    /// One measured command: wall-clock and CPU medians.
    struct ProcessFigures {
        var wall: Double
        var cpu: Double
    }

    /// Measures `slipway xcodeproj merge base ours theirs` against `git merge-file ours base
    /// theirs` on the three versions, `runs` times each, interleaved (so that a busy moment of
    /// a shared machine falls on both alike), and reports both with the ratio.
    static func sideBySide(label: String, base: [UInt8], ours: [UInt8], theirs: [UInt8], runs: Int, slipway: String) async throws {
        let folder = NSTemporaryDirectory() + "slipway-bench-merge-\(getpid())"
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let (basePath, oursPath, theirsPath) = (folder + "/base", folder + "/ours", folder + "/theirs")
        try Data(base).write(to: URL(fileURLWithPath: basePath))
        try Data(theirs).write(to: URL(fileURLWithPath: theirsPath))
        let driver = [slipway, "xcodeproj", "merge", basePath, oursPath, theirsPath]
        let lineMerge = ["git", "merge-file", oursPath, basePath, theirsPath]
        var driverSamples: [ProcessFigures] = [], gitSamples: [ProcessFigures] = []
        for run in 0...runs {
            for (command, isDriver) in [(driver, true), (lineMerge, false)] {
                try Data(ours).write(to: URL(fileURLWithPath: oursPath))
                let figures = try await measure(command, in: folder)
                // The first round warms the page cache and the binaries up.
                guard run > 0 else { continue }
                if isDriver { driverSamples.append(figures) } else { gitSamples.append(figures) }
            }
        }
        let d = medians(driverSamples), g = medians(gitSamples)
        let ratio = g.wall > 0 ? d.wall / g.wall : 0
        // Bench.report cuts values at 14 characters: these lines carry two figures each.
        print("\(label): slipway xcodeproj merge \(Bench.ms(d.wall)), CPU \(Bench.ms(d.cpu)); "
            + "git merge-file \(Bench.ms(g.wall)), CPU \(Bench.ms(g.cpu)); "
            + String(format: "driver / git merge-file %.2f×, CPU %.2f× (target ≤ 2×)", ratio, g.cpu > 0 ? d.cpu / g.cpu : 0))
    }

    /// Runs a command to its end (clean or conflicted) and returns its wall-clock
    /// time and the CPU time it and its children used.
    static func measure(_ command: [String], in folder: String) async throws -> ProcessFigures {
        let runner = LocalProcessRunner()
        let spec = ProcessSpec(
            executable: command[0], arguments: Array(command.dropFirst()), environment: Environment.current.variables,
            workingDirectory: folder)
        let cpuBefore = childCPUSeconds()
        let start = ContinuousClock.now
        let result = try await runner.run(spec)
        let wall = Bench.seconds(ContinuousClock.now - start)
        // The driver exits 1 on a conflict; git merge-file with the number of conflicts.
        guard case .exited(let code) = result.status, (0..<128).contains(code) else {
            throw BenchError("'\(command.joined(separator: " "))' failed with \(result.status): \(result.errorText.suffix(500))")
        }
        return ProcessFigures(wall: wall, cpu: childCPUSeconds() - cpuBefore)
    }

    private static func medians(_ samples: [ProcessFigures]) -> ProcessFigures {
        guard !samples.isEmpty else { return ProcessFigures(wall: 0, cpu: 0) }
        let walls = samples.map(\.wall).sorted(), cpus = samples.map(\.cpu).sorted()
        return ProcessFigures(wall: walls[walls.count / 2], cpu: cpus[cpus.count / 2])
    }

    /// User and system CPU seconds of every child process reaped so far.
    private static func childCPUSeconds() -> Double {
        let usage = Bench.childUsage()
        let seconds = { (time: timeval) in Double(time.tv_sec) + Double(time.tv_usec) / 1e6 }
        return seconds(usage.ru_utime) + seconds(usage.ru_stime)
    }
}
