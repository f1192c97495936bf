import Basics
import Foundation
import Networking
import Publish
@testable import Steps
import TestSupport
import TestThreads
import Testing

/// The upload step's `to: deploygate` against `DeployGateContractFake`, a loopback CONTRACT
/// FAKE of DeployGate's documented upload API (there is no DeployGate here): these tests show
/// that the client keeps the documented contract, not that DeployGate behaves as documented.
@Suite(.serialized, .dedicatedThreads) struct DeployGateUploadTests {
    typealias Events = PublishStepTests.Events

    struct Fixture {
        let fake: DeployGateContractFake
        let folder: TemporaryDirectory
        let events = Events()
        let sleeps = DistributionSleeps()

        init() throws {
            fake = try DeployGateContractFake()
            folder = try TemporaryDirectory(prefix: "slipway-deploygate")
            let bytes = (0..<200_000).map { UInt8(truncatingIfNeeded: $0 &* 7 &+ 3) }
            try FileManager.default.createDirectory(atPath: folder.path + "/build", withIntermediateDirectories: true)
            try Data(bytes).write(to: URL(fileURLWithPath: folder.path + "/build/App.ipa"))
        }

        func options(_ extra: [String: OptionValue] = [:]) -> StepOptions {
            var values: [String: OptionValue] = ["to": .string("deploygate"), "files": .list([.string("build/App.ipa")]),
                                                 "owner": .string(fake.owner), "token": .string(fake.token),
                                                 "deploygate-url": .string(fake.baseURL)]
            values.merge(extra) { $1 }
            return StepOptions(values, for: UploadStep.description)
        }

        func run(_ extra: [String: OptionValue] = [:]) async throws -> StepOutputs {
            let step = try UploadStep(options: options(extra))
            let context = StepContext(laneName: "beta", stepID: "deploygate", workingDirectory: folder.path, environment: Environment.current,
                                      fileSystem: LocalFileSystem(), processRunner: LocalProcessRunner(), events: events,
                                      services: StepServices(httpClient: SystemHTTPClient(), sleep: sleeps.sleep))
            return try await step.run(in: context)
        }

        func sha256() throws -> String { try fileSHA256(folder.path + "/build/App.ipa") }
    }

    @Test func contractFakeReceivesTheBuildAndFieldsAndTheStepOutputsTheRevision() async throws {
        let fixture = try Fixture()
        let outputs = try await fixture.run(["message": .string("Build 42"), "distribution-name": .string("feature/login"),
                                             "release-note": .string("Try the new login"), "disable-notify": .bool(true)])
        let app = "/users/\(fixture.fake.owner)/platforms/ios/apps/com.example.slipway"
        #expect(outputs == ["urls": fixture.fake.baseURL + app, "url": fixture.fake.baseURL + app, "revision": "1",
                            "download-url": "https://deploygate.example/files/1/App.ipa"])
        let state = try fixture.fake.state()
        #expect(state.violations == [])
        #expect(state.requests == ["POST /api/users/\(fixture.fake.owner)/apps"])
        let upload = try #require(state.uploads.first)
        #expect(upload.fields == ["message": "Build 42", "distribution_name": "feature/login", "release_note": "Try the new login",
                                  "disable_notify": "true"])
        #expect(upload.filename == "App.ipa")
        #expect(upload.size == 200_000)
        #expect(upload.sha256 == (try fixture.sha256()))
        #expect(fixture.events.lines.contains("info: App.ipa: DeployGate revision 1 of Slipway Sample → \(fixture.fake.baseURL + app)"))
        #expect(!fixture.events.lines.joined().contains(fixture.fake.token))
    }

    @Test func fiveHundredsAndADroppedConnectionAreRetried() async throws {
        let fixture = try Fixture()
        try fixture.fake.inject(fail: 1, drop: 1)
        let outputs = try await fixture.run()
        #expect(outputs["revision"] == "1")
        let state = try fixture.fake.state()
        #expect(state.requests.count == 3)
        #expect(state.uploads.count == 1)
        #expect(state.uploads.first?.sha256 == (try fixture.sha256()))
        let warnings = fixture.events.lines.filter { $0.hasPrefix("warning: attempt") }
        #expect(warnings.count == 2)
        #expect(warnings.first?.contains("HTTP 500") == true || warnings.first?.contains("closed the connection") == true)
        #expect(fixture.sleeps.waits.count == 2)
    }

    @Test func fiveHundredsUntilTheAttemptsRunOutFailClearly() async throws {
        let fixture = try Fixture()
        try fixture.fake.inject(fail: 3)
        await #expect(throws: PublishError.failedAfterRetries(
            action: "the DeployGate upload of 'App.ipa' to '\(fixture.fake.owner)'", attempts: 3,
            reason: "HTTP 500 ({\"error\": true, \"message\": \"internal server error\"})")) { _ = try await fixture.run() }
    }

    @Test func aWrongKeyIsRefusedOnceWithDeployGatesMessage() async throws {
        let fixture = try Fixture()
        let error = await #expect(throws: PublishError.self) { _ = try await fixture.run(["token": .string("wrong-key-123")]) }
        #expect(error?.localizedDescription == "the DeployGate upload of 'App.ipa' to '\(fixture.fake.owner)' was refused by DeployGate "
            + "(HTTP 401): you are not authenticated. Check the API key in 'token' (DeployGate → Account settings → Profile → API key).")
        #expect(try fixture.fake.state().requests.count == 1, "4xx is not retried")
        #expect(fixture.sleeps.waits.isEmpty)
    }

    @Test func anOwnerTheKeyCannotUploadToIsRefusedClearly() async throws {
        let fixture = try Fixture()
        let error = await #expect(throws: PublishError.self) { _ = try await fixture.run(["owner": .string("someone-else")]) }
        #expect(error?.localizedDescription == "the DeployGate upload of 'App.ipa' to 'someone-else' was refused by DeployGate (HTTP 403): "
            + "application create error: permit. Check 'owner': the key's user must be an owner or developer of that user or organization.")
        #expect(try fixture.fake.state().uploads.isEmpty)
    }

    @Test func missingCredentialsAndFilesAreRefusedBeforeAnythingIsSent() async throws {
        let fixture = try Fixture()
        #expect(throws: StepError.invalidOption(name: "token", problem: "is required for to: deploygate")) {
            _ = try UploadStep(options: fixture.options(["token": .null]))
        }
        #expect(throws: StepError.invalidOption(name: "owner", problem: "is required for to: deploygate")) {
            _ = try UploadStep(options: fixture.options(["owner": .string("")]))
        }
        #expect(throws: StepError.invalidOption(name: "owner", problem: "'a/b' is not a DeployGate user or organization name")) {
            _ = try UploadStep(options: fixture.options(["owner": .string("a/b")]))
        }
        #expect(throws: StepError.invalidOption(name: "app-id", problem: "applies to to: firebase, not to: deploygate")) {
            _ = try UploadStep(options: fixture.options(["app-id": .string("1:2:ios:ab")]))
        }
        await #expect(throws: PublishError.noMatch(pattern: "build/Missing.ipa")) {
            _ = try await fixture.run(["files": .list([.string("build/Missing.ipa")])])
        }
        try fixture.folder.write("build/Other.ipa", "other")
        await #expect(throws: StepError.invalidOption(name: "files", problem: "matched 2 files (App.ipa, Other.ipa); to: deploygate takes one build. Name one file")) {
            _ = try await fixture.run(["files": .list([.string("build/*.ipa")])])
        }
        #expect(try fixture.fake.state().requests == [])
    }
}

/// The SHA-256 of a file in hex, as sha256sum prints it.
func fileSHA256(_ path: String) throws -> String {
    let result = try CommandResult.run("/usr/bin/sha256sum", [path], in: "/")
    return String(result.standardOutput.prefix(64))
}

/// Records the waits asked of the upload step instead of waiting.
final class DistributionSleeps: @unchecked Sendable {
    private let lock = NSLock()
    private var stored: [Duration] = []
    var waits: [Duration] { lock.withLock { stored } }
    var sleep: @Sendable (Duration) async throws -> Void { { [self] duration in self.lock.withLock { self.stored.append(duration) } } }
}
