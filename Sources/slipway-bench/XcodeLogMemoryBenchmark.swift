import Basics
import Foundation
import Xcode

/// Issue 41's figure for `slipway xcode log --junit`: the peak resident memory of formatting a
/// synthetic log of 20 MB and then one of 200 MB (XcodeLogBenchmark's mix: ten tests every
/// hundred lines, each a new test case) the way the command does, the JUnit report included.
/// The logs are written to a temporary folder first (never held whole) and removed after.
/// `--in-memory` keeps the test cases in memory, as the command did before the spool, for
/// comparison. Flat: the two peaks within a few MiB.
///
///     slipway-bench xcode-log-memory [--megabytes 20,200] [--in-memory]
enum XcodeLogMemoryBenchmark {
    static func run(_ arguments: [String]) async throws {
        let sizes = (Bench.option("--megabytes", arguments) ?? "20,200").split(separator: ",").compactMap { Int($0) }
        let inMemory = arguments.contains("--in-memory")
        print("slipway-bench xcode-log-memory — peak RSS, test cases \(inMemory ? "in memory (before)" : "spilled (the command)")")
        let folder = NSTemporaryDirectory() + "slipway-bench-xcode-log-\(getpid())"
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: folder) }
        Bench.report("peak RSS before", String(format: "%.1f MiB", XcodeLogBenchmark.peakMemoryMiB()), target: "—")
        for megabytes in sizes {
            let log = folder + "/\(megabytes).log"
            let tests = try writeLog(to: log, bytes: megabytes << 20)
            let options = XcodeLogFormatter.Options(spillTestCases: !inMemory)
            let summary = try await XcodeLogFormatter(options: options).format(path: log, to: Discard())
            try summary.writeJUnit(name: "xcodebuild", to: folder + "/report.xml", fileSystem: LocalFileSystem())
            let report = (try? FileManager.default.attributesOfItem(atPath: folder + "/report.xml")[.size] as? Int) ?? 0
            try FileManager.default.removeItem(atPath: log)
            Bench.report("peak RSS after a \(megabytes) MB log (\(tests) test lines, \(summary.testCount) cases, JUnit \(report >> 20) MB)",
                         String(format: "%.1f MiB", XcodeLogBenchmark.peakMemoryMiB()), target: "flat")
        }
    }

    /// Writes XcodeLogBenchmark's blocks to `path` until it holds `bytes`; returns the number of test cases in it.
    static func writeLog(to path: String, bytes: Int) throws -> Int {
        FileManager.default.createFile(atPath: path, contents: nil)
        let handle = try FileHandle(forWritingTo: URL(fileURLWithPath: path))
        defer { try? handle.close() }
        var written = 0
        var block = 0
        var chunk = ""
        while written < bytes {
            chunk += XcodeLogBenchmark.logBlock(block)
            block += 1
            if chunk.utf8.count >= 1 << 20 {
                written += chunk.utf8.count
                try handle.write(contentsOf: Data(chunk.utf8))
                chunk = ""
            }
        }
        return block * 10
    }

    /// Output thrown away (the benchmark measures memory, not the terminal).
    struct Discard: TextOutput {
        func write(_ text: String) {}
    }
}
