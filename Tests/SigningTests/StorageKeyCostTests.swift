import Foundation
@testable import Signing
import Testing
import TestSupport
import TestThreads

/// A hostile storage cannot make one command derive a key per file: every file of a Slipway
/// storage must carry the key its manifest names, and a file that claims another one (say, the
/// most expensive scrypt parameters accepted, about 4 s and 1 GiB each) is refused before any
/// derivation.
@Suite("Signing storage key cost", .dedicatedThreads) struct StorageKeyCostTests {
    typealias Support = StorageTestSupport

    /// Rewrites the header of the file at `path` to claim N=2^22, r=2, p=1 and a salt of its own.
    static func claimMaximumCost(_ path: String, saltByte: UInt8) throws {
        var bytes = Array(try Data(contentsOf: URL(fileURLWithPath: path)))
        bytes[10] = 22
        bytes[11] = 0; bytes[12] = 2
        bytes[13] = 0; bytes[14] = 1
        for index in 15..<31 { bytes[index] = saltByte }
        try Data(bytes).write(to: URL(fileURLWithPath: path))
    }

    @Test func filesClaimingAnotherKeyAreRefusedWithoutDerivingIt() async throws {
        let folder = try TemporaryDirectory(prefix: "slipway-signing-kdf")
        let root = folder.path + "/store"
        let store = try await EncryptedSigningStorage.open(DirectorySigningStorage(root: root), passphrase: "team secret",
                                                           parameters: Support.fast)
        try await Support.writeIdentity(store)
        for (index, path) in [Support.certPath, Support.keyPath, Support.profilePath].enumerated() {
            try Self.claimMaximumCost(root + "/" + path, saltByte: UInt8(index + 1))
        }
        let before = Support.snapshot(root)
        let reopened = try await EncryptedSigningStorage.open(DirectorySigningStorage(root: root, readOnly: true), passphrase: "team secret")
        for path in [Support.certPath, Support.keyPath, Support.profilePath] {
            await #expect(throws: SigningStorageError.tampered(
                file: "\(root)/\(path)",
                detail: "its key (scrypt N=2^22, r=2, p=1 and its salt) is not the one the storage's 'slipway-signing.json' names, "
                    + "and Slipway writes every file with that key; nothing was derived from it")) {
                _ = try await reopened.read(path)
            }
        }
        #expect(Support.snapshot(root) == before)
    }

    @Test func aFileWithTheManifestsKeyStillReads() async throws {
        let folder = try TemporaryDirectory(prefix: "slipway-signing-kdf")
        let root = folder.path + "/store"
        let store = try await EncryptedSigningStorage.open(DirectorySigningStorage(root: root), passphrase: "team secret",
                                                           parameters: Support.fast)
        try await Support.writeIdentity(store)
        // Another run writes with the same manifest: same key, new nonce.
        let again = try await EncryptedSigningStorage.open(DirectorySigningStorage(root: root), passphrase: "team secret")
        try await again.write(Support.profilePath, Support.profile + [1])
        let reader = try await EncryptedSigningStorage.open(DirectorySigningStorage(root: root, readOnly: true), passphrase: "team secret")
        #expect(try await reader.read(Support.profilePath) == Support.profile + [1])
        #expect(try await reader.read(Support.keyPath) == Support.key)
    }

    /// The same storage through the CLI, with the process's CPU time capped at 3 s by an rlimit:
    /// one derivation at the claimed cost alone takes longer, so the command finishes with the
    /// error only because it derives nothing.
    @Test func theCommandFinishesWithinACPULimit() async throws {
        let folder = try TemporaryDirectory(prefix: "slipway-signing-kdf")
        let root = folder.path + "/store"
        let store = try await EncryptedSigningStorage.open(DirectorySigningStorage(root: root), passphrase: "team secret",
                                                           parameters: Support.fast)
        try await Support.writeIdentity(store)
        for (index, path) in [Support.certPath, Support.keyPath, Support.profilePath].enumerated() {
            try Self.claimMaximumCost(root + "/" + path, saltByte: UInt8(index + 1))
        }
        let before = Support.snapshot(root)
        let result = try CommandResult.run("/usr/bin/prlimit", ["--cpu=3", Binaries.slipway, "signing", "list", "--storage", root],
                                           in: folder.path, environment: ["SLIPWAY_SIGNING_PASSPHRASE": "team secret", "GITHUB_ACTIONS": nil])
        #expect(result.status == 1, "\(result.status): \(result.standardError)")
        #expect(result.standardError.contains("is not the one the storage's 'slipway-signing.json' names, and Slipway writes every "
            + "file with that key; nothing was derived from it"), "\(result.standardError)")
        #expect(Support.snapshot(root) == before)
    }
}
