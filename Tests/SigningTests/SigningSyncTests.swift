import AppleAPI
import Foundation
import Git
@testable import Signing
import Testing
import TestSupport
import TestThreads

/// `signing sync` against the App Store Connect contract fake (labelled CONTRACT FAKE in its
/// file): certificates made from Slipway's own CSR and issued by a test CA, profiles CMS-signed by
/// it, storages in a directory, a local bare git repository and (in S3StorageTests' style) moto.
@Suite("Signing sync", .dedicatedThreads) struct SigningSyncTests {
    typealias Fixture = SigningSyncFixture
    typealias Support = StorageTestSupport

    @Test func theFirstSyncCreatesAndStoresACertificateAndAProfile() async throws {
        let fixture = try Fixture()
        let bundleResource = try fixture.fake.seedBundleID(identifier: "com.example.app")
        let storage = try await fixture.directory()
        let result = try await fixture.sync(storage, .writable())

        let certificateID = result.certificateID
        #expect(try await fixture.appleCertificateIDs() == [certificateID])
        #expect(result.certificateName == "Apple Distribution: Slipway test team (AB12CD34EF)")
        #expect(result.teamID == "AB12CD34EF")
        let profile = try #require(result.profiles.first?.profile)
        #expect(profile.name == "Slipway AppStore com.example.app")
        #expect(profile.bundleID == "com.example.app")
        #expect(profile.includes(try #require(result.identity).certificate))
        #expect(result.actions == [
            "created the certificate \(certificateID) (Apple Distribution: Slipway test team (AB12CD34EF)) on App Store Connect",
            "stored certs/distribution/\(certificateID).cer and its .p12",
            "created the profile 'Slipway AppStore com.example.app' (\(profile.uuid)) on App Store Connect and stored "
                + "profiles/appstore/AppStore_com.example.app.mobileprovision",
        ])
        #expect(try await storage.list() == ["certs/distribution/\(certificateID).cer", "certs/distribution/\(certificateID).p12",
                                             "profiles/appstore/AppStore_com.example.app.mobileprovision"])
        // The stored key is the certificate's, in a PKCS#12 protected by the passphrase.
        let p12 = try await storage.read("certs/distribution/\(certificateID).p12")
        let stored = try SigningIdentity(pkcs12: p12, password: Fixture.passphrase, file: "p12")
        #expect(stored.certificate.der == result.identity?.certificate.der)
        let created = try fixture.fake.stored("profiles")
        #expect(created.count == 1)
        #expect(try fixture.writesToApple() == ["POST /v1/certificates", "POST /v1/profiles"])
        #expect(try fixture.fake.state().violations.isEmpty)
        _ = bundleResource

        // A second run finds everything valid and changes nothing.
        let again = try await fixture.sync(try await fixture.directory(), .writable())
        #expect(again.actions.isEmpty)
        #expect(again.certificateID == certificateID)
        #expect(again.profiles.map(\.uuid) == [profile.uuid])
        #expect(try fixture.writesToApple().count == 2)
    }

    /// Two team members sync against one git storage: the second finds the first's certificate
    /// and profile, and a CI run read-only installs with no write to Apple or the storage.
    @Test func twoTeamMembersEndWithOneCertificateAndCIWritesNothing() async throws {
        let fixture = try Fixture()
        try fixture.fake.seedBundleID(identifier: "com.example.app")
        let bare = try GitFixture(prefix: "slipway-signing-team", bare: true)
        let alice = try await fixture.sync(try await fixture.git(bare, member: "alice"), .writable())
        let bob = try await fixture.sync(try await fixture.git(bare, member: "bob"), .writable())
        #expect(bob.certificateID == alice.certificateID)
        #expect(bob.profiles.map(\.uuid) == alice.profiles.map(\.uuid))
        #expect(bob.actions.isEmpty)
        #expect(try await fixture.appleCertificateIDs() == [alice.certificateID])
        #expect(try fixture.fake.stored("profiles").count == 1)
        #expect(try bare.git("log", "--format=%an", "main").split(separator: "\n").count == 1)

        let appleWrites = try fixture.writesToApple()
        let before = Support.snapshot(bare.path)
        let ci = try await fixture.sync(try await fixture.git(bare, member: "ci", readOnly: true),
                                        SigningSyncRequest(type: .appStore, bundleIDs: ["com.example.app"], readOnly: true), portal: false)
        #expect(ci.certificateID == alice.certificateID)
        #expect(ci.identity?.certificate.der == alice.identity?.certificate.der)
        #expect(ci.profiles.map(\.uuid) == alice.profiles.map(\.uuid))
        #expect(try fixture.writesToApple() == appleWrites)
        #expect(Support.snapshot(bare.path) == before)
    }

    /// A lost race: both clone an empty storage, both create a certificate; the second push is
    /// refused and the second certificate is revoked again, so the team's limit is not used up.
    @Test func aRefusedPushRevokesTheCertificateItMade() async throws {
        let fixture = try Fixture()
        try fixture.fake.seedBundleID(identifier: "com.example.app")
        let bare = try GitFixture(prefix: "slipway-signing-race", bare: true)
        let late = try await fixture.git(bare, member: "late")  // cloned before the other member pushes
        let first = try await fixture.sync(try await fixture.git(bare, member: "first"), .writable())
        let error = await #expect(throws: SigningSyncError.self) { _ = try await fixture.sync(late, .writable()) }
        guard case let .saveFailed(detail, undone)? = error else { Issue.record("expected saveFailed, got \(String(describing: error))"); return }
        #expect(detail.contains("Someone else changed the signing storage"))
        #expect(undone.contains("was removed again"))
        #expect(try await fixture.appleCertificateIDs() == [first.certificateID])
        #expect(try bare.git("log", "--format=%s", "main").split(separator: "\n").count == 1)
    }

    @Test func anUnregisteredBundleIDIsNamedAndNothingIsCreated() async throws {
        let fixture = try Fixture()
        let storage = try await fixture.directory()
        let error = await #expect(throws: SigningSyncError.self) { _ = try await fixture.sync(storage, .writable()) }
        #expect(error?.errorDescription == "The bundle id 'com.example.app' is not registered on App Store Connect (IOS). Register it in "
            + "the developer portal (Certificates, Identifiers & Profiles → Identifiers), or run again with --register to register it.")
        #expect(try fixture.writesToApple().isEmpty)
        #expect(!FileManager.default.fileExists(atPath: fixture.folder.path + "/store"))
    }

    @Test func registerRegistersTheBundleID() async throws {
        let fixture = try Fixture()
        let result = try await fixture.sync(try await fixture.directory(), .writable(register: true))
        #expect(result.actions.contains("register the bundle id com.example.app on App Store Connect"))
        #expect(try await fixture.client.bundleIDs(identifier: "com.example.app").map(\.name) == ["Slipway com example app"])
        #expect(result.profiles.first?.profile?.bundleID == "com.example.app")
    }

    @Test func aDryRunCreatesNothingAnywhere() async throws {
        let fixture = try Fixture()
        try fixture.fake.seedBundleID(identifier: "com.example.app")
        let root = fixture.folder.path + "/store"
        let result = try await fixture.sync(try await fixture.directory(readOnly: true), .writable(dryRun: true))
        #expect(result.actions == [
            "would create a DISTRIBUTION certificate on App Store Connect and store it",
            "would create the profile 'Slipway AppStore com.example.app' for com.example.app (the storage has none) and store "
                + "profiles/appstore/AppStore_com.example.app.mobileprovision",
        ])
        #expect(result.identity == nil)
        #expect(try fixture.writesToApple().isEmpty)
        #expect(!FileManager.default.fileExists(atPath: root))
    }

    @Test func aRevokedCertificateIsReplacedWithItsProfiles() async throws {
        let fixture = try Fixture()
        try fixture.fake.seedBundleID(identifier: "com.example.app")
        let first = try await fixture.sync(try await fixture.directory(), .writable())
        try await fixture.client.revokeCertificate(id: first.certificateID)
        let second = try await fixture.sync(try await fixture.directory(), .writable())
        #expect(second.certificateID != first.certificateID)
        #expect(second.profiles.first?.uuid != first.profiles.first?.uuid)
        #expect(second.warnings.contains { $0.contains("certs/distribution/\(first.certificateID).cer' is not on App Store Connect") })
        #expect(try #require(second.profiles.first?.profile).includes(try #require(second.identity).certificate))
        #expect(try await fixture.appleCertificateIDs() == [second.certificateID])
    }

    @Test func aNewDeviceRemakesTheDevelopmentProfile() async throws {
        let fixture = try Fixture()
        try fixture.fake.seedBundleID(identifier: "com.example.app")
        try fixture.fake.seedDevice(udid: "00008030-000A1B2C3D4E5F60", name: "Alice's iPhone")
        let first = try await fixture.sync(try await fixture.directory(), .writable(.development))
        #expect(first.profiles.first?.profile?.deviceUDIDs == ["00008030-000A1B2C3D4E5F60"])
        #expect(first.profiles.first?.profile?.kind == .development)
        try fixture.fake.seedDevice(udid: "00008101-001122334455667A", name: "Bob's iPad", deviceClass: "IPAD")
        let second = try await fixture.sync(try await fixture.directory(), .writable(.development))
        #expect(second.certificateID == first.certificateID)
        #expect(Set(second.profiles.first?.profile?.deviceUDIDs ?? []) == ["00008030-000A1B2C3D4E5F60", "00008101-001122334455667A"])
        #expect(second.actions.contains { $0.hasPrefix("deleted the profile 'Slipway Development com.example.app'") })
        #expect(fixture.log.all.contains { $0.contains("it lacks 1 enabled device(s) (Bob's iPad)") })
    }

    @Test func renewReplacesWhatExpiresWithin30Days() async throws {
        let fixture = try Fixture()
        try fixture.fake.seedBundleID(identifier: "com.example.app")
        let first = try await fixture.sync(try await fixture.directory(), .writable())
        let later = try #require(first.identity?.certificate.notValidAfter).addingTimeInterval(-10 * 86_400)
        let warned = try await fixture.sync(try await fixture.directory(), .writable(now: later))
        #expect(warned.actions.isEmpty)
        #expect(warned.warnings.count == 2)
        #expect(warned.warnings.first?.hasPrefix("the certificate 'Apple Distribution: Slipway test team (AB12CD34EF)' expires on ") == true)
        #expect(warned.warnings.first?.hasSuffix("(within 30 days): run again with --renew to replace it") == true)
        let renewed = try await fixture.sync(try await fixture.directory(), .writable(renew: true, now: later))
        #expect(renewed.certificateID != first.certificateID)
        #expect(renewed.profiles.first?.uuid != first.profiles.first?.uuid)
        #expect(try await fixture.appleCertificateIDs().count == 2)
    }

    @Test func theCertificateLimitIsAClearErrorAndNothingIsStored() async throws {
        let fixture = try Fixture()
        try fixture.fake.seedBundleID(identifier: "com.example.app")
        try fixture.fake.set(["certificate_limit": "0"])
        let root = fixture.folder.path + "/store"
        let error = await #expect(throws: AppStoreConnectProvisioningError.self) {
            _ = try await fixture.sync(try await fixture.directory(), .writable())
        }
        guard case .certificateLimitReached? = error else { Issue.record("expected certificateLimitReached"); return }
        #expect(error?.errorDescription?.contains("slipway signing nuke") == true)
        #expect(!FileManager.default.fileExists(atPath: root))
    }

    /// A match storage: the key is stored as match's cert action writes it (PEM under the .p12
    /// name), the profile gets match's name, and Slipway reads both back.
    @Test func aMatchStorageGetsMatchsFilesAndNames() async throws {
        let fixture = try Fixture()
        try fixture.fake.seedBundleID(identifier: "com.example.app")
        let storage = try await fixture.directory(format: .match)
        let result = try await fixture.sync(storage, .writable())
        #expect(result.profiles.first?.name == "match AppStore com.example.app")
        let key = try await storage.read("certs/distribution/\(result.certificateID).p12")
        #expect(String(decoding: key.prefix(31), as: UTF8.self) == "-----BEGIN RSA PRIVATE KEY-----")
        #expect(FileManager.default.fileExists(atPath: fixture.folder.path + "/store/match_version.txt"))
        let ci = try await fixture.sync(try await fixture.directory(readOnly: true, format: .match),
                                        SigningSyncRequest(type: .appStore, bundleIDs: ["com.example.app"]), portal: false)
        #expect(ci.identity?.certificate.der == result.identity?.certificate.der)
    }

    @Test func nukeRevokesDeletesAndEmptiesTheStorage() async throws {
        let fixture = try Fixture()
        try fixture.fake.seedBundleID(identifier: "com.example.app")
        let synced = try await fixture.sync(try await fixture.directory(), .writable())
        let nuke = SigningNuke(storage: try await fixture.directory(), portal: fixture.client)
        let plan = try await nuke.plan(type: .appStore, platform: .ios, allOnAccount: false)
        let uuid = try #require(synced.profiles.first?.uuid)
        #expect(plan.map(\.description) == [
            "revoke the certificate \(synced.certificateID) (\(try #require(fixture.fake.stored("certificates").first?["attributes"] as? [String: Any])["name"] as? String ?? "")) on App Store Connect",
            "delete the profile 'Slipway AppStore com.example.app' (\(uuid)) on App Store Connect",
            "delete certs/distribution/\(synced.certificateID).cer from the storage",
            "delete certs/distribution/\(synced.certificateID).p12 from the storage",
            "delete profiles/appstore/AppStore_com.example.app.mobileprovision from the storage",
        ])
        try await nuke.perform(plan, type: .appStore, log: { _ in })
        #expect(try await fixture.appleCertificateIDs().isEmpty)
        #expect(try await fixture.client.profiles(type: "IOS_APP_STORE", name: nil).isEmpty)
        #expect(try await fixture.directory().list().isEmpty)
    }

    @Test func listShowsDatesDevicesAndWhichCertificateEachProfileUses() async throws {
        let fixture = try Fixture()
        try fixture.fake.seedBundleID(identifier: "com.example.app")
        try fixture.fake.seedDevice(udid: "00008030-000A1B2C3D4E5F60", name: "Alice's iPhone")
        let synced = try await fixture.sync(try await fixture.directory(), .writable(.adHoc))
        let inventory = try await SigningInventory.read(try await fixture.directory(readOnly: true))
        #expect(inventory.certificates.map(\.id) == [synced.certificateID])
        #expect(inventory.profiles.map(\.certificateIDs) == [[synced.certificateID]])
        #expect(inventory.profiles.map(\.devices) == [["00008030-000A1B2C3D4E5F60"]])
        #expect(inventory.profiles.map(\.kind) == [.adHoc])
        #expect(inventory.text.contains("    devices (1): 00008030-000A1B2C3D4E5F60"))
    }
}

/// The git storage's failure modes during a sync: no write access (a server hook refusing the
/// push, through the real `git http-backend`), and a repository that cannot be reached.
@Suite("Signing sync, git access", .dedicatedThreads) struct SigningSyncGitAccessTests {
    typealias Fixture = SigningSyncFixture

    @Test(.enabled(if: GitHTTPServer.isAvailable))
    func noWriteAccessRevokesWhatTheRunMadeAndStoresNothing() async throws {
        let fixture = try Fixture()
        try fixture.fake.seedBundleID(identifier: "com.example.app")
        let root = try TemporaryDirectory(prefix: "slipway-signing-served")
        let bare = root.path + "/certificates.git"
        try GitFixture.run(["init", "--quiet", "--bare", "--initial-branch=main", bare], in: root.path)
        try Data("#!/bin/sh\necho 'You do not have write access to this repository' >&2\nexit 1\n".utf8)
            .write(to: URL(fileURLWithPath: bare + "/hooks/pre-receive"))
        try FileManager.default.setAttributes([.posixPermissions: 0o755], ofItemAtPath: bare + "/hooks/pre-receive")
        let server = try GitHTTPServer(serving: root.path, token: "read-only-token")
        let opened = try await fixture.git(server.url(for: "certificates.git"), member: "reader", credentials: .token("read-only-token"))
        let error = await #expect(throws: SigningSyncError.self) { _ = try await fixture.sync(opened, .writable()) }
        guard case let .saveFailed(_, undone)? = error else { Issue.record("expected saveFailed, got \(String(describing: error))"); return }
        #expect(undone.hasPrefix("What this run created on App Store Connect was removed again (profile "))
        #expect(try await fixture.appleCertificateIDs().isEmpty)
        #expect(try fixture.fake.stored("profiles").isEmpty)
        #expect((try? GitFixture.run(["rev-parse", "--verify", "-q", "refs/heads/main"], in: bare)) == nil)
    }

    @Test func anUnreachableRepositoryFailsAWritableRunAndReadOnlyUsesTheLastClone() async throws {
        let fixture = try Fixture()
        try fixture.fake.seedBundleID(identifier: "com.example.app")
        let place = try TemporaryDirectory(prefix: "slipway-signing-moving")
        let bare = place.path + "/certificates.git"
        try GitFixture.run(["init", "--quiet", "--bare", "--initial-branch=main", bare], in: place.path)
        let made = try await fixture.sync(try await fixture.git(bare, member: "alice"), .writable())
        _ = try await fixture.git(bare, member: "ci", readOnly: true)  // CI's earlier clone
        try FileManager.default.moveItem(atPath: bare, toPath: place.path + "/gone.git")

        await #expect(throws: SigningStorageError.self) { _ = try await fixture.git(bare, member: "bob") }
        let offline = try await fixture.sync(try await fixture.git(bare, member: "ci", readOnly: true),
                                             SigningSyncRequest(type: .appStore, bundleIDs: ["com.example.app"]), portal: false)
        #expect(offline.certificateID == made.certificateID)
        #expect(offline.profiles.map(\.uuid) == made.profiles.map(\.uuid))
    }
}

/// A sync through an S3 storage (a real moto_server on 127.0.0.1), then a read-only CI run from it.
@Suite("Signing sync, S3 storage", .serialized, .dedicatedThreads) struct SigningSyncS3Tests {
    @Test(.enabled(if: MotoServer.isAvailable, "\(MotoServer.unavailableReason)"))
    func aSyncStoresInTheBucketAndCIReadsItBack() async throws {
        let fixture = try SigningSyncFixture()
        try fixture.fake.seedBundleID(identifier: "com.example.app")
        let moto = try MotoServer()
        try moto.createBucket("signing")
        func storage(readOnly: Bool) async throws -> EncryptedSigningStorage {
            try await EncryptedSigningStorage.open(try S3StorageTests.storage(moto, prefix: "team/", readOnly: readOnly),
                                                   passphrase: SigningSyncFixture.passphrase, parameters: StorageTestSupport.fast)
        }
        let made = try await fixture.sync(try await storage(readOnly: false), .writable())
        let keys = try await S3StorageTests.storage(moto).list()
        #expect(keys == ["certs/distribution/\(made.certificateID).cer", "certs/distribution/\(made.certificateID).p12",
                         "profiles/appstore/AppStore_com.example.app.mobileprovision", "slipway-signing.json"])
        let ci = try await fixture.sync(try await storage(readOnly: true),
                                        SigningSyncRequest(type: .appStore, bundleIDs: ["com.example.app"]), portal: false)
        #expect(ci.identity?.certificate.der == made.identity?.certificate.der)
        #expect(ci.profiles.map(\.uuid) == made.profiles.map(\.uuid))
        #expect(try await S3StorageTests.storage(moto).list() == keys)
    }
}
