import Basics
import Foundation
import Networking
import Publish
@testable import Steps
import TestSupport
import TestThreads
import Testing

/// The upload step's `to: firebase` against `FirebaseContractFake`, a loopback CONTRACT FAKE of
/// Firebase App Distribution's documented REST API and Google's token endpoint (there is no
/// Google here). The fake verifies the RS256 JWT with the service account's public key and
/// records anything undocumented as a violation; these tests show that the client keeps the
/// documented contract, not that Google behaves as documented.
@Suite(.serialized, .dedicatedThreads) struct FirebaseUploadTests {
    typealias Events = PublishStepTests.Events

    struct Fixture {
        let fake: FirebaseContractFake
        let folder: TemporaryDirectory
        let events = Events()
        let sleeps = DistributionSleeps()

        init() throws {
            fake = try FirebaseContractFake()
            folder = try TemporaryDirectory(prefix: "slipway-firebase")
            let bytes = (0..<150_000).map { UInt8(truncatingIfNeeded: $0 &* 13 &+ 5) }
            try FileManager.default.createDirectory(atPath: folder.path + "/build", withIntermediateDirectories: true)
            try Data(bytes).write(to: URL(fileURLWithPath: folder.path + "/build/App.ipa"))
        }

        var release: String { "projects/1234567890/apps/\(fake.appID)/releases" }

        func options(_ extra: [String: OptionValue] = [:]) -> StepOptions {
            var values: [String: OptionValue] = ["to": .string("firebase"), "files": .list([.string("build/App.ipa")]),
                                                 "app-id": .string(fake.appID), "service-account": .string(fake.serviceAccountJSON),
                                                 "firebase-url": .string(fake.baseURL), "poll-interval": .string("10s")]
            values.merge(extra) { $1 }
            return StepOptions(values, for: UploadStep.description)
        }

        func run(_ extra: [String: OptionValue] = [:]) async throws -> StepOutputs {
            let step = try UploadStep(options: options(extra))
            let context = StepContext(laneName: "beta", stepID: "firebase", workingDirectory: folder.path, environment: Environment.current,
                                      fileSystem: LocalFileSystem(), processRunner: LocalProcessRunner(), events: events,
                                      services: StepServices(httpClient: SystemHTTPClient(), sleep: sleeps.sleep))
            return try await step.run(in: context)
        }

        /// The service account with `field` replaced (nil removes it).
        func serviceAccount(_ field: String, _ value: String?) throws -> String {
            var object = try #require(try JSONSerialization.jsonObject(with: Data(fake.serviceAccountJSON.utf8)) as? [String: Any])
            object[field] = value
            return String(decoding: try JSONSerialization.data(withJSONObject: object), as: UTF8.self)
        }

        /// Every secret that must not show: the key's PEM body lines, the key id, tokens issued.
        func secrets() throws -> [String] {
            let object = try #require(try JSONSerialization.jsonObject(with: Data(fake.serviceAccountJSON.utf8)) as? [String: Any])
            let pem = try #require(object["private_key"] as? String)
            let lines = pem.split(separator: "\n").map(String.init).filter { !$0.hasPrefix("-----") }
            return lines + [try #require(object["private_key_id"] as? String)] + (try fake.state().tokens)
        }
    }

    @Test func contractFakeGetsATokenUploadsWaitsSetsNotesAndDistributes() async throws {
        let fixture = try Fixture()
        let outputs = try await fixture.run(["notes": .string("Fixes the login crash"), "testers": .list([.string("ana@example.com")]),
                                             "groups": .list([.string("qa")])])
        let state = try fixture.fake.state()
        #expect(state.violations == [])
        let release = try #require(state.releases.first)
        #expect(state.releases.count == 1)
        #expect(release.filename == "App.ipa")
        #expect(release.size == 150_000)
        #expect(release.sha256 == (try fileSHA256(fixture.folder.path + "/build/App.ipa")))
        #expect(release.notes == "Fixes the login crash")
        #expect(release.testers == ["ana@example.com"])
        #expect(release.groups == ["qa"])
        #expect(outputs["release"] == release.name)
        #expect(outputs["result"] == "RELEASE_CREATED")
        #expect(outputs["display-version"] == "1.2.0")
        #expect(outputs["build-version"] == "42")
        #expect(outputs["testing-url"]?.hasPrefix("https://appdistribution.firebase.example/testerapps/") == true)
        #expect(outputs["urls"] == outputs["testing-url"])
        let operationPolls = state.requests.filter { $0.hasPrefix("GET /v1/") && $0.contains("/operations/") }
        #expect(state.requests.map { $0.replacingOccurrences(of: release.name, with: "{release}") }.filter { !$0.contains("/operations/") } == [
            "POST /token",
            "POST /upload/v1/projects/1234567890/apps/\(fixture.fake.appID)/releases:upload",
            "PATCH /v1/{release}?updateMask=release_notes.text",
            "POST /v1/{release}:distribute",
        ])
        #expect(operationPolls.count == 3, "done after two polls that said not done")
        #expect(fixture.sleeps.waits == [.seconds(10), .seconds(10)])
        #expect(fixture.events.lines.contains("info: App.ipa: RELEASE_CREATED \(release.name) (version 1.2.0, build 42)"))
        #expect(fixture.events.lines.contains("info: distributed to 1 tester and group qa"))
        let shown = fixture.events.lines.joined(separator: "\n") + outputs.values.joined()
        for secret in try fixture.secrets() { #expect(!shown.contains(secret)) }
    }

    @Test func aServiceAccountFileAndTheSameBuildAgainLeaveOneRelease() async throws {
        let fixture = try Fixture()
        try fixture.folder.write("keys/firebase.json", fixture.fake.serviceAccountJSON)
        try fixture.folder.write("notes.txt", "From a file\n")
        let first = try await fixture.run(["service-account": .string("keys/firebase.json"), "notes-file": .string("notes.txt")])
        let again = try await fixture.run(["service-account": .string("keys/firebase.json")])
        #expect(first["result"] == "RELEASE_CREATED")
        #expect(again["result"] == "RELEASE_UNMODIFIED")
        #expect(again["release"] == first["release"])
        let state = try fixture.fake.state()
        #expect(state.releases.count == 1)
        #expect(state.releases.first?.notes == "From a file\n")
        #expect(state.violations == [])
    }

    @Test func fiveHundredsAndADroppedUploadAreRetried() async throws {
        let fixture = try Fixture()
        try fixture.fake.inject(fail: 1, drop: 1)
        let outputs = try await fixture.run()
        #expect(outputs["result"] == "RELEASE_CREATED")
        let state = try fixture.fake.state()
        #expect(state.requests.filter { $0.hasPrefix("POST /upload/") }.count == 3)
        #expect(state.releases.count == 1)
        #expect(fixture.events.lines.filter { $0.hasPrefix("warning: attempt") }.count == 2)
    }

    @Test func aRefusedTokenIsRemadeOnceThenTheErrorIsClear() async throws {
        let fixture = try Fixture()
        try fixture.fake.inject(unauthorized: 1)
        _ = try await fixture.run()
        #expect(try fixture.fake.state().tokens.count == 2)

        let second = try Fixture()
        try second.fake.inject(unauthorized: 2)
        let error = await #expect(throws: PublishError.self) { _ = try await second.run() }
        #expect(error?.localizedDescription == "the upload of 'App.ipa' to Firebase app '\(second.fake.appID)' was refused by Firebase App "
            + "Distribution (HTTP 401): Request had invalid authentication credentials. The access token was refused twice; check that the "
            + "service account key is current.")
        #expect(try second.fake.state().releases.isEmpty)
    }

    @Test func anAppTheProjectDoesNotHaveIsAClear404() async throws {
        let fixture = try Fixture()
        let other = "1:1234567890:ios:ffffffffffffffff"
        let error = await #expect(throws: PublishError.self) { _ = try await fixture.run(["app-id": .string(other)]) }
        #expect(error?.localizedDescription == "the upload of 'App.ipa' to Firebase app '\(other)' was refused by Firebase App Distribution "
            + "(HTTP 404): Requested entity was not found. Check 'app-id' (Firebase console → Project settings → Your apps → App ID) and "
            + "that the account belongs to its project.")
        #expect(try fixture.fake.state().requests.filter { $0.hasPrefix("POST /upload/") }.count == 1, "4xx is not retried")
    }

    @Test func processingThatNeverEndsTimesOutWithTheLastState() async throws {
        let fixture = try Fixture()
        try fixture.fake.inject(neverDone: true)
        await #expect(throws: PublishError.operationTimedOut(action: "Firebase's processing of 'App.ipa'", waited: "1m",
                                                            lastState: "not done")) {
            _ = try await fixture.run(["processing-timeout": .string("1m")])
        }
        #expect(fixture.sleeps.waits.count == 6)
        #expect(PublishError.operationTimedOut(action: "Firebase's processing of 'App.ipa'", waited: "1m", lastState: "not done")
            .localizedDescription == "Firebase's processing of 'App.ipa' did not finish within 1m (last state: not done). "
            + "Raise the timeout, or check the service's console.")
    }

    @Test func anUnknownGroupIsFirebasesClearError() async throws {
        let fixture = try Fixture()
        let error = await #expect(throws: PublishError.self) { _ = try await fixture.run(["groups": .list([.string("qa"), .string("vip")])]) }
        let release = try #require(try fixture.fake.state().releases.first?.name)
        #expect(error?.localizedDescription == "distributing '\(release)' to testers was refused by Firebase App Distribution (HTTP 400): "
            + "group aliases not found: vip. Check the step's options; 4xx answers are not retried.")
    }

    @Test func badServiceAccountsAppIDsAndFilesAreRefusedBeforeAnythingIsSent() async throws {
        let fixture = try Fixture()
        let advice = "Give the JSON key of a Google service account (Google Cloud console → IAM → Service accounts → Keys → Add key → JSON), "
            + "as its text or its path."
        let cases: [(OptionValue, String)] = [
            (.string("{not json"), "the service account given in 'service-account' cannot be used: it is not a JSON object. " + advice),
            (.string(try fixture.serviceAccount("type", "authorized_user")),
             "the service account given in 'service-account' cannot be used: its \"type\" is \"authorized_user\", not \"service_account\" "
                + "(user credentials and other key kinds cannot sign for a service). " + advice),
            (.string(try fixture.serviceAccount("private_key", try fixture.fake.ecPrivateKeyPEM())),
             "the service account given in 'service-account' cannot be used: its \"private_key\" is not an RSA key of 2048 bits or more; "
                + "Google signs service-account tokens with RS256, which needs an RSA key. " + advice),
            (.string(try fixture.serviceAccount("client_email", nil)),
             "the service account given in 'service-account' cannot be used: it has no \"client_email\". " + advice),
            (.string("keys/missing.json"),
             "option 'service-account' is neither a JSON key (it does not start with '{') nor the path of a readable file. "
                + "Set it to the key's JSON text or its path, from a secret"),
        ]
        for (value, message) in cases {
            let error = await #expect(throws: (any Error).self) { _ = try await fixture.run(["service-account": value]) }
            #expect(error?.localizedDescription == message)
        }
        #expect(throws: StepError.invalidOption(name: "app-id", problem: "'1:abc:ios:xyz' is not a Firebase app id. Copy it from the Firebase "
                                                + "console (Project settings → Your apps → App ID); it looks like 1:1234567890:ios:0a1b2c3d4e5f6789")) {
            _ = try UploadStep(options: fixture.options(["app-id": .string("1:abc:ios:xyz")]))
        }
        #expect(throws: StepError.invalidOption(name: "service-account", problem: "is required for to: firebase")) {
            _ = try UploadStep(options: fixture.options(["service-account": .null]))
        }
        #expect(throws: StepError.invalidOption(name: "testers", problem: "'ana' is not an e-mail address")) {
            _ = try UploadStep(options: fixture.options(["testers": .list([.string("ana")])]))
        }
        await #expect(throws: PublishError.noMatch(pattern: "build/Missing.ipa")) {
            _ = try await fixture.run(["files": .list([.string("build/Missing.ipa")])])
        }
        #expect(try fixture.fake.state().requests == [], "nothing was sent")
        let shown = fixture.events.lines.joined(separator: "\n")
        for secret in try fixture.secrets() { #expect(!shown.contains(secret)) }
    }

    @Test func derivedSecretsAreMaskedInErrorsAndEvents() throws {
        let events = Events()
        let masker = DerivedSecretMasker(forwardingTo: events)
        masker.add(["ya29.secret-token-value", "MIIEvQIBADANBgkqhkiG9w0BAQEFAASC"])
        masker.log(.info, "token ya29.secret-token-value, key line MIIEvQIBADANBgkqhkiG9w0BAQEFAASC")
        #expect(events.lines == ["info: token ***, key line ***"])
        let error = masker.redact(PublishError.operationFailed(action: "x", problem: "echoed ya29.secret-token-value"))
        #expect(error.localizedDescription == "x failed: echoed ***.")
        let untouched = PublishError.operationFailed(action: "x", problem: "nothing secret")
        #expect(masker.redact(untouched) as? PublishError == untouched)
    }
}
