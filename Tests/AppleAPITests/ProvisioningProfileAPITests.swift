import AppleAPI
import Foundation
import Signing
import Testing
import TestSupport
import TestThreads

/// Profiles made by the contract fake, read back with Slipway's own profile reader and openssl.
@Suite("App Store Connect profiles against the contract fake", .dedicatedThreads)
struct ProvisioningProfileAPITests {
    let fixture: AppleAPIFixture
    let client: AppStoreConnectClient
    let bundle: String

    init() throws {
        fixture = try AppleAPIFixture()
        try fixture.fake.useSigningAuthority(try TestCertificateAuthority(), teamID: "AB12CD34EF", teamName: "Example Ltd")
        client = fixture.client()
        bundle = try fixture.fake.seedBundleID(identifier: "com.example.app", name: "Example App")
    }

    func certificate(_ type: String) async throws -> (AppStoreConnectCertificate, SigningCertificate) {
        let key = try SigningPrivateKey.generate()
        let csr = try SigningRequest(commonName: "Slipway", emailAddress: nil, countryCode: nil, key: key)
        let made = try await client.createCertificate(type: type, csrPEM: csr.pem)
        return (made, try SigningCertificate(bytes: made.content, file: "\(type).cer"))
    }

    @Test func aDevelopmentProfileHoldsTheDevicesAndCertificate() async throws {
        let (made, certificate) = try await certificate("DEVELOPMENT")
        let phone = try fixture.fake.seedDevice(udid: "00008030-001A35E11A88003A", name: "QA iPhone")
        let pad = try fixture.fake.seedDevice(udid: String(repeating: "b", count: 40), name: "QA iPad", deviceClass: "IPAD")
        let profile = try await client.createProfile(name: "Example Development", type: "IOS_APP_DEVELOPMENT", bundleIDResourceID: bundle,
                                                     certificateIDs: [made.id], deviceIDs: [phone, pad])
        let read = try ProvisioningProfile(bytes: profile.content, file: "dev.mobileprovision")
        #expect(read.name == "Example Development" && read.uuid == profile.uuid && read.teamID == "AB12CD34EF")
        #expect(read.bundleID == "com.example.app" && read.appIDName == "Example App" && read.platforms == ["iOS"])
        #expect(read.deviceUDIDs == ["00008030-001A35E11A88003A", String(repeating: "b", count: 40)])
        #expect(read.includes(certificate) && read.kind == .development && read.allowsDebugging)
        #expect(abs(read.expirationDate.timeIntervalSince(try #require(profile.expirationDate))) < 1)
        #expect(read.expirationDate <= certificate.notValidAfter)

        let listed = try await client.profiles(type: "IOS_APP_DEVELOPMENT", name: "Example Development")
        #expect(listed.count == 1)
        #expect(listed.first?.bundleIDResourceID == bundle && listed.first?.certificateIDs == [made.id])
        #expect(listed.first?.deviceIDs == [phone, pad] && listed.first?.content == profile.content)
        #expect(try await client.profiles(type: "IOS_APP_STORE", name: nil).isEmpty)
        #expect(try await client.profiles(type: nil, name: "Example").isEmpty)
        #expect(try fixture.fake.state().violations == [])
    }

    @Test func anAppStoreProfileIsCMSSignedAndDeletable() async throws {
        let (made, certificate) = try await certificate("DISTRIBUTION")
        let profile = try await client.createProfile(name: "Example App Store", type: "IOS_APP_STORE", bundleIDResourceID: bundle,
                                                     certificateIDs: [made.id], deviceIDs: [])
        let read = try ProvisioningProfile(bytes: profile.content, file: "store.mobileprovision")
        #expect(read.kind == .appStore && read.deviceUDIDs.isEmpty && !read.allowsDebugging && read.includes(certificate))

        let folder = try TemporaryDirectory()
        let file = folder.path + "/store.mobileprovision"
        try Data(profile.content).write(to: URL(fileURLWithPath: file))
        let openssl = try CommandResult.run("/usr/bin/openssl", ["cms", "-verify", "-noverify", "-inform", "DER", "-in", file])
        #expect(openssl.status == 0)
        #expect(openssl.standardOutput.contains("<key>UUID</key>") && openssl.standardOutput.contains(profile.uuid))

        try await client.deleteProfile(id: profile.id)
        #expect(try await client.profiles(type: nil, name: nil).isEmpty)
        #expect(try fixture.fake.state().violations == [])
    }

    @Test func profilesWithManyDevicesGetAllTheirLinks() async throws {
        let (made, _) = try await certificate("DEVELOPMENT")
        var devices: [String] = []
        for index in 0..<53 {
            devices.append(try fixture.fake.seedDevice(udid: String(format: "%040d", index), name: "Device \(index)"))
        }
        _ = try await client.createProfile(name: "Everyone", type: "IOS_APP_DEVELOPMENT", bundleIDResourceID: bundle,
                                           certificateIDs: [made.id], deviceIDs: devices)
        #expect(try await client.profiles(type: nil, name: nil).first?.deviceIDs == devices)
        #expect(try fixture.fake.state().requests.contains { $0.path.hasSuffix("/relationships/devices") })
        #expect(try fixture.fake.state().violations == [])
    }

    @Test func devicesInAnAppStoreProfileAreAContractViolation() async throws {
        let (made, _) = try await certificate("DISTRIBUTION")
        let phone = try fixture.fake.seedDevice(udid: "00008030-001A35E11A88003A", name: "QA iPhone")
        await #expect(throws: AppStoreConnectError.self) {
            _ = try await client.createProfile(name: "Wrong", type: "IOS_APP_STORE", bundleIDResourceID: bundle,
                                               certificateIDs: [made.id], deviceIDs: [phone])
        }
        #expect(try fixture.fake.acknowledgeViolations() == ["POST /v1/profiles: devices are not part of a IOS_APP_STORE profile"])
        #expect(try fixture.fake.stored("profiles").isEmpty)
    }

    @Test func aCertificateOfTheWrongKindIsRefused() async throws {
        let (made, _) = try await certificate("DEVELOPMENT")
        do {
            _ = try await client.createProfile(name: "Store", type: "IOS_APP_STORE", bundleIDResourceID: bundle,
                                               certificateIDs: [made.id], deviceIDs: [])
            Issue.record("expected a refusal")
        } catch let error as AppStoreConnectError {
            #expect(error.status == 409)
            #expect(error.apiErrors.first?.detail == "The certificates ['\(made.id)'] cannot be used in a IOS_APP_STORE profile.")
        }
        #expect(try fixture.fake.state().violations == [])
    }
}
