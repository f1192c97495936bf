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
}
