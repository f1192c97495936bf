import AppleAPI
import Basics
import Foundation
import TestSupport
import TestThreads
import Testing
import Transport

/// `appstore.upload` never ends with an empty build id: the upload is read with `include=build`,
/// a missing linkage falls back to `GET /v1/builds`, and a build found nowhere is an error.
@Suite("Build uploads always end with a build id", .dedicatedThreads)
struct BuildUploadBuildIDTests {
    let fixture: AppleAPIFixture
    let folder: TemporaryDirectory
    let appID: String
    let ipa: String

    init() throws {
        fixture = try AppleAPIFixture()
        folder = try TemporaryDirectory(prefix: "asc-upload-build-id")
        appID = try fixture.fake.seedApp(bundleID: "com.example.app", name: "Example")
        ipa = folder.path + "/Example.ipa"
        try IPAFixture.make(at: ipa, payloadBytes: 120_000)
        try fixture.fake.set(["part_size": "100000"])
    }

    /// An uploader whose waits advance the fixture's clock instead of sleeping.
    func uploader(timeout: Duration = .seconds(600), waitForProcessing: Bool = true, notes: Recorder<String> = Recorder()) -> BuildUploader {
        let clock = fixture.clock
        let base = fixture.client()
        let client = AppStoreConnectClient(
            tokens: base.tokens, http: base.http, baseURL: base.baseURL,
            retry: RetryPolicy(attempts: 3, sleep: { clock.advance(seconds: Double($0.components.seconds)) }, random: { 1 }),
            now: { clock.now })
        var options = BuildUploader.Options()
        options.timeout = timeout
        options.waitForProcessing = waitForProcessing
        return BuildUploader(client: client, options: options, now: { clock.now }) { event in
            if case .note(let text) = event { notes.append(text) }
        }
    }

    /// The id of the one build the fake made.
    func storedBuildID() throws -> String {
        let builds = try JSONSerialization.jsonObject(with: fixture.fake.resources("builds")) as? [[String: Any]] ?? []
        return try #require(builds.count == 1 ? builds[0]["id"] as? String : nil)
    }

    func reads(_ state: AppStoreConnectContractFake.State) -> [String] {
        state.requests.filter { $0.method == "GET" && ($0.path.hasPrefix("/v1/buildUploads/") || $0.path == "/v1/builds") }
            .map { "\($0.path)?\($0.query)" }
    }

    @Test(arguments: ["always", "included_only"])
    func theBuildComesFromTheUploadsLinkage(linkage: String) async throws {
        try fixture.fake.set(["linkage": "\"\(linkage)\""])
        let result = try await uploader().upload(try IPAInfo.read(path: ipa), appID: appID)
        let buildID = try storedBuildID()
        #expect(result.buildID == buildID && result.processingState == "VALID")
        let state = try fixture.fake.state()
        #expect(reads(state).filter { !$0.hasSuffix("/buildUploadFiles?") } == ["/v1/buildUploads/\(result.buildUploadID)?include=build"])
        #expect(!state.requests.contains { $0.path == "/v1/builds" })
    }

    @Test(arguments: [true, false])
    func withoutLinkageTheBuildIsLookedUp(waitForProcessing: Bool) async throws {
        try fixture.fake.set(["upload_build_linkage": "false"])
        let notes = Recorder<String>()
        let result = try await uploader(waitForProcessing: waitForProcessing, notes: notes).upload(try IPAInfo.read(path: ipa), appID: appID)
        let buildID = try storedBuildID()
        #expect(result.buildID == buildID && !buildID.isEmpty)
        #expect(result.processingState == (waitForProcessing ? "VALID" : nil))
        let lookups = try fixture.fake.state().requests.filter { $0.path == "/v1/builds" }.map(\.query)
        #expect(lookups == ["filter%5Bapp%5D=\(appID)&filter%5BpreReleaseVersion.version%5D=1.2.0&filter%5Bversion%5D=42"
                            + "&filter%5BpreReleaseVersion.platform%5D=IOS&fields%5Bbuilds%5D=version,processingState&limit=1"])
        #expect(notes.values.contains { $0.hasSuffix("names no build; looking for build 1.2.0 (42) in GET /v1/builds") })
    }

    @Test func aBuildFoundNowhereIsAnErrorNotAnEmptyID() async throws {
        try fixture.fake.set(["upload_build_linkage": "false", "upload_creates_build": "false"])
        let error = try await #require(throws: BuildUploadError.self) {
            _ = try await uploader(timeout: .seconds(300)).upload(try IPAInfo.read(path: ipa), appID: appID)
        }
        guard case .buildNotFound(let id, "1.2.0", "42", 300) = error else {
            Issue.record("not buildNotFound: \(error)")
            return
        }
        #expect(errorText(BuildUploadError.buildNotFound(uploadID: id, version: "1.2.0", buildNumber: "42", seconds: 300))
            == "build upload \(id) is COMPLETE, but App Store Connect showed no build for version 1.2.0 (42) within 300 s: "
            + "the upload names none and GET /v1/builds finds none. Slipway does not go on without a build id: look for the build in "
            + "App Store Connect (TestFlight → Builds) and run again later (the upload is not repeated), or raise the timeout.")
        let state = try fixture.fake.state()
        #expect(state.requests.filter { $0.path == "/v1/builds" }.count > 1)
        #expect(!state.requests.contains { $0.path.hasPrefix("/v1/builds/") })
    }

    @Test func anEmptyBuildLinkageFromAnEarlierUploadStopsTheUpload() async throws {
        let upload = try fixture.fake.seed(
            "buildUploads",
            attributes: #"{"cfBundleShortVersionString": "1.2.0", "cfBundleVersion": "42", "platform": "IOS", "uploadedDate": "2025-01-01T00:00:00+00:00", "#
                + #""state": {"state": "COMPLETE", "errors": [], "warnings": [], "infos": []}}"#,
            relationships: ["app": #"{"type": "apps", "id": "\#(appID)"}"#, "build": #"{"type": "builds", "id": ""}"#])
        let error = try await #require(throws: AppStoreConnectError.self) {
            _ = try await uploader().upload(try IPAInfo.read(path: ipa), appID: appID)
        }
        #expect(error == .missingID(action: "list the build uploads of version 1.2.0 (42)", what: "the 'build' linkage of 'buildUploads' \(upload)"))
        #expect(try fixture.fake.state().requests.map(\.line) == ["GET /v1/apps/\(appID)/buildUploads"])
    }

    @Test func aResourceWithoutAnIDStopsTheFlow() throws {
        let body = Array(#"{"data": {"type": "buildUploads", "attributes": {}, "relationships": {"build": {"data": {"type": "builds", "id": ""}}}}, "links": {"self": "x"}}"#.utf8)
        let answer = AppStoreConnectResponse(status: 200, headers: [:], body: body)
        #expect(throws: AppStoreConnectError.missingID(action: "read build upload 7", what: "a 'buildUploads' resource")) {
            _ = try answer.document(action: "read build upload 7")
        }
        let linkage = Array(#"{"data": [{"type": "buildUploads", "id": "7", "relationships": {"build": {"data": {"type": "builds", "id": ""}}}}]}"#.utf8)
        #expect(throws: AppStoreConnectError.missingID(action: "list the build uploads", what: "the 'build' linkage of 'buildUploads' 7")) {
            _ = try AppStoreConnectResponse(status: 200, headers: [:], body: linkage).document(action: "list the build uploads")
        }
        #expect(errorText(AppStoreConnectError.missingID(action: "read build upload 7", what: "a 'buildUploads' resource"))
            == "App Store Connect's answer to read build upload 7 has a 'buildUploads' resource without an id; slipway does not go on "
            + "with an empty id. Run again; if it happens again, check that the API's address points at App Store Connect and report the answer (slipway --verbose).")
    }
}
