import Crypto
import Foundation
import Testing
import TestSupport
import TestThreads

/// `slipway appstore check` through the built binary, against the App Store Connect contract fake.
@Suite("slipway appstore check", .dedicatedThreads)
struct AppStoreCheckCommandTests {
    static let issuer = "69a6de7e-2f4c-47e3-e053-5b8c7c11a4d1"
    let key = P256.Signing.PrivateKey()
    let folder: TemporaryDirectory
    let fake: AppStoreConnectContractFake

    init() throws {
        folder = try TemporaryDirectory(prefix: "slipway-appstore-check")
        try folder.write("AuthKey_ABC123DEFG.p8", key.pemRepresentation)
        fake = try AppStoreConnectContractFake(keys: [.init(issuerID: Self.issuer, keyID: "ABC123DEFG",
                                                            publicKeyPEM: key.publicKey.pemRepresentation)],
                                                 onViolations: recordContractViolations)
    }

    func check(_ extra: [String], environment: [String: String?] = [:]) throws -> CommandResult {
        try CommandResult.run(Binaries.slipway, ["appstore", "check", "--key-id", "ABC123DEFG", "--api-url", fake.url] + extra,
                              in: folder.path, environment: environment)
    }

    @Test func aGoodKeySeesTheApp() throws {
        let id = try fake.seedApp(bundleID: "com.example.app", name: "Example")
        let result = try check(["--issuer-id", Self.issuer, "--key-file", "AuthKey_ABC123DEFG.p8", "--bundle-id", "com.example.app"])
        #expect(result.status == 0, "\(result.standardError)")
        #expect(result.standardOutput == """
            key ABC123DEFG (team key, issuer \(Self.issuer)): a P-256 private key; App Store Connect accepted its token
            the key can see 'Example' (com.example.app, app id \(id))

            """)
        let json = try check(["--issuer-id", Self.issuer, "--key-env", "ASC_KEY", "--json"], environment: ["ASC_KEY": key.pemRepresentation])
        #expect(json.standardOutput == """
            {"apps":[{"bundleId":"com.example.app","id":"\(id)","name":"Example"}],"issuerId":"\(Self.issuer)","keyId":"ABC123DEFG","kind":"team","ok":true}

            """)
        #expect(try fake.state().violations == [])
    }

    @Test func aBadKeyIsRefusedOfflineAndNothingIsSent() throws {
        try folder.write("wrong.p8", P384.Signing.PrivateKey().pemRepresentation)
        let notP256 = try check(["--issuer-id", Self.issuer, "--key-file", "wrong.p8"])
        #expect(notP256.status == 2)
        #expect(notP256.standardError == "error: the App Store Connect private key '\(folder.path)/wrong.p8' is an EC key on the P-384 curve, not a P-256 key. App Store Connect API keys are P-256 (ES256): give the .p8 file downloaded from Users and Access → Integrations.\n")
        let noIssuer = try check(["--key-file", "AuthKey_ABC123DEFG.p8"])
        #expect(noIssuer.status == 2)
        #expect(noIssuer.standardError == "error: no issuer id was given for the team key 'ABC123DEFG'. Copy the Issuer ID shown above the key list in App Store Connect (Users and Access → Integrations), or say that the key is an individual key.\n")
        #expect(try fake.state().requests.isEmpty)
    }

    @Test func a403SaysWhichRoleIsMissingAndTheKeyNeverShows() throws {
        try fake.inject(.status(403, path: "/v1/apps"))
        let result = try check(["--issuer-id", Self.issuer, "--key-env", "ASC_KEY", "--bundle-id", "com.example.app"],
                               environment: ["ASC_KEY": key.pemRepresentation])
        #expect(result.status == 1)
        #expect(result.standardError == "error: App Store Connect refused to let the key 'ABC123DEFG' look up the app with bundle id 'com.example.app' (HTTP 403: FORBIDDEN_ERROR: Injected fault — The contract fake was told to answer so.). The key lacks the Admin, App Manager or Developer role: give the key that role in Users and Access → Integrations, or use a key that has it.\n")
        for line in key.pemRepresentation.split(separator: "\n") where !line.hasPrefix("-----") {
            #expect(!result.standardError.contains(line) && !result.standardOutput.contains(line))
        }
    }
}
