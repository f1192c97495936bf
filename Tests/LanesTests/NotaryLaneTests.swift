import Basics
import Crypto
import Foundation
import Lanes
import Testing
import TestSupport
import Steps
import TestThreads

/// apple.notarize → apple.staple in a lane: the Notary API is the App Store Connect contract
/// fake's notary section, the upload goes to a real moto_server, and stapling runs the STAND-IN
/// xcrun (Fixtures/xcode-standin) with the lane validated as on macOS.
@Suite("Notarization lanes against the contract fake and moto", .dedicatedThreads)
struct NotaryLaneTests {
    static let issuer = "69a6de7e-2f4c-47e3-e053-5b8c7c11a4d1"
    let key = P256.Signing.PrivateKey()
    let fake: AppStoreConnectContractFake
    let moto: MotoServer
    let scenario: TemporaryDirectory
    let fixture: LaneFixture

    init() throws {
        fake = try AppStoreConnectContractFake(keys: [.init(issuerID: Self.issuer, keyID: "ABC123DEFG",
                                                            publicKeyPEM: key.publicKey.pemRepresentation)],
                                                 onViolations: recordContractViolations)
        moto = try MotoServer()
        try moto.createBucket("notary-lane")
        try fake.useNotaryStorage(endpoint: moto.endpoint, bucket: "notary-lane")
        scenario = try TemporaryDirectory(prefix: "slipway-notary-standin")
        fixture = try LaneFixture(["notarize": Self.lane(file: "build/App.zip", fake: fake.url, moto: moto.endpoint, staple: true)], environment: [
            "ASC_KEY": key.pemRepresentation,
            "PATH": XcodeLaneTests.standins + ":" + (Environment.current["PATH"] ?? "/usr/bin:/bin"),
            "SLIPWAY_STANDIN": scenario.path,
        ])
        fixture.platform = .macOS
        try fixture.write("build/App.zip", String(repeating: "zipped app bytes ", count: 5_000))
        try fixture.write("build/App.app/Contents/Info.plist", "<plist/>")
    }

    static func lane(file: String, fake: String, moto: String, staple: Bool) -> String {
        """
        description: Notarize the Developer ID app
        secrets: [ASC_KEY]
        steps:
          - apple.notarize:
              file: \(file)
              issuer-id: \(issuer)
              key-id: ABC123DEFG
              key: "${{ secrets.ASC_KEY }}"
              notary-url: \(fake)
              s3-endpoint: \(moto)
              poll-interval: 1ms
            id: notarize
        """ + (staple ? """

          - apple.staple:
              file: build/App.app
            id: staple
        """ : "")
    }

    /// Every secret the fake handed out (temporary AWS credentials).
    func handedOutSecrets() throws -> [String] {
        let list = try JSONSerialization.jsonObject(with: fake.resources("submissions")) as? [[String: Any]] ?? []
        return list.flatMap { item -> [String] in
            let upload = item["upload"] as? [String: Any] ?? [:]
            return ["awsAccessKeyId", "awsSecretAccessKey", "awsSessionToken"].compactMap { upload[$0] as? String }
        }
    }

    @Test func notarizeThenStapleAndARerunSendsNothing() async throws {
        let first = try await fixture.run("notarize")
        #expect(first.summary.status == .succeeded, "\(first.console)")
        let outputs = first.outputs("notarize")
        #expect(outputs["status"] == "Accepted")
        let id = try #require(outputs["submission-id"])
        #expect(outputs["log-url"]?.hasPrefix(fake.url + "/notary-logs/" + id) == true)
        #expect(first.outputs("staple") == ["path": fixture.path + "/build/App.app"])
        #expect(try String(contentsOfFile: scenario.path + "/stapled.txt", encoding: .utf8) == fixture.path + "/build/App.app\n")
        #expect(first.console.contains("submission \(id): Accepted"), "\(first.console)")

        let secrets = try handedOutSecrets()
        #expect(secrets.count == 3)
        let everything = first.console + first.events.map { "\($0)" }.joined(separator: "\n")
        for secret in secrets + key.pemRepresentation.split(separator: "\n").filter({ !$0.hasPrefix("-----") }).map(String.init) {
            #expect(!everything.contains(secret))
        }

        let again = try await fixture.run("notarize")
        #expect(again.summary.status == .succeeded, "\(again.console)")
        #expect(again.outputs("notarize")["submission-id"] == id)
        #expect(again.console.contains("is already Accepted for this SHA-256; nothing was sent"), "\(again.console)")
        let state = try fake.state()
        #expect(state.requests.filter { $0.line == "POST /notary/v2/submissions" }.count == 1)
        #expect(state.violations == [])
    }

    @Test func stapleIsRefusedAtValidationOnLinux() async throws {
        fixture.platform = .linux
        let problems = await fixture.problems("notarize")
        #expect(problems == [
            "lanes/notarize.yml:13:5: error: step 'apple.staple' runs only on macos, not on linux; run this lane on macos or remove the step; to check this lane from linux, run 'slipway validate notarize --platform macos' or 'slipway run notarize --dry-run --platform macos'",
        ], "\(problems)")
        #expect(try fake.state().requests.isEmpty)
    }

    @Test func dryRunSendsNothing() async throws {
        let outcome = try await fixture.run("notarize") { $0.isDryRun = true }
        #expect(outcome.console.contains("notarize \(fixture.path)/build/App.zip through the Notary API at \(fake.url): submit, "
            + "upload to S3, wait for the outcome (up to 60m 0s)"), "\(outcome.console)")
        #expect(try fake.state().requests.isEmpty)
        #expect(!FileManager.default.fileExists(atPath: scenario.path + "/stapled.txt"))
    }

    @Test(arguments: [
        ("build/App.ipa", "option 'file' 'build/App.ipa' is a .ipa file; the notary service takes a .zip, .pkg or .dmg. Zip an app "
            + "with 'ditto -c -k --keepParent App.app App.zip' (or the archive step), or build a .pkg or .dmg."),
        ("build/App.app", "option 'file' 'build/App.app' is an app bundle (a folder); the notary service takes one .zip, .pkg or .dmg "
            + "file. Zip it first with 'ditto -c -k --keepParent App.app App.zip' (or the archive step with output: App.zip) and "
            + "notarize the zip."),
        ("build/Missing.zip", "does not exist. Give the .zip, .pkg or .dmg an earlier step made (archive, xcode.export)."),
    ])
    func badFilesAreRefusedAndNothingIsSent(file: String, message: String) async throws {
        try fixture.write("lanes/bad.yml", Self.lane(file: file, fake: fake.url, moto: moto.endpoint, staple: false))
        let outcome = try await fixture.run("bad")
        #expect(outcome.status("notarize") == .failed)
        #expect(outcome.console.contains(message), "\(outcome.console)")
        if file.hasSuffix("Missing.zip") { #expect(outcome.console.contains("'\(fixture.path)/build/Missing.zip' does not exist.")) }
        #expect(try fake.state().requests.isEmpty)
    }

    @Test func stapleAndNotarizeOptionsAreCheckedWhenTheStepIsMade() throws {
        #expect(throws: StepError.invalidOption(name: "file", problem: "'build/App.zip' is a .zip; a .zip cannot be stapled: staple the "
                                                + ".app before zipping it (and zip it again), or staple the .dmg or .pkg")) {
            _ = try AppleStapleStep(options: StepOptions(["file": .string("build/App.zip")], for: AppleStapleStep.description))
        }
        let options: [String: OptionValue] = ["file": .string("App.zip"), "issuer-id": .string(Self.issuer), "key-id": .string("ABC123DEFG"),
                                              "key-file": .string("AuthKey.p8"), "webhook": .string("http://example.com/hook"),
                                              "notary-url": .string("https://appstoreconnect.apple.com"),
                                              "s3-endpoint": .string("https://s3-accelerate.amazonaws.com")]
        #expect(throws: StepError.invalidOption(name: "webhook", problem: "'http://example.com/hook' is not an https:// URL")) {
            _ = try AppleNotarizeStep(options: StepOptions(options, for: AppleNotarizeStep.description))
        }
        #expect(try fake.state().requests.isEmpty)
    }
}
