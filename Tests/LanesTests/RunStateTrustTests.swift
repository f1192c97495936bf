import Basics
import Foundation
import Lanes
import Testing
import TestSupport
import TestThreads

/// Issue 23: `.slipway/runs/` and `.slipway/ci/` are checkout content. A committed run journal
/// must not let `--resume` skip steps, a committed hand-over record must not stand in for an
/// earlier job, and a symbolic link there must not carry Slipway's writes outside the project.
@Suite("Run journals and hand-over records from the checkout", .dedicatedThreads)
struct RunStateTrustTests {
    static let lane = """
        steps:
          - run: echo checked >> log
            id: check
          - run: echo shipped >> log
            id: ship
        """

    /// A journal in which `check` succeeded, as a real run of this lane writes it, taken from
    /// another checkout (signed there with another user's key).
    static func journalFromElsewhere() async throws -> Data {
        let elsewhere = try LaneFixture(["l": lane])
        try elsewhere.write("lanes/l.yml", lane.replacingOccurrences(of: "echo shipped", with: "false"))
        _ = try await elsewhere.run("l")
        return try Data(contentsOf: URL(fileURLWithPath: elsewhere.path + "/.slipway/runs/l/latest.json"))
    }

    @Test("a run journal committed to the branch does not make --resume skip a step")
    func committedJournalDoesNotSkipSteps() async throws {
        let fixture = try OnlyRunSupport.origin(Self.lane)
        try FileManager.default.createDirectory(atPath: fixture.path + "/.slipway/runs/l", withIntermediateDirectories: true)
        try await Self.journalFromElsewhere().write(to: URL(fileURLWithPath: fixture.path + "/.slipway/runs/l/latest.json"))
        try OnlyRunSupport.git(fixture, "add", "-f", ".slipway/runs/l/latest.json")
        try OnlyRunSupport.git(fixture, "commit", "--quiet", "-m", "a journal claiming the check passed")
        let before = try fixture.snapshot()
        let error = LaneRunError.untrustedJournal(file: ".slipway/runs/l/latest.json", reason: "git tracks it, so it came with the checkout")
        await #expect(throws: error) { _ = try await fixture.run("l") { $0.resume = true } }
        #expect(error.errorDescription == "the run journal '.slipway/runs/l/latest.json' was not used: git tracks it, so it came with the checkout. It may be hostile (a journal committed to the branch could skip steps); nothing ran. Delete it (and remove it from git if it is committed), then run the lane without --resume or --from.")
        await #expect(throws: error) { _ = try await fixture.run("l") { $0.fromStep = "ship" } }
        #expect(try fixture.snapshot() == before, "nothing ran, nothing was written")
    }

    @Test("end to end: `slipway run l --resume` in a checkout with a committed journal runs nothing and says why (binary)")
    func committedJournalBinary() async throws {
        let fixture = try OnlyRunSupport.origin(Self.lane)
        try FileManager.default.createDirectory(atPath: fixture.path + "/.slipway/runs/l", withIntermediateDirectories: true)
        try await Self.journalFromElsewhere().write(to: URL(fileURLWithPath: fixture.path + "/.slipway/runs/l/latest.json"))
        try OnlyRunSupport.git(fixture, "add", "-f", ".slipway/runs/l/latest.json")
        try OnlyRunSupport.git(fixture, "commit", "--quiet", "-m", "a journal claiming the check passed")
        let before = try fixture.snapshot()
        let result = try CommandResult.run(
            Binaries.slipway, ["run", "l", "--resume"], in: fixture.path, environment: ["XDG_STATE_HOME": fixture.stateHome.path])
        #expect(result.status == 2, "\(result.standardOutput)\(result.standardError)")
        let error = LaneRunError.untrustedJournal(file: ".slipway/runs/l/latest.json", reason: "git tracks it, so it came with the checkout")
        #expect(result.standardError == "error: \(error.errorDescription ?? "")\n")
        #expect(try fixture.snapshot() == before, "no step ran (no 'log'), nothing was written")
    }

    @Test("a run journal copied from elsewhere (or hand-made) is refused by --resume outside git too")
    func copiedJournalIsRefused() async throws {
        let fixture = try LaneFixture(["l": Self.lane])
        try FileManager.default.createDirectory(atPath: fixture.path + "/.slipway/runs/l", withIntermediateDirectories: true)
        try await Self.journalFromElsewhere().write(to: URL(fileURLWithPath: fixture.path + "/.slipway/runs/l/latest.json"))
        let before = try fixture.snapshot()
        let error = LaneRunError.untrustedJournal(file: ".slipway/runs/l/latest.json", reason: "it is not signed by this user's Slipway for this project")
        await #expect(throws: error) { _ = try await fixture.run("l") { $0.resume = true } }
        #expect(try fixture.snapshot() == before)
    }

    @Test("--resume still continues this machine's own failed run")
    func ownJournalIsResumed() async throws {
        let fixture = try LaneFixture(["l": Self.lane.replacingOccurrences(of: "echo shipped >> log", with: "test -e fixed && echo shipped >> log")])
        let first = try await fixture.run("l")
        #expect(first.summary.status == .failed)
        try fixture.write("fixed", "")
        let resumed = try await fixture.run("l") { $0.resume = true }
        #expect(resumed.summary.steps.map(\.status) == [.reused, .succeeded])
    }

    @Test("a journal that is a symbolic link, or oversized, is refused")
    func linkedOrHugeJournal() async throws {
        let fixture = try LaneFixture(["l": Self.lane])
        let outside = try TemporaryDirectory(prefix: "runs-victim")
        let elsewhere = outside.path + "/latest.json"
        try await Self.journalFromElsewhere().write(to: URL(fileURLWithPath: elsewhere))
        let folder = fixture.path + "/.slipway/runs/l"
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        try FileManager.default.createSymbolicLink(atPath: folder + "/latest.json", withDestinationPath: elsewhere)
        await #expect(throws: LaneRunError.untrustedJournal(file: ".slipway/runs/l/latest.json", reason: "'\(folder)/latest.json' is a symbolic link")) {
            _ = try await fixture.run("l") { $0.resume = true }
        }
        try FileManager.default.removeItem(atPath: folder + "/latest.json")
        // 17 MiB of spaces: larger than any journal, refused without being read whole.
        _ = FileManager.default.createFile(atPath: folder + "/latest.json", contents: nil)
        let handle = try FileHandle(forWritingTo: URL(fileURLWithPath: folder + "/latest.json"))
        try handle.truncate(atOffset: 17 << 20)
        try handle.close()
        await #expect(throws: LaneRunError.untrustedJournal(file: ".slipway/runs/l/latest.json", reason: "'\(folder)/latest.json' is larger than \(16 << 20) bytes")) {
            _ = try await fixture.run("l") { $0.resume = true }
        }
        #expect(!FileManager.default.fileExists(atPath: fixture.path + "/log"), "nothing ran")
    }

    @Test("a committed .slipway/runs/LANE link does not carry the run's journal and lock outside the project")
    func linkedRunsFolder() async throws {
        let fixture = try LaneFixture(["l": Self.lane])
        let outside = try TemporaryDirectory(prefix: "runs-elsewhere")
        try FileManager.default.createDirectory(atPath: fixture.path + "/.slipway/runs", withIntermediateDirectories: true)
        try FileManager.default.createSymbolicLink(atPath: fixture.path + "/.slipway/runs/l", withDestinationPath: outside.path)
        await #expect(throws: StateFileError.symbolicLink(path: fixture.path + "/.slipway/runs/l")) { _ = try await fixture.run("l") }
        #expect(try FileManager.default.contentsOfDirectory(atPath: outside.path).isEmpty, "nothing was written outside")
        #expect(!FileManager.default.fileExists(atPath: fixture.path + "/log"), "nothing ran")
        // The same through `.slipway` itself.
        try FileManager.default.removeItem(atPath: fixture.path + "/.slipway")
        try FileManager.default.createSymbolicLink(atPath: fixture.path + "/.slipway", withDestinationPath: outside.path)
        await #expect(throws: StateFileError.symbolicLink(path: fixture.path + "/.slipway")) { _ = try await fixture.run("l") }
        #expect(try FileManager.default.contentsOfDirectory(atPath: outside.path).isEmpty, "nothing was written outside")
    }

    @Test("a committed .slipway/runs/LANE/.slipway-lock link is not truncated through")
    func linkedRunLock() async throws {
        let fixture = try LaneFixture(["l": Self.lane])
        let outside = try TemporaryDirectory(prefix: "runs-victim")
        let victim = try outside.write("victim.txt", "precious\n")
        let lock = fixture.path + "/.slipway/runs/l/" + ExclusiveLock.fileName
        try FileManager.default.createDirectory(atPath: fixture.path + "/.slipway/runs/l", withIntermediateDirectories: true)
        try FileManager.default.createSymbolicLink(atPath: lock, withDestinationPath: victim)
        await #expect(throws: StateFileError.symbolicLink(path: lock)) { _ = try await fixture.run("l") }
        #expect(FileManager.default.contents(atPath: victim) == Data("precious\n".utf8))
        #expect(!FileManager.default.fileExists(atPath: fixture.path + "/log"), "nothing ran")
    }

    @Test("a committed .slipway/logs link, or a link in place of the raw log, does not carry xcodebuild's log outside")
    func linkedRawLog() async throws {
        let project = try XcodeLaneTests.Project(["ios": "steps:\n  - xcode.build: { project: App.xcodeproj, scheme: App }\n"])
        try project.scenario.write("build.log", "** BUILD SUCCEEDED **\n")
        try project.scenario.write("build-settings.json", "[]")
        let outside = try TemporaryDirectory(prefix: "logs-victim")
        let victim = try outside.write("victim.txt", "precious\n")
        let logs = project.fixture.path + "/.slipway/logs"
        try FileManager.default.createDirectory(atPath: project.fixture.path + "/.slipway", withIntermediateDirectories: true)
        try FileManager.default.createSymbolicLink(atPath: logs, withDestinationPath: outside.path)
        let linkedFolder = try await project.fixture.run("ios")
        #expect(linkedFolder.summary.status == .failed)
        #expect(linkedFolder.summary.steps.first?.error == StateFileError.symbolicLink(path: logs).errorDescription)
        #expect(try FileManager.default.contentsOfDirectory(atPath: outside.path) == ["victim.txt"])
        #expect(project.calls().isEmpty, "xcodebuild did not run")
        try FileManager.default.removeItem(atPath: logs)
        try FileManager.default.createDirectory(atPath: logs, withIntermediateDirectories: true)
        let log = logs + "/ios-xcode.build-build.log"
        try FileManager.default.createSymbolicLink(atPath: log, withDestinationPath: victim)
        let linkedLog = try await project.fixture.run("ios")
        #expect(linkedLog.summary.steps.first?.error == StateFileError.symbolicLink(path: log).errorDescription)
        #expect(FileManager.default.contents(atPath: victim) == Data("precious\n".utf8))
    }

    @Test("--only refuses a hand-over record committed to the branch, and a linked .slipway/ci")
    func handOverRecordsFromTheCheckout() async throws {
        let origin = try OnlyRunSupport.origin(Self.lane)
        let first = try OnlyRunSupport.clone(origin)
        _ = try await first.run("l") { $0.only = ["check"] }
        let second = try OnlyRunSupport.clone(origin)
        try OnlyRunSupport.handOver(from: first, to: second)
        try OnlyRunSupport.git(second, "add", "-f", ".slipway/ci")
        try OnlyRunSupport.git(second, "commit", "--quiet", "-m", "records claiming the check passed")
        var before = try second.snapshot()
        let tracked = HandOverError.trackedRecord(file: ".slipway/ci/check.json")
        await #expect(throws: tracked) { _ = try await second.run("l") { $0.only = ["ship"] } }
        #expect(tracked.errorDescription == "hand-over record '.slipway/ci/check.json' is tracked by git: it came with the checkout, not from an earlier job of this pipeline, and may be hostile; nothing ran. Remove .slipway/ci/ from the branch ('git rm -r .slipway/ci') and restore it only from the pipeline's artifacts.")
        #expect(try second.snapshot() == before)
        // A linked `.slipway/ci` (to a folder holding records) is not read, and not written to.
        let third = try OnlyRunSupport.clone(origin)
        let outside = try TemporaryDirectory(prefix: "ci-elsewhere")
        try FileManager.default.createDirectory(atPath: third.path + "/.slipway", withIntermediateDirectories: true)
        try FileManager.default.createSymbolicLink(atPath: third.path + "/.slipway/ci", withDestinationPath: outside.path)
        before = try third.snapshot()
        await #expect(throws: HandOverError.unsafeRecord(file: ".slipway/ci", reason: "'\(third.path)/.slipway/ci' is a symbolic link")) {
            _ = try await third.run("l") { $0.only = ["check"] }
        }
        #expect(try FileManager.default.contentsOfDirectory(atPath: outside.path).isEmpty)
        #expect(!FileManager.default.fileExists(atPath: third.path + "/log"), "nothing ran")
    }
}
