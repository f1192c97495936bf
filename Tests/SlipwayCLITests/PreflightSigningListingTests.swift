import Foundation
import Testing
import TestSupport
import TestThreads

/// Issue 42: preflight's signing rule (profiles in a folder) and listing rule (the checks
/// appstore.metadata makes), through the built binary.
@Suite("slipway preflight: signing and listing", .dedicatedThreads)
struct PreflightSigningListingTests {
    let folder: TemporaryDirectory
    let authority: TestCertificateAuthority

    init() throws {
        folder = try TemporaryDirectory(prefix: "slipway-preflight-signing")
        authority = try TestCertificateAuthority()
        try PreflightFixture().write(in: folder.path)
    }

    func run(_ extra: [String]) throws -> CommandResult {
        let before = try Snapshot.of(folder.path)
        let result = try CommandResult.run(Binaries.slipway, ["preflight"] + extra, in: folder.path, environment: ["NO_COLOR": "1", "GITHUB_ACTIONS": nil])
        #expect(try Snapshot.of(folder.path) == before, "preflight wrote to the checkout")
        return result
    }

    func profile(_ bundleID: String, expires: Date, certificateExpires: Date, push: Bool) throws {
        var builder = ProvisioningProfileBuilder()
        builder.bundleID = bundleID
        builder.name = "AppStore \(bundleID)"
        builder.creationDate = expires.addingTimeInterval(-365 * 86_400)
        builder.expirationDate = expires
        builder.certificates = [try PreflightFixture.distributionCertificate(authority, notValidAfter: certificateExpires)]
        if push { builder.extraStringEntitlements = ["aps-environment": "production"] }
        let path = folder.path + "/profiles/AppStore_\(bundleID).mobileprovision"
        try FileManager.default.createDirectory(atPath: folder.path + "/profiles", withIntermediateDirectories: true)
        try Data(try builder.build(signedBy: authority)).write(to: URL(fileURLWithPath: path))
    }

    @Test func profilesThatCoverEveryTargetPass() throws {
        let later = Date().addingTimeInterval(200 * 86_400)
        try profile("com.example.app", expires: later, certificateExpires: later, push: true)
        try profile("com.example.app.widget", expires: later, certificateExpires: later, push: false)
        let result = try run(["--profiles", "profiles"])
        #expect(result.status == 0, "\(result.standardOutput)")
        #expect(result.standardOutput.contains("ran 9 rules: ") && result.standardOutput.contains("privacy-manifest, signing\n"), "\(result.standardOutput)")
        #expect(result.standardOutput.hasSuffix("0 errors, 0 warnings, 0 notes\n"))
    }

    @Test func anExpiredProfileAMissingOneAndAMissingCapabilityAreRefused() throws {
        let later = Date().addingTimeInterval(200 * 86_400), past = Date().addingTimeInterval(-2 * 86_400)
        try profile("com.example.app", expires: later, certificateExpires: later, push: false)
        let result = try run(["--profiles", "profiles"])
        #expect(result.status == 2)
        #expect(result.standardOutput.contains("""
            error: App/App.entitlements: [signing] 'App' asks for push notifications (aps-environment) and its profile 'profiles/AppStore_com.example.app.mobileprovision' does not grant them
              fix: enable the capability for the App ID on the developer portal, then make the profile again (slipway signing sync --force)
            """), "\(result.standardOutput)")
        #expect(result.standardOutput.contains("[signing] 'Widget' (com.example.app.widget) has no app-store provisioning profile in 'profiles'\n"
            + "  fix: make one with slipway signing sync --type app-store --bundle-id com.example.app.widget\n"), "\(result.standardOutput)")
        try profile("com.example.app", expires: past, certificateExpires: later, push: true)
        try profile("com.example.app.widget", expires: later, certificateExpires: past, push: false)
        let expired = try run(["--profiles", "profiles"])
        #expect(expired.status == 2)
        #expect(expired.standardOutput.contains("[signing] 'App' (com.example.app): every app-store profile for it has expired ('profiles/AppStore_com.example.app.mobileprovision' on "),
                "\(expired.standardOutput)")
        #expect(expired.standardOutput.contains("[signing] 'Widget' (com.example.app.widget): every certificate in its app-store profiles has expired ('profiles/AppStore_com.example.app.widget.mobileprovision')\n"),
                "\(expired.standardOutput)")
    }

    @Test func listingTextsOverTheirLimitsAreRefusedAllAtOnce() throws {
        try folder.write("fastlane/metadata/en-US/name.txt", "Example")
        try folder.write("fastlane/metadata/en-US/subtitle.txt", "Short")
        let good = try run([])
        #expect(good.status == 0, "\(good.standardOutput)")
        #expect(good.standardOutput.contains("privacy-manifest, listing\n"), "\(good.standardOutput)")
        try folder.write("fastlane/metadata/en-US/name.txt", String(repeating: "N", count: 31))
        try folder.write("fastlane/metadata/en-US/subtitle.txt", String(repeating: "S", count: 31))
        let bad = try run([])
        #expect(bad.status == 2)
        #expect(bad.standardOutput.contains("error: fastlane/metadata/en-US/name.txt: [listing] name is 31 characters; App Store Connect accepts at most 30"),
                "\(bad.standardOutput)")
        #expect(bad.standardOutput.contains("error: fastlane/metadata/en-US/subtitle.txt: [listing] subtitle is 31 characters; App Store Connect accepts at most 30"),
                "\(bad.standardOutput)")
    }
}
