import Basics
import Foundation
import Testing
import TestSupport
import TestThreads

/// Every kind of bad lane input through the real binary: exit code 2, a message that names the
/// file and place, and nothing on disk changed (each lane would `touch ran` first if it ran).
@Suite(.dedicatedThreads) struct BadInputTests {
    struct Case: Sendable, CustomStringConvertible {
        var name: String
        var lane: String?
        var files: [String: String] = [:]
        var arguments: [String] = ["run", "bad"]
        var environment: [String: String?] = [:]
        var expected: String
        var description: String { name }
    }

    static let first = "steps:\n  - run: touch ran\n"
    static let cases: [Case] = [
        Case(name: "malformed YAML", lane: first + "  - run: \"unterminated\n", expected: "lanes/bad.yml:4:1: error: invalid YAML: found unexpected end of stream (while scanning a quoted scalar that starts at 3:10)."),
        Case(name: "a list", lane: "- run: touch ran\n", expected: "lanes/bad.yml:1:1: error: a lane file must be a mapping"),
        Case(name: "a scalar", lane: "touch ran\n", expected: "lanes/bad.yml:1:1: error: a lane file must be a mapping"),
        Case(name: "unknown top-level key", lane: first + "finaly: []\n", expected: "lanes/bad.yml:3:1: error: unknown key 'finaly' in lane file. Did you mean 'finally'?"),
        Case(name: "unknown step", lane: first + "  - swift.tests\n", expected: "lanes/bad.yml:3:5: error: unknown step 'swift.tests'. Did you mean 'swift.test'?"),
        Case(name: "option of the wrong type", lane: first + "  - swift.test: { parallel: 3 }\n", expected: "lanes/bad.yml:3:29: error: option 'parallel' expects true or false, but this is a number '3'"),
        Case(name: "undefined reference", lane: first + "  - run: echo ${{ inputs.nope }}\n", expected: "lanes/bad.yml:3:15: error: 'inputs.nope' refers to an undeclared input."),
        Case(name: "expression cycle", lane: "env:\n  A: ${{ env.B }}\n  B: ${{ env.A }}\n" + first, expected: "lanes/bad.yml:2:6: error: env variables refer to each other in a cycle: env.A → env.B → env.A"),
        Case(name: "self reference", lane: first + "  - run: echo ${{ steps.me.outputs.x }}\n    id: me\n", expected: "lanes/bad.yml:3:15: error: step 'me' refers to its own output 'x'"),
        Case(name: "missing secret", lane: "secrets: [SLIPWAY_BAD_INPUT_SECRET]\n" + first, environment: ["SLIPWAY_BAD_INPUT_SECRET": nil], expected: "error: secret(s) 'SLIPWAY_BAD_INPUT_SECRET' are not set in the environment."),
        Case(name: "unknown lane", lane: first, arguments: ["run", "bda"], expected: "error: there is no lane 'bda' in 'lanes'. Did you mean 'bad'? (available: bad)"),
        Case(name: "missing plugin", lane: first + "  - notify-slack: { channel: x }\n", expected: "lanes/bad.yml:3:5: error: unknown step 'notify-slack'."),
        Case(name: "plugin not executable", lane: first + "  - greet\n", files: [".slipway/bin/slipway-step-greet": "#!/bin/sh\n"], expected: "lanes/bad.yml:3:5: error: step 'greet': plugin '"),
        Case(name: "plugin with invalid JSON", lane: first + "  - greet\n", files: [".slipway/bin/slipway-step-greet": "#!/bin/sh\necho nonsense\n"], expected: "lanes/bad.yml:3:5: error: step 'greet': plugin 'slipway-step-greet' printed invalid JSON on stdout line 1: 'nonsense'"),
        Case(name: "plugin exiting non-zero when asked to describe itself", lane: first + "  - greet\n", files: [".slipway/bin/slipway-step-greet": "#!/bin/sh\necho oops >&2; exit 4\n"], expected: "lanes/bad.yml:3:5: error: step 'greet': plugin 'slipway-step-greet' exited with exit code 4 when asked to describe itself: oops"),
        Case(name: "lane directory missing", lane: nil, expected: "error: the lane directory 'lanes' does not exist."),
        Case(name: "missing required input", lane: "inputs:\n  product: { type: string }\n" + first, expected: "error: lane 'bad' needs input 'product': pass --input product=VALUE"),
    ]

    @Test(arguments: cases)
    func refusedWithExitCodeTwoAndNothingChanged(_ testCase: Case) throws {
        let folder = try TemporaryDirectory(prefix: "slipway-bad")
        if let lane = testCase.lane { try folder.write("lanes/bad.yml", lane) }
        for (path, text) in testCase.files {
            let full = try folder.write(path, text)
            if path.contains("slipway-step-") && text != "#!/bin/sh\n" { chmod(full, 0o755) }
        }
        let before = try Snapshot.of(folder.path)
        let result = try CommandResult.run(Binaries.slipway, testCase.arguments, in: folder.path, environment: testCase.environment)
        #expect(result.status == 2, "\(testCase.name): \(result.standardError)")
        #expect(result.standardError.contains(testCase.expected), "\(testCase.name): \(result.standardError)")
        #expect(try Snapshot.of(folder.path) == before, "\(testCase.name) changed the disk")
    }

    @Test func nonUTF8LaneFile() throws {
        let folder = try TemporaryDirectory(prefix: "slipway-bad")
        try FileManager.default.createDirectory(atPath: folder.path + "/lanes", withIntermediateDirectories: true)
        try Data(Array(Self.first.utf8) + [0x20, 0x20, 0x2D, 0x20, 0xFE, 0x0A]).write(to: URL(fileURLWithPath: folder.path + "/lanes/bad.yml"))
        let before = try Snapshot.of(folder.path)
        let result = try CommandResult.run(Binaries.slipway, ["run", "bad"], in: folder.path)
        #expect(result.status == 2)
        #expect(result.standardError.contains("lanes/bad.yml:3:5: error: the lane file is not valid UTF-8"))
        #expect(try Snapshot.of(folder.path) == before)
    }

    @Test func secretsNeverReachStdoutOrStderr() throws {
        let folder = try TemporaryDirectory(prefix: "slipway-secret")
        try folder.write("lanes/leak.yml", """
            secrets: [RELEASE_TOKEN]
            steps:
              - run: echo "out $RELEASE_TOKEN"; echo "err $RELEASE_TOKEN" >&2; echo "v=$RELEASE_TOKEN" >> "$SLIPWAY_OUTPUT"
                id: a
              - run: echo "${{ steps.a.outputs.v }}"; exit 1
            """)
        let secret = "tok-\(UUID().uuidString)"
        let result = try CommandResult.run(Binaries.slipway, ["run", "leak", "--events", "e.ndjson", "--junit", "j.xml"],
                                           in: folder.path, environment: ["RELEASE_TOKEN": secret, "GITHUB_ACTIONS": "true"])
        #expect(result.status == 1)
        #expect(result.standardOutput.contains("out ***"))
        #expect(result.standardOutput.contains("err ***"))
        #expect(!result.standardOutput.contains(secret))
        #expect(!result.standardError.contains(secret))
        for file in ["e.ndjson", "j.xml", ".slipway/runs/leak/latest.json"] {
            #expect(!(try String(contentsOfFile: folder.path + "/" + file, encoding: .utf8)).contains(secret), "\(file)")
        }
    }

    @Test(arguments: [SIGINT, SIGTERM])
    func signalsStopTheStepRunFinallyAndExit130(_ signal: Int32) async throws {
        let folder = try TemporaryDirectory(prefix: "slipway-signal")
        try folder.write("lanes/long.yml", """
            steps:
              - run: sleep 60 & echo $! > bg.pid; echo started > started; wait
            finally:
              - run: echo cleaned > cleaned
            """)
        let process = Process()
        process.executableURL = URL(fileURLWithPath: Binaries.slipway)
        process.arguments = ["run", "long"]
        process.currentDirectoryURL = URL(fileURLWithPath: folder.path)
        process.standardOutput = FileHandle.nullDevice
        try process.run()
        // The signal is sent from a thread of its own the moment the step has started (see
        // FileWatcher: an awaiting task could resume only after the step's 60 s).
        let pid = process.processIdentifier
        let sent = Locked("")
        FileWatcher.whenExists(folder.path + "/started") { appeared in
            let state = ProcessProbe.signalState(pid)
            let result = appeared ? kill(pid, signal) : -2
            sent.withLock { $0 = "kill returned \(result) (errno \(errno)); slipway's threads:\n\(state)" }
        }
        process.waitUntilExit()
        #expect(process.terminationStatus == 130, "\(sent.value)")
        #expect(FileManager.default.fileExists(atPath: folder.path + "/cleaned"))
        let background = try #require(Int32(String(contentsOfFile: folder.path + "/bg.pid", encoding: .utf8).trimmingCharacters(in: .whitespacesAndNewlines)))
        #expect(await ProcessState.hasExited(background), "the step's background process survived the signal")
    }

    @Test func repositoryLanesAndTemplatesAreValid() throws {
        for folder in [Corpus.repositoryRoot, Corpus.repositoryRoot + "/templates"] {
            let result = try CommandResult.run(Binaries.slipway, ["validate", "-C", folder, "--lanes", folder.hasSuffix("templates") ? "lanes" : "lanes"])
            #expect(result.status == 0, "\(folder): \(result.standardError)")
        }
    }
}

/// What /proc says of a process, to explain a lost signal.
enum ProcessProbe {
    /// Each thread's name, state and signal masks from /proc, to explain a lost signal.
    static func signalState(_ pid: Int32, threads: Bool = true) -> String {
        let tasks = threads ? ((try? FileManager.default.contentsOfDirectory(atPath: "/proc/\(pid)/task")) ?? []).sorted() : ["."]
        return tasks.map { task -> String in
            let base = threads ? "/proc/\(pid)/task/\(task)" : "/proc/\(pid)"
            let status = (try? String(contentsOfFile: base + "/status", encoding: .utf8)) ?? ""
            let wanted = ["Name", "State", "PPid", "SigQ", "SigPnd", "ShdPnd", "SigBlk", "SigIgn", "SigCgt"]
            let fields = status.split(separator: "\n").filter { line in wanted.contains { line.hasPrefix($0 + ":") } }
            let wchan = (try? String(contentsOfFile: base + "/wchan", encoding: .utf8)) ?? ""
            return "  \(task): " + fields.map { $0.replacingOccurrences(of: "\t", with: " ") }.joined(separator: "; ") + "; wchan \(wchan)"
        }.joined(separator: "\n")
    }

}
