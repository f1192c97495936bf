import AppleAPI
import Crypto
import Foundation
import Networking
import Testing
import TestSupport
import TestThreads
import Transport

/// Apple's OpenAPI document does not say whether a relationship's linkage `data` comes without
/// `include`. Slipway works with both readings: the contract fake answers either way (its
/// `linkage` setting) and the flows that read linkage end the same, with no violation.
@Suite("Slipway works with both readings of relationship linkage", .dedicatedThreads)
struct LinkageReadingsTests {
    static let readings = ["always", "included_only"]

    @Test(arguments: readings)
    func testFlightDistributionEndsTheSame(linkage: String) async throws {
        let fixture = try AppleAPIFixture()
        let (app, buildID) = try fixture.seedReleasable()
        try fixture.fake.set(["linkage": "\"\(linkage)\""])
        let distribution = TestFlightDistribution(build: .id(buildID), groups: ["QA", "Public Beta"], whatToTest: ["en-US": "Try offline mode."],
                                                  usesNonExemptEncryption: false, notifyTesters: true)
        let first = try await TestFlightDistributor(client: fixture.client()).distribute(distribution, app: app)
        #expect(first.buildID == buildID && first.groupsAdded == ["QA", "Public Beta"] && first.notified)
        let again = try await TestFlightDistributor(client: fixture.client()).distribute(
            TestFlightDistribution(build: .number(version: "1.2.0", buildNumber: "42"), groups: ["QA"], whatToTest: [:], usesNonExemptEncryption: false,
                                   notifyTesters: false), app: app)
        #expect(again.buildID == buildID && again.groupsAlready == ["QA"])
    }

    @Test(arguments: readings)
    func appStoreSubmissionEndsTheSame(linkage: String) async throws {
        let fixture = try AppleAPIFixture()
        let (app, buildID) = try fixture.seedReleasable()
        try fixture.fake.set(["linkage": "\"\(linkage)\""])
        let submission = AppStoreSubmission(version: "1.2.0", build: .id(buildID), whatsNew: ["en-US": "Offline mode."],
                                            releaseType: "MANUAL", phasedRelease: true, submitForReview: true)
        let first = try await AppStoreSubmitter(client: fixture.client()).submit(submission, app: app)
        #expect(first.versionCreated && first.buildAttached && first.state == "WAITING_FOR_REVIEW")
        let second = try await AppStoreSubmitter(client: fixture.client()).submit(submission, app: app)
        #expect(second.alreadySubmitted && second.versionID == first.versionID && second.buildID == buildID)
    }
}

/// The fake hands violations nobody acknowledged to `onViolations` when it is released, and
/// refuses to start without Apple's document.
@Suite("The contract fake's violations cannot be forgotten", .dedicatedThreads)
struct ContractFakeViolationReportTests {
    @Test func violationsLeftAtReleaseAreReported() async throws {
        let reported = Recorder<String>()
        let seen = Recorder<String>()
        do {
            let privateKey = P256.Signing.PrivateKey()
            let key = try AppStoreConnectKey(issuerID: AppleAPIFixture.issuerID, keyID: AppleAPIFixture.keyID,
                                             privateKeyPEM: privateKey.pemRepresentation)
            let fake = try AppStoreConnectContractFake(
                keys: [.init(issuerID: AppleAPIFixture.issuerID, keyID: AppleAPIFixture.keyID,
                             publicKeyPEM: privateKey.publicKey.pemRepresentation)],
                onViolations: { $0.forEach(reported.append) })
            let client = AppStoreConnectClient(key: key, http: SystemHTTPClient(), baseURL: fake.baseURL,
                                               retry: RetryPolicy(attempts: 1, sleep: { _ in }, random: { 1 }))
            _ = try? await client.send(AppStoreConnectRequest(.get, "/v1/nope", action: "x"))
            _ = try? await client.send(AppStoreConnectRequest(.get, "/v1/nope2", action: "x"))
            try fake.acknowledgeViolations().forEach(seen.append)
            _ = try? await client.send(AppStoreConnectRequest(.get, "/v1/apps", query: [URLQueryItem(name: "sort", value: "color")], action: "x"))
        }
        #expect(seen.values == ["GET /v1/nope: not a path of the OpenAPI document", "GET /v1/nope: no such documented endpoint",
                                "GET /v1/nope2: not a path of the OpenAPI document", "GET /v1/nope2: no such documented endpoint"])
        #expect(reported.values == ["GET /v1/apps: query parameter 'sort' has 'color', not one of its 6 documented values"])
    }

    @Test func aMissingDocumentIsAFailureNotASkip() throws {
        #expect(throws: AppStoreConnectContractFake.SetupError.self) {
            _ = try AppStoreConnectContractFake(keys: [], openAPIDocument: "/nonexistent/openapi.json.gz", onViolations: { _ in })
        }
        do {
            _ = try AppStoreConnectContractFake(keys: [], openAPIDocument: "/nonexistent/openapi.json.gz", onViolations: { _ in })
        } catch {
            #expect("\(error)" == "Apple's OpenAPI document is not at '/nonexistent/openapi.json.gz': put app-store-connect-openapi-4.4.1.json.gz "
                + "in ../shared/apple beside the repository, or set SLIPWAY_ASC_OPENAPI to its path")
        }
    }
}
