import Foundation
import Signing
import Testing
import TestSupport
import TestThreads

/// Provisioning profiles: CMS envelopes made by openssl and by ProvisioningProfileBuilder.
@Suite("Provisioning profiles", .dedicatedThreads) struct ProvisioningProfileTests {
    static func builder(certificate: SigningCertificate) -> ProvisioningProfileBuilder {
        var builder = ProvisioningProfileBuilder()
        builder.name = "match AdHoc com.example.app"
        builder.uuid = "0B3E1F7A-2C4D-4E5F-8A9B-0C1D2E3F4A5B"
        builder.devices = ["00008101-000A1B2C3D4E001E", "a1b2c3d4e5f60718293a4b5c6d7e8f9012345678"]
        builder.certificates = [certificate.der]
        return builder
    }

    @Test func readsAProfileSignedByOpenSSL() throws {
        let folder = try TemporaryDirectory()
        let (certificate, key) = try CertificateFixtures.identity()
        let builder = Self.builder(certificate: certificate)
        _ = try CertificateFixtures.write(try builder.plist(), "profile.plist", in: folder)
        _ = try CertificateFixtures.write(certificate.der, "signer.cer", in: folder)
        _ = try folder.write("signer.key", key.pkcs8PEM)
        try CertificateFixtures.openssl(["x509", "-inform", "DER", "-in", "signer.cer", "-out", "signer.pem"], in: folder)
        try CertificateFixtures.openssl(["cms", "-sign", "-nodetach", "-binary", "-in", "profile.plist", "-signer", "signer.pem",
                                         "-inkey", "signer.key", "-outform", "DER", "-out", "profile.mobileprovision"], in: folder)
        let profile = try ProvisioningProfile(bytes: try CertificateFixtures.read(folder.path + "/profile.mobileprovision"),
                                              file: "profile.mobileprovision")
        #expect(profile.name == "match AdHoc com.example.app")
        #expect(profile.uuid == "0B3E1F7A-2C4D-4E5F-8A9B-0C1D2E3F4A5B")
        #expect(profile.teamID == "AB12CD34EF")
        #expect(profile.appIDName == "Slipway Example")
        #expect(profile.bundleID == "com.example.app")
        #expect(profile.creationDate == builder.creationDate)
        #expect(profile.expirationDate == builder.expirationDate)
        #expect(profile.kind == .adHoc)
        #expect(profile.deviceUDIDs == builder.devices)
        #expect(profile.certificateFingerprints == [certificate.sha1Fingerprint])
        #expect(profile.includes(certificate))
        #expect(profile.platforms == ["iOS"])
    }

    @Test func builderMakesProfilesOpenSSLVerifies() throws {
        let folder = try TemporaryDirectory()
        let authority = try TestCertificateAuthority()
        let (certificate, _) = try CertificateFixtures.identity(authority: authority)
        let builder = Self.builder(certificate: certificate)
        let bytes = try builder.build(signedBy: authority)
        _ = try CertificateFixtures.write(bytes, "built.mobileprovision", in: folder)
        try CertificateFixtures.openssl(["cms", "-verify", "-noverify", "-inform", "DER", "-in", "built.mobileprovision",
                                         "-out", "content.plist"], in: folder)
        #expect(try CertificateFixtures.read(folder.path + "/content.plist") == (try builder.plist()))
        let profile = try ProvisioningProfile(bytes: bytes, file: "built.mobileprovision")
        #expect(profile.uuid == builder.uuid)
        #expect(profile.data == bytes)
    }

    @Test func kindsFollowDevicesDebuggingAndPlatform() throws {
        let authority = try TestCertificateAuthority()
        let (distribution, _) = try CertificateFixtures.identity(authority: authority)
        let (developerID, _) = try CertificateFixtures.identity(
            commonName: "Developer ID Application: Example Ltd (AB12CD34EF)", authority: authority)
        func kind(_ change: (inout ProvisioningProfileBuilder) -> Void) throws -> ProvisioningProfile.Kind {
            var builder = Self.builder(certificate: distribution)
            change(&builder)
            return try ProvisioningProfile(bytes: try builder.build(signedBy: authority), file: "p").kind
        }
        #expect(try kind { _ in } == .adHoc)
        #expect(try kind { $0.getTaskAllow = true } == .development)
        #expect(try kind { $0.devices = [] } == .appStore)
        #expect(try kind { $0.devices = []; $0.provisionsAllDevices = true } == .enterprise)
        #expect(try kind {
            $0.devices = []
            $0.platforms = ["OSX"]
            $0.certificates = [developerID.der]
        } == .developerID)
        var mac = Self.builder(certificate: distribution)
        mac.platforms = ["OSX"]
        #expect(try ProvisioningProfile(bytes: try mac.build(signedBy: authority), file: "p").bundleID == "com.example.app")
    }

    @Test func expiresWithin() throws {
        let authority = try TestCertificateAuthority()
        let (certificate, _) = try CertificateFixtures.identity(authority: authority)
        let builder = Self.builder(certificate: certificate)
        let profile = try ProvisioningProfile(bytes: try builder.build(signedBy: authority), file: "p")
        #expect(profile.expiresWithin(days: 30, now: builder.expirationDate.addingTimeInterval(-10 * 86_400)))
        #expect(!profile.expiresWithin(days: 30, now: builder.expirationDate.addingTimeInterval(-40 * 86_400)))
    }

    @Test func notCMSIsNamed() throws {
        let plist = Array("<?xml version=\"1.0\"?><plist><dict/></plist>".utf8)
        let error = SigningCertificateError.notAProvisioningProfile(file: "profiles/adhoc/AdHoc_com.example.app.mobileprovision",
                                                                    detail: "it is not DER")
        #expect(throws: error) {
            try ProvisioningProfile(bytes: plist, file: "profiles/adhoc/AdHoc_com.example.app.mobileprovision")
        }
        #expect(error.localizedDescription == "'profiles/adhoc/AdHoc_com.example.app.mobileprovision' is not a provisioning "
            + "profile: it is not a CMS signed envelope (it is not DER). Download the .mobileprovision again from the Apple "
            + "Developer portal or App Store Connect.")
    }

    @Test func contentThatIsNotAPlistIsNamed() throws {
        let folder = try TemporaryDirectory()
        let authority = try TestCertificateAuthority()
        let (certificate, key) = try CertificateFixtures.identity(authority: authority)
        _ = try folder.write("content.txt", "not a property list")
        _ = try CertificateFixtures.write(certificate.der, "signer.cer", in: folder)
        _ = try folder.write("signer.key", key.pkcs8PEM)
        try CertificateFixtures.openssl(["x509", "-inform", "DER", "-in", "signer.cer", "-out", "signer.pem"], in: folder)
        try CertificateFixtures.openssl(["cms", "-sign", "-nodetach", "-binary", "-in", "content.txt", "-signer", "signer.pem",
                                         "-inkey", "signer.key", "-outform", "DER", "-out", "bad.mobileprovision"], in: folder)
        #expect(throws: SigningCertificateError.unreadableProfileContent(file: "bad.mobileprovision",
                                                                        detail: "the content is not a property list")) {
            try ProvisioningProfile(bytes: try CertificateFixtures.read(folder.path + "/bad.mobileprovision"),
                                    file: "bad.mobileprovision")
        }
        // A detached signature has no content to read.
        try CertificateFixtures.openssl(["cms", "-sign", "-binary", "-in", "content.txt", "-signer", "signer.pem",
                                         "-inkey", "signer.key", "-outform", "DER", "-out", "detached.p7s"], in: folder)
        #expect(throws: SigningCertificateError.notAProvisioningProfile(
            file: "detached.p7s", detail: "the content (the envelope is detached) is missing")) {
            try ProvisioningProfile(bytes: try CertificateFixtures.read(folder.path + "/detached.p7s"), file: "detached.p7s")
        }
    }
}
