import Foundation
import Testing
import TestSupport
import TestThreads

/// Issue 42: a setting defined nowhere is the empty string, as Xcode expands it, so the
/// bundle-id rule can judge `${BUNDLE_ID_PREFIX}.app${BUNDLE_ID_SUFFIX}` (Home Assistant's
/// pattern, the suffix defined for Debug only); a setting that was not read (a missing
/// `#include`, one only Xcode's build system gives) stays a note naming what was not read.
@Suite("slipway preflight: settings defined nowhere (issue 42)", .dedicatedThreads)
struct PreflightSettingsEdgeTests {
    let folder: TemporaryDirectory
    var pbxproj: String { folder.path + "/App.xcodeproj/project.pbxproj" }

    init() throws {
        folder = try TemporaryDirectory(prefix: "slipway-preflight-settings")
        try PreflightFixture().write(in: folder.path)
    }

    func run(_ extra: [String] = []) throws -> CommandResult {
        let before = try Snapshot.of(folder.path)
        let result = try CommandResult.run(Binaries.slipway, ["preflight", "--no-color"] + extra, in: folder.path,
                                           environment: ["NO_COLOR": "1", "GITHUB_ACTIONS": nil])
        #expect(try Snapshot.of(folder.path) == before, "preflight wrote to the checkout")
        return result
    }

    /// Sets the bundle ids of the fixture's pbxproj: `app` and `widget` as written, with
    /// `BUNDLE_ID_PREFIX = com.example` beside them and `debugOnly` lines in Debug only.
    func bundleIDs(app: String, widget: String, debugOnly: String? = nil) throws {
        var text = try String(contentsOfFile: pbxproj, encoding: .utf8)
        for (old, new) in [("PRODUCT_BUNDLE_IDENTIFIER = com.example.app;", app), ("PRODUCT_BUNDLE_IDENTIFIER = com.example.app.widget;", widget)] {
            let line = "BUNDLE_ID_PREFIX = com.example;\n\t\t\t\tPRODUCT_BUNDLE_IDENTIFIER = \"\(new)\";"
            guard let debug = text.range(of: old) else { Issue.record("no '\(old)'"); return }
            text.replaceSubrange(debug, with: line + (debugOnly.map { "\n\t\t\t\t" + $0 } ?? ""))
            guard let release = text.range(of: old) else { Issue.record("no second '\(old)'"); return }
            text.replaceSubrange(release, with: line)
        }
        try Data(text.utf8).write(to: URL(fileURLWithPath: pbxproj))
    }

    func line(_ text: String, occurrence: Int = 2) throws -> Int {
        let lines = try String(contentsOfFile: pbxproj, encoding: .utf8).components(separatedBy: "\n")
        return lines.indices.filter { lines[$0].contains(text) }[occurrence - 1] + 1
    }

    static let clean = PreflightCommandTests.offlineRan + PreflightCommandTests.offlineSkips + "0 errors, 0 warnings, 0 notes\n"

    @Test func aSuffixDefinedForDebugOnlyIsEmptyInRelease() throws {
        try bundleIDs(app: "${BUNDLE_ID_PREFIX}.app${BUNDLE_ID_SUFFIX}${PROVISIONING_SUFFIX}",
                      widget: "${BUNDLE_ID_PREFIX}.app${BUNDLE_ID_SUFFIX}${PROVISIONING_SUFFIX}.widget", debugOnly: "BUNDLE_ID_SUFFIX = .debug;")
        let release = try run()
        #expect(release.status == 0, "\(release.standardOutput)")
        #expect(release.standardOutput == Self.clean, "\(release.standardOutput)")
        let debug = try run(["--configuration", "Debug"])
        #expect(debug.standardOutput == Self.clean, "\(debug.standardOutput)")
    }

    @Test func aWrongBundleIDBuiltFromSettingsIsJudged() throws {
        try bundleIDs(app: "${BUNDLE_ID_PREFIX}.app${BUNDLE_ID_SUFFIX}", widget: "${BUNDLE_ID_PREFIX}.other${BUNDLE_ID_SUFFIX}.widget",
                      debugOnly: "BUNDLE_ID_SUFFIX = .debug;")
        let result = try run()
        #expect(result.status == 2, "\(result.standardOutput)")
        let at = try line("PRODUCT_BUNDLE_IDENTIFIER = \"${BUNDLE_ID_PREFIX}.other", occurrence: 2)
        #expect(result.standardOutput.hasPrefix("""
            error: App.xcodeproj/project.pbxproj:\(at): [embedded-bundle-id] 'Widget' has bundle id 'com.example.other.widget', which does not begin with 'com.example.app.', the bundle id of 'App' that embeds it
              fix: set its PRODUCT_BUNDLE_IDENTIFIER to 'com.example.app.<name>'

            """), "\(result.standardOutput)")
        // Debug: the suffix is there, and the widget is still outside the app's bundle id.
        let debug = try run(["--configuration", "Debug"])
        #expect(debug.standardOutput.contains("'Widget' has bundle id 'com.example.other.debug.widget', which does not begin with 'com.example.app.debug.'"),
                "\(debug.standardOutput)")
    }

    @Test func xcodesOwnSettingsAreKnownOrRefusedNeverEmpty() throws {
        // TARGET_NAME is known (the target's name); PRODUCT_MODULE_NAME is Xcode's to compute.
        try bundleIDs(app: "${BUNDLE_ID_PREFIX}.app", widget: "${BUNDLE_ID_PREFIX}.app.$(TARGET_NAME)")
        #expect(try run().standardOutput == Self.clean)
        try PreflightFixture().write(in: folder.path)
        try bundleIDs(app: "${BUNDLE_ID_PREFIX}.app", widget: "${BUNDLE_ID_PREFIX}.app.$(PRODUCT_MODULE_NAME)")
        let result = try run()
        #expect(result.status == 0, "\(result.standardOutput)")
        #expect(result.standardOutput.hasPrefix("""
            note: Widget/Info.plist: [embedded-bundle-id] the bundle id of 'Widget' cannot be read for sure, so 'Widget' is not compared with 'App': PRODUCT_MODULE_NAME is defined nowhere in the project's settings and .xcconfig files; it is a setting Xcode's build system gives (or the environment), which slipway does not model

            """), "\(result.standardOutput)")
        // A modifier Slipway does not apply: a note too.
        try PreflightFixture().write(in: folder.path)
        try bundleIDs(app: "${BUNDLE_ID_PREFIX}.app", widget: "${BUNDLE_ID_PREFIX}.app.$(TARGET_NAME:rfc1034identifier)")
        let modified = try run()
        #expect(modified.standardOutput.hasPrefix("note: Widget/Info.plist: [embedded-bundle-id] the bundle id of 'Widget' cannot be read for sure, so 'Widget' is not compared with 'App': "
            + "PRODUCT_BUNDLE_IDENTIFIER is '${BUNDLE_ID_PREFIX}.app.$(TARGET_NAME:rfc1034identifier)' (App.xcodeproj/project.pbxproj:"), "\(modified.standardOutput)")
    }

    @Test func aChainWithAMissingIncludeIsNotTakenAsEmpty() throws {
        // The app's settings come from an .xcconfig that includes a file not committed.
        try folder.write("Config/App.xcconfig", "#include \"Secrets.xcconfig\"\nBUNDLE_ID_PREFIX = com.example\n")
        let app = VersionedXcodeProject.Target("App", settings: [
            ("PRODUCT_BUNDLE_IDENTIFIER", "${BUNDLE_ID_PREFIX}.app${BUNDLE_ID_SUFFIX}"), ("MARKETING_VERSION", "1.4.0"), ("CURRENT_PROJECT_VERSION", "42"),
            ("INFOPLIST_FILE", "App/Info.plist"), ("CODE_SIGN_ENTITLEMENTS", "App/App.entitlements"),
        ], xcconfig: "Config/App.xcconfig")
        let widget = VersionedXcodeProject.Target("Widget", settings: [
            ("PRODUCT_BUNDLE_IDENTIFIER", "com.example.app.widget"), ("MARKETING_VERSION", "1.4.0"), ("CURRENT_PROJECT_VERSION", "42"),
            ("INFOPLIST_FILE", "Widget/Info.plist"),
        ], productType: "com.apple.product-type.app-extension")
        try VersionedXcodeProject.write(targets: [app, widget], in: folder.path)
        let result = try run()
        #expect(result.standardOutput.contains("""
            note: Widget/Info.plist: [embedded-bundle-id] the bundle id of 'App' cannot be read for sure, so 'Widget' is not compared with 'App': 'Config/App.xcconfig:1': #include "Secrets.xcconfig" names 'Config/Secrets.xcconfig', which does not exist; fix the path, or write #include? for a file that may be absent
              fix: write PRODUCT_BUNDLE_IDENTIFIER as a literal, or as $(PARENT).suffix with PARENT a literal

            """), "\(result.standardOutput)")
        // Committed, the chain is read whole and the suffix it does not define is empty.
        try folder.write("Config/Secrets.xcconfig", "API_TOKEN = 1\n")
        let complete = try run()
        #expect(!complete.standardOutput.contains("[embedded-bundle-id]"), "\(complete.standardOutput)")
    }
}
