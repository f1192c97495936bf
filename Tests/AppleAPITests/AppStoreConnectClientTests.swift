import AppleAPI
import Basics
import Foundation
import Testing
import TestSupport
import TestThreads

@Suite("App Store Connect client against the contract fake", .dedicatedThreads)
struct AppStoreConnectClientTests {
    @Test func appsAreFoundByBundleIDWithAVerifiedToken() async throws {
        let fixture = try AppleAPIFixture()
        let id = try fixture.fake.seedApp(bundleID: "com.example.app", name: "Example")
        try fixture.fake.seedApp(bundleID: "com.example.app.extra", name: "Extra")
        let apps = try await fixture.client().apps(bundleID: "com.example.app")
        #expect(apps == [AppStoreConnectApp(id: id, bundleID: "com.example.app", name: "Example", sku: "COM.EXAMPLE.APP")])
        let state = try fixture.fake.state()
        #expect(state.violations == [])
        #expect(state.requests.map(\.line) == ["GET /v1/apps"])
        #expect(state.requests.first?.query == "filter%5BbundleId%5D=com.example.app&fields%5Bapps%5D=name,bundleId,sku")
        #expect(state.requests.first?.status == 200)
    }

    @Test func individualKeysWorkToo() async throws {
        let fixture = try AppleAPIFixture(individual: true)
        try fixture.fake.seedApp(bundleID: "com.example.app", name: "Example")
        #expect(try await fixture.client().app(bundleID: "com.example.app").name == "Example")
        #expect(try fixture.fake.state().violations == [])
    }

    @Test func collectionsAreFollowedPageByPage() async throws {
        let fixture = try AppleAPIFixture()
        for index in 0..<5 { try fixture.fake.seedApp(bundleID: "com.example.app\(index)", name: "App \(index)") }
        let request = AppStoreConnectRequest(.get, "/v1/apps", query: [URLQueryItem(name: "limit", value: "2")], action: "list the apps")
        let all = try await fixture.client().all(request)
        #expect(all.map { $0.string("name") } == (0..<5).map { "App \($0)" })
        #expect(try fixture.fake.state().requests.count == 3)
    }

    @Test func aMissingAppIsNamed() async throws {
        let fixture = try AppleAPIFixture()
        await #expect {
            _ = try await fixture.client().app(bundleID: "com.example.none")
        } throws: { error in
            errorText(error) == "no app on this App Store Connect account has the bundle id 'com.example.none'. Check the bundle id, that the key belongs to the right team, or create the app in App Store Connect (Apps → +) first."
        }
    }

    @Test func rateLimitsAreWaitedOutAndLogged() async throws {
        let fixture = try AppleAPIFixture()
        try fixture.fake.seedApp(bundleID: "com.example.app", name: "Example")
        try fixture.fake.inject(.status(429, path: "/v1/apps", retryAfter: 30))
        let response = try await fixture.client().send(AppStoreConnectRequest(.get, "/v1/apps", action: "list the apps"))
        #expect(response.rateLimit == AppStoreConnectRateLimit(limit: 3600, remaining: 3598))
        #expect(fixture.sleeps.values == [.seconds(30)])
        #expect(fixture.log.values == ["rate limited by App Store Connect; waiting 30 s"])
        #expect(try fixture.fake.state().requests.map(\.status) == [429, 200])
    }

    @Test func serverErrorsAndDroppedConnectionsAreRetriedWithBackoff() async throws {
        let fixture = try AppleAPIFixture()
        try fixture.fake.seedApp(bundleID: "com.example.app", name: "Example")
        try fixture.fake.inject(.status(500, path: "/v1/apps", times: 2))
        _ = try await fixture.client().app(bundleID: "com.example.app")
        #expect(fixture.sleeps.values == [.seconds(1), .seconds(2)])
        #expect(try fixture.fake.state().requests.map(\.status) == [500, 500, 200])

        try fixture.fake.inject(.drop(path: "/v1/apps"))
        _ = try await fixture.client().app(bundleID: "com.example.app")
        #expect(try fixture.fake.state().requests.map(\.status) == [500, 500, 200, 0, 200])

        try fixture.fake.inject(.status(503, path: "/v1/apps", times: 3))
        await #expect {
            _ = try await fixture.client().app(bundleID: "com.example.app")
        } throws: { error in
            errorText(error) == "could not look up the app with bundle id 'com.example.app' on App Store Connect after 3 attempts: HTTP 503. Apple's service may be down (https://developer.apple.com/system-status/); try again later."
        }
    }

    @Test func a401MakesANewTokenOnceThenTheKeyIsRejected() async throws {
        let fixture = try AppleAPIFixture()
        try fixture.fake.seedApp(bundleID: "com.example.app", name: "Example")
        try fixture.fake.inject(.status(401, path: "/v1/apps"))
        let client = fixture.client()
        _ = try await client.app(bundleID: "com.example.app")
        #expect(await client.tokens.tokensMade == 2)
        #expect(fixture.log.values == ["App Store Connect did not accept the token (HTTP 401); making a new one and trying again"])

        try fixture.fake.inject(.status(401, path: "/v1/apps", times: 2))
        await #expect {
            _ = try await client.app(bundleID: "com.example.app")
        } throws: { error in
            errorText(error) == "App Store Connect rejected the key 'ABC123DEFG' with issuer id '\(AppleAPIFixture.issuerID)' twice, with a fresh token each time (HTTP 401: NOT_AUTHORIZED: Injected fault — The contract fake was told to answer so.). The key was rejected: check the key id and issuer id, that the .p8 file is this key's, and that the key has not been revoked (Users and Access → Integrations)."
        }
        #expect(await client.tokens.tokensMade == 3)
        #expect(try fixture.fake.state().requests.map(\.status) == [401, 200, 401, 401])
    }

    @Test func aKeyTheFakeDoesNotKnowIsRejectedAfterOneRenewal() async throws {
        let fixture = try AppleAPIFixture()
        let stranger = try AppStoreConnectKey(issuerID: AppleAPIFixture.issuerID, keyID: "ZZZ999YYYY",
                                              privateKeyPEM: fixture.privateKey.pemRepresentation)
        let client = AppStoreConnectClient(key: stranger, http: fixture.client().http, baseURL: fixture.fake.baseURL)
        await #expect(throws: AppStoreConnectError.self) { _ = try await client.listApps() }
        #expect(try fixture.fake.state().requests.map(\.status) == [401, 401])
    }

    @Test func tokensAreRenewedWhenTheClockPassesTheirExpiry() async throws {
        let fixture = try AppleAPIFixture()
        let client = fixture.client()
        _ = try await client.listApps()
        fixture.clock.advance(seconds: 25 * 60)
        try fixture.fake.setClockOffset(seconds: 25 * 60)
        _ = try await client.listApps()
        #expect(await client.tokens.tokensMade == 2)
        let state = try fixture.fake.state()
        #expect(state.requests.map(\.status) == [200, 200])
        #expect(fixture.log.values == [])
    }

    @Test func a403NamesTheRolesTheCallNeeds() async throws {
        let fixture = try AppleAPIFixture()
        try fixture.fake.inject(.status(403, path: "/v1/apps"))
        await #expect {
            _ = try await fixture.client().app(bundleID: "com.example.app")
        } throws: { error in
            errorText(error) == "App Store Connect refused to let the key 'ABC123DEFG' look up the app with bundle id 'com.example.app' (HTTP 403: FORBIDDEN_ERROR: Injected fault — The contract fake was told to answer so.). The key lacks the Admin, App Manager or Developer role: give the key that role in Users and Access → Integrations, or use a key that has it."
        }
        #expect(fixture.sleeps.values == [])
    }

    @Test func otherClientErrorsCarryApplesErrorsAndAreNotRetried() async throws {
        let fixture = try AppleAPIFixture()
        let request = AppStoreConnectRequest(.get, "/v1/apps/9999", action: "read the app 9999")
        await #expect {
            _ = try await fixture.client().send(request)
        } throws: { error in
            let error = try #require(error as? AppStoreConnectError)
            return error.status == 404 && error.apiErrors.first?.code == "NOT_FOUND"
                && errorText(error) == "App Store Connect refused to read the app 9999 (HTTP 404: NOT_FOUND: The specified resource does not exist — There is no resource of type 'apps' with id '9999'). Correct the request; it is not retried."
        }
        #expect(try fixture.fake.state().requests.count == 1)
    }

    @Test func theFakeFlagsUndocumentedRequests() async throws {
        let fixture = try AppleAPIFixture()
        let request = AppStoreConnectRequest(.get, "/v1/apps", query: [URLQueryItem(name: "filter[color]", value: "red")],
                                             action: "list red apps")
        await #expect(throws: AppStoreConnectError.self) { _ = try await fixture.client().send(request) }
        #expect(try fixture.fake.acknowledgeViolations() == ["GET /v1/apps: query parameter 'filter[color]' is not documented for this operation",
                                                             "GET /v1/apps: undocumented query parameters ['filter[color]']"])
    }

    @Test func rateLimitHeadersAndRetryAfterDatesAreParsed() {
        #expect(AppStoreConnectRateLimit(header: "user-hour-lim:3500;user-hour-rem:500;") == AppStoreConnectRateLimit(limit: 3500, remaining: 500))
        #expect(AppStoreConnectRateLimit(header: "nonsense") == nil)
        let now = Date(timeIntervalSince1970: 1_700_000_000)
        #expect(AppStoreConnectRateLimit.retryAfter("12", now: now) == .seconds(12))
        #expect(AppStoreConnectRateLimit.retryAfter("Tue, 14 Nov 2023 22:14:20 GMT", now: now) == .seconds(60))
        #expect(AppStoreConnectRateLimit.retryAfter("soon", now: now) == nil)
    }
}
