import Foundation
import Testing
import TestSupport
import TestThreads

/// Issue 42: the `appstore.preflight` step in a lane, precheck translated by `init --from-fastlane`,
/// and a hostile checkout, through the built binary.
@Suite("slipway preflight: lanes, fastlane, hostile checkouts", .dedicatedThreads)
struct PreflightLaneTests {
    static let lane = """
        description: Check the release before anything is built
        steps:
          - appstore.preflight
          - run: echo built

        """

    func run(_ arguments: [String], in folder: TemporaryDirectory) throws -> CommandResult {
        try CommandResult.run(Binaries.slipway, arguments, in: folder.path, environment: ["NO_COLOR": "1", "GITHUB_ACTIONS": nil])
    }

    @Test func theStepPassesACleanAppAndStopsTheLaneBeforeTheBuildOtherwise() throws {
        let folder = try TemporaryDirectory(prefix: "slipway-preflight-lane")
        try PreflightFixture().write(in: folder.path)
        try folder.write("lanes/check.yml", Self.lane)
        let validated = try run(["validate", "check"], in: folder)
        #expect(validated.status == 0, "\(validated.standardOutput)\(validated.standardError)")
        let good = try run(["run", "check"], in: folder)
        #expect(good.status == 0, "\(good.standardOutput)\(good.standardError)")
        #expect(good.standardOutput.contains("built"), "\(good.standardOutput)")

        var broken = PreflightFixture()
        broken.widgetBundleID = "com.example.widget"
        try broken.write(in: folder.path)
        let bad = try run(["run", "check"], in: folder)
        #expect(bad.status == 1)
        let all = bad.standardOutput + bad.standardError
        #expect(all.contains("[embedded-bundle-id] 'Widget' has bundle id 'com.example.widget', which does not begin with 'com.example.app.', the bundle id of 'App' that embeds it"), "\(all)")
        #expect(all.contains("preflight found 1 problem App Store Connect would refuse (listed above); fix them before the archive"), "\(all)")
        #expect(!bad.standardOutput.contains("built\n"), "the lane stopped before the build: \(bad.standardOutput)")
    }

    @Test func precheckBecomesAppstorePreflightFirstInTheLane() throws {
        let folder = try TemporaryDirectory(prefix: "slipway-preflight-precheck")
        try folder.write("App.xcodeproj/project.pbxproj", InitFromFastlaneTests.pbxproj)
        try folder.write("App.xcodeproj/xcshareddata/xcschemes/App.xcscheme", InitFromFastlaneTests.scheme)
        try folder.write("fastlane/Appfile", "app_identifier 'com.example.app'\n")
        try folder.write("fastlane/Fastfile", """
            lane :release do
              deliver(skip_screenshots: true, skip_binary_upload: true)
              precheck(default_rule_level: :error, curse_words: true)
            end

            """)
        let result = try run(["init", "--from-fastlane"], in: folder)
        #expect(result.status == 0, "\(result.standardError)")
        let lane = try String(contentsOfFile: folder.path + "/lanes/release.yml", encoding: .utf8)
        #expect(lane.contains("""
            steps:
              # fastlane/Fastfile:3 precheck(default_rule_level: :error, curse_words: true)
              - appstore.preflight:
                  key-id: "${{ secrets.ASC_KEY_ID }}"
                  issuer-id: "${{ secrets.ASC_ISSUER_ID }}"
                  key: "${{ secrets.ASC_KEY }}"
                id: preflight
              # fastlane/Fastfile:2 deliver(
            """), "\(lane)")
        #expect(result.standardOutput.contains("not translated: fastlane/Fastfile:3 precheck(curse_words: …) — precheck's wording rule: appstore.preflight checks what App Store Connect refuses (limits, versions, signing), not the listing's words; review them by hand"),
                "\(result.standardOutput)")
        let validated = try run(["validate", "release"], in: folder)
        #expect(validated.status == 0, "\(validated.standardOutput)\(validated.standardError)")
    }

    @Test func anInfoPlistLinkedOutOfTheCheckoutIsNotRead() throws {
        let folder = try TemporaryDirectory(prefix: "slipway-preflight-hostile")
        let outside = try TemporaryDirectory(prefix: "slipway-preflight-outside")
        try PreflightFixture().write(in: folder.path)
        try outside.write("secret.plist", "<?xml version=\"1.0\"?><plist version=\"1.0\"><dict><key>CFBundleShortVersionString</key><string>SECRET-9.9</string></dict></plist>\n")
        try FileManager.default.removeItem(atPath: folder.path + "/App/Info.plist")
        try FileManager.default.createSymbolicLink(atPath: folder.path + "/App/Info.plist", withDestinationPath: outside.path + "/secret.plist")
        let before = try Snapshot.of(folder.path)
        let result = try run(["preflight"], in: folder)
        #expect(result.status == 2)
        #expect(result.standardOutput.contains("error: App.xcodeproj: [project] 'App': its Info.plist 'App/Info.plist' (INFOPLIST_FILE at App.xcodeproj/project.pbxproj:"),
                "\(result.standardOutput)")
        #expect(!result.standardOutput.contains("SECRET-9.9"), "a file outside the checkout was read: \(result.standardOutput)")
        #expect(try Snapshot.of(folder.path) == before)
    }
}
