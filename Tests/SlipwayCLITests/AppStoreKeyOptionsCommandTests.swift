import Crypto
import Foundation
import Testing
import TestSupport
import TestThreads

/// The key options every App Store Connect command shares (`AppStoreKeyOptions`, parsed into
/// `AppStoreConnectSettings` as the steps' options are), through the built binary: `--api-url`
/// follows the steps' `api-url` rule, and one bad key is one exit code in every command.
@Suite("App Store key options", .dedicatedThreads)
struct AppStoreKeyOptionsCommandTests {
    static let issuer = "69a6de7e-2f4c-47e3-e053-5b8c7c11a4d1"
    let key = P256.Signing.PrivateKey()
    let folder: TemporaryDirectory
    let fake: AppStoreConnectContractFake

    init() throws {
        folder = try TemporaryDirectory(prefix: "slipway-appstore-key-options")
        try folder.write("AuthKey_ABC123DEFG.p8", key.pemRepresentation)
        try folder.write("wrong.p8", P384.Signing.PrivateKey().pemRepresentation)
        fake = try AppStoreConnectContractFake(keys: [.init(issuerID: Self.issuer, keyID: "ABC123DEFG",
                                                            publicKeyPEM: key.publicKey.pemRepresentation)],
                                                 onViolations: recordContractViolations)
    }

    /// One command of each family that opens a key.
    static let commands: [[String]] = [
        ["appstore", "check"],
        ["devices", "list"],
        ["testflight", "testers", "list", "--bundle-id", "com.example.app"],
        ["signing", "nuke", "--type", "development", "--storage", "store", "--dry-run"],
        ["signing", "sync", "--type", "development", "--bundle-id", "com.example.app", "--storage", "store", "--no-readonly",
         "--install", "none"],
    ]

    func slipway(_ arguments: [String]) throws -> CommandResult {
        try CommandResult.run(Binaries.slipway, arguments, in: folder.path, environment: [
            "SLIPWAY_SIGNING_PASSPHRASE": "a passphrase", "MATCH_PASSWORD": nil, "CI": "false", "GITHUB_ACTIONS": nil,
            "SLIPWAY_CACHE_DIR": folder.path + "/cache",
        ])
    }

    @Test func apiURLMustBeHTTPAsInTheSteps() throws {
        let before = try Snapshot.of(folder.path)
        for url in ["file://\(folder.path)/api", "api.appstoreconnect.apple.com", "ftp://127.0.0.1/"] {
            for command in Self.commands {
                let result = try slipway(command + ["--issuer-id", Self.issuer, "--key-id", "ABC123DEFG", "--key-file", "AuthKey_ABC123DEFG.p8",
                                                    "--api-url", url])
                #expect(result.status == 64, "\(command) \(url): \(result.standardError)")
                #expect(result.standardError.hasPrefix("Error: --api-url must be an http:// or https:// URL, not '\(url)'.\n"),
                        "\(command) \(url): \(result.standardError)")
                #expect(result.standardOutput.isEmpty)
            }
        }
        #expect(try fake.state().requests.isEmpty)
        #expect(try Snapshot.of(folder.path) == before)
    }

    @Test func theStepsRefuseTheSameURLs() throws {
        for url in ["file://\(folder.path)/api", "api.appstoreconnect.apple.com", "ftp://127.0.0.1/"] {
            try folder.write("lanes/ship.yml", """
                description: Ship
                steps:
                  - appstore.build-number:
                      bundle-id: com.example.app
                      version: 1.2.0
                      issuer-id: \(Self.issuer)
                      key-id: ABC123DEFG
                      key-file: AuthKey_ABC123DEFG.p8
                      api-url: \(url)

                """)
            let before = try Snapshot.of(folder.path)
            let result = try slipway(["validate", "ship"])
            #expect(result.status == 2, "\(url): \(result.standardError)")
            #expect(result.standardError.contains("lanes/ship.yml:3:5: error: step 'appstore.build-number' (appstore.build-number): "
                + "option 'api-url' '\(url)' is not an http:// or https:// URL\n"), "\(result.standardError)")
            #expect(try Snapshot.of(folder.path) == before)
        }
        #expect(try fake.state().requests.isEmpty)
    }

    @Test func aBadKeyIsBadInputInEveryCommand() throws {
        let before = try Snapshot.of(folder.path)
        for command in Self.commands {
            let result = try slipway(command + ["--issuer-id", Self.issuer, "--key-id", "ABC123DEFG", "--key-file", "wrong.p8",
                                                "--api-url", fake.url])
            #expect(result.status == 2, "\(command): \(result.standardError)")
            #expect(result.standardError == "error: the App Store Connect private key '\(folder.path)/wrong.p8' is an EC key on the P-384 "
                + "curve, not a P-256 key. App Store Connect API keys are P-256 (ES256): give the .p8 file downloaded from Users and "
                + "Access → Integrations.\n", "\(command)")
            #expect(result.standardOutput.isEmpty)
        }
        #expect(try fake.state().requests.isEmpty)
        #expect(try Snapshot.of(folder.path) == before)
    }
}
