import AppleAPI
import Crypto
import Foundation
import Git
import Networking
@testable import Signing
import TestSupport
import Transport

/// The App Store Connect contract fake (labelled CONTRACT FAKE in its file) issuing certificates
/// and profiles from a test CA, a key it accepts, and storages to sync through.
struct SigningSyncFixture {
    static let issuerID = "69a6de7e-2f4c-47e3-e053-5b8c7c11a4d1"
    static let keyID = "ABC123DEFG"
    static let passphrase = "correct horse battery staple"
    static let author = GitSignature(name: "Signing Test", email: "signing@example.com")

    let privateKey = P256.Signing.PrivateKey()
    let key: AppStoreConnectKey
    let fake: AppStoreConnectContractFake
    let authority: TestCertificateAuthority
    let folder: TemporaryDirectory
    let log = LogLines()

    init() throws {
        key = try AppStoreConnectKey(issuerID: Self.issuerID, keyID: Self.keyID, privateKeyPEM: privateKey.pemRepresentation)
        fake = try AppStoreConnectContractFake(keys: [
            .init(issuerID: Self.issuerID, keyID: Self.keyID, publicKeyPEM: privateKey.publicKey.pemRepresentation),
        ], onViolations: recordContractViolations)
        authority = try TestCertificateAuthority()
        try fake.useSigningAuthority(authority)
        folder = try TemporaryDirectory(prefix: "slipway-signing-sync")
    }

    /// A client with no real waits.
    var client: AppStoreConnectClient {
        AppStoreConnectClient(key: key, http: SystemHTTPClient(), baseURL: fake.baseURL,
                              retry: RetryPolicy(attempts: 1, sleep: { _ in }))
    }

    /// A directory storage under the fixture's folder.
    func directory(_ name: String = "store", readOnly: Bool = false, format: EncryptedSigningStorage.Format = .slipway) async throws
        -> EncryptedSigningStorage {
        try await EncryptedSigningStorage.open(DirectorySigningStorage(root: folder.path + "/" + name, readOnly: readOnly),
                                               passphrase: Self.passphrase, newFormat: format, parameters: StorageTestSupport.fast)
    }

    /// A fresh clone of `bare` in its own cache folder (one per "team member").
    func git(_ bare: GitFixture, member: String, readOnly: Bool = false) async throws -> EncryptedSigningStorage {
        try await git(bare.path, member: member, readOnly: readOnly)
    }

    /// A fresh clone of the repository at `url` in the member's own cache folder.
    func git(_ url: String, member: String, readOnly: Bool = false, credentials: GitCredentials? = nil) async throws
        -> EncryptedSigningStorage {
        let storage = try await GitSigningStorage.open(url: url, cacheDirectory: folder.path + "/cache-" + member,
                                                       readOnly: readOnly, signature: Self.author, credentials: credentials)
        return try await EncryptedSigningStorage.open(storage, passphrase: Self.passphrase, parameters: StorageTestSupport.fast)
    }

    /// Runs a writable (or, with no portal, read-only) sync.
    func sync(_ storage: EncryptedSigningStorage, _ request: SigningSyncRequest, portal: Bool = true) async throws -> SigningSyncResult {
        let log = self.log
        return try await SigningSync(storage: storage, passphrase: Self.passphrase, portal: portal ? client : nil,
                                     log: { log.append($0) }).run(request)
    }

    /// The requests that changed something on Apple's side.
    func writesToApple() throws -> [String] {
        try fake.state().requests.filter { $0.method != "GET" }.map { "\($0.method) \($0.path)" }
    }

    /// The ids of the certificates the fake holds (not revoked).
    func appleCertificateIDs() async throws -> [String] {
        try await client.certificates(types: ["DISTRIBUTION", "IOS_DISTRIBUTION", "DEVELOPMENT", "IOS_DEVELOPMENT"]).map(\.id).sorted()
    }
}

/// Lines logged from any thread.
final class LogLines: @unchecked Sendable {
    private let lock = NSLock()
    private var lines: [String] = []
    func append(_ line: String) { lock.withLock { lines.append(line) } }
    var all: [String] { lock.withLock { lines } }
}

extension SigningSyncRequest {
    /// A writable request for com.example.app.
    static func writable(_ type: SigningType = .appStore, bundleIDs: [String] = ["com.example.app"], renew: Bool = false,
                         register: Bool = false, dryRun: Bool = false, now: Date = Date()) -> SigningSyncRequest {
        SigningSyncRequest(type: type, bundleIDs: bundleIDs, readOnly: false, renew: renew, register: register, dryRun: dryRun, now: now)
    }
}
