import Crypto
import Foundation
import Testing
import TestSupport
import TestThreads

/// `slipway signing sync|list|nuke` through the built binary, against the App Store Connect
/// contract fake (labelled CONTRACT FAKE in its file) and a directory storage.
@Suite("slipway signing", .dedicatedThreads)
struct SigningCommandTests {
    static let issuer = "69a6de7e-2f4c-47e3-e053-5b8c7c11a4d1"
    static let passphrase = "cli passphrase 7"
    let key = P256.Signing.PrivateKey()
    let folder: TemporaryDirectory
    let fake: AppStoreConnectContractFake

    init() throws {
        folder = try TemporaryDirectory(prefix: "slipway-signing-cli")
        fake = try AppStoreConnectContractFake(keys: [.init(issuerID: Self.issuer, keyID: "ABC123DEFG",
                                                            publicKeyPEM: key.publicKey.pemRepresentation)],
                                                 onViolations: recordContractViolations)
        try fake.useSigningAuthority(try TestCertificateAuthority())
        try fake.seedBundleID(identifier: "com.example.app")
    }

    var keyArguments: [String] { ["--issuer-id", Self.issuer, "--key-id", "ABC123DEFG", "--key-env", "ASC_KEY", "--api-url", fake.url] }

    func slipway(_ arguments: [String], ci: Bool = false, passphrase: String? = SigningCommandTests.passphrase) throws -> CommandResult {
        try CommandResult.run(Binaries.slipway, ["signing"] + arguments, in: folder.path, environment: [
            "ASC_KEY": key.pemRepresentation, "SLIPWAY_SIGNING_PASSPHRASE": passphrase, "MATCH_PASSWORD": nil,
            "CI": ci ? "true" : "false", "GITHUB_ACTIONS": nil, "SLIPWAY_CACHE_DIR": folder.path + "/cache",
        ])
    }

    func snapshot() throws -> [String: String] { try Snapshot.of(folder.path + "/store") }

    @Test func syncListAndAReadOnlyCIRun() throws {
        let sync = try slipway(["sync", "--type", "app-store", "--bundle-id", "com.example.app", "--storage", "store",
                                "--install", "none", "--json"] + keyArguments)
        #expect(sync.status == 0, "\(sync.standardError)")
        let object = try #require(try JSONSerialization.jsonObject(with: Data(sync.standardOutput.utf8)) as? [String: Any])
        let certificate = try #require(object["certificate"] as? [String: Any])
        #expect(certificate["name"] as? String == "Apple Distribution: Slipway test team (AB12CD34EF)")
        #expect(object["teamId"] as? String == "AB12CD34EF")
        let profiles = try #require(object["profiles"] as? [[String: Any]])
        #expect(profiles.map { $0["name"] as? String } == ["Slipway AppStore com.example.app"])
        #expect((object["actions"] as? [String])?.count == 3)

        let list = try slipway(["list", "--storage", "store"])
        #expect(list.status == 0, "\(list.standardError)")
        let id = try #require(certificate["id"] as? String)
        #expect(list.standardOutput.contains("  distribution  \(id)  Apple Distribution: Slipway test team (AB12CD34EF)  expires "))
        #expect(list.standardOutput.contains("  app-store  com.example.app  'Slipway AppStore com.example.app'  \(profiles[0]["uuid"] as? String ?? "?")"))
        #expect(list.standardOutput.contains("    certificates: \(id)"))

        // CI: read-only by default, no key, installs into a directory; nothing changes anywhere.
        let writes = try fake.state().requests.filter { $0.method != "GET" }.count
        let before = try snapshot()
        let ci = try slipway(["sync", "--type", "app-store", "--bundle-id", "com.example.app", "--storage", "store",
                              "--install-directory", "installed"], ci: true)
        #expect(ci.status == 0, "\(ci.standardError)")
        #expect(ci.standardOutput.hasPrefix("nothing to create: the storage and App Store Connect agree\ncertificate: "))
        #expect(FileManager.default.fileExists(atPath: folder.path + "/installed/Provisioning Profiles/\(profiles[0]["uuid"] as? String ?? "").mobileprovision"))
        #expect(try fake.state().requests.filter { $0.method != "GET" }.count == writes)
        #expect(try snapshot() == before)
        for output in [sync, list, ci] {
            #expect(!output.standardOutput.contains(Self.passphrase) && !output.standardError.contains(Self.passphrase))
        }
    }

    @Test func badInputNamesTheProblemAndChangesNothing() throws {
        let noPassphrase = try slipway(["list", "--storage", "store"], passphrase: nil)
        #expect(noPassphrase.status == 2)
        #expect(noPassphrase.standardError == "error: the environment variable SLIPWAY_SIGNING_PASSPHRASE holds no passphrase. Set it to the "
            + "signing storage's passphrase (keep it in your CI's secrets).\n")
        let noKey = try slipway(["sync", "--type", "development", "--bundle-id", "com.example.app", "--storage", "store", "--no-readonly"])
        #expect(noKey.status == 2)
        #expect(noKey.standardError.hasPrefix("error: a sync that may create certificates and profiles needs an App Store Connect key"))
        let badType = try slipway(["sync", "--type", "appstore", "--bundle-id", "com.example.app"])
        #expect(badType.status == 64)
        #expect(badType.standardError.contains("--type must be one of development, app-store, ad-hoc, enterprise, developer-id, not 'appstore'."))
        let badStorage = try slipway(["list", "--storage", "ftp://example.com/certs"])
        #expect(badStorage.status == 2)
        #expect(badStorage.standardError == "error: 'ftp://example.com/certs' is not a signing storage address: 'ftp://' is not a scheme "
            + "Slipway reads. Use a git URL (https://, ssh://, git@host:path, file://), s3://bucket/prefix, or a directory path.\n")
        #expect(!FileManager.default.fileExists(atPath: folder.path + "/store"))
        #expect(!FileManager.default.fileExists(atPath: folder.path + "/.slipway"))
        #expect(try fake.state().requests.isEmpty)
    }

    @Test func nukeNeedsConfirmation() throws {
        let sync = try slipway(["sync", "--type", "development", "--bundle-id", "com.example.app", "--storage", "store", "--install", "none",
                                "--no-readonly"] + keyArguments)
        #expect(sync.status != 0)  // no devices registered
        #expect(sync.standardError.contains("The team has no enabled IOS devices"), "\(sync.standardError)")
        try fake.seedDevice(udid: "00008030-000A1B2C3D4E5F60", name: "Alice's iPhone")
        #expect(try slipway(["sync", "--type", "development", "--bundle-id", "com.example.app", "--storage", "store", "--install", "none",
                             "--no-readonly"] + keyArguments).status == 0)
        let before = try snapshot()
        let unconfirmed = try slipway(["nuke", "--type", "development", "--storage", "store"] + keyArguments)
        #expect(unconfirmed.status == 1)
        #expect(unconfirmed.standardOutput.hasPrefix("would:\n  revoke the certificate "))
        #expect(unconfirmed.standardError == "error: This would remove 5 item(s), listed above. Run again with --confirm to do it, or with "
            + "--dry-run to list everything first.\n")
        #expect(try snapshot() == before)
        let dry = try slipway(["nuke", "--type", "development", "--storage", "store", "--dry-run"] + keyArguments)
        #expect(dry.status == 0)
        #expect(try snapshot() == before)
        let done = try slipway(["nuke", "--type", "development", "--storage", "store", "--confirm"] + keyArguments)
        #expect(done.status == 0, "\(done.standardError)")
        #expect(done.standardOutput.split(separator: "\n").count == 5)
        let left = try snapshot().keys.filter { $0.hasSuffix(".cer") || $0.hasSuffix(".p12") || $0.hasSuffix(".mobileprovision") }
        #expect(left.isEmpty, "\(left)")
        #expect(try snapshot().keys.contains("slipway-signing.json"))
        #expect(try fake.stored("profiles").isEmpty)
    }
}
