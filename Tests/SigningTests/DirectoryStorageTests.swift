import Foundation
@testable import Signing
import Testing
import TestSupport
import TestThreads

/// The encrypted storage over a local directory, in both formats, and its bad input.
@Suite("Signing directory storage", .dedicatedThreads) struct DirectoryStorageTests {
    typealias Support = StorageTestSupport

    @Test func roundTripsInSlipwayFormat() async throws {
        let folder = try TemporaryDirectory(prefix: "slipway-signing-dir")
        let root = folder.path + "/store"
        let store = try await EncryptedSigningStorage.open(DirectorySigningStorage(root: root), passphrase: "team secret",
                                                           parameters: Support.fast)
        try await Support.writeIdentity(store)
        #expect(FileManager.default.fileExists(atPath: root + "/slipway-signing.json"))
        let raw = try #require(FileManager.default.contents(atPath: root + "/" + Support.keyPath))
        #expect(SlipwayCipher.isSlipwayFile(Array(raw)))

        let again = try await EncryptedSigningStorage.open(DirectorySigningStorage(root: root, readOnly: true), passphrase: "team secret")
        #expect(again.format == .slipway)
        #expect(try await again.list() == [Support.certPath, Support.keyPath, Support.profilePath])
        #expect(try await again.read(Support.keyPath) == Support.key)
        #expect(try await again.read(Support.profilePath) == Support.profile)
        let manifest = try SigningManifest.decode(Array(try #require(FileManager.default.contents(atPath: root + "/slipway-signing.json"))),
                                                  storage: root)
        #expect(manifest.scrypt == Support.fast)
    }

    @Test func matchFormatStorageIsReadableByAnIndependentImplementation() async throws {
        let folder = try TemporaryDirectory(prefix: "slipway-signing-dir")
        let root = folder.path + "/match"
        let store = try await EncryptedSigningStorage.open(DirectorySigningStorage(root: root), passphrase: "MATCH", newFormat: .match)
        try await Support.writeIdentity(store)
        #expect(FileManager.default.fileExists(atPath: root + "/match_version.txt"))
        let reopened = try await EncryptedSigningStorage.open(DirectorySigningStorage(root: root), passphrase: "MATCH")
        #expect(reopened.format == .match)
        #expect(try await reopened.read(Support.certPath) == Support.certificate)
        #expect(try PythonFormats.run(["match-decrypt", root + "/" + Support.profilePath, "MATCH"], in: folder) == Support.profile)
    }

    @Test func readOnlyNeverWrites() async throws {
        let folder = try TemporaryDirectory(prefix: "slipway-signing-dir")
        let root = folder.path + "/empty"
        let store = try await EncryptedSigningStorage.open(DirectorySigningStorage(root: root, readOnly: true), passphrase: "p")
        await #expect(throws: SigningStorageError.readOnly(storage: root, operation: "write '\(Support.certPath)'")) {
            try await store.write(Support.certPath, Support.certificate)
        }
        try await store.save(message: "nothing")
        #expect(!FileManager.default.fileExists(atPath: root))
        #expect(SigningStorageError.readOnly(storage: "/s", operation: "write 'a'").localizedDescription
            == "Cannot write 'a' in '/s': the storage was opened read-only. Run without --readonly to change it.")
    }

    @Test func wrongPassphraseAndTamperingNameTheFile() async throws {
        let folder = try TemporaryDirectory(prefix: "slipway-signing-dir")
        let root = folder.path + "/store"
        try await Support.writeIdentity(try await EncryptedSigningStorage.open(DirectorySigningStorage(root: root), passphrase: "right",
                                                                                parameters: Support.fast))
        let wrong = try await EncryptedSigningStorage.open(DirectorySigningStorage(root: root), passphrase: "wrong")
        await #expect(throws: SigningStorageError.wrongPassphrase(file: "\(root)/\(Support.keyPath)")) {
            try await wrong.read(Support.keyPath)
        }
        let path = root + "/" + Support.profilePath
        var bytes = Array(try #require(FileManager.default.contents(atPath: path)))
        bytes[bytes.count - 20] ^= 0x04
        try Data(bytes).write(to: URL(fileURLWithPath: path))
        let right = try await EncryptedSigningStorage.open(DirectorySigningStorage(root: root), passphrase: "right")
        await #expect(throws: SigningStorageError.tampered(file: "\(root)/\(Support.profilePath)", detail: "the AES-GCM tag does not match")) {
            try await right.read(Support.profilePath)
        }
        #expect(try await right.read(Support.certPath) == Support.certificate)
    }

    @Test func badPathsAndStoragesAreRefusedWithoutWriting() async throws {
        let folder = try TemporaryDirectory(prefix: "slipway-signing-dir")
        let root = folder.path + "/store"
        let store = try await EncryptedSigningStorage.open(DirectorySigningStorage(root: root), passphrase: "p", parameters: Support.fast)
        for path in ["../outside.cer", "/etc/passwd", "", "certs//x.cer", "slipway-signing.json"] {
            await #expect(throws: SigningStorageError.invalidPath(path: path)) { try await store.write(path, [1]) }
        }
        await #expect(throws: SigningStorageError.fileNotFound(path: Support.certPath, storage: root)) {
            try await store.read(Support.certPath)
        }
        #expect(!FileManager.default.fileExists(atPath: root))
        #expect(SigningStorageError.invalidPath(path: "../x").localizedDescription
            == "'../x' is not a path inside a signing storage: use a relative path such as 'certs/distribution/ID.cer', without '..' or a leading '/'.")

        let other = folder.path + "/other"
        _ = try folder.write("other/notes.txt", "not signing")
        await #expect(throws: SigningStorageError.unrecognizedStorage(
            storage: other, detail: "no 'slipway-signing.json' or 'match_version.txt', but 1 file(s) such as 'notes.txt'")) {
            try await EncryptedSigningStorage.open(DirectorySigningStorage(root: other), passphrase: "p")
        }
        _ = try folder.write("bad/slipway-signing.json", "{\"version\": 9}")
        await #expect(throws: SigningStorageError.invalidManifest(
            storage: folder.path + "/bad", detail: "version 9 is newer than this Slipway reads (1); upgrade Slipway")) {
            try await EncryptedSigningStorage.open(DirectorySigningStorage(root: folder.path + "/bad"), passphrase: "p")
        }
        await #expect(throws: SigningStorageError.emptyPassphrase(storage: root)) {
            try await EncryptedSigningStorage.open(DirectorySigningStorage(root: root), passphrase: "")
        }
    }

    @Test func layoutFollowsMatch() throws {
        #expect(SigningLayout.profilePath(kind: .enterprise, bundleID: "com.a.b") == "profiles/enterprise/InHouse_com.a.b.mobileprovision")
        #expect(SigningLayout.profilePath(kind: .developerID, bundleID: "com.a.b", platform: "macos")
            == "profiles/developer_id/Direct_com.a.b_macos.mobileprovision")
        #expect(SigningLayout.certificatePath(kind: .developerIDApplication, id: "X1") == "certs/developer_id_application/X1.cer")
        #expect(SigningLayout.entry(for: "profiles/adhoc/AdHoc_com.a.b_tvos.mobileprovision")
            == .profile(kind: .adHoc, bundleID: "com.a.b", platform: "tvos"))
        #expect(SigningLayout.entry(for: "certs/distribution/X1.p12") == .privateKey(kind: .distribution, id: "X1"))
        #expect(SigningLayout.entry(for: "profiles/appstore/AdHoc_x.mobileprovision") == nil)
        #expect(SigningProfileKind.adHoc.certificateKind == .distribution)
    }
}
