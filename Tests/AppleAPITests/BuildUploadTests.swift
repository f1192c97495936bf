import AppleAPI
import Basics
import Foundation
import TestSupport
import TestThreads
import Testing
import Transport

@Suite("Build uploads against the contract fake", .dedicatedThreads)
struct BuildUploadTests {
    let fixture: AppleAPIFixture
    let folder: TemporaryDirectory
    let appID: String
    let ipa: String

    init() throws {
        fixture = try AppleAPIFixture()
        folder = try TemporaryDirectory(prefix: "asc-upload")
        appID = try fixture.fake.seedApp(bundleID: "com.example.app", name: "Example")
        ipa = folder.path + "/Example.ipa"
        try IPAFixture.make(at: ipa, payloadBytes: 300_000)
        try fixture.fake.set(["part_size": "100000"])
    }

    /// An uploader whose waits advance the fixture's clock instead of sleeping.
    func uploader(timeout: Duration = .seconds(600), notes: Recorder<String> = Recorder()) -> BuildUploader {
        let clock = fixture.clock, sleeps = fixture.sleeps
        let base = fixture.client()
        let client = AppStoreConnectClient(
            tokens: base.tokens, http: base.http, baseURL: base.baseURL,
            retry: RetryPolicy(attempts: 3, sleep: { clock.advance(seconds: Double($0.components.seconds)); sleeps.append($0) },
                               random: { 1 }),
            now: { clock.now })
        var options = BuildUploader.Options()
        options.timeout = timeout
        options.concurrency = 2
        return BuildUploader(client: client, options: options, now: { clock.now }) { event in
            if case .note(let text) = event { notes.append(text) }
        }
    }

    func parts(_ state: AppStoreConnectContractFake.State) -> [String] {
        state.requests.filter { $0.path.hasPrefix("/upload-parts/") && $0.status == 200 }.map(\.path)
    }

    @Test func theInfoPlistIsReadFromXMLAndBinaryPlists() throws {
        let info = try IPAInfo.read(path: ipa)
        #expect(info == IPAInfo(bundleID: "com.example.app", version: "1.2.0", buildNumber: "42", platform: "IOS", path: ipa,
                                fileSize: info.fileSize, uti: "com.apple.ipa"))
        let binary = folder.path + "/Binary.ipa"
        try IPAFixture.make(at: binary, version: "2.0", build: "7", binaryPlist: true)
        #expect(try IPAInfo.read(path: binary).version == "2.0")
        #expect(try IPAInfo.read(path: binary, overrides: .init(buildNumber: "8")).buildNumber == "8")
    }

    @Test func badArchivesGetExactMessages() throws {
        let noPlist = folder.path + "/NoPlist.ipa"
        try IPAFixture.make(at: noPlist, plist: false)
        #expect(throws: BuildUploadError.noInfoPlist(path: noPlist)) { try IPAInfo.read(path: noPlist) }
        #expect(BuildUploadError.noInfoPlist(path: noPlist).errorDescription
            == "'\(noPlist)' has no Payload/NAME.app/Info.plist, so it is not an app archive. Give the .ipa that xcode.export (or Xcode) wrote.")
        try folder.write("text.ipa", "not a zip")
        #expect(throws: BuildUploadError.notAnArchive(path: folder.path + "/text.ipa", reason: "it has no zip end-of-directory record")) {
            try IPAInfo.read(path: folder.path + "/text.ipa")
        }
        try folder.write("App.pkg", "xar!")
        #expect(throws: BuildUploadError.pkgNeedsOverrides(path: folder.path + "/App.pkg")) { try IPAInfo.read(path: folder.path + "/App.pkg") }
        let pkg = try IPAInfo.read(path: folder.path + "/App.pkg", overrides: .init(bundleID: "com.example.mac", version: "1.0", buildNumber: "3"))
        #expect(pkg.uti == "com.apple.pkg" && pkg.platform == "MAC_OS")
    }

    @Test func anArchiveOverFourGigabytesUncompressedIsRefused() throws {
        // A zip whose central directory declares two 2.5 GB entries (nothing else is read).
        let path = folder.path + "/Huge.ipa"
        var bytes: [UInt8] = []
        func le(_ value: UInt64, _ count: Int) { for index in 0..<count { bytes.append(UInt8((value >> (8 * UInt64(index))) & 0xFF)) } }
        var central: [UInt8] = []
        for name in ["Payload/A.app/a", "Payload/A.app/b"] {
            let start = bytes.count
            bytes = central
            le(0x0201_4B50, 4); le(20, 2); le(20, 2); le(0, 2); le(0, 2); le(0, 4); le(0, 4)
            le(1000, 4); le(2_500_000_000, 4); le(UInt64(name.utf8.count), 2); le(0, 2); le(0, 2); le(0, 2); le(0, 2); le(0, 4); le(0, 4)
            bytes += Array(name.utf8)
            central = bytes
            _ = start
        }
        bytes = central
        le(0x0605_4B50, 4); le(0, 2); le(0, 2); le(2, 2); le(2, 2); le(UInt64(central.count), 4); le(0, 4); le(0, 2)
        try Data(bytes).write(to: URL(fileURLWithPath: path))
        #expect {
            try IPAInfo.read(path: path)
        } throws: { error in
            errorText(error) == "'\(path)' holds 5000000000 bytes uncompressed; Apple requires an app's total uncompressed size to be less than 4 GB (https://developer.apple.com/help/app-store-connect/reference/maximum-build-file-sizes). Move large assets to on-demand resources or Background Assets."
        }
    }

    @Test func anIPAIsUploadedInPartsCommittedAndWaitedFor() async throws {
        let info = try IPAInfo.read(path: ipa)
        let notes = Recorder<String>()
        let result = try await uploader(notes: notes).upload(info, appID: appID)
        #expect(result.uploadState == "COMPLETE" && result.processingState == "VALID" && result.partsSent == 4)
        #expect(result.buildID != nil && !result.alreadyUploaded)
        let state = try fixture.fake.state()
        #expect(state.violations == [])
        let fileID = try #require(state.requests.first { $0.method == "PATCH" }?.path.split(separator: "/").last)
        #expect(parts(state).sorted() == (1...4).map { "/upload-parts/\(fileID)/\($0)" })
        let api = state.requests.filter { !$0.path.hasPrefix("/upload-parts/") }.map(\.line)
        let buildID = result.buildID ?? ""
        #expect(api == ["GET /v1/apps/\(appID)/buildUploads", "POST /v1/buildUploads",
                        "GET /v1/buildUploads/\(result.buildUploadID)/buildUploadFiles", "POST /v1/buildUploadFiles",
                        "PATCH /v1/buildUploadFiles/\(fileID)", "GET /v1/buildUploads/\(result.buildUploadID)",
                        "GET /v1/builds/\(buildID)", "GET /v1/builds/\(buildID)"])
        #expect(notes.values.contains("reserved file \(fileID): 4 parts"))

        // Again: recognised as done, nothing sent.
        let again = try await uploader().upload(info, appID: appID)
        #expect(again.alreadyUploaded && again.partsSent == 0 && again.buildUploadID == result.buildUploadID)
        #expect(parts(try fixture.fake.state()).count == 4)
    }

    @Test func faultsAreRetriedAndDroppedPartsResent() async throws {
        try fixture.fake.inject(.drop(method: "PUT", path: "/upload-parts/.*/2", afterBytes: 50_000),
                                .status(500, method: "PUT", path: "/upload-parts/.*/3", times: 2),
                                .status(429, method: "POST", path: "/v1/buildUploadFiles", retryAfter: 30),
                                .status(401, method: "PATCH", path: "/v1/buildUploadFiles"))
        let result = try await uploader().upload(try IPAInfo.read(path: ipa), appID: appID)
        #expect(result.processingState == "VALID")
        let state = try fixture.fake.state()
        #expect(state.violations == [])
        #expect(parts(state).count == 4)
        #expect(state.requests.filter { $0.path.hasSuffix("/3") && $0.method == "PUT" }.map(\.status) == [500, 500, 200])
        #expect(state.requests.filter { $0.path.hasSuffix("/2") && $0.method == "PUT" }.map(\.status) == [0, 200])
    }

    @Test func anInterruptedUploadIsResumedWithoutANewReservation() async throws {
        try fixture.fake.inject(.status(403, method: "PATCH", path: "/v1/buildUploadFiles"))
        let info = try IPAInfo.read(path: ipa)
        await #expect(throws: AppStoreConnectError.self) { _ = try await uploader().upload(info, appID: appID) }
        let result = try await uploader().upload(info, appID: appID)
        #expect(result.processingState == "VALID")
        let lines = try fixture.fake.state().requests.map(\.line)
        #expect(lines.filter { $0 == "POST /v1/buildUploads" }.count == 1)
        #expect(lines.filter { $0 == "POST /v1/buildUploadFiles" }.count == 1)
    }

    @Test func aDuplicateBuildNumberSaysToBumpIt() async throws {
        let pre = try fixture.fake.seed("preReleaseVersions", attributes: #"{"version": "1.2.0", "platform": "IOS"}"#,
                                        relationships: ["app": #"{"type": "apps", "id": "\#(appID)"}"#])
        try fixture.fake.seed("builds", attributes: #"{"version": "42", "processingState": "VALID", "uploadedDate": "2026-01-01T00:00:00+00:00"}"#,
                              relationships: ["app": #"{"type": "apps", "id": "\#(appID)"}"#,
                                              "preReleaseVersion": #"{"type": "preReleaseVersions", "id": "\#(pre)"}"#])
        await #expect {
            _ = try await uploader().upload(try IPAInfo.read(path: ipa), appID: appID)
        } throws: { error in
            errorText(error) == "build number 42 already used for version 1.2.0 (ENTITY_ERROR.ATTRIBUTE.INVALID.DUPLICATE: The provided entity includes an attribute with a value that has already been used — The bundle version must be higher than the previously uploaded version: '42'.): bump the build number (version.bump's build-number, or appstore.build-number's next)."
        }
        #expect(parts(try fixture.fake.state()).isEmpty)
        let numbers = try await fixture.client().buildNumbers(appID: appID, version: "1.2.0")
        #expect(numbers == BuildNumbers(latest: "42"))
        #expect(numbers.next == "43")
    }

    @Test func processingThatNeverEndsTimesOutWithTheLastState() async throws {
        try fixture.fake.set(["processing_polls": "-1"])
        await #expect {
            _ = try await uploader(timeout: .seconds(300)).upload(try IPAInfo.read(path: ipa), appID: appID)
        } throws: { error in
            errorText(error).hasPrefix("processing of build ") && errorText(error).hasSuffix(" did not finish within 300 s (last state: PROCESSING). Apple may still be processing it: raise the timeout, or run again later (the upload is not repeated).")
        }
    }

    @Test func buildNumbersComeFromUploadsThenBuilds() async throws {
        #expect(try await fixture.client().buildNumbers(appID: appID, version: nil) == BuildNumbers(latest: nil))
        _ = try await uploader().upload(try IPAInfo.read(path: ipa), appID: appID)
        let numbers = try await fixture.client().buildNumbers(appID: appID, version: "1.2.0")
        #expect(numbers.latest == "42" && numbers.next == "43")
        #expect(BuildNumbers(latest: "1.2.9").next == "1.2.10")
        #expect(BuildNumbers.isLower("9", "10"))
        #expect(try fixture.fake.state().violations == [])
    }
}
