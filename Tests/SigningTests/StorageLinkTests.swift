import Foundation
import Git
@testable import Signing
import Testing
import TestSupport
import TestThreads

/// A storage in the checkout, or a cloned one, may hold symbolic links; none is followed, so
/// nothing outside the storage is read, written or deleted through one.
@Suite("Signing storage links", .dedicatedThreads) struct StorageLinkTests {
    typealias Support = StorageTestSupport

    /// A folder outside the storage with a file a hostile link could reach.
    static func victim() throws -> TemporaryDirectory {
        let outside = try TemporaryDirectory(prefix: "slipway-signing-victim")
        try outside.write("appstore/AppStore_com.example.app.mobileprovision", "the user's own file\n")
        return outside
    }

    @Test func aLinkedFolderIsNeitherWrittenNorDeletedThrough() async throws {
        let folder = try TemporaryDirectory(prefix: "slipway-signing-links")
        let outside = try Self.victim()
        let root = folder.path + "/store"
        let store = try await EncryptedSigningStorage.open(DirectorySigningStorage(root: root), passphrase: "team", parameters: Support.fast)
        try await Support.writeIdentity(store)
        try FileManager.default.removeItem(atPath: root + "/profiles")
        try FileManager.default.createSymbolicLink(atPath: root + "/profiles", withDestinationPath: outside.path)
        let before = try Snapshot.of(outside.path)
        let refused = SigningStorageError.unsafeLink(storage: root, path: "profiles")
        await #expect(throws: refused) { try await store.write(Support.profilePath, Support.profile) }
        await #expect(throws: refused) { try await store.delete(Support.profilePath) }
        await #expect(throws: refused) { _ = try await store.read(Support.profilePath) }
        #expect(try Snapshot.of(outside.path) == before)
        #expect(refused.errorDescription == "'profiles' in the signing storage '\(root)' is a symbolic link: a storage holds regular files and "
            + "folders only, so nothing was read, written or deleted through it. Remove the link from the storage (a storage in the "
            + "checkout or a cloned one may be hostile), or give the storage's real path.")
    }

    @Test func aLinkedFileIsNotRead() async throws {
        let folder = try TemporaryDirectory(prefix: "slipway-signing-links")
        let root = folder.path + "/store"
        let store = try await EncryptedSigningStorage.open(DirectorySigningStorage(root: root), passphrase: "team", parameters: Support.fast)
        try await Support.writeIdentity(store)
        // Read to its end, /dev/zero never ends.
        try FileManager.default.removeItem(atPath: root + "/" + Support.certPath)
        try FileManager.default.createSymbolicLink(atPath: root + "/" + Support.certPath, withDestinationPath: "/dev/zero")
        await #expect(throws: SigningStorageError.unsafeLink(storage: root, path: Support.certPath)) {
            _ = try await store.read(Support.certPath)
        }
        #expect(try await store.list() == [Support.keyPath, Support.profilePath])
    }

    @Test func aLinkedStorageIsRefused() async throws {
        let folder = try TemporaryDirectory(prefix: "slipway-signing-links")
        let outside = try Self.victim()
        try FileManager.default.createSymbolicLink(atPath: folder.path + "/store", withDestinationPath: outside.path)
        let before = try Snapshot.of(outside.path)
        await #expect(throws: SigningStorageError.unsafeLink(storage: folder.path + "/store", path: ".")) {
            _ = try await EncryptedSigningStorage.open(DirectorySigningStorage(root: folder.path + "/store"), passphrase: "team")
        }
        #expect(try Snapshot.of(outside.path) == before)
    }

    @Test func aFileOverTheLimitIsNotRead() async throws {
        let folder = try TemporaryDirectory(prefix: "slipway-signing-links")
        let root = folder.path + "/store"
        let store = try await EncryptedSigningStorage.open(DirectorySigningStorage(root: root), passphrase: "team", parameters: Support.fast)
        try await Support.writeIdentity(store)
        let handle = try #require(FileHandle(forWritingAtPath: root + "/" + Support.certPath))
        try handle.truncate(atOffset: UInt64(StorageFileAccess.maximumFileBytes + 1))
        try handle.close()
        await #expect(throws: SigningStorageError.unreachable(
            storage: root, detail: "'\(Support.certPath)' is \(StorageFileAccess.maximumFileBytes + 1) bytes; storage files are at most "
                + "\(StorageFileAccess.maximumFileBytes)")) {
            _ = try await store.read(Support.certPath)
        }
    }

    /// A git storage whose history holds a link: its clone is the storage's folder.
    @Test func aClonedLinkIsNotWrittenThrough() async throws {
        let outside = try Self.victim()
        let source = try GitFixture(prefix: "slipway-signing-hostile")
        try FileManager.default.createSymbolicLink(atPath: source.path + "/profiles", withDestinationPath: outside.path)
        _ = try source.write("README.md", "signing\n")
        try source.git("add", "-A")
        try source.git("commit", "-q", "-m", "storage")
        let caches = try TemporaryDirectory(prefix: "slipway-signing-cache")
        let git = try await GitSigningStorage.open(url: source.path, cacheDirectory: caches.path + "/c", readOnly: false,
                                                   signature: GitSignature(name: "T", email: "t@example.com"))
        let store = try await EncryptedSigningStorage.open(git, passphrase: "team", parameters: Support.fast)
        let before = try Snapshot.of(outside.path)
        await #expect(throws: SigningStorageError.unsafeLink(storage: caches.path + "/c/clone", path: "profiles")) {
            try await store.write(Support.profilePath, Support.profile)
        }
        #expect(try Snapshot.of(outside.path) == before)
    }
}
