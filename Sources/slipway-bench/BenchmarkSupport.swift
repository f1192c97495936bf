import Basics
import Foundation

#if canImport(Glibc)
import Glibc
#endif

/// Timing helpers shared by the benchmark areas: every figure is a median of repeated runs.
enum Bench {
    /// Median seconds of `body` over `runs` runs (after one warm-up).
    static func median(runs: Int, warmUp: Bool = true, _ body: () async throws -> Void) async rethrows -> Double {
        if warmUp { try await body() }
        var samples: [Double] = []
        for _ in 0..<runs {
            let start = ContinuousClock.now
            try await body()
            let elapsed = ContinuousClock.now - start
            samples.append(Double(elapsed.components.seconds) + Double(elapsed.components.attoseconds) / 1e18)
        }
        samples.sort()
        return samples[samples.count / 2]
    }

    /// The synchronous form of `median(runs:warmUp:_:)`, for in-process work.
    static func median(runs: Int, warmUp: Bool = true, _ body: () throws -> Void) rethrows -> Double {
        if warmUp { try body() }
        var samples: [Double] = []
        for _ in 0..<runs {
            let start = ContinuousClock.now
            try body()
            samples.append(seconds(ContinuousClock.now - start))
        }
        samples.sort()
        return samples[samples.count / 2]
    }

    /// A duration in seconds.
    static func seconds(_ duration: Duration) -> Double {
        Double(duration.components.seconds) + Double(duration.components.attoseconds) / 1e18
    }

    /// The value after `--name` in the arguments, if any.
    static func option(_ name: String, _ arguments: [String]) -> String? {
        guard let index = arguments.firstIndex(of: name), index + 1 < arguments.count else { return nil }
        return arguments[index + 1]
    }

    /// The pbxproj corpus: `--corpus DIR`, `$SLIPWAY_CORPUS`, or `../shared/corpus/pbxproj`,
    /// the first that holds `file` (a path inside the corpus).
    static func corpusDirectory(_ arguments: [String], containing file: String = "MANIFEST.tsv") -> String? {
        let candidates = [option("--corpus", arguments), ProcessInfo.processInfo.environment["SLIPWAY_CORPUS"],
                          FileManager.default.currentDirectoryPath + "/../shared/corpus/pbxproj"]
        return candidates.compactMap { $0 }.first { FileManager.default.fileExists(atPath: $0 + "/" + file) }
    }

    /// The largest corpus project's bytes (DuckDuckGo-macOS, 1.47 MB), or nil after saying how
    /// to point at the corpus.
    static func largeProjectBytes(_ arguments: [String]) throws -> [UInt8]? {
        let file = "files/\(PBXProjBenchmark.largeProject).pbxproj"
        guard let corpus = corpusDirectory(arguments, containing: file) else {
            print("(no corpus: pass --corpus DIR or set SLIPWAY_CORPUS to measure the DuckDuckGo project)")
            return nil
        }
        return Array(try Data(contentsOf: URL(fileURLWithPath: corpus + "/" + file)))
    }

    /// How to build the binaries measured: on Linux the Swift runtime and Foundation are linked
    /// statically, as a shipped Slipway is.
    static let buildCommand = "swift build -c release --static-swift-stdlib"

    /// `slipway` next to this benchmark binary (build both with `buildCommand`).
    static func slipwayBinary(_ arguments: [String]) -> String {
        if let index = arguments.firstIndex(of: "--slipway"), index + 1 < arguments.count { return arguments[index + 1] }
        let own = URL(fileURLWithPath: CommandLine.arguments[0]).resolvingSymlinksInPath()
        return own.deletingLastPathComponent().appendingPathComponent("slipway").path
    }

    /// Runs a process to completion and fails when it exits non-zero.
    @discardableResult
    static func run(_ executable: String, _ arguments: [String], in directory: String? = nil) async throws -> String {
        let runner = LocalProcessRunner()
        let result = try await runner.run(ProcessSpec(executable: executable, arguments: arguments,
                                                      environment: Environment.current.variables, workingDirectory: directory))
        guard result.status.isSuccess else {
            throw BenchError("'\(executable) \(arguments.joined(separator: " "))' failed with \(result.status): \(result.errorText.suffix(500))")
        }
        return result.outputText
    }

    /// The resource usage of every child process reaped so far.
    static func childUsage() -> rusage {
        var usage = rusage()
        #if canImport(Glibc)
        getrusage(__rusage_who_t(RUSAGE_CHILDREN.rawValue), &usage)
        #else
        getrusage(RUSAGE_CHILDREN, &usage)
        #endif
        return usage
    }

    /// The peak resident memory (MiB) of the largest child process reaped so far.
    static func peakChildMemoryMiB() -> Double {
        let usage = childUsage()
        #if canImport(Darwin)
        return Double(usage.ru_maxrss) / 1024 / 1024
        #else
        return Double(usage.ru_maxrss) / 1024
        #endif
    }

    static func ms(_ seconds: Double) -> String { String(format: "%.2f ms", seconds * 1000) }

    static func report(_ name: String, _ value: String, target: String) {
        print("\(name.padding(toLength: 52, withPad: " ", startingAt: 0)) \(value.padding(toLength: 14, withPad: " ", startingAt: 0)) (target \(target))")
    }
}

struct BenchError: Error, CustomStringConvertible {
    var description: String
    init(_ description: String) { self.description = description }
}
