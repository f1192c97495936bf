import Foundation
import Testing
import TestSupport
import TestThreads

/// Issue 42: `slipway preflight` through the built binary, one rule at a time on a fixture app
/// that passes every rule (`PreflightFixture`), each test breaking one thing: the exact finding,
/// exit 2 for an error (0 for warnings), and nothing written.
@Suite("slipway preflight", .dedicatedThreads)
struct PreflightCommandTests {
    let folder: TemporaryDirectory

    init() throws {
        folder = try TemporaryDirectory(prefix: "slipway-preflight")
    }

    func preflight(_ fixture: PreflightFixture, _ extra: [String] = [], environment: [String: String?] = [:]) throws -> CommandResult {
        try fixture.write(in: folder.path)
        let before = try Snapshot.of(folder.path)
        let result = try CommandResult.run(Binaries.slipway, ["preflight", "--no-color"] + extra, in: folder.path,
                                           environment: ["NO_COLOR": "1", "GITHUB_ACTIONS": nil].merging(environment) { $1 })
        #expect(try Snapshot.of(folder.path) == before, "preflight wrote to the checkout")
        return result
    }

    /// The 1-based line of the `occurrence`th line holding `text` in the fixture's pbxproj (settings are written for Debug, then Release).
    func pbxprojLine(_ text: String, occurrence: Int = 2) throws -> Int {
        let lines = try String(contentsOfFile: folder.path + "/App.xcodeproj/project.pbxproj", encoding: .utf8).components(separatedBy: "\n")
        return lines.indices.filter { lines[$0].contains(text) }[occurrence - 1] + 1
    }

    static let offlineSkips = """
        skipped signing: no provisioning profiles folder given (--profiles)
        skipped listing: no metadata or screenshots folder ('fastlane/metadata', 'fastlane/screenshots' not found)
        skipped app-store-connect-app: needs App Store Connect: give an API key (--key-id with --key-file or --key-env)
        skipped version-above-released: needs App Store Connect: give an API key (--key-id with --key-file or --key-env)
        skipped version-train-open: needs App Store Connect: give an API key (--key-id with --key-file or --key-env)
        skipped version-matches-prepared: needs App Store Connect: give an API key (--key-id with --key-file or --key-env)
        skipped build-number-above-uploaded: needs App Store Connect: give an API key (--key-id with --key-file or --key-env)

        """
    static let offlineRan = "ran 8 rules: version-format, build-number-format, embedded-version, embedded-build-number, embedded-bundle-id, "
        + "export-compliance, marketing-icon, privacy-manifest\n"

    @Test func aCleanAppPassesAndSaysWhichRulesRan() throws {
        let result = try preflight(PreflightFixture())
        #expect(result.status == 0, "\(result.standardOutput)\(result.standardError)")
        #expect(result.standardOutput == Self.offlineRan + Self.offlineSkips + "0 errors, 0 warnings, 0 notes\n")
        #expect(result.standardError == "")
        let json = try preflight(PreflightFixture(), ["--json"])
        #expect(json.status == 0)
        #expect(json.standardOutput.hasPrefix("{\n  \"findings\" : [\n\n  ],\n  \"ran\" : [\n    \"version-format\","), "\(json.standardOutput)")
        #expect(json.standardOutput.contains("\"version\" : 1\n}"))
    }

    @Test func aVersionOfFourPartsIsRefused() throws {
        var fixture = PreflightFixture()
        fixture.version = "1.4.0.1"
        fixture.widgetVersion = "1.4.0.1"
        let result = try preflight(fixture)
        #expect(result.status == 2)
        let app = try pbxprojLine("MARKETING_VERSION = 1.4.0.1;", occurrence: 2)
        let widget = try pbxprojLine("MARKETING_VERSION = 1.4.0.1;", occurrence: 4)
        #expect(result.standardOutput.hasPrefix("""
            error: App.xcodeproj/project.pbxproj:\(app): [version-format] 'App': version '1.4.0.1' is not at most three period-separated integers, which App Store Connect requires
              fix: use a version such as 1.4 or 1.4.2 (digits and at most two periods); keep letters and build parts in the build number or the tag
              see: https://developer.apple.com/documentation/bundleresources/information-property-list/cfbundleshortversionstring (ITMS-90060)
            error: App.xcodeproj/project.pbxproj:\(widget): [version-format] 'Widget': version '1.4.0.1' is not at most three period-separated integers, which App Store Connect requires

            """), "\(result.standardOutput)")
        #expect(result.standardOutput.hasSuffix("2 errors, 0 warnings, 0 notes: App Store Connect would refuse this release\n"))
    }

    @Test func aBuildNumberWithLettersIsRefused() throws {
        var fixture = PreflightFixture()
        fixture.build = "42b"
        fixture.widgetBuild = "42b"
        let result = try preflight(fixture)
        #expect(result.status == 2)
        let line = try pbxprojLine("CURRENT_PROJECT_VERSION = 42b;", occurrence: 2)
        #expect(result.standardOutput.hasPrefix("error: App.xcodeproj/project.pbxproj:\(line): [build-number-format] 'App': build number '42b' is not one to three period-separated integers, which App Store Connect requires\n"),
                "\(result.standardOutput)")
    }

    @Test func anExtensionWithAnotherVersionOrBuildIsAWarning() throws {
        var fixture = PreflightFixture()
        fixture.widgetVersion = "1.3.0"
        fixture.widgetBuild = "41"
        let result = try preflight(fixture)
        #expect(result.status == 0, "warnings do not fail: \(result.standardOutput)")
        let build = try pbxprojLine("CURRENT_PROJECT_VERSION = 41;", occurrence: 2)
        let appBuild = try pbxprojLine("CURRENT_PROJECT_VERSION = 42;", occurrence: 2)
        #expect(result.standardOutput.contains("""
            warning: App.xcodeproj: [embedded-version] in 'App.xcodeproj', an embedded target does not hold the version of 'App', 1.4.0: 'Widget' 1.3.0
            """), "\(result.standardOutput)")
        #expect(result.standardOutput.contains("""
            warning: App.xcodeproj/project.pbxproj:\(build): [embedded-build-number] 'Widget' has build number '41', and 'App', which embeds it, has '42' (App.xcodeproj/project.pbxproj:\(appBuild))
              fix: give every shipping target the same CURRENT_PROJECT_VERSION (set it once at the project level, or version.bump with build-number)
              see: ITMS-90473 (CFBundleVersion Mismatch); https://developer.apple.com/documentation/bundleresources/information-property-list/cfbundleversion
            """), "\(result.standardOutput)")
        #expect(result.standardOutput.hasSuffix("0 errors, 2 warnings, 0 notes\n"))
    }

    @Test func anExtensionBundleIDOutsideTheAppsIsRefused() throws {
        var fixture = PreflightFixture()
        fixture.widgetBundleID = "com.example.widget"
        let result = try preflight(fixture)
        #expect(result.status == 2)
        let line = try pbxprojLine("PRODUCT_BUNDLE_IDENTIFIER = com.example.widget;", occurrence: 2)
        #expect(result.standardOutput.hasPrefix("""
            error: App.xcodeproj/project.pbxproj:\(line): [embedded-bundle-id] 'Widget' has bundle id 'com.example.widget', which does not begin with 'com.example.app.', the bundle id of 'App' that embeds it
              fix: set its PRODUCT_BUNDLE_IDENTIFIER to 'com.example.app.<name>'

            """), "\(result.standardOutput)")
    }

    @Test func noExportComplianceAnswerSaysWhatTestFlightWillAsk() throws {
        var fixture = PreflightFixture()
        fixture.encryptionKey = nil
        let result = try preflight(fixture)
        #expect(result.status == 0)
        #expect(result.standardOutput.hasPrefix("""
            warning: App/Info.plist: [export-compliance] 'App': the Info.plist has no ITSAppUsesNonExemptEncryption (nor INFOPLIST_KEY_ITSAppUsesNonExemptEncryption), so TestFlight will hold each build as "Missing Compliance" and ask whether the app uses encryption that is not exempt
              fix: add <key>ITSAppUsesNonExemptEncryption</key><false/> when the app uses only exempt encryption (HTTPS, the system's), or <true/> with ITSEncryptionExportComplianceCode
              see: https://developer.apple.com/documentation/bundleresources/information-property-list/itsappusesnonexemptencryption

            """), "\(result.standardOutput)")
    }

    @Test func theMarketingIconMustBe1024PixelsWithoutAlpha() throws {
        var small = PreflightFixture()
        small.iconSize = 512
        let result = try preflight(small)
        #expect(result.status == 2)
        #expect(result.standardOutput.hasPrefix("""
            error: App/Assets.xcassets/AppIcon.appiconset/icon.png: [marketing-icon] 'App': the App Store icon 'App/Assets.xcassets/AppIcon.appiconset/icon.png' is 512x512 pixels, not 1024x1024
              fix: add a 1024x1024 PNG without transparency to the icon set (idiom ios-marketing, or the single-size universal icon)
              see: https://developer.apple.com/documentation/xcode/configuring-your-app-icon (ITMS-90704, ITMS-90717)

            """), "\(result.standardOutput)")
        var alpha = PreflightFixture()
        alpha.iconColorType = 6
        let transparent = try preflight(alpha)
        #expect(transparent.status == 2, "an alpha channel is refused (ITMS-90717), opaque or not")
        #expect(transparent.standardOutput.hasPrefix("error: App/Assets.xcassets/AppIcon.appiconset/icon.png: [marketing-icon] 'App': the App Store icon 'App/Assets.xcassets/AppIcon.appiconset/icon.png' has an alpha channel (PNG colour type 6, RGBA, 8-bit); App Store Connect refuses it: "
            + "\"Invalid App Store Icon. The App Store Icon in the asset catalog can't be transparent nor contain an alpha channel.\" (ITMS-90717)\n"
            + "  fix: export the icon as an RGB PNG without an alpha channel or tRNS chunk (Preview: Export, Alpha unchecked; or flatten it on an opaque background)\n"),
                "\(transparent.standardOutput)")
    }

    @Test func aRequiredReasonAPIWithoutADeclarationIsRefused() throws {
        var none = PreflightFixture()
        none.declaredCategories = nil
        let missing = try preflight(none)
        #expect(missing.status == 2)
        #expect(missing.standardOutput.hasPrefix("""
            error: App.xcodeproj: [privacy-manifest] 'App' copies no PrivacyInfo.xcprivacy, and its sources use required-reason APIs: NSPrivacyAccessedAPICategoryUserDefaults (UserDefaults at App/Settings.swift:4)
              fix: add PrivacyInfo.xcprivacy to the app target's resources with an NSPrivacyAccessedAPITypes entry and its reason for each category
              see: https://developer.apple.com/documentation/bundleresources/describing-use-of-required-reason-api (ITMS-91053)

            """), "\(missing.standardOutput)")
        var other = PreflightFixture()
        other.declaredCategories = ["NSPrivacyAccessedAPICategorySystemBootTime"]
        let undeclared = try preflight(other)
        #expect(undeclared.status == 2)
        #expect(undeclared.standardOutput.hasPrefix("error: App/Settings.swift:4: [privacy-manifest] 'App' uses UserDefaults, a required-reason API (NSPrivacyAccessedAPICategoryUserDefaults), and 'App/PrivacyInfo.xcprivacy' declares no reason for it\n"),
                "\(undeclared.standardOutput)")
        // No manifest and no required-reason API: a note, not an error, naming what was not looked at.
        var plain = PreflightFixture()
        plain.declaredCategories = nil
        plain.source = "import UIKit\n"
        let note = try preflight(plain)
        #expect(note.status == 0)
        #expect(note.standardOutput.hasPrefix("note: App.xcodeproj: [privacy-manifest] 'App' copies no PrivacyInfo.xcprivacy, and its sources use none of the required-reason APIs Slipway looks for; binary frameworks, packages and third-party SDKs were not checked\n"),
                "\(note.standardOutput)")
    }

    @Test func githubAnnotationsPointAtTheLine() throws {
        var fixture = PreflightFixture()
        fixture.version = "1.4.0.1"
        fixture.widgetVersion = "1.4.0.1"
        let result = try preflight(fixture, environment: ["GITHUB_ACTIONS": "true"])
        #expect(result.status == 2)
        let line = try pbxprojLine("MARKETING_VERSION = 1.4.0.1;", occurrence: 2)
        #expect(result.standardOutput.contains("::error file=App.xcodeproj/project.pbxproj,line=\(line),title=preflight version-format::'App': version '1.4.0.1' is not at most three period-separated integers, which App Store Connect requires Fix: use a version such as 1.4 or 1.4.2"),
                "\(result.standardOutput)")
    }

    @Test func rulesAreListedWithTheirCitations() throws {
        let result = try CommandResult.run(Binaries.slipway, ["preflight", "--rules"], in: folder.path)
        #expect(result.status == 0)
        #expect(result.standardOutput.hasPrefix("version-format               offline  The version (CFBundleShortVersionString) of every shipping target is at most three period-separated integers\n"),
                "\(result.standardOutput)")
        #expect(result.standardOutput.contains("build-number-above-uploaded  remote   The build number is higher than every build uploaded for this version\n"))
    }

    @Test func badOptionsAreRefusedBeforeAnythingIsRead() throws {
        let result = try preflight(PreflightFixture(), ["--profiles", "missing"])
        #expect(result.status == 2)
        #expect(result.standardError == "error: --profiles 'missing': there is no such folder; give the folder holding the .mobileprovision files\n")
        #expect(result.standardOutput == "")
        let kind = try preflight(PreflightFixture(), ["--distribution", "store"])
        #expect(kind.status == 64)
        #expect(kind.standardError.contains("--distribution 'store' is not one of app-store, ad-hoc, development, enterprise."))
    }
}
