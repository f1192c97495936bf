import Basics
import Foundation
import Lanes
import Networking
import Steps

/// Issue #2's figures: start-up, `slipway lanes`, runner overhead per step, peak memory.
enum LanesBenchmark {
    static func run(_ arguments: [String]) async throws {
        if arguments.first == "memory-child" { return try await memoryChild(Array(arguments.dropFirst())) }
        let slipway = Bench.slipwayBinary(arguments)
        let runs = arguments.firstIndex(of: "--runs").flatMap { Int(arguments[$0 + 1]) } ?? 21
        guard FileManager.default.isExecutableFile(atPath: slipway) else {
            throw BenchError("no slipway binary at \(slipway); build with '\(Bench.buildCommand)' or pass --slipway PATH")
        }
        let folder = try makeProject()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        print("slipway-bench lanes — medians of \(runs) runs, binary \(slipway)")

        let version = try await Bench.median(runs: runs) { try await Bench.run(slipway, ["--version"]) }
        Bench.report("slipway --version", Bench.ms(version), target: "≤ 15 ms")
        let lanes = try await Bench.median(runs: runs) { try await Bench.run(slipway, ["lanes", "-C", folder]) }
        Bench.report("slipway lanes (10 lane files)", Bench.ms(lanes), target: "≤ 30 ms")

        // Runner overhead: the same 50 shell processes, spawned directly and through a lane.
        let runner = LocalProcessRunner()
        let spec = ProcessSpec(executable: "/bin/sh", arguments: ["-e", "-c", "true"], environment: Environment.current.variables)
        let direct = try await Bench.median(runs: max(5, runs / 3)) {
            for _ in 0..<50 { _ = try await runner.run(spec) }
        }
        let workspace = LaneWorkspace(projectDirectory: folder, fileSystem: LocalFileSystem(), processRunner: runner,
                                      environment: Environment.current, stepServices: StepServices(httpClient: SystemHTTPClient()))
        let validated = try await workspace.validate("fifty")
        var options = LaneRunner.Options()
        options.writesJournal = true
        let viaLane = try await Bench.median(runs: max(5, runs / 3)) {
            let summary = try await LaneRunner(services: workspace.services).run(validated, options: options, reporters: [ConsoleReporter(output: BufferedOutput(), style: .plain)])
            guard summary.status == .succeeded else { throw BenchError("the 50-step lane failed") }
        }
        Bench.report("50 × sh -c true, spawned directly", Bench.ms(direct), target: "baseline")
        Bench.report("50 × run: 'true' through the lane runner", Bench.ms(viaLane), target: "—")
        Bench.report("runner overhead per step", Bench.ms((viaLane - direct) / 50), target: "≤ 5 ms")
        let whole = try await Bench.median(runs: max(5, runs / 3)) { try await Bench.run(slipway, ["run", "fifty", "-C", folder]) }
        Bench.report("whole process: slipway run (50 steps)", Bench.ms(whole), target: "—")

        print(try await Bench.run(CommandLine.arguments[0], ["lanes", "memory-child", slipway, folder]), terminator: "")
    }

    /// Runs in a fresh process so that the only large child is the `slipway run` measured.
    static func memoryChild(_ arguments: [String]) async throws {
        try await Bench.run(arguments[0], ["run", "fifty", "-C", arguments[1]])
        Bench.report("peak memory of slipway run (50 steps)", String(format: "%.1f MiB", Bench.peakChildMemoryMiB()), target: "≤ 40 MiB")
    }

    /// A project with 10 realistic lane files, one of them 50 steps long.
    static func makeProject() throws -> String {
        let folder = NSTemporaryDirectory() + "slipway-bench-\(UUID().uuidString)"
        try FileManager.default.createDirectory(atPath: folder + "/lanes", withIntermediateDirectories: true)
        for index in 1...9 {
            let lane = """
                description: Lane number \(index), with inputs, secrets and expressions
                inputs:
                  bump: { default: auto, choices: [auto, major, minor, patch], description: How to bump }
                  dry: { type: bool, default: false }
                secrets:
                  TOKEN_\(index): { description: Upload token, required: false }
                env:
                  TARGET: "release-${{ inputs.bump }}"
                steps:
                  - git.ensure-clean: { allow-untracked: true }
                  - swift.build: { configuration: release, product: app\(index) }
                    id: build
                  - swift.test: { filter: Tests\(index), parallel: true }
                    timeout: 20m
                    retry: { attempts: 2, delay: 5s }
                  - run: echo "${{ steps.build.outputs.bin-path }}" > out.txt
                    if: ${{ inputs.dry == false }}
                  - parallel:
                      - run: echo a
                      - run: echo b
                finally:
                  - run: echo done
                """
            try lane.write(toFile: folder + "/lanes/lane\(index).yml", atomically: true, encoding: .utf8)
        }
        let fifty = "description: Fifty trivial steps\nsteps:\n" + String(repeating: "  - run: 'true'\n", count: 50)
        try fifty.write(toFile: folder + "/lanes/fifty.yml", atomically: true, encoding: .utf8)
        return folder
    }
}
