import Crypto
import Foundation
import Testing
import TestSupport
import TestThreads

/// `slipway testflight group-link` run again with the settings the link already has, through the
/// built binary against the App Store Connect contract fake: nothing is sent.
@Suite("slipway testflight group-link: a re-run", .dedicatedThreads)
struct TestFlightGroupLinkCommandTests {
    static let issuer = "69a6de7e-2f4c-47e3-e053-5b8c7c11a4d1"
    let key = P256.Signing.PrivateKey()
    let folder: TemporaryDirectory
    let fake: AppStoreConnectContractFake
    let group: String

    init() throws {
        folder = try TemporaryDirectory(prefix: "slipway-group-link")
        fake = try AppStoreConnectContractFake(keys: [.init(issuerID: Self.issuer, keyID: "ABC123DEFG",
                                                            publicKeyPEM: key.publicKey.pemRepresentation)],
                                                 onViolations: recordContractViolations)
        let appID = try fake.seedApp(bundleID: "com.example.app", name: "Example")
        group = try fake.seedBetaGroup(appID: appID, name: "Public beta", isInternal: false)
    }

    func link(_ arguments: [String]) throws -> CommandResult {
        try CommandResult.run(Binaries.slipway, ["testflight", "group-link", "--group", "Public beta"] + arguments + [
            "--bundle-id", "com.example.app", "--issuer-id", Self.issuer, "--key-id", "ABC123DEFG", "--key-env", "ASC_KEY", "--api-url", fake.url,
        ], in: folder.path, environment: ["ASC_KEY": key.pemRepresentation, "CI": "false", "GITHUB_ACTIONS": nil])
    }

    func writes() throws -> [String] { try fake.state().requests.filter { $0.method != "GET" }.map(\.line) }

    @Test func aReRunWithTheSameSettingsSendsNothing() throws {
        let first = try link(["--enable", "--limit", "500"])
        #expect(first.status == 0, "\(first.standardError)")
        #expect(first.standardOutput.hasPrefix("public link of 'Public beta': enabled, at most 500 testers\nhttps://testflight.apple.com/join/"))
        #expect(try writes() == ["PATCH /v1/betaGroups/\(group)"])

        let again = try link(["--enable", "--limit", "500"])
        #expect(again.status == 0, "\(again.standardError)")
        #expect(again.standardOutput == first.standardOutput)
        let enableOnly = try link(["--enable"])
        #expect(enableOnly.standardOutput == first.standardOutput)
        #expect(try writes() == ["PATCH /v1/betaGroups/\(group)"])

        // Only what differs is sent.
        let limit = try link(["--enable", "--limit", "800"])
        #expect(limit.status == 0, "\(limit.standardError)")
        #expect(limit.standardOutput.hasPrefix("public link of 'Public beta': enabled, at most 800 testers\n"))
        let sent = try fake.state().requests.filter { $0.method == "PATCH" }
        #expect(sent.count == 2)
        #expect(sent.last?.body?.contains("publicLinkEnabled") == false && sent.last?.body?.contains("\"publicLinkLimit\":800") == true,
                "\(sent.last?.body ?? "")")
        #expect(try fake.state().violations == [])
    }
}
