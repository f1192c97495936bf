import Basics
import Foundation
import Testing
import TestSupport

@Suite struct ProcessRunnerTests {
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

    @Test func streamsOutputAsItArrives() async throws {
        let chunks = LockedBox<[String]>([])
        let spec = ProcessSpec(executable: "sh", arguments: ["-c", "echo one; sleep 0.2; echo two"], environment: environment)
        _ = try await runner.run(spec) { _, bytes in chunks.mutate { $0.append(String(decoding: bytes, as: UTF8.self)) } }
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

    @Test func cancellationStopsTheWholeProcessGroup() async throws {
        let folder = try TemporaryDirectory()
        let spec = ProcessSpec(executable: "sh", arguments: ["-c", "sleep 60 & echo $! > child.pid; trap '' TERM; sleep 60"],
                               environment: environment, workingDirectory: folder.path)
        let task = Task { try await runner.run(spec) }
        let cancelled = LockedBox<ContinuousClock.Instant?>(nil)
        FileWatcher.whenExists(folder.path + "/child.pid") { _ in
            usleep(50_000)  // let the shell reach its trap
            cancelled.value = ContinuousClock.now
            task.cancel()
        }
        await #expect(throws: CancellationError.self) { try await task.value }
        let started = try #require(cancelled.value)
        #expect(ContinuousClock.now - started < .seconds(30), "SIGKILL follows SIGTERM after the grace period")
        let pid = try #require(Int32(String(contentsOfFile: folder.path + "/child.pid", encoding: .utf8).trimmingCharacters(in: .whitespacesAndNewlines)))
        var gone = false
        for _ in 0..<50 {
            let stat = try? String(contentsOfFile: "/proc/\(pid)/stat", encoding: .utf8)
            if stat == nil || stat!.contains(") Z ") { gone = true; break }
            try await Task.sleep(for: .milliseconds(100))
        }
        #expect(gone, "the grandchild survived")
    }
}

@Suite struct RedactorTests {
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

@Suite struct FileSystemTests {
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
