import Crypto
import Foundation
import Testing
import TestSupport
import TestThreads

/// `slipway testflight testers list|add|remove|import` and `testflight group-link` through the
/// built binary against the App Store Connect contract fake.
@Suite("slipway testflight testers", .dedicatedThreads)
struct TestFlightTestersCommandTests {
    static let issuer = "69a6de7e-2f4c-47e3-e053-5b8c7c11a4d1"
    let key = P256.Signing.PrivateKey()
    let folder: TemporaryDirectory
    let fake: AppStoreConnectContractFake
    let appID: String
    let external: String
    let friends: String

    init() throws {
        folder = try TemporaryDirectory(prefix: "slipway-testers-cli")
        fake = try AppStoreConnectContractFake(keys: [.init(issuerID: Self.issuer, keyID: "ABC123DEFG",
                                                            publicKeyPEM: key.publicKey.pemRepresentation)],
                                                 onViolations: recordContractViolations)
        appID = try fake.seedApp(bundleID: "com.example.app", name: "Example")
        external = try fake.seedBetaGroup(appID: appID, name: "External", isInternal: false)
        friends = try fake.seedBetaGroup(appID: appID, name: "Friends", isInternal: false)
        try fake.seedBetaGroup(appID: appID, name: "Team", isInternal: true)
    }

    var app: [String] { ["--bundle-id", "com.example.app", "--issuer-id", Self.issuer, "--key-id", "ABC123DEFG", "--key-env", "ASC_KEY",
                         "--api-url", fake.url] }

    func slipway(_ arguments: [String]) throws -> CommandResult {
        try CommandResult.run(Binaries.slipway, ["testflight"] + arguments, in: folder.path,
                              environment: ["ASC_KEY": key.pemRepresentation, "CI": "false", "GITHUB_ACTIONS": nil])
    }

    func writes() throws -> [String] { try fake.state().requests.filter { $0.method != "GET" }.map(\.line) }

    @Test func addListAndRemove() throws {
        let add = try slipway(["testers", "add", "--email", "alice@example.com", "--first-name", "Alice", "--last-name", "Smith",
                               "--group", "External", "--group", "Friends"] + app)
        #expect(add.status == 0, "\(add.standardError)")
        #expect(add.standardOutput == "'alice@example.com': invite into 'External', 'Friends'\n")
        let again = try slipway(["testers", "add", "--email", "Alice@example.com", "--group", "External"] + app)
        #expect(again.standardOutput == "'Alice@example.com': already in 'External'; nothing to do\n")
        #expect(try writes() == ["POST /v1/betaTesters"])

        let list = try slipway(["testers", "list"] + app)
        #expect(list.status == 0, "\(list.standardError)")
        #expect(list.standardOutput == """
            NAME         EMAIL              STATE    GROUPS
            Alice Smith  alice@example.com  invited  External;Friends

            """)
        let json = try slipway(["testers", "list", "--group", "Friends", "--json"] + app)
        let objects = try #require(try JSONSerialization.jsonObject(with: Data(json.standardOutput.utf8)) as? [[String: Any]])
        #expect(objects.map { $0["email"] as? String } == ["alice@example.com"])

        let fromGroup = try slipway(["testers", "remove", "--email", "alice@example.com", "--group", "Friends"] + app)
        #expect(fromGroup.standardOutput == "'alice@example.com': remove from 'Friends'\n")
        let notIn = try slipway(["testers", "remove", "--email", "alice@example.com", "--group", "Friends"] + app)
        #expect(notIn.standardOutput == "'alice@example.com': not in 'Friends'; nothing to remove\n")
        let fromApp = try slipway(["testers", "remove", "--email", "alice@example.com"] + app)
        #expect(fromApp.standardOutput == "'alice@example.com': remove from 'Example' (com.example.app) and all its groups\n")
        let gone = try slipway(["testers", "remove", "--email", "alice@example.com"] + app)
        #expect(gone.status == 0)
        #expect(gone.standardOutput == "'alice@example.com': not a tester of 'Example' (com.example.app); nothing to remove\n")
        #expect(try writes() == ["POST /v1/betaTesters", "DELETE /v1/betaGroups/\(friends)/relationships/betaTesters",
                                 "DELETE /v1/apps/\(appID)/relationships/betaTesters"])
    }

    @Test func badInputIsRefusedBeforeAnythingIsSent() throws {
        let noGroup = try slipway(["testers", "add", "--email", "alice@example.com"] + app)
        #expect(noGroup.status == 64)
        #expect(noGroup.standardError.contains("Name the beta group to add the tester to with --group."))
        let badEmail = try slipway(["testers", "add", "--email", "alice", "--group", "External"] + app)
        #expect(badEmail.status == 64)
        #expect(badEmail.standardError.contains("--email: 'alice' is not an email address; give the tester's email (name@example.com)."))
        let unknown = try slipway(["testers", "add", "--email", "alice@example.com", "--group", "Externals"] + app)
        #expect(unknown.status == 2)
        #expect(unknown.standardError == "error: no beta group 'Externals' in 'Example' (com.example.app)\n"
            + "The beta groups of 'Example' (com.example.app): 'External', 'Friends', 'Team'. Nothing was sent.\n")
        let limit = try slipway(["group-link", "--group", "External", "--enable", "--limit", "10001"] + app)
        #expect(limit.status == 64)
        #expect(limit.standardError.contains("--limit 10001 is outside 1...10000: TestFlight lets at most 10,000 external testers join an "
            + "app. Give a number in that range, or --no-limit."))
        let zero = try slipway(["group-link", "--group", "External", "--limit", "0"] + app)
        #expect(zero.status == 64)
        #expect(zero.standardError.contains("--limit 0 is outside 1...10000"))
        let noCSV = try slipway(["testers", "import", "missing.csv", "--group", "External"] + app)
        #expect(noCSV.status == 2)
        #expect(noCSV.standardError == "error: cannot read the testers file 'missing.csv': there is no such file. Give the path of a CSV "
            + "file in pilot's format.\n")
        let internalLink = try slipway(["group-link", "--group", "Team", "--enable"] + app)
        #expect(internalLink.status == 2)
        #expect(internalLink.standardError == "error: 'Team' is an internal group: only external groups have a public link. Choose an "
            + "external group.\n")
        #expect(try writes().isEmpty)
    }

    @Test func importChecksEveryRowThenInvitesOnlyNewTesters() throws {
        try fake.seedBetaTester(email: "bob@example.com", firstName: "Bob", appID: appID, groupIDs: [external])
        _ = try folder.write("bad.csv", "Alice,Smith\nBob,Jones,bob@example.com,Nope\n")
        let before = try Snapshot.of(folder.path)
        let refused = try slipway(["testers", "import", "bad.csv", "--group", "External"] + app)
        #expect(refused.status == 2)
        #expect(refused.standardError == "error: 1 problem in 'bad.csv'; nothing was sent:\n"
            + "  bad.csv:1: no email; a row is first name, last name, email and optionally the groups separated by ';' (pilot's format)\n")
        #expect(try fake.state().requests.isEmpty)
        _ = try folder.write("groups.csv", "Bob,Jones,bob@example.com,Nope\n")
        let unknown = try slipway(["testers", "import", "groups.csv"] + app)
        #expect(unknown.status == 2)
        #expect(unknown.standardError.hasPrefix("error: groups.csv:1: no beta group 'Nope' in 'Example' (com.example.app)\n"))
        #expect(try writes().isEmpty)
        #expect(try Snapshot.of(folder.path).filter { $0.key != "groups.csv" } == before)

        _ = try folder.write("testers.csv", "First,Last,Email,Groups\nAlice,Smith,alice@example.com\nBob,,bob@example.com,External;Friends\n")
        let dry = try slipway(["testers", "import", "testers.csv", "--group", "External", "--dry-run"] + app)
        #expect(dry.status == 0, "\(dry.standardError)")
        #expect(dry.standardOutput == """
            testers.csv:2: would invite into 'External'
            testers.csv:3: would add to 'Friends' (already in 'External')
            would invite 1, would add 1 to more groups, 0 already in their groups

            """)
        #expect(!dry.standardOutput.contains("@"))
        #expect(try writes().isEmpty)
        let done = try slipway(["testers", "import", "testers.csv", "--group", "External"] + app)
        #expect(done.status == 0, "\(done.standardError)")
        #expect(try writes() == ["POST /v1/betaTesters", "POST /v1/betaGroups/\(friends)/relationships/betaTesters"])
        let rerun = try slipway(["testers", "import", "testers.csv", "--group", "External"] + app)
        #expect(rerun.standardOutput.hasSuffix("invited 0, added 0 to more groups, 2 already in their groups\n"))
        #expect(try writes().count == 2)
    }

    @Test func aRefusalPartWayListsWhatWasDoneBefore() throws {
        try fake.seedBetaTester(email: "bob@example.com", appID: appID, groupIDs: [external])
        _ = try folder.write("t.csv", "Bob,,bob@example.com,Friends\nAlice,,alice@example.com,External\n")
        try fake.inject(.status(409, method: "POST", path: "^/v1/betaTesters$"))
        let stopped = try slipway(["testers", "import", "t.csv"] + app)
        #expect(stopped.status == 1)
        #expect(stopped.standardOutput == "t.csv:1: add to 'Friends'\n")
        #expect(stopped.standardError.hasSuffix("\nAdding testers stopped there; the 1 before (listed above) stay as they are. Run the "
            + "command again once that is fixed: testers already in their groups are skipped.\n"), "\(stopped.standardError)")
        let rerun = try slipway(["testers", "import", "t.csv"] + app)
        #expect(rerun.status == 0, "\(rerun.standardError)")
        #expect(rerun.standardOutput == """
            t.csv:1: already in 'Friends'; nothing to do
            t.csv:2: invite into 'External'
            invited 1, added 0 to more groups, 1 already in their groups

            """)
    }

    @Test func groupLinkTurnsThePublicLinkOnAndOff() throws {
        let show = try slipway(["group-link", "--group", "External"] + app)
        #expect(show.standardOutput == "public link of 'External': disabled, no limit\n")
        let on = try slipway(["group-link", "--group", "External", "--enable", "--limit", "500"] + app)
        #expect(on.status == 0, "\(on.standardError)")
        let lines = on.standardOutput.split(separator: "\n")
        #expect(lines.first == "public link of 'External': enabled, at most 500 testers")
        #expect(lines.last?.hasPrefix("https://testflight.apple.com/join/") == true)
        let off = try slipway(["group-link", "--group", "External", "--disable", "--no-limit", "--json"] + app)
        let object = try #require(try JSONSerialization.jsonObject(with: Data(off.standardOutput.utf8)) as? [String: Any])
        #expect(object["enabled"] as? Bool == false && object["limitEnabled"] as? Bool == false)
        #expect(try writes() == ["PATCH /v1/betaGroups/\(external)", "PATCH /v1/betaGroups/\(external)"])
        let both = try slipway(["group-link", "--group", "External", "--enable", "--disable"] + app)
        #expect(both.status == 64)
        #expect(both.standardError.contains("Give --enable or --disable, not both."))
    }
}
