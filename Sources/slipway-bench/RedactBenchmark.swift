import Basics
import Foundation
import Lanes
import Networking
import Steps

/// Issue 11's figures: the redactor's throughput with 20 secrets (every encoded form masked)
/// against none, on the redactor alone and on a lane step that prints 100 MB.
enum RedactBenchmark {
    static func run(_ arguments: [String]) async throws {
        let runs = arguments.firstIndex(of: "--runs").flatMap { Int(arguments[$0 + 1]) } ?? 5
        let megabytes = Bench.option("--mb", arguments).flatMap(Int.init) ?? 100
        let secrets = (1...20).map { "secret-\($0)-\(UUID().uuidString)" }
        print("slipway-bench redact — medians of \(runs) runs, \(megabytes) MB of output, 20 secrets vs none")

        // The redactor alone, over log-like lines, a few of which hold a secret or its base64.
        let lines = sampleLines(megabytes: megabytes, secrets: secrets)
        let bytes = Double(lines.reduce(0) { $0 + $1.utf8.count + 1 })
        for (label, redactor) in [("no secrets", Redactor.none), ("20 secrets", Redactor(secrets: secrets))] {
            let masked = lines.filter { redactor.redact($0).contains(Redactor.mask) }.count
            var length = 0
            let seconds = Bench.median(runs: runs) {
                length = 0
                for line in lines { length &+= redactor.redact(line).utf8.count }
            }
            guard length > 0 else { throw BenchError("nothing was redacted") }
            Bench.report("Redactor.redact, \(label) (\(masked) lines masked)", throughput(bytes, seconds), target: "—")
        }

        // Cutting child output into lines, in 64 KiB reads: the plain buffer against the one that
        // keeps secrets whole across cuts and wrapped base64 (issue 23), without and with secrets.
        let stream = Array((lines.joined(separator: "\n") + "\n").utf8)
        let reads = stride(from: 0, to: stream.count, by: 1 << 16).map { Array(stream[$0..<min($0 + (1 << 16), stream.count)]) }
        let plainSeconds = Bench.median(runs: runs) {
            var buffer = LineBuffer()
            var count = 0
            for read in reads { count &+= buffer.append(read).count }
            precondition(count > 0)
        }
        Bench.report("LineBuffer (plain)", throughput(bytes, plainSeconds), target: "—")
        for (label, redactor) in [("no secrets", Redactor.none), ("20 secrets", Redactor(secrets: secrets))] {
            let seconds = Bench.median(runs: runs) {
                var buffer = RedactingLineBuffer(redactor: redactor)
                var count = 0
                for read in reads { count &+= buffer.append(read).count }
                count &+= buffer.finish().count
                precondition(count > 0)
            }
            Bench.report("RedactingLineBuffer, \(label)", throughput(bytes, seconds), target: "—")
        }

        // A `run` step printing the output, through the runner, the event bus and a reporter.
        let folder = NSTemporaryDirectory() + "slipway-bench-redact-\(UUID().uuidString)"
        try FileManager.default.createDirectory(atPath: folder + "/lanes", withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: folder) }
        try (lines.joined(separator: "\n") + "\n").write(toFile: folder + "/output.txt", atomically: true, encoding: .utf8)
        let declared = (1...20).map { "SECRET_\($0)" }
        try "secrets: [\(declared.joined(separator: ", "))]\nsteps:\n  - run: cat output.txt\n"
            .write(toFile: folder + "/lanes/secret.yml", atomically: true, encoding: .utf8)
        try "steps:\n  - run: cat output.txt\n".write(toFile: folder + "/lanes/plain.yml", atomically: true, encoding: .utf8)
        let environment = Environment.current.merging(Dictionary(uniqueKeysWithValues: zip(declared, secrets)))
        let workspace = LaneWorkspace(projectDirectory: folder, fileSystem: LocalFileSystem(), processRunner: LocalProcessRunner(),
                                      environment: environment, stepServices: StepServices(httpClient: SystemHTTPClient()))
        var options = LaneRunner.Options()
        options.writesJournal = false
        for (label, lane) in [("no secrets", "plain"), ("20 secrets", "secret")] {
            let validated = try await workspace.validate(lane)
            let seconds = try await Bench.median(runs: runs) {
                let summary = try await LaneRunner(services: workspace.services).run(validated, options: options, reporters: [DiscardingReporter()])
                guard summary.status == .succeeded else { throw BenchError("the lane '\(lane)' failed") }
            }
            Bench.report("run: cat \(megabytes) MB through the runner, \(label)", throughput(bytes, seconds), target: "—")
        }
    }

    static func throughput(_ bytes: Double, _ seconds: Double) -> String {
        String(format: "%.0f MB/s", bytes / seconds / 1_000_000)
    }

    /// About `megabytes` MB of build-log-like lines (mostly ~100 bytes, some long); one line in
    /// 10,000 holds a secret, its base64 or its URL-encoded form.
    static func sampleLines(megabytes: Int, secrets: [String]) -> [String] {
        let templates = [
            "[%d/812] Compiling Module%d Source%d.swift (arch x86_64, -O, whole-module)",
            "Test Case 'SuiteTests.test%d' passed (0.%03d seconds) — https://example.com/logs/%d?q=a%%20b",
            "warning: variable 'value%d' was never mutated; consider changing to 'let' constant [%d:%d]",
            "{\"event\":\"progress\",\"step\":\"build\",\"done\":%d,\"total\":%d,\"path\":\"/tmp/x/%d\"}",
            "aGVsbG8gd29ybGQgZnJvbSB0aGUgYnVpbGQgbG9nIGxpbmUgbnVtYmVy %d %d %d",
        ]
        var lines: [String] = []
        var total = 0, index = 0
        while total < megabytes * 1_000_000 {
            var line = String(format: templates[index % templates.count], index, index % 997, index % 13)
            if index % 10_000 == 5_000 {
                let secret = secrets[index / 10_000 % secrets.count]
                line += [" token=" + secret, " b64=" + Data(secret.utf8).base64EncodedString(),
                         " url=" + (secret.addingPercentEncoding(withAllowedCharacters: .alphanumerics) ?? "")][index / 10_000 % 3]
            }
            if index % 100 == 0 { line += " " + String(repeating: "long output ", count: 80) }
            total += line.utf8.count + 1
            lines.append(line)
            index += 1
        }
        return lines
    }
}

/// A reporter that drops every event, so that the figures are the runner's and the redactor's.
struct DiscardingReporter: RunReporter {
    func receive(_ event: RunEvent) {}
}
