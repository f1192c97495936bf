import Foundation
import Testing
import TestThreads

/// A static check over the package's own sources: nothing may block a thread of Swift
/// concurrency's cooperative pool (one per core: two on CI). A blocked pool delays every task,
/// the product's and the tests', and made tests that act "after a while" fail in full-suite runs.
///
/// - Product code (`Sources/`, but for the test helpers and the benchmark): a call that waits on
///   a process, the network or another thread must be marked `// off-pool: <why>` on its line or
///   the line above, saying which thread of its own it runs on. A new unmarked call fails here.
/// - Tests: every suite runs on threads of its own (`@Suite(.dedicatedThreads)`), so a test that
///   runs a process to its end or waits for a server blocks one of those, never the pool.
@Suite(.dedicatedThreads) struct BlockingCallsTests {
    /// Calls that wait: on a child (waitpid, Process), on time (sleep), on another thread
    /// (semaphores, conditions), on a descriptor (poll, whole-stream reads), on the network
    /// (libgit2's remote operations and the Git module's wrappers of them, libcurl's transfer).
    static let blockingCalls = [
        "waitUntilExit", "waitpid(", "DispatchSemaphore", ".wait()", "usleep(", "Thread.sleep", " sleep(",
        "readDataToEndOfFile", "poll(", "git_remote_push(", "git_remote_connect", "git_remote_fetch", "git_clone(",
        "ccurl_perform", ".push(remote:", ".listRemoteTags(", "GitRepository.clone(",
    ]
    /// Folders whose code never runs in the product: test helpers and the benchmark executable.
    static let exempt = ["Sources/TestSupport/", "Sources/TestThreads/", "Sources/slipway-bench/"]

    static var packageRoot: String {
        URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent().path
    }

    static func swiftFiles(under folder: String) throws -> [String] {
        let root = packageRoot + "/" + folder
        guard let walker = FileManager.default.enumerator(atPath: root) else { return [] }
        return walker.compactMap { $0 as? String }.filter { $0.hasSuffix(".swift") }.sorted().map { folder + "/" + $0 }
    }

    /// `file:line: call` for every blocking call in `text` without an `off-pool:` mark.
    static func unmarkedBlockingCalls(in text: String, file: String) -> [String] {
        let lines = text.components(separatedBy: "\n")
        var found: [String] = []
        for (index, line) in lines.enumerated() {
            let code = line.components(separatedBy: "//").first ?? ""
            guard let call = blockingCalls.first(where: { code.contains($0) }) else { continue }
            let marked = line.contains("// off-pool:") || (index > 0 && lines[index - 1].contains("// off-pool:"))
            if !marked { found.append("\(file):\(index + 1): \(call.trimmingCharacters(in: .whitespaces))") }
        }
        return found
    }

    @Test func productCodeMarksEveryBlockingCall() throws {
        var found: [String] = []
        for file in try Self.swiftFiles(under: "Sources") where !Self.exempt.contains(where: file.hasPrefix) {
            let text = try String(contentsOfFile: Self.packageRoot + "/" + file, encoding: .utf8)
            found += Self.unmarkedBlockingCalls(in: text, file: file)
        }
        #expect(found == [], """
            These calls wait on a thread of the cooperative pool. Run them on a thread of their own \
            (BlockingWork.run, or a Thread as SpawnedProcess does) and mark the line '// off-pool: <which thread>'.
            """)
    }

    @Test func theCheckFindsAnUnmarkedCall() {
        let source = """
            func f() async { process.waitUntilExit() }
            // off-pool: on the reaper thread
            func g() { waitpid(pid, &status, 0) }
            func h() { usleep(10) } // off-pool: a plain thread
            """
        #expect(Self.unmarkedBlockingCalls(in: source, file: "F.swift") == ["F.swift:1: waitUntilExit"])
    }

    @Test func everySuiteRunsOnDedicatedThreads() throws {
        var found: [String] = []
        for file in try Self.swiftFiles(under: "Tests") {
            let text = try String(contentsOfFile: Self.packageRoot + "/" + file, encoding: .utf8)
            found += Self.suitesOffDedicatedThreads(in: text, file: file)
        }
        #expect(found == [], "Add the .dedicatedThreads trait: @Suite(.dedicatedThreads)")
    }

    @Test func theSuiteCheckFindsASuiteWithoutTheTrait() {
        let source = """
            @Suite(.dedicatedThreads) struct Good {
                @Test func a() {}
            }
            struct Implicit {
                @Test func b() {}
            }
            @Suite("named") struct Named {
                @Test func c() {}
            }
            extension Good {
                @Test func d() {}
            }
            @Test func free() {}
            """
        #expect(Self.suitesOffDedicatedThreads(in: source, file: "T.swift") == [
            "T.swift:4: Implicit", "T.swift:7: Named", "T.swift:13: a test outside any suite",
        ])
    }

    /// Top-level types holding tests whose declaration lacks `@Suite(… .dedicatedThreads …)`,
    /// and tests declared outside any type. Extensions take their traits from the type.
    static func suitesOffDedicatedThreads(in text: String, file: String) -> [String] {
        let lines = text.components(separatedBy: "\n")
        var found: [String] = []
        var index = 0
        while index < lines.count {
            let line = lines[index]
            if line.hasPrefix("@Test") {
                found.append("\(file):\(index + 1): a test outside any suite")
            }
            let words = line.split(separator: " ")
            if let keyword = words.firstIndex(where: { ["struct", "class", "enum", "actor"].contains($0) }),
               !line.hasPrefix(" "), !line.hasPrefix("extension"), keyword + 1 < words.count {
                var end = index + 1
                while end < lines.count, !lines[end].hasPrefix("}") { end += 1 }
                let holdsTests = lines[index..<min(end, lines.count)].contains { $0.contains("@Test") }
                let attributes = line + " " + (index > 0 ? lines[index - 1] : "")
                if holdsTests, !(attributes.contains("@Suite") && attributes.contains(".dedicatedThreads")) {
                    let name = words[keyword + 1].prefix { $0.isLetter || $0.isNumber || $0 == "_" }
                    found.append("\(file):\(index + 1): \(name)")
                }
                index = end
            }
            index += 1
        }
        return found
    }
}
