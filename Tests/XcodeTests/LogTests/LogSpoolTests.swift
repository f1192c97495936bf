import Basics
import Foundation
import Testing
import TestReports
import TestSupport
import TestThreads
@testable import Xcode

/// The test cases spilled to temporary files (`JUnitCaseSpool`, what `slipway xcode log` uses so
/// that its memory stays flat) give the same summary and byte for byte the same JUnit report as
/// the cases kept in memory, on every fixture log; the command leaves no temporary file behind.
@Suite(.dedicatedThreads) struct LogSpoolTests {
    /// Every fixture log: (folder, file name).
    static func fixtures() throws -> [(String, String)] {
        try [LogFixtures.directory, LogFixtures.realLogs].flatMap { folder in
            try FileManager.default.contentsOfDirectory(atPath: folder).filter { $0.hasSuffix(".log") }.sorted().map { (folder, $0) }
        }
    }

    /// The summary of `events` in memory and with a spool in `folder`.
    static func summaries(_ events: [XcodeLogEvent], spoolIn folder: String) throws -> (memory: XcodeLogSummary, spooled: XcodeLogSummary) {
        var memory = XcodeLogSummary()
        var spooled = XcodeLogSummary(spool: try JUnitCaseSpool(directory: folder))
        for event in events {
            memory.add(event)
            spooled.add(event)
        }
        return (memory, spooled)
    }

    static func expectSame(_ memory: XcodeLogSummary, _ spooled: XcodeLogSummary, in folder: String, _ name: String) throws {
        #expect(spooled.testCases == memory.testCases, "\(name)")
        #expect(spooled.testCount == memory.testCases.count, "\(name)")
        let spooledCounts: [Int] = [spooled.testsPassed, spooled.testsFailed, spooled.testsSkipped, spooled.testsFlaky]
        let memoryCounts: [Int] = [memory.testsPassed, memory.testsFailed, memory.testsSkipped, memory.testsFlaky]
        #expect(spooledCounts == memoryCounts, "\(name)")
        #expect(spooled.totalsMismatches == memory.totalsMismatches, "\(name)")
        #expect(spooled.failed == memory.failed, "\(name)")
        #expect(spooled.spoolFailure == nil)
        try spooled.writeJUnit(name: "xcodebuild", to: folder + "/spooled.xml", fileSystem: LocalFileSystem())
        try memory.writeJUnit(name: "xcodebuild", to: folder + "/memory.xml", fileSystem: LocalFileSystem())
        let spooledReport = try Data(contentsOf: URL(fileURLWithPath: folder + "/spooled.xml"))
        let memoryReport = try Data(contentsOf: URL(fileURLWithPath: folder + "/memory.xml"))
        #expect(spooledReport == memoryReport, "\(name)")
        #expect(spooledReport == Data(JUnitXML.render(memory.testCases, name: "xcodebuild").utf8), "\(name)")
    }

    @Test func spooledSummaryAndJUnitAreTheSameOnEveryFixture() throws {
        let folder = try TemporaryDirectory(prefix: "slipway-junit-spool")
        let fixtures = try Self.fixtures()
        #expect(fixtures.count >= 15)
        var tests = 0
        for (directory, name) in fixtures {
            let (memory, spooled) = try Self.summaries(try LogFixtures.events(name, in: directory, chunkSize: 4096), spoolIn: folder.path)
            tests += memory.testCases.count
            try Self.expectSame(memory, spooled, in: folder.path, name)
        }
        #expect(tests > 100, "the fixtures have tests to compare")
        // The spool's files are unlinked when made: only the two reports are left.
        #expect(try FileManager.default.contentsOfDirectory(atPath: folder.path).sorted() == ["memory.xml", "spooled.xml"])
    }

    /// A repetition announced after more tests than the summary remembers by name is folded into
    /// the first run, read back from the spool: failed then passed is one flaky case.
    @Test func repetitionLongAfterTheFirstRunFoldsFromTheSpool() throws {
        let folder = try TemporaryDirectory(prefix: "slipway-junit-spool-repeat")
        var log = "Test Suite 'All tests' started at 2025-01-20 10:00:00.000.\n"
        log += "Test Case '-[AppTests.Flaky testOnce]' started.\n"
        log += "/App/Tests/Flaky.swift:7: error: -[AppTests.Flaky testOnce] : XCTAssertTrue failed\n"
        log += "Test Case '-[AppTests.Flaky testOnce]' failed (0.010 seconds).\n"
        for index in 0..<(XcodeLogSummary.recentCapacity + 10) {
            log += "Test Case '-[AppTests.Many test\(index)]' started.\nTest Case '-[AppTests.Many test\(index)]' passed (0.001 seconds).\n"
        }
        log += "Test Case '-[AppTests.Flaky testOnce]' started (Iteration 2 of 2).\n"
        log += "Test Case '-[AppTests.Flaky testOnce]' passed (0.020 seconds).\n"
        let (memory, spooled) = try Self.summaries(try LogFixtures.events(ofText: log, chunkSize: 4096), spoolIn: folder.path)
        #expect(spooled.testsFlaky == 1 && spooled.testsFailed == 0)
        #expect(spooled.testCount == XcodeLogSummary.recentCapacity + 11)
        try Self.expectSame(memory, spooled, in: folder.path, "repetition")
    }

    /// Through the binary: `slipway xcode log FILE --junit report.xml` writes what the in-memory
    /// summary renders, for every fixture, and leaves nothing in TMPDIR.
    @Test func theCommandWritesTheSameJUnitOnEveryFixture() throws {
        let folder = try TemporaryDirectory(prefix: "slipway-junit-spool-cli")
        let temporary = folder.path + "/tmp"
        try FileManager.default.createDirectory(atPath: temporary, withIntermediateDirectories: true)
        for (directory, name) in try Self.fixtures() {
            let result = try CommandResult.run(Binaries.slipway, ["xcode", "log", directory + "/" + name, "--quiet", "--junit", "report.xml"],
                                               in: folder.path, environment: ["TMPDIR": temporary, "GITHUB_ACTIONS": nil, "NO_COLOR": "1"])
            #expect(result.status == 0 || result.status == 1, "\(name): \(result.standardError)")
            var memory = XcodeLogSummary()
            for event in try LogFixtures.events(name, in: directory, chunkSize: 4096) { memory.add(event) }
            let report = try String(contentsOfFile: folder.path + "/report.xml", encoding: .utf8)
            #expect(report == JUnitXML.render(memory.testCases, name: "xcodebuild"), "\(name)")
            #expect(try FileManager.default.contentsOfDirectory(atPath: temporary).isEmpty, "\(name) left files in TMPDIR")
        }
        #expect(try FileManager.default.contentsOfDirectory(atPath: folder.path).sorted() == ["report.xml", "tmp"])
    }

    /// A TMPDIR where no file can be made: exit 2, the folder named, no report written.
    @Test func anUnusableTemporaryFolderIsRefused() throws {
        let folder = try TemporaryDirectory(prefix: "slipway-junit-spool-tmpdir")
        let missing = folder.path + "/missing"
        let before = try Snapshot.of(folder.path)
        let result = try CommandResult.run(Binaries.slipway, ["xcode", "log", LogFixtures.directory + "/xctest.log", "--junit", "report.xml"],
                                           in: folder.path, environment: ["TMPDIR": missing, "GITHUB_ACTIONS": nil, "NO_COLOR": "1"])
        #expect(result.status == 2)
        #expect(result.standardError == "error: cannot make a temporary file for the test results in '\(missing)': "
            + "No such file or directory. Set TMPDIR to a writable folder.\n")
        #expect(result.standardOutput == "")
        #expect(try Snapshot.of(folder.path) == before)
    }
}
