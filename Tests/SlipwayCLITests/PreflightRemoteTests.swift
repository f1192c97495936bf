import Crypto
import Foundation
import Testing
import TestSupport
import TestThreads

/// Issue 42: preflight's App Store Connect rules through the built binary, against the contract
/// fake (every request and answer checked against Apple's OpenAPI document).
@Suite("slipway preflight: App Store Connect", .dedicatedThreads)
struct PreflightRemoteTests {
    static let issuer = "69a6de7e-2f4c-47e3-e053-5b8c7c11a4d1"
    let key = P256.Signing.PrivateKey()
    let folder: TemporaryDirectory
    let fake: AppStoreConnectContractFake

    init() throws {
        folder = try TemporaryDirectory(prefix: "slipway-preflight-remote")
        try PreflightFixture().write(in: folder.path)
        fake = try AppStoreConnectContractFake(keys: [.init(issuerID: Self.issuer, keyID: "ABC123DEFG", publicKeyPEM: key.publicKey.pemRepresentation)],
                                               onViolations: recordContractViolations)
    }

    func run(_ extra: [String] = []) throws -> CommandResult {
        let before = try Snapshot.of(folder.path)
        let result = try CommandResult.run(Binaries.slipway, ["preflight", "--issuer-id", Self.issuer, "--key-id", "ABC123DEFG", "--key-env", "ASC_KEY",
                                                              "--api-url", fake.url] + extra,
                                           in: folder.path, environment: ["NO_COLOR": "1", "GITHUB_ACTIONS": nil, "ASC_KEY": key.pemRepresentation])
        #expect(try Snapshot.of(folder.path) == before, "preflight wrote to the checkout")
        return result
    }

    func seedVersion(_ app: String, _ version: String, _ state: String, old: String? = nil) throws {
        try fake.seed("appStoreVersions", attributes: "{\"versionString\": \"\(version)\", \"platform\": \"IOS\", \"appVersionState\": \"\(state)\", "
                      + "\"appStoreState\": \"\(old ?? state)\", \"releaseType\": \"AFTER_APPROVAL\", \"earliestReleaseDate\": null}",
                      relationships: ["app": "{\"type\": \"apps\", \"id\": \"\(app)\"}"])
    }

    func seedUpload(_ app: String, _ version: String, _ build: String, state: String = "COMPLETE") throws {
        try fake.seed("buildUploads", attributes: "{\"cfBundleShortVersionString\": \"\(version)\", \"cfBundleVersion\": \"\(build)\", \"platform\": \"IOS\", "
                      + "\"createdDate\": \"2026-01-01T00:00:00+00:00\", \"uploadedDate\": \"2026-01-01T00:00:00+00:00\", "
                      + "\"state\": {\"state\": \"\(state)\", \"errors\": [], \"warnings\": [], \"infos\": []}}",
                      relationships: ["app": "{\"type\": \"apps\", \"id\": \"\(app)\"}"])
    }

    @Test func aReleaseThatFollowsAppStoreConnectPasses() throws {
        let app = try fake.seedApp(bundleID: "com.example.app", name: "Example")
        try seedVersion(app, "1.3.0", "READY_FOR_DISTRIBUTION", old: "READY_FOR_SALE")
        try seedVersion(app, "1.4.0", "PREPARE_FOR_SUBMISSION")
        try seedUpload(app, "1.4.0", "41")
        try seedUpload(app, "1.4.0", "45", state: "FAILED")
        try fake.seedBuild(appID: app, version: "1.4.0", buildNumber: "40")
        let result = try run()
        #expect(result.status == 0, "\(result.standardOutput)\(result.standardError)")
        #expect(result.standardOutput.contains("ran 13 rules: ") && result.standardOutput.contains("app-store-connect-app, version-above-released, "
            + "version-train-open, version-matches-prepared, build-number-above-uploaded\n"), "\(result.standardOutput)")
        #expect(result.standardOutput.hasSuffix("0 errors, 0 warnings, 0 notes\n"))
        #expect(try fake.state().violations == [])
    }

    @Test func noAppWithTheBundleIDIsRefusedAndTheOtherRulesSaySo() throws {
        try fake.seedApp(bundleID: "com.example.other", name: "Other")
        let result = try run()
        #expect(result.status == 2)
        let lines = try String(contentsOfFile: folder.path + "/App.xcodeproj/project.pbxproj", encoding: .utf8).components(separatedBy: "\n")
        let line = lines.indices.filter { lines[$0].contains("PRODUCT_BUNDLE_IDENTIFIER = com.example.app;") }[1] + 1
        #expect(result.standardOutput.hasPrefix("""
            error: App.xcodeproj/project.pbxproj:\(line): [app-store-connect-app] App Store Connect has no app with bundle id 'com.example.app' (the app target's CFBundleIdentifier), so the upload would be refused

            """), "\(result.standardOutput)")
        #expect(result.standardOutput.contains("skipped version-above-released: App Store Connect has no app with bundle id 'com.example.app' (see app-store-connect-app)\n"))
    }

    @Test func aVersionBelowTheReleasedOneOrOnAClosedTrainIsRefused() throws {
        let app = try fake.seedApp(bundleID: "com.example.app", name: "Example")
        try seedVersion(app, "1.5.0", "READY_FOR_DISTRIBUTION", old: "READY_FOR_SALE")
        let lower = try run()
        #expect(lower.status == 2)
        #expect(lower.standardOutput.contains("[version-above-released] version 1.4.0 is lower than 1.5.0, which App Store Connect made available (app \(app), IOS); the upload would be refused\n"
            + "  fix: raise the version above 1.5.0 (slipway version --next, or version.bump)\n"
            + "  see: ITMS-90062 (the value for CFBundleShortVersionString must contain a higher version than that of the previously approved version)\n"),
                "\(lower.standardOutput)")
        // The same version, approved and waiting for the developer's release: its train is closed.
        let fresh = try AppStoreConnectContractFake(keys: [.init(issuerID: Self.issuer, keyID: "ABC123DEFG", publicKeyPEM: key.publicKey.pemRepresentation)],
                                                    onViolations: recordContractViolations)
        let closedApp = try fresh.seedApp(bundleID: "com.example.app", name: "Example")
        try fresh.seed("appStoreVersions", attributes: "{\"versionString\": \"1.4.0\", \"platform\": \"IOS\", \"appVersionState\": \"PENDING_DEVELOPER_RELEASE\", "
                       + "\"appStoreState\": \"PENDING_DEVELOPER_RELEASE\", \"releaseType\": \"MANUAL\", \"earliestReleaseDate\": null}",
                       relationships: ["app": "{\"type\": \"apps\", \"id\": \"\(closedApp)\"}"])
        let closed = try CommandResult.run(Binaries.slipway, ["preflight", "--issuer-id", Self.issuer, "--key-id", "ABC123DEFG", "--key-env", "ASC_KEY",
                                                              "--api-url", fresh.url],
                                           in: folder.path, environment: ["NO_COLOR": "1", "GITHUB_ACTIONS": nil, "ASC_KEY": key.pemRepresentation])
        #expect(closed.status == 2)
        #expect(closed.standardOutput.contains("[version-train-open] version 1.4.0 was already approved on App Store Connect (PENDING_DEVELOPER_RELEASE, appStoreVersions/"),
                "\(closed.standardOutput)")
        #expect(try fresh.state().violations == [])
    }

    @Test func aVersionOtherThanTheOneBeingPreparedIsRefused() throws {
        let app = try fake.seedApp(bundleID: "com.example.app", name: "Example")
        try seedVersion(app, "1.5.0", "PREPARE_FOR_SUBMISSION")
        let result = try run()
        #expect(result.status == 2)
        #expect(result.standardOutput.contains("[version-matches-prepared] version 1.4.0 is not the version App Store Connect prepares for app \(app): 1.5.0 (PREPARE_FOR_SUBMISSION, appStoreVersions/"),
                "\(result.standardOutput)")

        // A beta for TestFlight may be of another version: App Store Connect takes it and opens its train.
        let beta = try run(["--destination", "testflight"])
        #expect(beta.status == 0, "\(beta.standardOutput)")
        #expect(!beta.standardOutput.contains("[version-matches-prepared]"), "\(beta.standardOutput)")
        #expect(beta.standardOutput.contains("skipped version-matches-prepared: a TestFlight upload may be of another version than the one being prepared "
            + "(App Store Connect opens that version's train)\n"), "\(beta.standardOutput)")
        #expect(beta.standardOutput.contains("skipped listing: a TestFlight upload sends no App Store listing\n"), "\(beta.standardOutput)")
        let wrong = try run(["--destination", "beta"])
        #expect(wrong.status == 64)
        #expect(wrong.standardError.contains("--destination 'beta' is not one of app-store, testflight."), "\(wrong.standardError)")
    }

    @Test func aBuildNumberAlreadyUploadedIsRefusedEvenOnTheSecondPage() throws {
        let app = try fake.seedApp(bundleID: "com.example.app", name: "Example")
        // 200 lower numbers fill the first page; the one the project holds is on the second.
        for index in 0..<200 { try seedUpload(app, "1.4.0", String(index % 41 + 1)) }
        try seedUpload(app, "1.4.0", "42")
        try seedUpload(app, "1.3.0", "900")
        let result = try run()
        #expect(result.status == 2)
        let lines = try String(contentsOfFile: folder.path + "/App.xcodeproj/project.pbxproj", encoding: .utf8).components(separatedBy: "\n")
        let line = lines.indices.filter { lines[$0].contains("CURRENT_PROJECT_VERSION = 42;") }[1] + 1
        #expect(result.standardOutput.contains("""
            error: App.xcodeproj/project.pbxproj:\(line): [build-number-above-uploaded] build number 42 is already used for version 1.4.0 of app \(app) (42 builds read)
              fix: set the build number to 43 or higher (appstore.build-number's 'next', then version.bump build-number)
              see: ITMS-90189 (Redundant Binary Upload: a build with this build number was already uploaded for this version)
            """), "\(result.standardOutput)")
        #expect(try fake.state().requests.filter { $0.path.hasSuffix("/buildUploads") }.count == 2, "both pages read")
    }
}
