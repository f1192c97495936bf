import Basics
import Foundation
import Testing
import TestSupport
import TestThreads

@Suite(.dedicatedThreads) struct ProcessRunnerTests {
    let runner = LocalProcessRunner(gracePeriod: .milliseconds(300))
    var environment: [String: String] { Environment.current.variables }

    @Test func capturesOutputExitCodeAndStandardInput() async throws {
        let spec = ProcessSpec(executable: "sh", arguments: ["-c", "cat; echo err >&2; exit 7"], environment: environment,
                               standardInput: Array("from stdin\n".utf8))
        let result = try await runner.run(spec)
        #expect(result.status == .exited(7))
        #expect(result.outputText == "from stdin\n")
        #expect(result.errorText == "err\n")
    }

    @Test func workingDirectoryAndEnvironment() async throws {
        let folder = try TemporaryDirectory()
        var env = environment
        env["SLIPWAY_PROBE"] = "probe value"
        let result = try await runner.run(ProcessSpec(executable: "sh", arguments: ["-c", "pwd; echo \"$SLIPWAY_PROBE\""],
                                                      environment: env, workingDirectory: folder.path))
        let real = URL(fileURLWithPath: folder.path).resolvingSymlinksInPath().path
        #expect(result.outputText == "\(real)\nprobe value\n")
    }

    /// The child prints its second line only once the handler has seen the first (the handler
    /// creates the file it waits for): no pause that a loaded machine could outlast.
    @Test func streamsOutputAsItArrives() async throws {
        let folder = try TemporaryDirectory()
        let chunks = Locked<[String]>([])
        let script = "echo one; while [ ! -e seen ]; do sleep 0.01; done; echo two"
        let spec = ProcessSpec(executable: "sh", arguments: ["-c", script], environment: environment, workingDirectory: folder.path)
        _ = try await runner.run(spec) { _, bytes in
            chunks.withLock { $0.append(String(decoding: bytes, as: UTF8.self)) }
            FileManager.default.createFile(atPath: folder.path + "/seen", contents: nil)
        }
        #expect(chunks.value == ["one\n", "two\n"])
    }

    @Test func missingExecutable() async throws {
        await #expect(throws: ProcessError.notFound(executable: "no-such-tool-slipway")) {
            try await runner.run(ProcessSpec(executable: "no-such-tool-slipway", environment: environment))
        }
    }

    @Test func signalledProcess() async throws {
        let result = try await runner.run(ProcessSpec(executable: "sh", arguments: ["-c", "kill -9 $$"], environment: environment))
        #expect(result.status == .signalled(9))
    }

    /// Everything this test times is observed from the watcher's own thread, which the kernel
    /// schedules: when the task was cancelled, and when the shell (which ignores SIGTERM) and its
    /// background child were gone. Nothing depends on when the test's task gets to resume.
    @Test func cancellationStopsTheWholeProcessGroup() async throws {
        let folder = try TemporaryDirectory()
        let script = "echo $$ > shell.pid; trap '' TERM; sleep 60 & echo $! > child.tmp && mv child.tmp child.pid; sleep 60"
        let spec = ProcessSpec(executable: "sh", arguments: ["-c", script], environment: environment, workingDirectory: folder.path)
        let task = Task { try await runner.run(spec) }
        let observed: (endedAfter: Duration, allGone: Bool)? = await withCheckedContinuation { continuation in
            FileWatcher.whenExists(folder.path + "/child.pid") { appeared in
                guard appeared, let shell = Self.pid(in: folder.path + "/shell.pid"), let child = Self.pid(in: folder.path + "/child.pid")
                else { return continuation.resume(returning: nil) }
                let cancelled = ContinuousClock.now
                task.cancel()
                let deadline = cancelled + .seconds(120)
                while (Self.isRunning(shell) || Self.isRunning(child)) && ContinuousClock.now < deadline { usleep(5_000) }
                continuation.resume(returning: (ContinuousClock.now - cancelled, !Self.isRunning(shell) && !Self.isRunning(child)))
            }
        }
        await #expect(throws: CancellationError.self) { try await task.value }
        let result = try #require(observed, "the script never wrote its pid files")
        #expect(result.allGone, "the shell or its background child survived SIGKILL")
        #expect(result.endedAfter < .seconds(30), "SIGKILL follows SIGTERM after the grace period (0.3 s), not the 60 s sleep")
    }

    static func pid(in file: String) -> pid_t? {
        (try? String(contentsOfFile: file, encoding: .utf8)).flatMap { pid_t($0.trimmingCharacters(in: .whitespacesAndNewlines)) }
    }

    /// False once the process has exited (a zombie waiting to be reaped counts as exited).
    static func isRunning(_ pid: pid_t) -> Bool {
        guard let stat = try? String(contentsOfFile: "/proc/\(pid)/stat", encoding: .utf8) else { return false }
        return !stat.contains(") Z ")
    }
}

@Suite(.dedicatedThreads) struct RedactorTests {
    @Test func masksEverySecretLongestFirst() {
        let redactor = Redactor(secrets: ["abc123", "abc123-extended", "xy"])
        #expect(redactor.redact("a abc123-extended b abc123 xy") == "a *** b *** xy")
    }

    @Test func multiLineSecretsAreMaskedPerLine() {
        let redactor = Redactor(secrets: ["-----BEGIN KEY-----\nline-two-secret\n-----END KEY-----"])
        #expect(redactor.redact("got line-two-secret here") == "got *** here")
    }

    @Test func lineBufferJoinsSplitReads() {
        var buffer = LineBuffer()
        #expect(buffer.append(Array("tok".utf8)) == [])
        #expect(buffer.append(Array("en\r\nnext\n".utf8)) == ["token", "next"])
        #expect(buffer.append(Array("tail".utf8)) == [])
        #expect(buffer.finish() == "tail")
    }
}

@Suite(.dedicatedThreads) struct FileSystemTests {
    let fs = LocalFileSystem()

    @Test func atomicWriteKeepsPermissionsAndLeavesNoTemporaries() throws {
        let folder = try TemporaryDirectory()
        let path = folder.path + "/script.sh"
        try fs.writeAtomically("one", to: path)
        chmod(path, 0o755)
        try fs.writeAtomically("two", to: path)
        #expect(try fs.readText(path) == "two")
        #expect(fs.isExecutable(path))
        #expect(try fs.contents(ofDirectory: folder.path) == ["script.sh"])
    }

    @Test func errorsNameThePath() throws {
        let folder = try TemporaryDirectory()
        #expect(throws: FileSystemError.notFound(path: folder.path + "/absent")) { try fs.read(folder.path + "/absent") }
        try Data([0x61, 0x0A, 0x62, 0xC3, 0x28]).write(to: URL(fileURLWithPath: folder.path + "/bad"))
        do {
            _ = try fs.readText(folder.path + "/bad")
            Issue.record("expected an error")
        } catch {
            #expect(errorText(error) == "\(folder.path)/bad:2:2: the file is not valid UTF-8. Save it as UTF-8 and try again.")
        }
        chmod(folder.path, 0o500)
        defer { chmod(folder.path, 0o700) }
        if getuid() != 0 {
            #expect(throws: FileSystemError.self) { try fs.writeAtomically("x", to: folder.path + "/new") }
        }
    }
}
