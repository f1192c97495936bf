import Basics
import Foundation
import Pins

/// Issue #5's figures: `slipway tools verify` over 20 installed tools of 20–50 MB, cold (verify
/// cache removed) and warm, and `slipway deps verify` on a project with all four lockfiles.
enum PinsBenchmark {
    static func run(_ arguments: [String]) async throws {
        let slipway = Bench.slipwayBinary(arguments)
        let runs = arguments.firstIndex(of: "--runs").flatMap { Int(arguments[$0 + 1]) } ?? 21
        guard FileManager.default.isExecutableFile(atPath: slipway) else {
            throw BenchError("no slipway binary at \(slipway); build with '\(Bench.buildCommand)' or pass --slipway PATH")
        }
        let root = NSTemporaryDirectory() + "slipway-bench-pins-\(UUID().uuidString)"
        let keep = arguments.contains("--keep")
        defer { if !keep { try? FileManager.default.removeItem(atPath: root) } else { print("kept \(root)") } }
        let environment = Environment.current.merging(["SLIPWAY_CACHE_DIR": root + "/cache", "NO_COLOR": "1"])
        print("slipway-bench pins — medians of \(runs) runs, binary \(slipway)")

        let project = root + "/project"
        let megabytes = try makeToolProject(at: project, served: root + "/served")
        let server = try startServer(serving: root + "/served")
        // SIGKILL: the server inherits a signal mask in which SIGTERM may be blocked.
        defer { kill(server.processIdentifier, SIGKILL) }
        try writeToolfile(project: project, port: try serverPort(server))
        try await runChecked(slipway, ["tools", "lock", "-C", project], environment)
        try await runChecked(slipway, ["tools", "install", "-C", project], environment)
        print("20 tools installed, \(megabytes) MB of executables")

        let verifyCache = root + "/cache/tools/verify-cache.json"
        let verify = ["tools", "verify", "-C", project]
        print("cold: the verify cache is removed before each run; the page cache is warm (the executables were just read)")
        let cold = try await medians(runs: max(5, runs / 2), before: { try? FileManager.default.removeItem(atPath: verifyCache) }) {
            try await runChecked(slipway, verify, environment)
        }
        report("tools verify, 20 tools, cold (no verify cache)", cold, target: "≤ 250 ms")
        try await runChecked(slipway, verify, environment)
        let warm = try await medians(runs: runs) { try await runChecked(slipway, verify, environment) }
        report("tools verify, 20 tools, nothing changed", warm, target: "≤ 30 ms")

        let depsProject = root + "/deps"
        try DepsBenchmarkProject.write(to: depsProject)
        try await runChecked(slipway, ["deps", "verify", "-C", depsProject], environment)
        let deps = try await medians(runs: runs) { try await runChecked(slipway, ["deps", "verify", "-C", depsProject], environment) }
        report("deps verify, all four lockfiles", deps, target: "≤ 50 ms")

        try await breakdown(slipway: slipway, cacheRoot: root + "/cache/tools", runs: runs, environment: environment)
    }

    /// What a cold verify is made of, each part measured alone: starting the process, hashing
    /// the executables (in this process, the same code as verify), and the version commands.
    static func breakdown(slipway: String, cacheRoot: String, runs: Int, environment: Environment) async throws {
        print("cold verify, part by part (each measured alone):")
        let startUp = try await medians(runs: runs) { try await runChecked(slipway, ["--version"], environment) }
        report("  process start-up (slipway --version)", startUp, target: nil)

        let cache = ToolsCache(root: cacheRoot)
        let executables = (1...20).map { index in
            cache.installDirectory(tool: "tool\(index)", version: SemanticVersion("1.\(index).0")!, platform: .current)
                + "/bin/tool\(index)"
        }
        let files = LocalToolFiles(fileSystem: LocalFileSystem())
        let bySize = executables.sorted { (files.identity(of: $0)?.size ?? 0) > (files.identity(of: $1)?.size ?? 0) }
        let megabytes = Double(executables.reduce(0) { $0 + (files.identity(of: $1)?.size ?? 0) }) / 1_048_576
        let threads = ProcessInfo.processInfo.activeProcessorCount
        let parallel = try await medians(runs: max(5, runs / 2)) {
            guard await files.sha256(ofFiles: bySize).allSatisfy({ $0 != nil }) else { throw BenchError("an executable was unreadable") }
        }
        report("  hashing \(Int(megabytes)) MB, \(threads) threads", parallel, target: nil)
        let single = try await medians(runs: 3) { for path in bySize { _ = try files.sha256(ofFile: path) } }
        report("  hashing \(Int(megabytes)) MB, 1 thread", single, target: nil,
               note: String(format: ", %.2f GB/s", megabytes / 1024 / single.wall))

        let runner = LocalProcessRunner()
        let probes = try await medians(runs: runs) {
            try await withThrowingTaskGroup(of: Void.self) { group in
                for path in executables {
                    group.addTask { _ = try await runner.run(ProcessSpec(executable: path, arguments: ["--version"], environment: environment.variables)) }
                }
                try await group.waitForAll()
            }
        }
        report("  20 version commands at once", probes, target: nil)
    }

    /// Medians of wall time and of CPU time (this process's and its children's, user + system:
    /// unlike wall time, it hardly changes when other work shares the cores).
    struct Medians {
        var wall: Double
        var cpu: Double
    }

    /// One line: the name, the median wall time, the target, and the median CPU time.
    static func report(_ name: String, _ value: Medians, target: String?, note: String = "") {
        print("\(name.padding(toLength: 48, withPad: " ", startingAt: 0)) \(Bench.ms(value.wall).padding(toLength: 10, withPad: " ", startingAt: 0))"
              + (target.map { " (target \($0))" } ?? "").padding(toLength: 18, withPad: " ", startingAt: 0) + String(format: " CPU %4.0f ms", value.cpu * 1000) + note)
    }

    /// Times `body` over `runs` runs after one warm-up; `before` runs untimed before each.
    static func medians(runs: Int, before: () -> Void = {}, _ body: () async throws -> Void) async throws -> Medians {
        before()
        try await body()
        var walls: [Double] = [], cpus: [Double] = []
        for _ in 0..<runs {
            before()
            let cpu = cpuSeconds(), start = ContinuousClock.now
            try await body()
            walls.append(Bench.seconds(ContinuousClock.now - start))
            cpus.append(cpuSeconds() - cpu)
        }
        return Medians(wall: walls.sorted()[runs / 2], cpu: cpus.sorted()[runs / 2])
    }

    /// User + system CPU seconds of this process and its reaped children.
    static func cpuSeconds() -> Double {
        func seconds(_ time: timeval) -> Double { Double(time.tv_sec) + Double(time.tv_usec) / 1e6 }
        var own = rusage(), children = rusage()
        #if canImport(Glibc)
        getrusage(__rusage_who_t(RUSAGE_SELF.rawValue), &own)
        getrusage(__rusage_who_t(RUSAGE_CHILDREN.rawValue), &children)
        #else
        getrusage(RUSAGE_SELF, &own)
        getrusage(RUSAGE_CHILDREN, &children)
        #endif
        return seconds(own.ru_utime) + seconds(own.ru_stime) + seconds(children.ru_utime) + seconds(children.ru_stime)
    }

    /// Runs a process with `environment`; fails when it exits non-zero.
    static func runChecked(_ executable: String, _ arguments: [String], _ environment: Environment) async throws {
        let result = try await LocalProcessRunner().run(ProcessSpec(executable: executable, arguments: arguments,
                                                                    environment: environment.variables))
        guard result.status.isSuccess else {
            throw BenchError("'\(arguments.joined(separator: " "))' failed with \(result.status): \(result.outputText.suffix(300)) \(result.errorText.suffix(500))")
        }
    }

    /// 20 zip archives (stored, not compressed: the contents are random) of executables of
    /// 20–50 MB: a shell script that prints its version and exits, padded with random bytes
    /// it never reads. Returns the executables' total size in MB.
    static func makeToolProject(at project: String, served: String) throws -> Int {
        let manager = FileManager.default
        try manager.createDirectory(atPath: project, withIntermediateDirectories: true)
        try manager.createDirectory(atPath: served, withIntermediateDirectories: true)
        var generator = SystemRandomNumberGenerator()
        var total = 0
        for index in 1...20 {
            let staging = served + "/staging-\(index)"
            try manager.createDirectory(atPath: staging + "/bin", withIntermediateDirectories: true)
            let size = (20 + (index * 37) % 31) << 20
            var bytes = Array("#!/bin/sh\necho \"tool\(index) version 1.\(index).0\"\nexit 0\n".utf8)
            bytes.reserveCapacity(size)
            while bytes.count < size {
                let word = generator.next() as UInt64
                withUnsafeBytes(of: word) { bytes.append(contentsOf: $0) }
            }
            let executable = staging + "/bin/tool\(index)"
            try Data(bytes).write(to: URL(fileURLWithPath: executable))
            try manager.setAttributes([.posixPermissions: 0o755], ofItemAtPath: executable)
            let platform = ToolPlatform.current
            let zip = Process()
            zip.executableURL = URL(fileURLWithPath: "/usr/bin/env")
            zip.arguments = ["zip", "-q", "-0", "-r", "\(served)/tool\(index)-1.\(index).0-\(platform.os)-\(platform.arch).zip", "bin"]
            zip.currentDirectoryURL = URL(fileURLWithPath: staging)
            try zip.run()
            zip.waitUntilExit()
            guard zip.terminationStatus == 0 else { throw BenchError("zip failed for tool \(index)") }
            try manager.removeItem(atPath: staging)
            total += size >> 20
        }
        return total
    }

    static func writeToolfile(project: String, port: Int) throws {
        var text = "tools:\n"
        for index in 1...20 {
            text += """
                  tool\(index):
                    archive: http://127.0.0.1:\(port)/tool\(index)-{version}-{os}-{arch}.zip
                    executable: bin/tool\(index)
                    platforms: [\(ToolPlatform.current)]
                    version: 1.\(index).0

                """
        }
        try text.write(toFile: project + "/Toolfile", atomically: true, encoding: .utf8)
    }

    static func startServer(serving folder: String) throws -> Process {
        let server = Process()
        server.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        server.arguments = ["python3", "-u", "-m", "http.server", "--bind", "127.0.0.1", "--directory", folder, "0"]
        server.standardOutput = Pipe()
        server.standardError = FileHandle.nullDevice
        try server.run()
        return server
    }

    static func serverPort(_ server: Process) throws -> Int {
        guard let pipe = server.standardOutput as? Pipe else { throw BenchError("no server output") }
        var text = ""
        while !text.contains(") ...") && !text.contains(")\n") {
            let chunk = pipe.fileHandleForReading.availableData
            if chunk.isEmpty { break }
            text += String(decoding: chunk, as: UTF8.self)
        }
        guard let range = text.range(of: " port "), let port = Int(text[range.upperBound...].prefix { $0.isNumber }) else {
            throw BenchError("python3 -m http.server did not start: \(text)")
        }
        usleep(200_000)
        return port
    }
}
