import Crypto
import Foundation
import Testing
import TestSupport
import TestThreads

/// Issue 42: preflight's App Store Connect rules on four real apps' project files
/// (Fixtures/versions: ivpn, Pocket Casts, Simplenote, Mastodon; see its MANIFEST), against the
/// contract fake seeded with each app's real history as its repository tells it
/// (Fixtures/preflight-real/APP.history, derived from the tags; see the MANIFEST there). Per app:
/// (a) the commit as it is, (b) the next release prepared as the app's team would, (c) one planted
/// mistake per rule family. The remote rules' findings are asserted exactly; the offline rules'
/// (the fixtures hold no entitlements, icons or privacy manifests) are listed; every request and
/// answer matched Apple's OpenAPI document; nothing on disk changed.
@Suite("slipway preflight: real apps against App Store Connect", .dedicatedThreads)
struct PreflightRealVersionsTests {
    static let issuer = "69a6de7e-2f4c-47e3-e053-5b8c7c11a4d1"

    @Test(arguments: PreflightRealApps.all)
    func theRemoteRulesOnARealAppsHistory(_ app: PreflightRealApp) throws {
        let key = P256.Signing.PrivateKey()
        let fake = try AppStoreConnectContractFake(keys: [.init(issuerID: Self.issuer, keyID: "ABC123DEFG", publicKeyPEM: key.publicKey.pemRepresentation)],
                                                   onViolations: recordContractViolations)
        let appID = try fake.seedApp(bundleID: app.bundleID, name: app.name)
        var ids = try PreflightRealHistory(app: app.folder).seed(into: fake, app: appID)
        for run in app.runs {
            if let version = run.prepare {
                ids[version] = try PreflightRealHistory.seedVersion(version, state: "PREPARE_FOR_SUBMISSION", storeState: "PREPARE_FOR_SUBMISSION", into: fake, app: appID)
            }
            if let upload = run.upload { try PreflightRealHistory.seedUpload(upload[0], upload[1], into: fake, app: appID) }
            let folder = try TemporaryDirectory(prefix: "slipway-preflight-\(app.folder)")
            try app.prepareTree(run, in: folder.path)
            let before = try Snapshot.of(folder.path)
            let result = try CommandResult.run(Binaries.slipway, ["preflight", "--json", "--issuer-id", Self.issuer, "--key-id", "ABC123DEFG", "--key-env", "ASC_KEY",
                                                                  "--api-url", fake.url] + app.arguments,
                                               in: folder.path, environment: ["NO_COLOR": "1", "GITHUB_ACTIONS": nil, "ASC_KEY": key.pemRepresentation])
            #expect(try Snapshot.of(folder.path) == before, "\(app.folder) \(run.name): preflight changed the tree")
            let report = try PreflightRealReport(json: result.standardOutput)
            var expected = run.expected.map { $0.replacingOccurrences(of: "{app}", with: appID) }
            for (version, id) in ids { expected = expected.map { $0.replacingOccurrences(of: "{v \(version)}", with: id) } }
            #expect(report.remote == expected, "\(app.folder) \(run.name):\n\(report.remote.joined(separator: "\n"))\n\(result.standardError)")
            #expect(PreflightRealApp.remoteRules.allSatisfy(report.ran.contains), "\(app.folder) \(run.name): \(report.skipped)")
            #expect(report.offlineRules == app.offline, "\(app.folder) \(run.name): \(report.offlineRules)")
            #expect(result.status == 2, "the offline rules' errors (no entitlements in the fixtures) make every run exit 2")
        }
        #expect(try fake.state().violations == [])
    }

    /// Runs preflight with a key on `tree` (a copy made by `prepare`) against a fake holding the
    /// app; returns the report.
    func runSeeded(_ folder: String, bundleID: String, arguments: [String] = [], prepare: (String) throws -> Void) throws -> PreflightRealReport {
        let key = P256.Signing.PrivateKey()
        let fake = try AppStoreConnectContractFake(keys: [.init(issuerID: Self.issuer, keyID: "ABC123DEFG", publicKeyPEM: key.publicKey.pemRepresentation)],
                                                   onViolations: recordContractViolations)
        try fake.seedApp(bundleID: bundleID, name: folder)
        let tree = try TemporaryDirectory(prefix: "slipway-preflight-\(folder)")
        try FileManager.default.removeItem(atPath: tree.path)
        try FileManager.default.copyItem(atPath: PreflightRealApp.fixtures + "/versions/" + folder, toPath: tree.path)
        try prepare(tree.path)
        let before = try Snapshot.of(tree.path)
        let result = try CommandResult.run(Binaries.slipway, ["preflight", "--json", "--issuer-id", Self.issuer, "--key-id", "ABC123DEFG", "--key-env", "ASC_KEY",
                                                              "--api-url", fake.url] + arguments,
                                           in: tree.path, environment: ["NO_COLOR": "1", "GITHUB_ACTIONS": nil, "ASC_KEY": key.pemRepresentation])
        #expect(try Snapshot.of(tree.path) == before)
        #expect(try fake.state().violations == [])
        return try PreflightRealReport(json: result.standardOutput)
    }

    /// Simplenote as committed: its xcconfigs include "Version.public.xcconfig" and the file is
    /// "Version.Public.xcconfig". Xcode finds it on the Mac's case-insensitive disk, where the
    /// archive is built, so preflight reads it ignoring case on Linux too: the version and build
    /// number are read and every App Store Connect rule runs.
    @Test func simplenotesIncludeInAnotherCaseIsFoundAsOnTheMac() throws {
        let report = try runSeeded("simplenote", bundleID: "com.codality.NotationalFlow", arguments: ["--configuration", "Distribution AppStore"]) { tree in
            #expect(!FileManager.default.fileExists(atPath: tree + "/config/Version.public.xcconfig"))
        }
        #expect(report.remote == [])
        #expect(PreflightRealApp.remoteRules.allSatisfy(report.ran.contains), "\(report.skipped)")
    }

    /// WireGuard's project holds its iOS and its macOS app: `--platform` picks the app whose
    /// SDKROOT is the platform's, `--app` names one, and the other app's targets are left out;
    /// App Store Connect is then asked about that app. A name that is no app is said, and with
    /// neither the report says how to choose.
    @Test func wireguardsTwoAppsArePickedByPlatformOrByName() throws {
        let config = "Sources/WireGuardApp/Config/"
        func run(_ bundleID: String, _ arguments: [String]) throws -> PreflightRealReport {
            try runSeeded("wireguard", bundleID: bundleID, arguments: arguments) { tree in
                // As its README asks: the developer's settings from the template, with the App
                // Store apps' bundle ids filled in.
                let template = try String(contentsOfFile: tree + "/" + config + "Developer.xcconfig.template", encoding: .utf8)
                try template.replacingOccurrences(of: "APP_ID_IOS = <app_id>", with: "APP_ID_IOS = com.wireguard.ios")
                    .replacingOccurrences(of: "APP_ID_MACOS = <app_id>", with: "APP_ID_MACOS = com.wireguard.macos")
                    .write(toFile: tree + "/" + config + "Developer.xcconfig", atomically: true, encoding: .utf8)
            }
        }
        let mac = try run("com.wireguard.macos", ["--platform", "MAC_OS"])
        #expect(mac.application?.hasPrefix("checked the app 'WireGuardmacOS' (the only application whose SDKROOT is macosx, for --platform MAC_OS); left out: 'WireGuardiOS'") == true,
                "\(mac.application ?? "nil")")
        #expect(PreflightRealApp.remoteRules.allSatisfy(mac.ran.contains), "\(mac.skipped)")
        #expect(mac.remote == [], "\(mac.remote)")

        let iOS = try run("com.wireguard.ios", ["--app", "WireGuardiOS"])
        #expect(iOS.application?.hasPrefix("checked the app 'WireGuardiOS' (given with --app); left out: ") == true, "\(iOS.application ?? "nil")")
        #expect(iOS.application?.contains("'WireGuardmacOS'") == true)
        #expect(PreflightRealApp.remoteRules.allSatisfy(iOS.ran.contains), "\(iOS.skipped)")

        let wrong = try run("com.wireguard.ios", ["--app", "WireGuard"])
        #expect(wrong.application == nil)
        #expect(wrong.skipped.contains("app-store-connect-app: App Store Connect was not asked: --app 'WireGuard' is not an application target "
            + "that no other target embeds; the project's are 'WireGuardiOS', 'WireGuardmacOS'"), "\(wrong.skipped)")

        let tv = try run("com.wireguard.ios", ["--platform", "TV_OS"])
        #expect(tv.skipped.contains("app-store-connect-app: App Store Connect was not asked: the project has several applications ('WireGuardiOS', "
            + "'WireGuardmacOS') and --platform TV_OS does not single one out by its SDKROOT; preflight checks one app: name it with --app"), "\(tv.skipped)")
    }
}
