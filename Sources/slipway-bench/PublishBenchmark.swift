import Basics
import Foundation
import Networking
import Publish

#if canImport(Glibc)
import Glibc
#endif

/// `slipway-bench publish [--size MB] [--runs N] [--work DIR] [--skip-archive] [--skip-s3] [--part-size MB] [--concurrency N]`:
/// 1. archive (tar.gz) + SHA256SUMS + ed25519 signature of a generated artifact, against
///    `tar czf` + `sha256sum` on the same file (target: within 1.3×);
/// 2. an S3 upload of the artifact to a moto_server on 127.0.0.1, against `aws s3 cp` to the
///    same server (target: within 1.5×).
/// Both comparisons alternate the two sides run by run. The artifact (random words from a small vocabulary: compressible like a binary, but not
/// trivially) is generated once and reused.
enum PublishBenchmark {
    static func run(_ arguments: [String]) async throws {
        let megabytes = Int(value(of: "--size", in: arguments) ?? "200") ?? 200
        let runs = max(1, Int(value(of: "--runs", in: arguments) ?? "5") ?? 5)
        let work = value(of: "--work", in: arguments) ?? NSTemporaryDirectory() + "slipway-bench-publish"
        try FileManager.default.createDirectory(atPath: work, withIntermediateDirectories: true)
        let artifact = work + "/artifact-\(megabytes)mb.bin"
        if !FileManager.default.fileExists(atPath: artifact) { try generateArtifact(at: artifact, megabytes: megabytes) }
        print("publish benchmarks: \(megabytes) MB artifact, median of \(runs) runs (after one warm-up)")
        if !arguments.contains("--skip-archive") { try await archiveChecksumSign(artifact: artifact, work: work, runs: runs) }
        if arguments.contains("--skip-s3") { return }
        var settings = S3UploadSettings()
        if let parts = value(of: "--part-size", in: arguments).flatMap(Int64.init) { settings.partSize = parts << 20 }
        if let concurrency = value(of: "--concurrency", in: arguments).flatMap(Int.init) { settings.concurrency = concurrency }
        try await s3Upload(artifact: artifact, runs: runs, settings: settings)
    }

    /// Medians of `baseline` and `candidate` measured alternately, each after one warm-up, so
    /// that a change in the machine's load during the run affects both alike (Bench.median
    /// times one side, then the other).
    static func interleavedMedians(runs: Int, baseline: () async throws -> Void,
                                   candidate: () async throws -> Void) async throws -> (baseline: Double, candidate: Double) {
        var baselineSamples: [Double] = [], candidateSamples: [Double] = []
        for round in 0...runs {
            let first = try await Bench.median(runs: 1, warmUp: false, baseline)
            let second = try await Bench.median(runs: 1, warmUp: false, candidate)
            if round > 0 {
                baselineSamples.append(first)
                candidateSamples.append(second)
            }
        }
        baselineSamples.sort()
        candidateSamples.sort()
        return (baselineSamples[baselineSamples.count / 2], candidateSamples[candidateSamples.count / 2])
    }

    static func value(of flag: String, in arguments: [String]) -> String? {
        guard let index = arguments.firstIndex(of: flag), index + 1 < arguments.count else { return nil }
        return arguments[index + 1]
    }

    /// Words of 2–9 letters from a 4,096-word vocabulary, in an order drawn from a fixed seed.
    static func generateArtifact(at path: String, megabytes: Int) throws {
        var state: UInt64 = 0x9E37_79B9_7F4A_7C15
        func next() -> UInt64 {
            state ^= state << 13
            state ^= state >> 7
            state ^= state << 17
            return state
        }
        let vocabulary: [[UInt8]] = (0..<4096).map { _ in
            (0..<(2 + Int(next() % 8))).map { _ in UInt8(ascii: "a") + UInt8(next() % 26) } + [UInt8(ascii: " ")]
        }
        let target = megabytes << 20
        guard let handle = FileHandle(forWritingAtPath: path) ?? {
            _ = FileManager.default.createFile(atPath: path, contents: nil)
            return FileHandle(forWritingAtPath: path)
        }() else { throw BenchError("cannot create \(path)") }
        defer { try? handle.close() }
        var written = 0
        var chunk: [UInt8] = []
        chunk.reserveCapacity(1 << 20)
        while written < target {
            chunk.removeAll(keepingCapacity: true)
            while chunk.count < min(1 << 20, target - written) {
                chunk += vocabulary[Int(next() % 4096)]
                if next() % 16 == 0 { chunk.append(UInt8(ascii: "\n")) }
            }
            let piece = chunk.prefix(target - written)
            try handle.write(contentsOf: Data(piece))
            written += piece.count
        }
    }

    static func archiveChecksumSign(artifact: String, work: String, runs: Int) async throws {
        let folder = work + "/archive"
        try? FileManager.default.removeItem(atPath: folder)
        try FileManager.default.createDirectory(atPath: folder + "/ours", withIntermediateDirectories: true)
        let name = (artifact as NSString).lastPathComponent
        let fileSystem = LocalFileSystem(), streams = LocalFileStreams()
        let pair = try SignifyKeyPair.generate(random: SignifyKeyGenerator.systemRandom)
        let signer = Ed25519Signer(pair: pair, options: Ed25519SignerOptions(comment: "verify with bench.pub"),
                                   fileSystem: fileSystem, streams: streams)
        let output = folder + "/ours/artifact.tar.gz"
        let (baseline, ours) = try await interleavedMedians(runs: runs, baseline: {
            try await Bench.run("/bin/sh", ["-c", "tar czf \(folder)/baseline.tar.gz \(name) && sha256sum \(folder)/baseline.tar.gz > \(folder)/baseline.sums"],
                                in: (artifact as NSString).deletingLastPathComponent)
        }, candidate: {
            let entries = try ArchiveLayout(fileSystem: fileSystem, streams: streams).entries(for: [ArchiveInput(path: artifact, name: name)])
            _ = try Archiver(streams: streams).write(ArchiveRequest(output: output, format: .tarGzip, entries: entries))
            try ChecksumFile(fileSystem: fileSystem, streams: streams).write(files: [output], to: folder + "/ours/SHA256SUMS")
            _ = try await signer.sign([output, folder + "/ours/SHA256SUMS"])
        })
        let size = (try? FileManager.default.attributesOfItem(atPath: output)[.size] as? Int) ?? 0
        Bench.report("tar czf + sha256sum (baseline)", Bench.ms(baseline), target: "reference")
        Bench.report("archive + checksums + sign (ed25519)", Bench.ms(ours), target: "≤ 1.3× baseline")
        Bench.report("  ratio (archive \(size >> 20) MB)", String(format: "%.2f×", ours / baseline), target: "≤ 1.30")
    }
}
