import Crypto
import Foundation
import Testing
import TestSupport
import TestThreads

/// The `appstore.metadata` step through `slipway run`, against the App Store Connect contract
/// fake: the step pushes as `slipway appstore metadata push` does (one runner), so a screenshot
/// Apple would refuse stops it before any request, texts included.
@Suite("slipway run: appstore.metadata", .dedicatedThreads)
struct AppStoreMetadataLaneCommandTests {
    static let issuer = "69a6de7e-2f4c-47e3-e053-5b8c7c11a4d1"
    let key = P256.Signing.PrivateKey()
    let folder: TemporaryDirectory
    let state: TemporaryDirectory
    let fake: AppStoreConnectContractFake

    init() throws {
        folder = try TemporaryDirectory(prefix: "slipway-metadata-lane")
        state = try TemporaryDirectory(prefix: "slipway-metadata-lane-state")
        fake = try AppStoreConnectContractFake(keys: [.init(issuerID: Self.issuer, keyID: "ABC123DEFG",
                                                            publicKeyPEM: key.publicKey.pemRepresentation)],
                                                 onViolations: recordContractViolations)
        _ = try fake.seedListing()
        try folder.write("lanes/listing.yml", """
            description: The App Store listing
            secrets: [ASC_KEY]
            steps:
              - appstore.metadata:
                  bundle-id: com.example.app
                  issuer-id: \(Self.issuer)
                  key-id: ABC123DEFG
                  key: "${{ secrets.ASC_KEY }}"
                  api-url: \(fake.url)
                id: listing
            """)
        try folder.write("fastlane/metadata/en-US/name.txt", "Example\n")
        try folder.write("fastlane/metadata/en-US/description.txt", "An example app.\n")
    }

    func run() throws -> CommandResult {
        try CommandResult.run(Binaries.slipway, ["run", "listing"], in: folder.path,
                              environment: ["ASC_KEY": key.pemRepresentation, "XDG_STATE_HOME": state.path, "NO_COLOR": "1"])
    }

    func shot(_ name: String, seed: Int, width: Int) throws {
        try FileManager.default.createDirectory(atPath: folder.path + "/fastlane/screenshots/en-US", withIntermediateDirectories: true)
        try Data(ScreenshotImages.png(width: width, height: 390, seed: seed))
            .write(to: URL(fileURLWithPath: folder.path + "/fastlane/screenshots/en-US/" + name))
    }

    /// The checkout without the run journals the lane keeps in `.slipway`.
    func checkout() throws -> [String: String] { try Snapshot.of(folder.path).filter { !$0.key.hasPrefix(".slipway") } }

    @Test func aBadScreenshotStopsTheStepBeforeAnyRequest() throws {
        try shot("1.png", seed: 1, width: 312)
        try shot("small.png", seed: 2, width: 100)
        let before = try checkout()
        let result = try run()
        let text = result.standardOutput + result.standardError
        #expect(result.status == 1, "\(text)")
        #expect(text.contains("✗ listing failed after"), "\(text)")
        #expect(text.contains("    the screenshots in '\(folder.path)/fastlane/screenshots' have 1 problem; nothing was sent:\n"
            + "      - '\(folder.path)/fastlane/screenshots/en-US/small.png' is 100x390 pixels, which no App Store display type accepts."), "\(text)")
        #expect(try fake.state().requests.isEmpty)
        #expect(try checkout() == before)

        // Once the screenshot is right, the texts and the screenshots go, in one run.
        try FileManager.default.removeItem(atPath: folder.path + "/fastlane/screenshots/en-US/small.png")
        let fixed = try run()
        #expect(fixed.status == 0, "\(fixed.standardOutput + fixed.standardError)")
        let writes = try fake.state().requests.filter { $0.method != "GET" }.map(\.line)
        #expect(writes.prefix(2) == ["POST /v1/appInfoLocalizations", "POST /v1/appStoreVersionLocalizations"])
        #expect(writes.contains("POST /v1/appScreenshots"))
        #expect(try fake.state().violations == [])
    }
}
