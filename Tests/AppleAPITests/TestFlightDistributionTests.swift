import AppleAPI
import Foundation
import Testing
import TestSupport
import TestThreads

extension AppleAPIFixture {
    /// Seeds an app with a processed build of 1.2.0 (42) and two beta groups (QA internal, Public Beta external).
    func seedReleasable(buildState: String = "VALID") throws -> (app: AppStoreConnectApp, buildID: String) {
        let appID = try fake.seedApp(bundleID: "com.example.app", name: "Example")
        let build = try fake.seedBuild(appID: appID, state: buildState)
        try fake.seedBetaGroup(appID: appID, name: "QA", isInternal: true)
        try fake.seedBetaGroup(appID: appID, name: "Public Beta", isInternal: false)
        return (AppStoreConnectApp(id: appID, bundleID: "com.example.app", name: "Example"), build)
    }

    /// `METHOD path` of every request that changed something (not a GET).
    func changes() throws -> [String] {
        try fake.state().requests.filter { $0.method != "GET" }.map(\.line)
    }
}

@Suite("TestFlight distribution against the contract fake", .dedicatedThreads)
struct TestFlightDistributionTests {
    let fixture: AppleAPIFixture
    let app: AppStoreConnectApp
    let buildID: String

    init() throws {
        fixture = try AppleAPIFixture()
        (app, buildID) = try fixture.seedReleasable()
    }

    var distributor: TestFlightDistributor { TestFlightDistributor(client: fixture.client()) }

    @Test func distributesOnceAndARerunAddsNothing() async throws {
        let distribution = TestFlightDistribution(build: .id(buildID), groups: ["QA", "Public Beta"], whatToTest: ["en-US": "Try offline mode."],
                                                  usesNonExemptEncryption: false, notifyTesters: true)
        let first = try await distributor.distribute(distribution, app: app)
        #expect(first.groupsAdded == ["QA", "Public Beta"] && first.groupsAlready.isEmpty)
        #expect(first.betaReview == "submitted" && first.notified && first.complianceChanged)
        #expect(first.localizationsChanged == ["en-US"])

        let second = try await distributor.distribute(distribution, app: app)
        #expect(second.groupsAdded.isEmpty && second.groupsAlready == ["QA", "Public Beta"])
        #expect(second.betaReview == "WAITING_FOR_REVIEW" && !second.notified && !second.complianceChanged)
        #expect(second.localizationsChanged.isEmpty)

        #expect(try fixture.changes() == [
            "PATCH /v1/builds/\(buildID)", "POST /v1/betaBuildLocalizations", "POST /v1/builds/\(buildID)/relationships/betaGroups",
            "POST /v1/betaAppReviewSubmissions", "POST /v1/buildBetaNotifications",
        ])
        #expect(try fixture.fake.stored("_betaGroupLinks").count == 2)
        #expect(try fixture.fake.state().violations == [])
    }

    @Test func aChangedTextIsUpdatedNotDuplicated() async throws {
        _ = try await distributor.distribute(TestFlightDistribution(build: .number(version: "1.2.0", buildNumber: "42"), groups: [],
                                                                    whatToTest: ["en-US": "First", "ja": "最初"]), app: app)
        let again = try await distributor.distribute(TestFlightDistribution(build: .number(version: "1.2.0", buildNumber: "42"), groups: [],
                                                                            whatToTest: ["en-US": "Second", "ja": "最初"]), app: app)
        #expect(again.localizationsChanged == ["en-US"])
        let texts = try fixture.fake.stored("betaBuildLocalizations").compactMap { ($0["attributes"] as? [String: Any])?["whatsNew"] as? String }
        #expect(texts.sorted() == ["Second", "最初"])
        #expect(try fixture.changes().filter { $0.hasPrefix("PATCH /v1/betaBuildLocalizations/") }.count == 1)
        #expect(try fixture.fake.state().violations == [])
    }

    @Test func internalGroupsNeedNoBetaReview() async throws {
        let result = try await distributor.distribute(TestFlightDistribution(build: .id(buildID), groups: ["QA"]), app: app)
        #expect(result.betaReview == "not needed")
        #expect(try fixture.changes() == ["POST /v1/builds/\(buildID)/relationships/betaGroups"])
    }

    @Test func anUnknownGroupListsTheAppsGroupsAndChangesNothing() async throws {
        await #expect(throws: AppStoreDistributionError.unknownBetaGroups(missing: ["Beta Testers"], existing: ["Public Beta", "QA"],
                                                                          app: "'Example' (com.example.app)")) {
            try await distributor.distribute(TestFlightDistribution(build: .id(buildID), groups: ["QA", "Beta Testers"],
                                                                    whatToTest: ["en-US": "x"], notifyTesters: true), app: app)
        }
        let error = AppStoreDistributionError.unknownBetaGroups(missing: ["Beta Testers"], existing: ["Public Beta", "QA"], app: "'Example' (com.example.app)")
        #expect(error.localizedDescription == "no beta group named 'Beta Testers' on 'Example' (com.example.app) (its groups are 'Public Beta', 'QA'). "
                + "Group names are matched exactly; correct the name in groups.")
        #expect(try fixture.changes().isEmpty)
    }

    @Test func anUnknownLocaleOrATooLongTextSendsNothing() async throws {
        do {
            _ = try await distributor.distribute(TestFlightDistribution(build: .id(buildID), groups: ["QA"], whatToTest: ["en_US": "x"]), app: app)
            Issue.record("expected an error")
        } catch {
            #expect(error.localizedDescription == "'en_US' is not a locale App Store Connect accepts (codes are case-sensitive). "
                    + "Did you mean 'en-US'? The accepted codes are listed in docs/appstore.md.")
        }
        do {
            _ = try await distributor.distribute(TestFlightDistribution(build: .id(buildID), groups: ["QA"],
                                                                        whatToTest: ["en-US": String(repeating: "a", count: 4001)]), app: app)
            Issue.record("expected an error")
        } catch {
            #expect(error.localizedDescription == "What to Test for 'en-US' is 4001 characters; App Store Connect accepts at most 4000. "
                    + "Shorten it (or give a shorter text for this locale).")
        }
        #expect(try fixture.fake.state().requests.isEmpty)
    }

    @Test func theLimitIsInCharactersNotBytes() async throws {
        let text = String(repeating: "é", count: 4000)
        #expect(text.utf8.count == 8000)
        let result = try await distributor.distribute(TestFlightDistribution(build: .id(buildID), groups: [], whatToTest: ["fr-FR": text]), app: app)
        #expect(result.localizationsChanged == ["fr-FR"])
        #expect(try fixture.fake.state().violations == [])
    }

    @Test func aBuildStillProcessingIsRefused() async throws {
        let other = try AppleAPIFixture()
        let (app, build) = try other.seedReleasable(buildState: "PROCESSING")
        do {
            _ = try await TestFlightDistributor(client: other.client()).distribute(TestFlightDistribution(build: .id(build), groups: ["QA"]), app: app)
            Issue.record("expected an error")
        } catch {
            #expect(error.localizedDescription == "build \(build) is still processing on App Store Connect. "
                    + "Wait for it (appstore.upload's wait-for-processing) and run again.")
        }
        #expect(try other.changes().isEmpty)
    }

    @Test func localeSuggestions() {
        #expect(AppStoreLocales.suggestions(for: "EN-us") == ["en-US"])
        #expect(AppStoreLocales.suggestions(for: "zh_hans") == ["zh-Hans"])
        #expect(AppStoreLocales.suggestions(for: "en") == ["en-AU", "en-CA", "en-GB", "en-US"])
        #expect(AppStoreLocales.suggestions(for: "de") == ["de-DE"])
        #expect(AppStoreLocales.suggestions(for: "jp") == ["ja"])
        #expect(AppStoreLocales.isAccepted("pt-BR") && !AppStoreLocales.isAccepted("pt"))
    }
}
