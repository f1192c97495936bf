import Foundation

/// `slipway-bench AREA [options]`: runs the benchmarks of one area and prints medians.
/// Each area lives in its own file and registers itself here.
let areas: [String: @Sendable ([String]) async throws -> Void] = [
    "appstore-upload": AppStoreUploadBenchmark.run,
    "diff": DiffBenchmark.run,
    "lanes": LanesBenchmark.run,
    "lint": LintBenchmark.run,
    "merge": MergeBenchmark.run,
    "pins": PinsBenchmark.run,
    "preflight": PreflightBenchmark.run,
    "pbxproj": PBXProjBenchmark.run,
    "publish": PublishBenchmark.run,
    "redact": RedactBenchmark.run,
    "release": ReleaseBenchmark.run,
    "signing-kdf": SigningBenchmark.run,
    "sync": SyncBenchmark.run,
    "sync-trees": SyncTreesBenchmark.run,
    "xcresult": XcresultBenchmark.run,
    "xcode-log": XcodeLogBenchmark.run,
    "xcode-log-memory": XcodeLogMemoryBenchmark.run,
]

let arguments = Array(CommandLine.arguments.dropFirst())
guard let area = arguments.first, let run = areas[area] else {
    let names = areas.keys.sorted().joined(separator: "|")
    FileHandle.standardError.write(Data("usage: slipway-bench \(names) [options]\n".utf8))
    exit(64)
}
do {
    try await run(Array(arguments.dropFirst()))
} catch {
    FileHandle.standardError.write(Data("slipway-bench: \(error)\n".utf8))
    exit(1)
}
