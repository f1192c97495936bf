import Basics
import Foundation
import Networking
import Steps
import TestSupport
import TestThreads
import Testing

/// Runs the built-in steps for real: a real `swift test` on a tiny package, a real git repository.
@Suite(.dedicatedThreads) struct BuiltInStepTests {
    final class Collector: StepEventSink, @unchecked Sendable {
        let lock = NSLock()
        var lines: [String] = []
        func log(_ level: LogLevel, _ message: String) { lock.withLock { lines.append("\(level): \(message)") } }
        func progress(fraction: Double?, message: String) {}
        func processOutput(_ stream: ProcessStream, line: String) { lock.withLock { lines.append(line) } }
    }

    func context(_ directory: String, _ events: Collector = Collector()) -> StepContext {
        StepContext(laneName: "test", stepID: "step", workingDirectory: directory, environment: .current,
                    fileSystem: LocalFileSystem(), processRunner: LocalProcessRunner(), events: events,
                    services: StepServices(httpClient: SystemHTTPClient()))
    }

    @Test func swiftTestParsesARealRun() async throws {
        let folder = try TemporaryDirectory(prefix: "slipway-swifttest")
        try folder.write("Package.swift", """
            // swift-tools-version:6.0
            import PackageDescription
            let package = Package(name: "Tiny", targets: [.target(name: "Tiny"), .testTarget(name: "TinyTests", dependencies: ["Tiny"])])
            """)
        try folder.write("Sources/Tiny/Tiny.swift", "public func two() -> Int { 2 }\n")
        try folder.write("Tests/TinyTests/TinyTests.swift", """
            import Testing
            import Tiny
            @Test func passes() { #expect(two() == 2) }
            @Test func alsoPasses() { #expect(two() > 1) }
            @Test func fails() { #expect(two() == 3) }
            """)
        let step = try SwiftTestStep(options: StepOptions(["configuration": .string("debug")], for: SwiftTestStep.description))
        do {
            _ = try await step.run(in: context(folder.path))
            Issue.record("a failing test must fail the step")
        } catch let error as StepError {
            guard case .failed(let message) = error else { Issue.record("unexpected \(error)"); return }
            #expect(message.hasPrefix("1 test(s) failed:\n  fails(): TinyTests.swift:5:"), "\(message)")
            #expect(message.contains("Expectation failed: (two() → 2) == 3"))
        }
    }

    @Test func gitEnsureCleanListsDirtyFiles() async throws {
        let folder = try TemporaryDirectory(prefix: "slipway-clean")
        try folder.write("a.txt", "a")
        try Shell.run("git init -q -b main && git add a.txt && git -c user.name=T -c user.email=t@e commit -qm one", in: folder.path)
        let clean = try GitEnsureCleanStep(options: StepOptions([:], for: GitEnsureCleanStep.description))
        #expect(try await clean.run(in: context(folder.path)) == ["branch": "main"])
        try folder.write("a.txt", "changed")
        try folder.write("new.txt", "new")
        do {
            _ = try await clean.run(in: context(folder.path))
            Issue.record("expected a failure")
        } catch {
            #expect(errorText(error) == """
                the working tree has 2 uncommitted change(s):
                   M a.txt
                  ?? new.txt
                Commit or stash them first, or set allow-untracked: true if only untracked files remain.
                """)
        }
        let tolerant = try GitEnsureCleanStep(options: StepOptions(["allow-untracked": .bool(true)], for: GitEnsureCleanStep.description))
        await #expect(throws: StepError.self) { try await tolerant.run(in: context(folder.path)) }
        try Shell.run("git checkout -q a.txt", in: folder.path)
        #expect(try await tolerant.run(in: context(folder.path)) == ["branch": "main"])
    }

    @Test func gitEnsureCleanOutsideARepository() async throws {
        let folder = try TemporaryDirectory(prefix: "slipway-norepo")
        let step = try GitEnsureCleanStep(options: StepOptions([:], for: GitEnsureCleanStep.description))
        await #expect(throws: (any Error).self) { try await step.run(in: context(folder.path)) }
    }
}

/// Runs shell commands in tests.
enum Shell {
    static func run(_ command: String, in directory: String) throws {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/bin/sh")
        process.arguments = ["-c", command]
        process.currentDirectoryURL = URL(fileURLWithPath: directory)
        try process.run()
        process.waitUntilExit()
        guard process.terminationStatus == 0 else { throw CocoaError(.executableLoad, userInfo: ["command": command]) }
    }
}
