import Crypto
import Foundation
import Testing
import TestSupport

/// What an app's release runs against: a git repository with an origin to push to, the App Store
/// Connect CONTRACT FAKE (labelled in its file) with the app, its bundle ids and a beta group, and
/// match's git storage (a bare repository, `file://`) filled by `slipway signing sync --format match`
/// as a team member would (certificate and App Store profiles for every bundle id, issued by the
/// fake's test CA). Everything is removed when the value is released.
final class RealAppRelease: @unchecked Sendable {
    static let issuer = "69a6de7e-2f4c-47e3-e053-5b8c7c11a4d1"
    static let matchPassword = "match storage passphrase 25"
    let app: RealApp
    let key = P256.Signing.PrivateKey()
    let fake: AppStoreConnectContractFake
    let repo: GitFixture
    let origin: GitFixture
    let storage: GitFixture
    let scratch: TemporaryDirectory

    init(_ app: RealApp) throws {
        self.app = app
        fake = try AppStoreConnectContractFake(keys: [.init(issuerID: Self.issuer, keyID: "ABC123DEFG",
                                                            publicKeyPEM: key.publicKey.pemRepresentation)],
                                                 onViolations: recordContractViolations)
        try fake.useSigningAuthority(try TestCertificateAuthority())
        try fake.set(["part_size": "100000", "processing_polls": "1"])
        let appID = try fake.seedApp(bundleID: app.bundleIDs[0], name: app.name)
        try fake.seedBetaGroup(appID: appID, name: "Internal Testers", isInternal: true)
        // The build App Store Connect already has: the one the project's number names.
        try fake.seedBuild(appID: appID, version: app.version.marketing, buildNumber: app.version.build,
                           uploaded: "2026-01-01T00:00:00+00:00")
        for bundleID in app.bundleIDs { try fake.seedBundleID(identifier: bundleID) }
        origin = try GitFixture(prefix: "slipway-app-origin", bare: true)
        storage = try GitFixture(prefix: "slipway-app-match", bare: true)
        scratch = try TemporaryDirectory(prefix: "slipway-app-scratch")
        repo = try GitFixture(prefix: "slipway-app-\(app.name)")
        try repo.commit("Start", files: app.files)
        try repo.git("tag", "v" + app.version.marketing)
        try repo.git("remote", "add", "origin", origin.path)
        try repo.git("push", "origin", "HEAD:refs/heads/main", "--tags")
    }

    /// The storage's URL as the lanes get it (`file://`).
    var storageURL: String { "file://" + storage.path }

    /// The secrets and environment of a CI run of the lane.
    var environment: [String: String?] {
        var environment: [String: String?] = app.environment.mapValues { $0 }
        environment["NO_COLOR"] = "1"
        environment["CI"] = "true"
        environment["GITHUB_ACTIONS"] = nil
        environment["MATCH_PASSWORD"] = Self.matchPassword
        environment["KEYCHAIN_PASSWORD"] = "ci keychain password"
        environment["ASC_ISSUER_ID"] = Self.issuer
        environment["ASC_KEY"] = key.pemRepresentation
        environment["SLIPWAY_CACHE_DIR"] = scratch.path + "/cache"
        for (name, value) in GitFixture.environment where name.hasPrefix("GIT_AUTHOR_") || name.hasPrefix("GIT_COMMITTER_") {
            environment[name] = value
        }
        for name in ["HOMEASSISTANT_CERTIFICATE_GIT", "DDG_CERTIFICATES_GIT", "OWNCLOUD_GIT_URL"] { environment[name] = storageURL }
        return environment
    }

    /// Fills match's storage as a team member's `slipway signing sync` would, on the branch the
    /// lane reads.
    func fillStorage(branch: String? = nil) throws {
        var arguments = ["signing", "sync", "--type", "app-store", "--storage", storageURL, "--format", "match", "--install", "none",
                         "--issuer-id", Self.issuer, "--key-id", "ABC123DEFG", "--key-env", "ASC_KEY", "--api-url", fake.url]
        for bundleID in app.bundleIDs { arguments += ["--bundle-id", bundleID] }
        if let branch { arguments += ["--git-branch", branch] }
        var environment = self.environment
        environment["CI"] = "false"
        let sync = try CommandResult.run(Binaries.slipway, arguments, in: scratch.path, environment: environment)
        #expect(sync.status == 0, "\(app.name): signing sync: \(sync.standardOutput)\(sync.standardError)")
    }

    /// `init --from-fastlane`, then the hand-completed lane committed and pushed; returns init's output.
    func translate() throws -> CommandResult {
        let translated = try slipway(["init", "--from-fastlane"])
        try repo.write("lanes/release.yml", try RealApp.handCompletedLane(app.name))
        try repo.commit("Add the release lane")
        try repo.git("push", "origin", "HEAD:refs/heads/main")
        return translated
    }

    /// The `--input`s of a run of the release lane.
    var inputs: [String] { (["api-url=\(fake.url)"] + app.inputs).flatMap { ["--input", $0] } }

    /// `slipway ARGUMENTS` in the app's repository with the CI environment.
    func slipway(_ arguments: [String], executable: String = Binaries.slipway, extra: [String: String?] = [:]) throws -> CommandResult {
        try CommandResult.run(executable, arguments, in: repo.path, environment: environment.merging(extra) { $1 })
    }
}
