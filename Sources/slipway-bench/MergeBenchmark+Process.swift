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

    /// A driver to measure: its name in the report and the command before BASE OURS THEIRS.
    struct DriverCommand {
        var name: String
        var command: [String]
    }

    /// The drivers `slipway-bench merge` measures, in this order: `slipway-merge-driver`
    /// (`--driver PATH`, else the one beside slipway-bench), `slipway xcodeproj merge`
    /// (`--slipway PATH`, else the one beside slipway-bench), and each `--before PATH`, another
    /// build's `slipway-merge-driver` or `slipway xcodeproj merge` (the previous commit's), each
    /// when it exists.
    static func driverCommands(_ arguments: [String]) -> [DriverCommand] {
        var drivers: [DriverCommand] = []
        let small = Bench.option("--driver", arguments) ?? (Bench.slipwayBinary([]) as NSString).deletingLastPathComponent + "/slipway-merge-driver"
        if FileManager.default.isExecutableFile(atPath: small) { drivers.append(DriverCommand(name: "slipway-merge-driver", command: [small])) }
        let slipway = Bench.slipwayBinary(arguments)
        if FileManager.default.isExecutableFile(atPath: slipway) {
            drivers.append(DriverCommand(name: "slipway xcodeproj merge", command: [slipway, "xcodeproj", "merge"]))
        }
        // Each --before PATH: another build's slipway-merge-driver (a file of that name, run as
        // it is), or its slipway (run as 'slipway xcodeproj merge').
        for (index, argument) in arguments.enumerated() where argument == "--before" && index + 1 < arguments.count {
            let before = arguments[index + 1]
            guard FileManager.default.isExecutableFile(atPath: before) else { continue }
            if (before as NSString).lastPathComponent.hasPrefix("slipway-merge-driver") {
                drivers.append(DriverCommand(name: "before: \((before as NSString).lastPathComponent)", command: [before]))
            } else {
                drivers.append(DriverCommand(name: "before: slipway xcodeproj merge", command: [before, "xcodeproj", "merge"]))
            }
        }
        return drivers
    }

    /// Measures each driver (`DRIVER base ours theirs`) against `git merge-file ours base
    /// theirs` on the three versions, `runs` times each, interleaved (so that a busy moment of
    /// a shared machine falls on all alike), and reports each with its ratio to git.
    static func sideBySide(label: String, base: [UInt8], ours: [UInt8], theirs: [UInt8], runs: Int, drivers: [DriverCommand]) async throws {
        let folder = NSTemporaryDirectory() + "slipway-bench-merge-\(getpid())"
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let (basePath, oursPath, theirsPath) = (folder + "/base", folder + "/ours", folder + "/theirs")
        try Data(base).write(to: URL(fileURLWithPath: basePath))
        try Data(theirs).write(to: URL(fileURLWithPath: theirsPath))
        let commands = drivers.map { $0.command + [basePath, oursPath, theirsPath] } + [["git", "merge-file", oursPath, basePath, theirsPath]]
        var samples = [[ProcessFigures]](repeating: [], count: commands.count)
        for run in 0...runs {
            for (index, command) in commands.enumerated() {
                try Data(ours).write(to: URL(fileURLWithPath: oursPath))
                let figures = try await measure(command, in: folder)
                // The first round warms the page cache and the binaries up.
                guard run > 0 else { continue }
                samples[index].append(figures)
            }
        }
        let g = medians(samples[commands.count - 1])
        print("\(label): git merge-file \(Bench.ms(g.wall)), CPU \(Bench.ms(g.cpu))")
        for (index, driver) in drivers.enumerated() {
            let d = medians(samples[index])
            // Bench.report cuts values at 14 characters: these lines carry two figures each.
            print("  \(driver.name) \(Bench.ms(d.wall)), CPU \(Bench.ms(d.cpu)); "
                + String(format: "/ git merge-file %.2f×, CPU %.2f× (target ≤ 2×)", g.wall > 0 ? d.wall / g.wall : 0, g.cpu > 0 ? d.cpu / g.cpu : 0))
        }
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
