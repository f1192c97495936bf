import Foundation
import Git
@testable import Signing
import Testing
import TestSupport
import TestThreads

/// The encrypted storage in a git repository: a local bare repository made by each test.
@Suite("Signing git storage", .dedicatedThreads) struct GitStorageTests {
    typealias Support = StorageTestSupport
    static let author = GitSignature(name: "Signing Test", email: "signing@example.com")

    static func open(_ bare: GitFixture, cache: String, readOnly: Bool = false) async throws -> EncryptedSigningStorage {
        let storage = try await GitSigningStorage.open(url: bare.path, cacheDirectory: cache, readOnly: readOnly, signature: author)
        return try await EncryptedSigningStorage.open(storage, passphrase: "team", parameters: Support.fast)
    }

    @Test func roundTripsThroughCloneCommitAndPush() async throws {
        let bare = try GitFixture(prefix: "slipway-signing-bare", bare: true)
        let caches = try TemporaryDirectory(prefix: "slipway-signing-cache")
        try await Support.writeIdentity(try await Self.open(bare, cache: caches.path + "/a"))
        #expect(try bare.git("log", "--format=%s", "main") == "Add distribution certificate ABC123 and com.example.app's App Store profile")
        #expect(try bare.git("ls-tree", "-r", "--name-only", "main").split(separator: "\n")
            == [Substring(Support.certPath), Substring(Support.keyPath), Substring(Support.profilePath), "slipway-signing.json"])

        let other = try await Self.open(bare, cache: caches.path + "/b", readOnly: true)
        #expect(try await other.read(Support.keyPath) == Support.key)
        #expect(try await other.list() == [Support.certPath, Support.keyPath, Support.profilePath])
    }

    /// match's `git_branch`: a writable open of a branch the repository lacks starts it (from the
    /// default branch) and pushes it under its own name; a read-only open says how to make it.
    @Test func aMissingBranchIsStartedByAWriterAndNamedToAReader() async throws {
        let bare = try GitFixture(prefix: "slipway-signing-bare", bare: true)
        let caches = try TemporaryDirectory(prefix: "slipway-signing-cache")
        let before = Support.snapshot(bare.path)
        await #expect(throws: SigningStorageError.unreachable(storage: bare.path, detail: "it has no branch 'ios'; a sync that is not read-only starts it (from the default branch, as match does), or fix git-branch")) {
            _ = try await GitSigningStorage.open(url: bare.path, cacheDirectory: caches.path + "/ci", branch: "ios", readOnly: true, signature: Self.author)
        }
        #expect(Support.snapshot(bare.path) == before)

        let empty = try await GitSigningStorage.open(url: bare.path, cacheDirectory: caches.path + "/a", branch: "ios", readOnly: false, signature: Self.author)
        try await Support.writeIdentity(try await EncryptedSigningStorage.open(empty, passphrase: "team", parameters: Support.fast))
        #expect(try bare.git("for-each-ref", "--format=%(refname)") == "refs/heads/ios")

        // A second branch starts from the first's files, as `git checkout -b` from it would.
        try bare.git("symbolic-ref", "HEAD", "refs/heads/ios")
        let macos = try await GitSigningStorage.open(url: bare.path, cacheDirectory: caches.path + "/b", branch: "macos", readOnly: false, signature: Self.author)
        try await macos.write("notes.txt", Array("mac".utf8))
        try await macos.save(message: "mac notes")
        #expect(try bare.git("for-each-ref", "--format=%(refname)").split(separator: "\n") == ["refs/heads/ios", "refs/heads/macos"])
        #expect(try bare.git("ls-tree", "-r", "--name-only", "macos").contains("slipway-signing.json"))
        let reader = try await GitSigningStorage.open(url: bare.path, cacheDirectory: caches.path + "/ci", branch: "macos", readOnly: true, signature: Self.author)
        #expect(try await reader.read("notes.txt") == Array("mac".utf8))
    }

    @Test func readOnlyNeverWritesToTheRepository() async throws {
        let bare = try GitFixture(prefix: "slipway-signing-bare", bare: true)
        let caches = try TemporaryDirectory(prefix: "slipway-signing-cache")
        try await Support.writeIdentity(try await Self.open(bare, cache: caches.path + "/a"))
        let before = Support.snapshot(bare.path)
        let reader = try await Self.open(bare, cache: caches.path + "/ci", readOnly: true)
        #expect(try await reader.read(Support.certPath) == Support.certificate)
        await #expect(throws: SigningStorageError.readOnly(storage: bare.path, operation: "write '\(Support.certPath)'")) {
            try await reader.write(Support.certPath, [1])
        }
        try await reader.save(message: "must not be pushed")
        #expect(Support.snapshot(bare.path) == before)
    }

    /// Two team members clone, both write the same file; the second push is refused, nothing of
    /// it reaches the remote, and a fresh run starts from the first member's version.
    @Test func theSecondConcurrentWriterIsRefusedClearly() async throws {
        let bare = try GitFixture(prefix: "slipway-signing-bare", bare: true)
        let caches = try TemporaryDirectory(prefix: "slipway-signing-cache")
        try await Support.writeIdentity(try await Self.open(bare, cache: caches.path + "/setup"))
        let alice = try await Self.open(bare, cache: caches.path + "/alice")
        let bob = try await Self.open(bare, cache: caches.path + "/bob")
        try await alice.write(Support.keyPath, Array("alice's key".utf8))
        try await alice.save(message: "alice")
        try await bob.write(Support.keyPath, Array("bob's key".utf8))
        await #expect(throws: SigningStorageError.pushConflict(storage: bare.path, detail: "'refs/heads/main' moved on the remote")) {
            try await bob.save(message: "bob")
        }
        #expect(try bare.git("log", "-1", "--format=%s", "main") == "alice")
        let rerun = try await Self.open(bare, cache: caches.path + "/bob")
        #expect(try await rerun.read(Support.keyPath) == Array("alice's key".utf8))
        #expect(SigningStorageError.pushConflict(storage: "r", detail: "d").localizedDescription
            == "Someone else changed the signing storage 'r' since it was read (d); nothing was pushed. Run the command again: it starts from their version.")
    }

    @Test func anUnreachableRepositoryIsNamedAndReadOnlyFallsBackToTheLastClone() async throws {
        let caches = try TemporaryDirectory(prefix: "slipway-signing-cache")
        let missing = caches.path + "/no-such-repository.git"
        do {
            _ = try await GitSigningStorage.open(url: missing, cacheDirectory: caches.path + "/x", readOnly: false)
            Issue.record("opening a missing repository succeeded")
        } catch let error as SigningStorageError {
            guard case let .unreachable(storage, _) = error else { Issue.record("\(error)"); return }
            #expect(storage == missing)
            #expect(error.localizedDescription.hasPrefix("The signing storage '\(missing)' could not be reached: "))
        }

        let bare = try GitFixture(prefix: "slipway-signing-bare", bare: true)
        try await Support.writeIdentity(try await Self.open(bare, cache: caches.path + "/ci"))
        let moved = caches.path + "/moved.git"
        try FileManager.default.moveItem(atPath: bare.path, toPath: moved)
        defer { try? FileManager.default.moveItem(atPath: moved, toPath: bare.path) }
        let offline = try await Self.open(bare, cache: caches.path + "/ci", readOnly: true)
        #expect(try await offline.read(Support.profilePath) == Support.profile)
        await #expect(throws: SigningStorageError.self) {
            try await Self.open(bare, cache: caches.path + "/ci", readOnly: false)
        }
    }
}
