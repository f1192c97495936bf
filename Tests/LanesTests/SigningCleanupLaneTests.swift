import Basics
import Foundation
import Lanes
import Steps
import Testing
import TestSupport
import TestThreads

/// `signing.cleanup` in a lane's `finally:` block: refused at validation on Linux; validated as
/// on macOS, it runs the STAND-IN `security` (TestSupport's SecurityStandIn, first on PATH).
@Suite("signing.cleanup lanes", .dedicatedThreads)
struct SigningCleanupLaneTests {
    static let lane = """
        description: CI signing
        steps:
          - run: echo build
            id: build
        finally:
          - signing.cleanup:
              keychain: build/ci.keychain
            id: cleanup
        """
    let fixture: LaneFixture
    let bin: TemporaryDirectory
    let standIn: SecurityStandIn

    init() throws {
        bin = try TemporaryDirectory(prefix: "slipway-security-standin")
        fixture = try LaneFixture(["ci": Self.lane])
        standIn = try SecurityStandIn(directory: bin.path, home: bin.path + "/home")
        fixture.environment = fixture.environment.merging(standIn.environment([
            "PATH": bin.path + ":" + (Environment.current["PATH"] ?? "/usr/bin:/bin"),
        ]))
    }

    @Test func cleanupIsRefusedAtValidationOnLinux() async throws {
        fixture.platform = .linux
        let problems = await fixture.problems("ci")
        #expect(problems == [
            "lanes/ci.yml:6:5: error: step 'signing.cleanup' runs only on macos, not on linux; run this lane on macos or remove the step; to check this lane from linux, run 'slipway validate ci --platform macos' or 'slipway run ci --dry-run --platform macos'",
        ], "\(problems)")
        #expect(try standIn.state()["calls"] as? [[String]] == [])
    }

    /// A keychain as signing.sync leaves it: created, first in the search list, the default, and
    /// recorded in its state file.
    func makeTemporaryKeychain() throws -> (keychain: String, login: String) {
        let keychain = fixture.path + "/build/ci.keychain"
        try fixture.write("build/ci.keychain-db", "stand-in keychain\n")
        var state = try standIn.state()
        let login = try #require(state["default"] as? String)
        var keychains = state["keychains"] as? [String: Any] ?? [:]
        keychains[keychain + "-db"] = ["password": "ci", "locked": false, "items": [] as [Any]]
        state["keychains"] = keychains
        state["search_list"] = [keychain + "-db", login]
        state["default"] = keychain + "-db"
        try standIn.write(state)
        try fixture.write("build/ci.keychain.slipway-state.json",
                          #"{"keychain": "\#(keychain)", "previousSearchList": ["\#(login)"], "previousDefault": "\#(login)"}"#)
        return (keychain, login)
    }

    @Test func cleanupRestoresAndASecondRunSaysTheKeychainIsGone() async throws {
        fixture.platform = .macOS
        let (keychain, login) = try makeTemporaryKeychain()
        let first = try await fixture.run("ci")
        #expect(first.summary.status == .succeeded, "\(first.console)")
        #expect(first.outputs("cleanup") == ["deleted": "true", "search-list": login])
        #expect(first.console.contains("deleted the temporary keychain \(keychain)"), "\(first.console)")
        #expect(first.console.contains("default keychain set back to \(login)"), "\(first.console)")
        let state = try standIn.state()
        #expect(state["search_list"] as? [String] == [login])
        #expect(state["default"] as? String == login)
        #expect(!FileManager.default.fileExists(atPath: keychain + "-db"))
        #expect(!FileManager.default.fileExists(atPath: keychain + ".slipway-state.json"))

        let second = try await fixture.run("ci")
        #expect(second.summary.status == .succeeded, "\(second.console)")
        #expect(second.outputs("cleanup") == ["deleted": "false", "search-list": login])
        #expect(second.console.contains("the keychain \(keychain) is already gone; nothing to delete"), "\(second.console)")
    }

    @Test func dryRunRunsNoSecurityCommand() async throws {
        fixture.platform = .macOS
        let outcome = try await fixture.run("ci") { $0.isDryRun = true }
        #expect(outcome.console.contains("security delete-keychain \(fixture.path)/build/ci.keychain"), "\(outcome.console)")
        #expect(try standIn.state()["calls"] as? [[String]] == [])
    }

    /// A state file that describes another machine (read from another runner's disk, or handed
    /// over) is not applied to this machine's search list when the keychain is not in it.
    @Test func aKeychainOfAnotherRunnerLeavesThisSearchListAlone() async throws {
        fixture.platform = .macOS
        let (keychain, login) = try makeTemporaryKeychain()
        var state = try standIn.state()
        state["search_list"] = [login]
        state["default"] = login
        try standIn.write(state)
        try fixture.write("build/ci.keychain.slipway-state.json",
                          #"{"keychain": "\#(keychain)", "previousSearchList": ["/elsewhere/login.keychain-db"], "previousDefault": "/elsewhere/login.keychain-db"}"#)
        let outcome = try await fixture.run("ci")
        #expect(outcome.summary.status == .succeeded, "\(outcome.console)")
        #expect(outcome.console.contains("\(keychain) was not in this machine's keychain search list (made on another runner, or removed before): the search list is left as it is"),
                "\(outcome.console)")
        let after = try standIn.state()
        #expect(after["search_list"] as? [String] == [login] && after["default"] as? String == login)
    }

    /// The docs' pattern, `keychain: ${{ steps.signing.outputs.keychain }}` in `finally:`, when
    /// signing.sync never ran (an earlier step failed): nothing to remove, said, and no second failure.
    @Test func aSigningThatDidNotRunLeavesNothingToRemove() async throws {
        fixture.platform = .macOS
        try fixture.write("lanes/skipped.yml", """
            steps:
              - run: exit 3
                id: build
              - signing.sync: { type: app-store, bundle-ids: [com.example.app], passphrase: p, storage: store }
                id: signing
            finally:
              - signing.cleanup:
                  keychain: "${{ steps.signing.outputs.keychain }}"
                id: cleanup
            """)
        let outcome = try await fixture.run("skipped")
        #expect(outcome.status("build") == .failed && outcome.status("signing") == .skipped)
        #expect(outcome.status("cleanup") == .succeeded, "\(outcome.console)")
        #expect(outcome.outputs("cleanup") == ["deleted": "false", "search-list": ""])
        #expect(outcome.console.contains("no keychain to remove: signing.sync made none in this run (it did not run, or installed elsewhere)"),
                "\(outcome.console)")
        #expect(try standIn.state()["calls"] as? [[String]] == [])
    }
}
