import Foundation
@testable import Signing
import Testing
import TestSupport
import TestThreads

/// `signing sync --readonly` (the default on CI): only the storage is read; no API key, no
/// writes, and a clear error for each thing that is missing or unusable.
@Suite("Signing sync, read-only", .dedicatedThreads) struct SigningSyncReadOnlyTests {
    typealias Support = StorageTestSupport
    static let june = Date(timeIntervalSince1970: 1_780_272_000) // 2026-06-01
    static let bundleID = "com.example.app"

    /// A storage holding a distribution certificate (id CERT1) with its key and an App Store
    /// profile for com.example.app made for it (or for `profileCertificate`).
    struct Fixture {
        let folder: TemporaryDirectory
        let root: String
        let identity: SigningIdentity
        let profileUUID: String

        init(format: EncryptedSigningStorage.Format = .slipway, profileFor other: SigningCertificate? = nil,
             withProfile: Bool = true) async throws {
            folder = try TemporaryDirectory(prefix: "slipway-signing-ro")
            root = folder.path + "/store"
            let authority = try TestCertificateAuthority()
            let (certificate, key) = try CertificateFixtures.identity(authority: authority)
            identity = try SigningIdentity(certificate: certificate, key: key)
            var builder = ProvisioningProfileBuilder()
            builder.name = "Slipway AppStore com.example.app"
            builder.bundleID = SigningSyncReadOnlyTests.bundleID
            builder.certificates = [(other ?? certificate).der]
            profileUUID = builder.uuid
            let store = try await EncryptedSigningStorage.open(DirectorySigningStorage(root: root), passphrase: "team secret",
                                                               newFormat: format, parameters: Support.fast)
            try await store.write(identity: identity, id: "CERT1", kind: .distribution, passphrase: "team secret")
            if withProfile {
                try await store.write(SigningLayout.profilePath(kind: .appStore, bundleID: SigningSyncReadOnlyTests.bundleID),
                                      try builder.build(signedBy: authority))
            }
        }

        func run(now: Date = SigningSyncReadOnlyTests.june, passphrase: String = "team secret") async throws -> SigningSyncResult {
            let store = try await EncryptedSigningStorage.open(DirectorySigningStorage(root: root, readOnly: true), passphrase: passphrase)
            return try await SigningSync(storage: store, passphrase: passphrase, portal: nil)
                .run(SigningSyncRequest(type: .appStore, bundleIDs: [SigningSyncReadOnlyTests.bundleID], readOnly: true, now: now))
        }
    }

    @Test(arguments: [EncryptedSigningStorage.Format.slipway, .match])
    func installsWhatTheStorageHoldsAndWritesNothing(format: EncryptedSigningStorage.Format) async throws {
        let fixture = try await Fixture(format: format)
        let before = Support.snapshot(fixture.root)
        let result = try await fixture.run()
        #expect(result.certificateID == "CERT1")
        #expect(result.identity?.certificate.der == fixture.identity.certificate.der)
        #expect(result.identity?.certificate.matches(fixture.identity.key) == true)
        #expect(result.certificateName == "Apple Distribution: Example Ltd (AB12CD34EF)")
        #expect(result.teamID == "AB12CD34EF")
        #expect(result.profiles.map(\.uuid) == [fixture.profileUUID])
        #expect(result.profiles.map(\.name) == ["Slipway AppStore com.example.app"])
        #expect(result.actions.isEmpty)
        #expect(result.warnings.isEmpty)
        #expect(Support.snapshot(fixture.root) == before)
    }

    @Test func warnsAboutWhatExpiresWithin30Days() async throws {
        let fixture = try await Fixture()
        let result = try await fixture.run(now: Date(timeIntervalSince1970: 1_796_083_200)) // 2026-12-01: 31 days before both expire
        #expect(result.warnings.isEmpty)
        let late = try await fixture.run(now: Date(timeIntervalSince1970: 1_797_292_800)) // 2026-12-15
        #expect(late.warnings == [
            "the certificate 'Apple Distribution: Example Ltd (AB12CD34EF)' expires on 2027-01-01 (within 30 days): "
                + "run 'slipway signing sync --renew' without --readonly to replace it",
            "the profile 'Slipway AppStore com.example.app' (com.example.app) expires on 2027-01-01 (within 30 days): "
                + "run 'slipway signing sync --renew' without --readonly to replace it",
        ])
    }

    @Test func anExpiredCertificateIsAClearErrorAndNothingChanges() async throws {
        let fixture = try await Fixture()
        let before = Support.snapshot(fixture.root)
        await #expect(throws: SigningSyncError.certificateExpiredReadOnly(
            file: fixture.root + "/certs/distribution/CERT1.cer", expired: CertificateFixtures.notAfter)) {
            _ = try await fixture.run(now: Date(timeIntervalSince1970: 1_800_000_000)) // 2027-01-15
        }
        let message = SigningSyncError.certificateExpiredReadOnly(file: "store/certs/distribution/CERT1.cer",
                                                                  expired: CertificateFixtures.notAfter).errorDescription
        #expect(message == "The certificate 'store/certs/distribution/CERT1.cer' expired on 2027-01-01, and this run is read-only, "
            + "so it is not replaced. Run 'slipway signing sync --renew' without --readonly, with an App Store Connect key, to make a new one.")
        #expect(Support.snapshot(fixture.root) == before)
    }

    @Test func anEmptyStorageSaysToRunOnceWithoutReadOnly() async throws {
        let folder = try TemporaryDirectory(prefix: "slipway-signing-ro")
        let store = try await EncryptedSigningStorage.open(DirectorySigningStorage(root: folder.path, readOnly: true), passphrase: "x y z")
        let error = await #expect(throws: SigningSyncError.self) {
            _ = try await SigningSync(storage: store, passphrase: "x y z", portal: nil)
                .run(SigningSyncRequest(type: .development, bundleIDs: ["com.example.app"]))
        }
        #expect(error?.errorDescription == "The signing storage '\(folder.path)' has no valid development certificate with its private key, "
            + "and this run is read-only (the default when CI=true), so none is created. Run 'slipway signing sync' once without "
            + "--readonly, with an App Store Connect key, to create and store one.")
        #expect(try FileManager.default.contentsOfDirectory(atPath: folder.path).isEmpty)
    }

    @Test func aProfileForAnotherCertificateIsRefused() async throws {
        let (other, _) = try CertificateFixtures.identity()
        let fixture = try await Fixture(profileFor: other)
        let error = await #expect(throws: SigningSyncError.self) { _ = try await fixture.run() }
        let file = fixture.root + "/profiles/appstore/AppStore_com.example.app.mobileprovision"
        #expect(error?.errorDescription == "The profile '\(file)' cannot be used: it was made for another certificate (SHA-1 "
            + "\(other.sha1Fingerprint)), not the storage's 'Apple Distribution: Example Ltd (AB12CD34EF)' (SHA-1 "
            + "\(fixture.identity.certificate.sha1Fingerprint)). This run is read-only, so it is not replaced; run 'slipway signing sync' "
            + "without --readonly to make a new one.")
    }

    @Test func aMissingProfileIsNamed() async throws {
        let fixture = try await Fixture(withProfile: false)
        await #expect(throws: SigningSyncError.profileMissingReadOnly(
            file: fixture.root + "/profiles/appstore/AppStore_com.example.app.mobileprovision", bundleID: "com.example.app")) {
            _ = try await fixture.run()
        }
    }

    @Test func aWrongPassphraseInstallsNothing() async throws {
        let fixture = try await Fixture()
        let before = Support.snapshot(fixture.root)
        await #expect(throws: SigningStorageError.wrongPassphrase(file: fixture.root + "/certs/distribution/CERT1.cer")) {
            _ = try await fixture.run(passphrase: "not the team secret")
        }
        #expect(Support.snapshot(fixture.root) == before)
    }

    @Test func anUnsupportedPlatformIsRefusedBeforeAnythingIsRead() async throws {
        let folder = try TemporaryDirectory(prefix: "slipway-signing-ro")
        let store = try await EncryptedSigningStorage.open(DirectorySigningStorage(root: folder.path, readOnly: true), passphrase: "x y z")
        let error = await #expect(throws: SigningSyncError.self) {
            _ = try await SigningSync(storage: store, passphrase: "x y z", portal: nil)
                .run(SigningSyncRequest(type: .enterprise, platform: .macos, bundleIDs: ["com.example.app"]))
        }
        #expect(error?.errorDescription == "Apple has no enterprise profiles for macos. Use --platform ios, tvos with --type enterprise.")
    }
}
