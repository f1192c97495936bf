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
        let translated = try release.slipway(["init", "--from-fastlane"])
        #expect(translated.status == 0, "\(app.name): \(translated.standardError)")
        for line in app.expectedInit { #expect(translated.standardOutput.contains(line), "\(app.name): \(translated.standardOutput)") }
        try release.repo.write("lanes/release.yml", try RealApp.handCompletedLane(app.name))
        try release.repo.commit("Add the release lane")
        let validated = try release.slipway(["validate", "release", "--platform", "macos"])
        #expect(validated.status == 0, "\(app.name): \(validated.standardOutput)\(validated.standardError)")

        try release.fillStorage(branch: app.name == "duckduckgo" ? "ios" : nil)
        let before = try Snapshot.of(release.repo.path).filter { !$0.key.hasPrefix(".git/") }
        let plan = try release.slipway(["run", "release", "--dry-run", "--platform", "macos", "--input", "api-url=\(release.fake.url)"]
                                       + (app.name == "duckduckgo" ? ["--input", "build-number=6"] : []))
        print("== \(app.name) plan\n\(plan.standardOutput)\(plan.standardError)")
        #expect(plan.status == 0, "\(app.name): \(plan.standardOutput)\(plan.standardError)")
        #expect(try Snapshot.of(release.repo.path).filter { !$0.key.hasPrefix(".git/") } == before)

        for engine in ["github-actions", "gitlab", "buildkite"] {
            let export = try release.slipway(["ci", "export", "release", "--to", engine])
            #expect(export.status == 0, "\(app.name) → \(engine): \(export.standardError)")
            print("== \(app.name) \(engine)\n\(export.standardOutput)")
        }
    }
}
