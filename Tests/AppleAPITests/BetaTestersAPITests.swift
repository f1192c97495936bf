import AppleAPI
import Foundation
import Testing
import TestSupport
import TestThreads

/// pilot's testers CSV, and the testers and public link calls through the real client against the
/// contract fake (which checks every request and answer against Apple's OpenAPI document).
@Suite("TestFlight testers", .dedicatedThreads)
struct BetaTestersAPITests {
    let fixture: AppleAPIFixture
    let client: AppStoreConnectClient
    let appID: String
    let external: String
    let friends: String
    let internalGroup: String

    init() throws {
        fixture = try AppleAPIFixture()
        client = fixture.client()
        appID = try fixture.fake.seedApp(bundleID: "com.example.app", name: "Example")
        external = try fixture.fake.seedBetaGroup(appID: appID, name: "External", isInternal: false)
        friends = try fixture.fake.seedBetaGroup(appID: appID, name: "Friends", isInternal: false)
        internalGroup = try fixture.fake.seedBetaGroup(appID: appID, name: "Team", isInternal: true)
    }

    var manager: BetaTesterManager { BetaTesterManager(client: client, appID: appID, appLabel: "'Example' (com.example.app)") }

    func writes() throws -> [String] { try fixture.fake.state().requests.filter { $0.method != "GET" }.map(\.line) }

    @Test func readsPilotsCSV() throws {
        let text = "First,Last,Email,Groups\r\n"
            + "Alice,Smith,alice@example.com\r\n"
            + "\"Bob, Jr.\",\"O\"\"Neil\",bob@example.com,External;Friends\r\n"
            + "\n"
            + ",,carol@example.com,\"Friends\"\n"
        let entries = try BetaTesterFile.parse(text, file: "testers.csv", defaultGroups: ["External"])
        #expect(entries == [
            BetaTesterEntry(email: "alice@example.com", firstName: "Alice", lastName: "Smith", groups: ["External"], location: "testers.csv:2"),
            BetaTesterEntry(email: "bob@example.com", firstName: "Bob, Jr.", lastName: "O\"Neil", groups: ["External", "Friends"],
                            location: "testers.csv:3"),
            BetaTesterEntry(email: "carol@example.com", groups: ["Friends"], location: "testers.csv:5"),
        ])
    }

    @Test func reportsEveryBadRowAtOnce() throws {
        let text = "Alice,Smith\n"
            + "Bob,Jones,bob-at-example.com\n"
            + "Carol,King,carol@example.com\n"
            + "Carol,Again,CAROL@example.com\n"
            + "Dan,Brown,dan@example.com,,extra\n"
            + "Eve,Stone,\"eve@example.com\n"
        #expect(throws: BetaTesterInputError.invalidFile(file: "t.csv", problems: [
            "t.csv:1: no email; a row is first name, last name, email and optionally the groups separated by ';' (pilot's format)",
            "t.csv:2: 'bob-at-example.com' is not an email address; give the tester's email (name@example.com)",
            "t.csv:3: no beta group for 'carol@example.com'; add the groups as the fourth column or give --group",
            "t.csv:4: no beta group for 'CAROL@example.com'; add the groups as the fourth column or give --group",
            "t.csv:5: 5 columns; a row is first name, last name, email and optionally the groups separated by ';' (quote a cell that has a comma)",
            "t.csv:6: a quoted cell is never closed; add the closing '\"'",
        ])) {
            try BetaTesterFile.parse(text, file: "t.csv", defaultGroups: [])
        }
        #expect(throws: BetaTesterInputError.invalidFile(file: "t.csv", problems: [
            "t.csv:2: 'A@EXAMPLE.COM' is listed already on line 1; keep one row per tester",
        ])) {
            try BetaTesterFile.parse("A,B,a@example.com\nA,B,A@EXAMPLE.COM\n", file: "t.csv", defaultGroups: ["External"])
        }
    }

    @Test func addsOnlyWhatIsMissingAndRemoves() async throws {
        let known = try fixture.fake.seedBetaTester(email: "bob@example.com", firstName: "Bob", appID: appID, groupIDs: [external])
        let entries = [BetaTesterEntry(email: "alice@example.com", firstName: "Alice", lastName: "Smith", groups: ["External", "Friends"]),
                       BetaTesterEntry(email: "BOB@example.com", groups: ["External", "Friends"])]
        let dry = try await manager.add(entries, dryRun: true)
        #expect(dry.map(\.action) == [.invited, .addedToGroups])
        #expect(try writes().isEmpty)
        let outcomes = try await manager.add(entries, dryRun: false)
        #expect(outcomes.map(\.action) == [.invited, .addedToGroups])
        #expect(outcomes[1].groups == ["Friends"] && outcomes[1].unchanged == ["External"])
        #expect(try writes() == ["POST /v1/betaTesters", "POST /v1/betaGroups/\(friends)/relationships/betaTesters"])
        let again = try await manager.add(entries, dryRun: false)
        #expect(again.map(\.action) == [.alreadyInGroups, .alreadyInGroups])
        #expect(try writes().count == 2)

        let listed = try await client.betaTesters(appID: appID, groupID: friends)
        #expect(Set(listed.map(\.email)) == ["alice@example.com", "bob@example.com"])

        let fromGroup = try await manager.remove(email: "bob@example.com", groupNames: ["Friends"], dryRun: false)
        #expect(fromGroup.action == .removedFromGroups && fromGroup.groups == ["Friends"])
        let fromApp = try await manager.remove(email: "alice@example.com", groupNames: [], dryRun: false)
        #expect(fromApp.action == .removedFromApp)
        #expect(try await client.betaTesters(appID: appID).map(\.id) == [known])
        let nobody = try await manager.remove(email: "zed@example.com", groupNames: [], dryRun: false)
        #expect(nobody.action == .notATester)
        #expect(try fixture.fake.state().violations == [])
    }

    /// A list includes at most 50 linked groups per tester; the rest are read, never missed.
    @Test func aTesterInMoreThanFiftyGroupsKeepsEveryGroup() async throws {
        var groups = [external, friends]
        for index in 0..<50 { groups.append(try fixture.fake.seedBetaGroup(appID: appID, name: "Group \(index)", isInternal: false)) }
        let tester = try fixture.fake.seedBetaTester(email: "busy@example.com", appID: appID, groupIDs: groups)
        let found = try await client.betaTesters(appID: appID)
        #expect(found.map(\.id) == [tester])
        #expect(Set(found.first?.groupIDs ?? []) == Set(groups))
        #expect(try fixture.fake.state().requests.map(\.line).contains("GET /v1/betaTesters/\(tester)/relationships/betaGroups"))
        let again = try await manager.add([BetaTesterEntry(email: "busy@example.com", groups: ["Group 49"])], dryRun: false)
        #expect(again.map(\.action) == [.alreadyInGroups])
        #expect(try writes().isEmpty)
        #expect(try fixture.fake.state().violations == [])
    }

    @Test func unknownGroupsAreReportedBeforeAnythingIsSent() async throws {
        let entries = [BetaTesterEntry(email: "a@example.com", groups: ["External"], location: "t.csv:1"),
                       BetaTesterEntry(email: "b@example.com", groups: ["Nope"], location: "t.csv:2")]
        await #expect(throws: BetaTesterInputError.unknownGroups(problems: ["t.csv:2: no beta group 'Nope' in 'Example' (com.example.app)"],
                                                               app: "'Example' (com.example.app)", available: ["External", "Friends", "Team"])) {
            try await manager.add(entries, dryRun: false)
        }
        #expect(try writes().isEmpty)
    }

    @Test func publicLink() async throws {
        let group = BetaGroup(id: external, name: "External", isInternal: false)
        let before = try await client.publicLink(ofGroup: external)
        #expect(!before.enabled && before.url == nil)
        let on = try await client.updatePublicLink(ofGroup: group, enabled: true, limitEnabled: true, limit: 500)
        #expect(on.enabled && on.limitEnabled && on.limit == 500)
        #expect(on.url?.hasPrefix("https://testflight.apple.com/join/") == true)
        let off = try await client.updatePublicLink(ofGroup: group, enabled: false, limitEnabled: nil, limit: nil)
        #expect(!off.enabled && off.limit == 500)
        let request = try #require(try fixture.fake.state().requests.last(where: { $0.method == "PATCH" }))
        #expect(request.body == #"{"data":{"attributes":{"publicLinkEnabled":false},"id":"\#(external)","type":"betaGroups"}}"#)
        #expect(try fixture.fake.state().violations == [])
    }
}
