import Crypto
import Foundation
import Testing
import TestSupport
import TestThreads

/// Issue 42: `appstore.build-number` through the built binary, against the contract fake, where
/// the highest build number was uploaded before 200 others: it is on the second page, which the
/// step read only from the newest 200 uploads before.
@Suite("appstore.build-number: every page (issue 42)", .dedicatedThreads)
struct BuildNumberStepEdgeTests {
    static let issuer = "69a6de7e-2f4c-47e3-e053-5b8c7c11a4d1"

    @Test func theHighestBuildNumberOnTheSecondPageIsTheLatest() throws {
        let key = P256.Signing.PrivateKey()
        let fake = try AppStoreConnectContractFake(keys: [.init(issuerID: Self.issuer, keyID: "ABC123DEFG", publicKeyPEM: key.publicKey.pemRepresentation)],
                                                   onViolations: recordContractViolations)
        let app = try fake.seedApp(bundleID: "com.example.app", name: "Example")
        func upload(_ build: String, _ date: String) -> (type: String, attributes: String, relationships: [String: String]) {
            ("buildUploads", "{\"cfBundleShortVersionString\": \"1.4.0\", \"cfBundleVersion\": \"\(build)\", \"platform\": \"IOS\", "
                + "\"createdDate\": \"\(date)\", \"uploadedDate\": \"\(date)\", "
                + "\"state\": {\"state\": \"COMPLETE\", \"errors\": [], \"warnings\": [], \"infos\": []}}",
             ["app": "{\"type\": \"apps\", \"id\": \"\(app)\"}"])
        }
        // One request for the 201 uploads (the fake seeds a list at once).
        _ = try fake.seed([upload("900", "2025-01-01T00:00:00+00:00")]
            + (1...200).map { upload(String($0), String(format: "2026-01-01T00:%02d:%02d+00:00", $0 / 60, $0 % 60)) })
        let repo = try GitFixture(prefix: "slipway-build-number-pages")
        try repo.commit("chore: lane", files: [
            ".gitignore": "/.slipway/\n",
            "lanes/number.yml": """
                secrets: [ASC_KEY]
                steps:
                  - appstore.build-number:
                      bundle-id: com.example.app
                      version: 1.4.0
                      issuer-id: \(Self.issuer)
                      key-id: ABC123DEFG
                      key: "${{ secrets.ASC_KEY }}"
                      api-url: \(fake.url)

                """,
        ])
        let before = try Snapshot.of(repo.path).filter { !$0.key.hasPrefix(".git") && !$0.key.hasPrefix(".slipway") }
        let result = try CommandResult.run(Binaries.slipway, ["run", "number"], in: repo.path,
                                           environment: ["NO_COLOR": "1", "ASC_KEY": key.pemRepresentation, "GITHUB_ACTIONS": nil])
        #expect(result.status == 0, "\(result.standardOutput)\(result.standardError)")
        #expect((result.standardOutput + result.standardError).contains("latest build number: 900; next: 901"), "\(result.standardOutput)\(result.standardError)")
        #expect(try Snapshot.of(repo.path).filter { !$0.key.hasPrefix(".git") && !$0.key.hasPrefix(".slipway") } == before)
        #expect(try fake.state().violations == [])
    }
}
