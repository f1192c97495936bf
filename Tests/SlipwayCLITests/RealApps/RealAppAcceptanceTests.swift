import Foundation
import Testing
import TestSupport
import TestThreads

/// Issue 25's acceptance on three real apps (see `RealApp`): each app's fastlane release lane is
/// translated by `init --from-fastlane`, completed by hand (`Fixtures/apps/<app>/slipway/release.yml`),
/// validated and planned as on macOS, signed from match's storage, and exported to the three CI engines.
@Suite("Three real apps: fastlane lane → Slipway lane", .dedicatedThreads)
struct RealAppAcceptanceTests {
    static func apps() throws -> [RealApp] {
        var apps = [try RealApp.duckDuckGo(), try RealApp.ownCloud()]
        if let homeAssistant = try RealApp.homeAssistant() { apps.insert(homeAssistant, at: 0) } else {
            print("skipped home-assistant: the shared corpus (../shared/corpus/pbxproj) is not here")
        }
        return apps
    }

    /// `init --from-fastlane` writes the lane, the hand-completed lane validates as on macOS, and
    /// its dry run plans the version where the app keeps it.
    @Test(arguments: ["home-assistant", "duckduckgo", "owncloud"])
    func translateValidateAndPlan(_ name: String) throws {
        guard let app = try Self.apps().first(where: { $0.name == name }) else { return }
        let release = try RealAppRelease(app)
        let translated = try release.translate()
        #expect(translated.status == 0, "\(app.name): \(translated.standardError)")
        for line in app.expectedInit { #expect(translated.standardOutput.contains(line), "\(app.name): \(translated.standardOutput)") }
        let validated = try release.slipway(["validate", "release", "--platform", "macos"])
        #expect(validated.status == 0, "\(app.name): \(validated.standardOutput)\(validated.standardError)")

        try release.fillStorage(branch: app.name == "duckduckgo" ? "ios" : nil)
        let before = try Snapshot.of(release.repo.path).filter { !$0.key.hasPrefix(".git/") }
        let plan = try release.slipway(["run", "release", "--dry-run", "--platform", "macos"] + release.inputs)
        #expect(plan.status == 0, "\(app.name): \(plan.standardOutput)\(plan.standardError)")
        #expect(try Snapshot.of(release.repo.path).filter { !$0.key.hasPrefix(".git/") } == before)

        for engine in ["github-actions", "gitlab", "buildkite"] {
            let export = try release.slipway(["ci", "export", "release", "--to", engine, "--slipway-on-path"])
            #expect(export.status == 0, "\(app.name) → \(engine): \(export.standardError)")
        }
    }

    /// The release run as on a Mac (the STAND-IN MAC: `slipway-macos-standin`, the app xcodebuild
    /// stand-in, the security stand-in): signing from match's storage into a temporary keychain,
    /// the version where the app keeps it, the archive and a real .ipa carrying it, the upload to
    /// the CONTRACT FAKE, and the keychain removed in `finally:`.
    @Test(arguments: ["home-assistant", "duckduckgo", "owncloud"])
    func releaseRunsOnAStandInMac(_ name: String) throws {
        guard let app = try Self.apps().first(where: { $0.name == name }) else { return }
        let release = try RealAppRelease(app)
        _ = try release.translate()
        try release.fillStorage(branch: app.name == "duckduckgo" ? "ios" : nil)
        let mac = try StandInMac()
        var environment = mac.environment(xcconfig: app.standInXcconfig).mapValues { Optional($0) }
        environment["HOME"] = mac.home.path
        let run = try release.slipway(["run", "release"] + release.inputs, executable: Binaries.macOSStandInSlipway, extra: environment)
        #expect(run.status == 0, "\(app.name): \(run.standardOutput)\(run.standardError)")

        // The .ipa carries the version and build number the lane wrote where the app keeps them.
        let info = try IPAFixture.infoPlist(of: release.repo.path + "/" + app.ipa)
        #expect(info["CFBundleShortVersionString"] as? String == app.released.marketing, "\(app.name): \(info)")
        #expect(info["CFBundleVersion"] as? String == app.released.build, "\(app.name): \(info)")
        #expect(info["CFBundleIdentifier"] as? String == app.bundleIDs[0], "\(app.name): \(info)")

        // App Store Connect got that build, and every request kept to the contract.
        let state = try release.fake.state()
        #expect(state.violations.isEmpty, "\(app.name): \(state.violations)")
        let uploads = try JSONSerialization.jsonObject(with: release.fake.resources("buildUploads")) as? [[String: Any]] ?? []
        #expect(uploads.contains { upload in
            let attributes = upload["attributes"] as? [String: Any] ?? upload
            return attributes["cfBundleShortVersionString"] as? String == app.released.marketing
                && attributes["cfBundleVersion"] as? String == app.released.build
        }, "\(app.name): \(uploads)")

        // The keychain signing.sync made was removed again; the profiles went where Xcode looks.
        let security = try StandInMac.securityCalls(home: mac.home.path)
        #expect(security.contains("create-keychain") && security.contains("import") && security.contains("delete-keychain"),
                "\(app.name): \(security)")
        let profiles = try FileManager.default.contentsOfDirectory(atPath: mac.home.path + "/Library/MobileDevice/Provisioning Profiles")
        #expect(profiles.count == app.bundleIDs.count, "\(app.name): \(profiles)")

        if app.name == "owncloud" {
            // beta bumps, commits and pushes before it builds.
            #expect(try release.origin.git("log", "-1", "--format=%s", "main") == "Version Bump")
            #expect(try release.origin.git("show", "main:ownCloud.xcodeproj/project.pbxproj").contains("APP_VERSION = 303;"))
        }
    }

    /// The lane exported to GitHub Actions and run by the GitHub Actions simulator (SIMULATION,
    /// not GitHub) with a STAND-IN MAC for `runs-on: macos-*` jobs: every job succeeds; signing,
    /// archive, export and upload share one macOS job; the .ipa carries the version; App Store
    /// Connect (the CONTRACT FAKE) got it; `finally:`'s signing.cleanup runs at the end of that job.
    @Test(arguments: ["home-assistant", "duckduckgo", "owncloud"])
    func githubWorkflowRunsInTheSimulator(_ name: String) async throws {
        guard let app = try Self.apps().first(where: { $0.name == name }) else { return }
        let release = try RealAppRelease(app)
        _ = try release.translate()
        try release.fillStorage(branch: app.name == "duckduckgo" ? "ios" : nil)
        let export = try release.slipway(["ci", "export", "release", "--to", "github-actions", "--slipway-on-path"])
        try #require(export.status == 0, "\(app.name): \(export.standardError)")

        let mac = try StandInMac()
        var base = GitHubActionsSimulator.defaultEnvironment
        base["PATH"] = Binaries.productsDirectory + ":" + (base["PATH"] ?? "")
        for (key, value) in release.environment where !["NO_COLOR", "CI", "MATCH_PASSWORD", "KEYCHAIN_PASSWORD", "ASC_ISSUER_ID", "ASC_KEY"].contains(key) {
            base[key] = value
        }
        let simulator = try GitHubActionsSimulator(workflow: export.standardOutput, origin: release.origin.path, environment: base,
                                                   runnerEnvironments: ["macOS": mac.environment(xcconfig: app.standInXcconfig, path: base["PATH"])])
        var inputs = ["api-url": release.fake.url]
        for input in app.inputs {
            let parts = input.split(separator: "=", maxSplits: 1).map(String.init)
            inputs[parts[0]] = parts[1]
        }
        let result = try await simulator.run(inputs: inputs, secrets: [
            "MATCH_PASSWORD": RealAppRelease.matchPassword, "KEYCHAIN_PASSWORD": "ci keychain password",
            "ASC_ISSUER_ID": RealAppRelease.issuer, "ASC_KEY": release.key.pemRepresentation,
        ])
        let logs = result.order.compactMap { result[$0]?.log }.joined(separator: "\n")
        #expect(result.succeeded, "\(app.name): \(result.statuses)\n\(logs)")

        // One macOS job signs, archives, exports and uploads.
        let jobs = simulator.workflow.jobs
        let main = try #require(jobs.first, "\(app.name)")
        #expect(main.runsOn == "macos-latest", "\(app.name): \(jobs.map(\.runsOn))")
        let script = main.steps.compactMap(\.run).joined(separator: "\n")
        for step in ["signing", "archive", "export", "upload"] {
            #expect(script.contains("--only \(step)"), "\(app.name): \(script)")
        }
        let calls = (try? String(contentsOfFile: mac.calls, encoding: .utf8)) ?? ""
        let jobsCalled = calls.split(separator: "\n").compactMap { line in
            (try? JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any])?["job"] as? String
        }
        #expect(jobsCalled == [main.id, main.id], "\(app.name): \(calls)")

        // signing.cleanup ran at the end of that job, on that machine: the keychain is gone there.
        #expect(jobs.count == 1, "\(app.name): \(jobs.map(\.id))")
        let workspace = try #require(result[main.id]?.workspace)
        let security = try StandInMac.securityCalls(home: (workspace as NSString).deletingLastPathComponent + "/home")
        #expect(security.contains("import") && security.contains("delete-keychain"), "\(app.name): \(security)")

        // The .ipa the Mac job made carries the version the lane wrote (GitHub's run number is 1).
        let info = try IPAFixture.infoPlist(of: workspace + "/" + app.ipa)
        let build = app.name == "home-assistant" ? "1" : app.released.build
        #expect(info["CFBundleShortVersionString"] as? String == app.released.marketing, "\(app.name): \(info)")
        #expect(info["CFBundleVersion"] as? String == build, "\(app.name): \(info)")
        let uploads = try JSONSerialization.jsonObject(with: release.fake.resources("buildUploads")) as? [[String: Any]] ?? []
        #expect(uploads.contains { ($0["attributes"] as? [String: Any] ?? $0)["cfBundleVersion"] as? String == build }, "\(app.name): \(uploads)")
        #expect(try release.fake.state().violations.isEmpty)
    }
}
