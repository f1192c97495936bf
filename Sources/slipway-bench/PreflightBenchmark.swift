import Basics
import Foundation
import Preflight

#if canImport(Glibc)
import Glibc
#endif

/// Issue 42's figure: `slipway preflight`'s offline rules on a real app tree (under 2 s), in
/// process (the project read through the door, the walk, every rule), and the built binary end
/// to end when `--binary` is given.
///
/// `slipway-bench preflight --tree DIR [--xcodeproj PATH] [--runs N] [--binary PATH]`
enum PreflightBenchmark {
    static func run(_ arguments: [String]) async throws {
        let runs = Bench.option("--runs", arguments).flatMap { Int($0) } ?? 11
        guard let tree = Bench.option("--tree", arguments) else {
            print("(no tree: pass --tree DIR, an app's checkout)")
            return
        }
        var options = PreflightOptions(root: tree)
        options.xcodeproj = Bench.option("--xcodeproj", arguments).map { $0.hasPrefix("/") ? $0 : tree + "/" + $0 }
        options.metadataPath = tree + "/fastlane/metadata"
        options.screenshotsPath = tree + "/fastlane/screenshots"
        let fileSystem = ProjectFileSystem(root: tree)
        var report = PreflightReport()
        var files = 0
        let inProcess = Bench.median(runs: runs) {
            let context = PreflightRunner.context(options: options, fileSystem: fileSystem)
            files = context.project?.files.sources.count ?? 0
            report = PreflightRunner().run(context)
        }
        // CPU time too: on a shared machine (load above the core count) wall-clock medians measure the queue.
        let before = cpuSeconds(children: false)
        for _ in 0..<runs { _ = PreflightRunner().run(PreflightRunner.context(options: options, fileSystem: fileSystem)) }
        let cpu = (cpuSeconds(children: false) - before) / Double(runs)
        print("slipway-bench preflight — medians of \(runs) runs, \(tree) (\(files) sources walked)")
        print(String(format: "  preflight, offline rules, in process:        %8.1f ms  (CPU %.1f ms; %d findings, %d rules ran)",
                     inProcess * 1000, cpu * 1000, report.findings.count, report.ran.count))
        guard let binary = Bench.option("--binary", arguments) else { return }
        var extra: [String] = []
        if let given = Bench.option("--xcodeproj", arguments) { extra = ["--xcodeproj", given] }
        let childrenBefore = cpuSeconds(children: true)
        let endToEnd = try Bench.median(runs: runs) {
            let process = Process()
            process.executableURL = URL(fileURLWithPath: binary)
            process.arguments = ["preflight", "-C", tree, "--json"] + extra
            process.standardOutput = FileHandle.nullDevice
            process.standardError = FileHandle.nullDevice
            try process.run()
            process.waitUntilExit()
        }
        let childCPU = (cpuSeconds(children: true) - childrenBefore) / Double(runs + 1)
        print(String(format: "  slipway preflight, the binary, end to end:    %8.1f ms  (CPU %.1f ms; target: under 2,000 ms)", endToEnd * 1000, childCPU * 1000))
    }

    /// User and system CPU seconds of this process, or (`children`) of its waited-for children.
    static func cpuSeconds(children: Bool) -> Double {
        var usage = rusage()
        #if canImport(Glibc)
        getrusage(__rusage_who_t((children ? RUSAGE_CHILDREN : RUSAGE_SELF).rawValue), &usage)
        #else
        getrusage(children ? RUSAGE_CHILDREN : RUSAGE_SELF, &usage)
        #endif
        func seconds(_ time: timeval) -> Double { Double(time.tv_sec) + Double(time.tv_usec) / 1e6 }
        return seconds(usage.ru_utime) + seconds(usage.ru_stime)
    }
}
