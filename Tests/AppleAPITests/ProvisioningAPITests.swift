import AppleAPI
import Foundation
import Signing
import Testing
import TestSupport
import TestThreads

/// The certificates, bundle ids, devices and profiles calls, through the real client (libcurl)
/// against the contract fake, which checks every JWT and request shape.
@Suite("App Store Connect provisioning API against the contract fake", .dedicatedThreads)
struct ProvisioningAPITests {
    static let team = "AB12CD34EF"
    let fixture: AppleAPIFixture
    let client: AppStoreConnectClient

    init() throws {
        fixture = try AppleAPIFixture()
        try fixture.fake.useSigningAuthority(try TestCertificateAuthority(), teamID: Self.team, teamName: "Example Ltd")
        client = fixture.client()
    }

    /// A new RSA 2048 key and Slipway's CSR for it.
    func request() throws -> (SigningPrivateKey, SigningRequest) {
        let key = try SigningPrivateKey.generate()
        return (key, try SigningRequest(commonName: "Slipway", emailAddress: "ci@example.com", countryCode: "US", key: key))
    }

    func expectNoViolations() throws {
        #expect(try fixture.fake.state().violations == [])
    }

    func posts(_ path: String) throws -> Int {
        try fixture.fake.state().requests.filter { $0.method == "POST" && $0.path == path }.count
    }

    @Test func createsACertificateForSlipwaysRequest() async throws {
        let (key, csr) = try request()
        let made = try await client.createCertificate(type: "DISTRIBUTION", csrPEM: csr.pem)
        let certificate = try SigningCertificate(bytes: made.content, file: "distribution.cer")
        #expect(certificate.matches(key))
        #expect(certificate.teamID == Self.team)
        #expect(certificate.commonName == "Apple Distribution: Example Ltd (AB12CD34EF)")
        #expect(certificate.kind == .appleDistribution)
        #expect(made.certificateType == "DISTRIBUTION" && made.name == "Apple Distribution: Example Ltd")
        #expect(made.serialNumber == String(certificate.serialNumber.drop(while: { $0 == "0" })))
        let expiry = try #require(made.expirationDate)
        #expect(abs(expiry.timeIntervalSince(certificate.notValidAfter)) < 1)

        #expect(try await client.certificates(types: ["DISTRIBUTION"]) == [made])
        #expect(try await client.certificates(types: ["DEVELOPMENT", "IOS_DEVELOPMENT"]).isEmpty)
        try expectNoViolations()
    }

    @Test func theCertificateLimitIsAClearError() async throws {
        try fixture.fake.set(["certificate_limit": "1"])
        _ = try await client.createCertificate(type: "DISTRIBUTION", csrPEM: try request().1.pem)
        let detail = "You already have a current Distribution certificate or a pending certificate request."
        await #expect(throws: AppStoreConnectProvisioningError.certificateLimitReached(type: "DISTRIBUTION", detail: detail)) {
            _ = try await client.createCertificate(type: "DISTRIBUTION", csrPEM: try request().1.pem)
        }
        let message = AppStoreConnectProvisioningError.certificateLimitReached(type: "DISTRIBUTION", detail: detail).localizedDescription
        #expect(message == "App Store Connect will not create another DISTRIBUTION certificate: the team already has as many as "
            + "Apple allows (HTTP 409: You already have a current Distribution certificate or a pending certificate request.). "
            + "Revoke one you no longer use (`slipway signing nuke --type app-store`, or Certificates, Identifiers & Profiles → "
            + "Certificates on developer.apple.com), or put the existing certificate and its private key into the signing storage "
            + "so that Slipway uses it instead of creating one.")
        #expect(try posts("/v1/certificates") == 2)
        #expect(try fixture.fake.stored("certificates").count == 1)
        // Another type has a limit of its own.
        _ = try await client.createCertificate(type: "DEVELOPMENT", csrPEM: try request().1.pem)
        try expectNoViolations()
    }

    @Test func revokingRemovesTheCertificateAndInvalidatesItsProfiles() async throws {
        let certificate = try await client.createCertificate(type: "DISTRIBUTION", csrPEM: try request().1.pem)
        let bundle = try fixture.fake.seedBundleID(identifier: "com.example.app")
        let profile = try await client.createProfile(name: "Example App Store", type: "IOS_APP_STORE", bundleIDResourceID: bundle,
                                                     certificateIDs: [certificate.id], deviceIDs: [])
        #expect(profile.profileState == "ACTIVE")

        try await client.revokeCertificate(id: certificate.id)
        #expect(try await client.certificates(types: ["DISTRIBUTION"]).isEmpty)
        let listed = try await client.profiles(type: "IOS_APP_STORE", name: nil)
        #expect(listed.map(\.profileState) == ["INVALID"] && listed.first?.certificateIDs == [certificate.id])
        try expectNoViolations()
    }

    @Test func bundleIDsMatchExactlyAndRegisterOnce() async throws {
        let app = try fixture.fake.seedBundleID(identifier: "com.example.app")
        try fixture.fake.seedBundleID(identifier: "com.example.app.widget")
        try fixture.fake.seedBundleID(identifier: "com.example.apple", platform: "UNIVERSAL")
        #expect(try await client.bundleIDs(identifier: "com.example.app").map(\.id) == [app])
        #expect(try await client.bundleIDs(identifier: "com.example").isEmpty)

        let made = try await client.registerBundleID(identifier: "com.example.new", name: "Example New", platform: "IOS")
        #expect(made.identifier == "com.example.new" && made.name == "Example New" && made.platform == "IOS" && made.seedID == Self.team)
        #expect(try await client.bundleIDs(identifier: "com.example.new") == [made])

        let taken = AppStoreConnectProvisioningError.bundleIDAlreadyRegistered(
            identifier: "com.example.app", detail: "An App ID with Identifier 'com.example.app' is not available. Please enter a different string.")
        await #expect(throws: taken) {
            _ = try await client.registerBundleID(identifier: "com.example.app", name: "Example", platform: "IOS")
        }
        #expect(taken.localizedDescription.hasPrefix("the bundle id 'com.example.app' could not be registered: App Store Connect says"))
        try expectNoViolations()
    }

    @Test func anInvalidAppIDNameIsRefusedBeforeSending() async throws {
        await #expect(throws: AppStoreConnectProvisioningError.invalidBundleIDName(name: "Example.App", identifier: "com.example.app")) {
            _ = try await client.registerBundleID(identifier: "com.example.app", name: "Example.App", platform: "IOS")
        }
        #expect(AppStoreConnectProvisioningError.invalidBundleIDName(name: "Example.App", identifier: "com.example.app").localizedDescription
            == "'Example.App' cannot be the App ID name of 'com.example.app': Apple accepts only letters, digits and spaces in it. "
            + "Give a name such as 'com example app'.")
        #expect(try fixture.fake.state().requests.isEmpty)
    }

    @Test func devicesAreListedFilteredAndRegistered() async throws {
        let phone = try fixture.fake.seedDevice(udid: "00008030-001A35E11A88003A", name: "QA iPhone")
        try fixture.fake.seedDevice(udid: String(repeating: "a", count: 40), name: "Old iPad", status: "DISABLED", deviceClass: "IPAD")
        try fixture.fake.seedDevice(udid: "11111111-2222-3333-4444-555555555555", name: "Build Mac", platform: "MAC_OS", deviceClass: "MAC")
        #expect(try await client.devices(platform: "IOS", enabledOnly: true).map(\.id) == [phone])
        #expect(try await client.devices(platform: nil, enabledOnly: false).count == 3)

        let made = try await client.registerDevice(name: "New iPhone", udid: "00008101-000A1B2C3D4E5F60", platform: "IOS")
        #expect(made.status == "ENABLED" && made.udid == "00008101-000A1B2C3D4E5F60" && made.name == "New iPhone")
        #expect(try await client.devices(platform: "IOS", enabledOnly: true).map(\.id).sorted() == [phone, made.id].sorted())
        await #expect(throws: AppStoreConnectProvisioningError.deviceRefused(
            udid: "00008030-001A35E11A88003A", detail: "A device with number '00008030-001A35E11A88003A' already exists on this team.")) {
            _ = try await client.registerDevice(name: "Again", udid: "00008030-001A35E11A88003A", platform: "IOS")
        }
        try expectNoViolations()
    }

    @Test func aRequestWithoutPEMArmourIsAcceptedToo() async throws {
        let (key, csr) = try request()
        let body = csr.pem.split(separator: "\n").filter { !$0.hasPrefix("-----") }.joined()
        let made = try await client.createCertificate(type: "IOS_DEVELOPMENT", csrPEM: body)
        let certificate = try SigningCertificate(bytes: made.content, file: "development.cer")
        #expect(certificate.matches(key) && certificate.kind == .iPhoneDeveloper)
        try expectNoViolations()
    }

    @Test func expiredCertificatesNoLongerCountAndTheirProfilesTurnInvalid() async throws {
        try fixture.fake.set(["certificate_limit": "1", "certificate_days": "10"])
        let first = try await client.createCertificate(type: "DISTRIBUTION", csrPEM: try request().1.pem)
        let bundle = try fixture.fake.seedBundleID(identifier: "com.example.app")
        let profile = try await client.createProfile(name: "Store", type: "IOS_APP_STORE", bundleIDResourceID: bundle,
                                                     certificateIDs: [first.id], deviceIDs: [])
        #expect(profile.expirationDate == first.expirationDate)

        fixture.clock.advance(seconds: 11 * 86_400)
        try fixture.fake.setClockOffset(seconds: 11 * 86_400)
        #expect(try await client.profiles(type: nil, name: "Store").map(\.profileState) == ["INVALID"])
        let second = try await client.createCertificate(type: "DISTRIBUTION", csrPEM: try request().1.pem)
        #expect(try await client.certificates(types: ["DISTRIBUTION"]).map(\.id) == [first.id, second.id])
        try expectNoViolations()
    }

    @Test func aKeyWithoutTheRoleIsToldWhichRolesCan() async throws {
        try fixture.fake.inject(.status(403, method: "POST", path: "/v1/certificates"))
        do {
            _ = try await client.createCertificate(type: "DISTRIBUTION", csrPEM: try request().1.pem)
            Issue.record("expected a 403")
        } catch let error as AppStoreConnectError {
            #expect(error.localizedDescription.hasPrefix("App Store Connect refused to let the key 'ABC123DEFG' create a DISTRIBUTION "
                + "certificate (HTTP 403"))
            #expect(error.localizedDescription.contains("The key lacks the Admin or App Manager role"))
        }
    }
}
