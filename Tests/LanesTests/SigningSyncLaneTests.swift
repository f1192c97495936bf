import Basics
import Crypto
import Foundation
import Lanes
import Testing
import TestSupport
import TestThreads

/// `signing.sync` in lanes on Linux: a member's writable run against the App Store Connect
/// contract fake (labelled CONTRACT FAKE in its file), then a CI run (CI=true: read-only by
/// default) that needs no key, installs into a directory and hands its outputs on.
@Suite("signing.sync lanes", .dedicatedThreads)
struct SigningSyncLaneTests {
    static let issuer = "69a6de7e-2f4c-47e3-e053-5b8c7c11a4d1"
    static let passphrase = "lane passphrase 42"
    let key = P256.Signing.PrivateKey()
    let fake: AppStoreConnectContractFake
    let fixture: LaneFixture

    init() throws {
        fake = try AppStoreConnectContractFake(keys: [.init(issuerID: Self.issuer, keyID: "ABC123DEFG",
                                                            publicKeyPEM: key.publicKey.pemRepresentation)],
                                                 onViolations: recordContractViolations)
        try fake.useSigningAuthority(try TestCertificateAuthority())
        try fake.seedBundleID(identifier: "com.example.app")
        let member = """
            description: Make sure the team's signing exists
            secrets: [ASC_KEY, SIGNING_PASSPHRASE]
            steps:
              - signing.sync:
                  type: app-store
                  bundle-ids: [com.example.app]
                  storage: signing-store
                  passphrase: "${{ secrets.SIGNING_PASSPHRASE }}"
                  readonly: false
                  install: none
                  issuer-id: \(Self.issuer)
                  key-id: ABC123DEFG
                  key: "${{ secrets.ASC_KEY }}"
                  api-url: \(fake.url)
                id: signing
            """
        let ci = """
            description: CI export
            secrets: [SIGNING_PASSPHRASE]
            steps:
              - signing.sync:
                  type: app-store
                  bundle-ids: [com.example.app]
                  storage: signing-store
                  passphrase: "${{ secrets.SIGNING_PASSPHRASE }}"
                  install-directory: build/signing
                id: signing
              - run: test -s "build/signing/Provisioning Profiles/${{ steps.signing.outputs.profile-uuid }}.mobileprovision" && test -s "build/signing/${{ steps.signing.outputs.certificate-sha1 }}.p12"
                id: check
            """
        let keyless = """
            description: A writable sync without a key
            secrets: [SIGNING_PASSPHRASE]
            steps:
              - signing.sync:
                  type: development
                  bundle-ids: [com.example.app]
                  passphrase: "${{ secrets.SIGNING_PASSPHRASE }}"
                  readonly: false
                id: signing
            """
        fixture = try LaneFixture(["member": member, "ci": ci, "keyless": keyless],
                                  environment: ["ASC_KEY": key.pemRepresentation, "SIGNING_PASSPHRASE": Self.passphrase, "CI": "false"])
    }

    @Test func aMemberCreatesAndCIInstallsReadOnlyWithTheOutputsXcodeExportNeeds() async throws {
        let member = try await fixture.run("member")
        #expect(member.status("signing") == .succeeded, "\(member.console)")
        let outputs = member.outputs("signing")
        #expect(outputs["certificate-name"] == "Apple Distribution: Slipway test team (AB12CD34EF)")
        #expect(outputs["team-id"] == "AB12CD34EF")
        #expect(outputs["profile-name"] == "Slipway AppStore com.example.app")
        #expect(outputs["profiles"] == #"{"com.example.app":"Slipway AppStore com.example.app"}"#)
        #expect(outputs["keychain"] == "" && outputs["install-directory"] == "")
        #expect(!member.console.contains(Self.passphrase))
        let writes = try fake.state().requests.filter { $0.method != "GET" }.count
        #expect(writes == 2)

        fixture.environment = fixture.environment.merging(["CI": "true"])
        let before = try Snapshot.of(fixture.path + "/signing-store")
        let ci = try await fixture.run("ci")
        #expect(ci.status("check") == .succeeded, "\(ci.console)")
        #expect(ci.outputs("signing")["profile-uuid"] == outputs["profile-uuid"])
        #expect(ci.outputs("signing")["install-directory"] == fixture.path + "/build/signing")
        #expect(try fake.state().requests.filter { $0.method != "GET" }.count == writes)
        #expect(try Snapshot.of(fixture.path + "/signing-store") == before)
        #expect(!ci.console.contains(Self.passphrase))
    }

    @Test func aWritableSyncWithoutAKeySaysWhatToDoAndCreatesNothing() async throws {
        let outcome = try await fixture.run("keyless")
        #expect(outcome.status("signing") == .failed, "\(outcome.console)")
        #expect(outcome.console.contains("option 'key-id'"), "\(outcome.console)")
        #expect(outcome.console.contains("a sync that may create certificates and profiles needs an App Store Connect key (key-id with key "
            + "or key-file); set readonly: true to use only what the storage has"), "\(outcome.console)")
        #expect(!FileManager.default.fileExists(atPath: fixture.path + "/.slipway/signing"))
    }

    @Test func badOptionsAreRefusedAtValidation() async throws {
        let lane = """
            description: bad
            steps:
              - signing.sync:
                  type: app-store
                  bundle-ids: []
                  passphrase: x
            """
        let bad = try LaneFixture(["bad": lane, "store": lane.replacingOccurrences(of: "bundle-ids: []", with: "bundle-ids: [a.b]\n      storage: \"gopher://x\""),
                                   "keychain": lane.replacingOccurrences(of: "bundle-ids: []", with: "bundle-ids: [a.b]\n      install: keychain")])
        let problems = await bad.problems("bad")
        #expect(problems == [
            "lanes/bad.yml:3:5: error: step 'signing.sync' (signing.sync): option 'bundle-ids' is empty; list the bundle ids that need a profile",
        ], "\(problems)")
        #expect(await bad.problems("store").first?.contains("'gopher://x' is not a signing storage address: 'gopher://' is not a scheme Slipway reads") == true)
        #if os(Linux)
        #expect(await bad.problems("keychain").first?.contains("keychain needs macOS's security tool; on Linux use install: directory or none") == true)
        #endif
        // Checked as on macOS (`validate --platform macos` from Linux), a keychain is fine.
        bad.platform = .macOS
        #expect(await bad.problems("keychain") == [])
    }

    /// The CI lane in docs/signing.md validates (as on macOS): the step names, options and
    /// output references it shows are real.
    @Test func theDocumentedCILaneValidatesForMacOS() async throws {
        let docs = try String(contentsOfFile: Corpus.repositoryRoot + "/docs/signing.md", encoding: .utf8)
        let section = try #require(docs.range(of: "## A CI lane")).upperBound
        let start = try #require(docs.range(of: "```yaml\n", range: section..<docs.endIndex)).upperBound
        let end = try #require(docs.range(of: "```", range: start..<docs.endIndex)).lowerBound
        let lane = String(docs[start..<end])
        let fixture = try LaneFixture(["ci": lane])
        try fixture.write("Example.xcodeproj/project.pbxproj", "// !$*UTF8*$!\n{ }\n")
        try fixture.write("Example.xcodeproj/xcshareddata/xcschemes/Example.xcscheme",
                          XcodeLaneTests.scheme.replacingOccurrences(of: "App", with: "Example"))
        fixture.platform = .macOS
        let problems = await fixture.problems("ci")
        #expect(problems.isEmpty, "\(problems)")
        fixture.platform = .linux
        #expect(await fixture.problems("ci").contains { $0.contains("runs only on macos") })
    }
}
