import Foundation
import Testing
import TestSupport
import TestThreads

/// Issue 42, rules 5 and 6 beyond push and texts: app groups and iCloud containers the profile
/// does not grant, and a screenshot of a size no display type accepts — each failing and passing,
/// through the built binary, nothing written to the checkout.
@Suite("slipway preflight: capabilities and screenshots", .dedicatedThreads)
struct PreflightCapabilityScreenshotTests {
    let folder: TemporaryDirectory
    let authority: TestCertificateAuthority
    let later = Date().addingTimeInterval(200 * 86_400)

    init() throws {
        folder = try TemporaryDirectory(prefix: "slipway-preflight-capabilities")
        authority = try TestCertificateAuthority()
        var fixture = PreflightFixture()
        fixture.entitlements = """
            <key>aps-environment</key>
            \t<string>production</string>
            \t<key>com.apple.security.application-groups</key>
            \t<array><string>group.com.example.app</string><string>group.com.example.shared</string></array>
            \t<key>com.apple.developer.icloud-container-identifiers</key>
            \t<array><string>iCloud.com.example.app</string></array>
            """
        try fixture.write(in: folder.path)
    }

    func run(_ extra: [String]) throws -> CommandResult {
        let before = try Snapshot.of(folder.path)
        let result = try CommandResult.run(Binaries.slipway, ["preflight"] + extra, in: folder.path, environment: ["NO_COLOR": "1", "GITHUB_ACTIONS": nil])
        #expect(try Snapshot.of(folder.path) == before, "preflight wrote to the checkout")
        return result
    }

    func profile(_ bundleID: String, lists: [String: [String]] = [:]) throws {
        var builder = ProvisioningProfileBuilder()
        builder.bundleID = bundleID
        builder.name = "AppStore \(bundleID)"
        builder.creationDate = later.addingTimeInterval(-365 * 86_400)
        builder.expirationDate = later
        builder.certificates = [try PreflightFixture.distributionCertificate(authority, notValidAfter: later)]
        builder.extraStringEntitlements = ["aps-environment": "production"]
        builder.extraListEntitlements = lists
        try FileManager.default.createDirectory(atPath: folder.path + "/profiles", withIntermediateDirectories: true)
        try Data(try builder.build(signedBy: authority)).write(to: URL(fileURLWithPath: folder.path + "/profiles/AppStore_\(bundleID).mobileprovision"))
    }

    @Test func appGroupsAndICloudContainersMustBeGrantedByTheProfile() throws {
        try profile("com.example.app.widget")
        try profile("com.example.app", lists: ["com.apple.security.application-groups": ["group.com.example.app"]])
        let bad = try run(["--profiles", "profiles"])
        #expect(bad.status == 2, "\(bad.standardOutput)")
        #expect(bad.standardOutput.contains("""
            error: App/App.entitlements: [signing] 'App' asks for app groups 'group.com.example.shared' that its profile 'profiles/AppStore_com.example.app.mobileprovision' does not grant
              fix: add them to the App ID on the developer portal, then make the profile again (slipway signing sync --force)
            """), "\(bad.standardOutput)")
        #expect(bad.standardOutput.contains("""
            error: App/App.entitlements: [signing] 'App' asks for iCloud containers (com.apple.developer.icloud-container-identifiers) and its profile 'profiles/AppStore_com.example.app.mobileprovision' does not grant them
            """), "\(bad.standardOutput)")
        #expect(bad.standardOutput.hasSuffix("2 errors, 0 warnings, 0 notes: App Store Connect would refuse this release\n"), "\(bad.standardOutput)")

        try profile("com.example.app", lists: [
            "com.apple.security.application-groups": ["group.com.example.app", "group.com.example.shared"],
            "com.apple.developer.icloud-container-identifiers": ["iCloud.com.example.app"],
        ])
        let good = try run(["--profiles", "profiles"])
        #expect(good.status == 0, "\(good.standardOutput)")
        #expect(good.standardOutput.hasSuffix("0 errors, 0 warnings, 0 notes\n"), "\(good.standardOutput)")
    }

    func shot(_ name: String, width: Int, height: Int) throws {
        try FileManager.default.createDirectory(atPath: folder.path + "/fastlane/screenshots/en-US", withIntermediateDirectories: true)
        try Data(ScreenshotImages.png(width: width, height: height)).write(to: URL(fileURLWithPath: folder.path + "/fastlane/screenshots/en-US/" + name))
    }

    @Test func aScreenshotNoDisplayTypeAcceptsIsRefused() throws {
        try shot("1.png", width: 1290, height: 2796)
        let good = try run([])
        #expect(good.status == 0, "\(good.standardOutput)")
        #expect(good.standardOutput.contains(", listing\n"), "\(good.standardOutput)")

        try shot("2.png", width: 1290, height: 2795)
        let bad = try run([])
        #expect(bad.status == 2, "\(bad.standardOutput)")
        #expect(bad.standardOutput.contains("[listing] 'fastlane/screenshots/en-US/2.png' is 1290x2795 pixels, which no App Store display type accepts"),
                "\(bad.standardOutput)")
        #expect(bad.standardOutput.hasSuffix("1 error, 0 warnings, 0 notes: App Store Connect would refuse this release\n"), "\(bad.standardOutput)")
    }
}
