import Foundation
import Testing
import TestSupport
import TestThreads

/// `version.bump` with `strategy: keep` (what `init --from-fastlane` writes for a lane that only
/// increments the build number): the project's version stays, the build number is written.
@Suite(.dedicatedThreads) struct VersionKeepTests {
    func slipway(_ arguments: [String], in directory: String) throws -> CommandResult {
        try CommandResult.run(Binaries.slipway, arguments, in: directory, environment: ["NO_COLOR": "1"])
    }

    func app(_ version: String) throws -> GitFixture {
        let repo = try GitFixture(prefix: "slipway-keep")
        let targets = [VersionedXcodeProject.Target("App", xcconfig: "Config/Version.xcconfig"),
                       VersionedXcodeProject.Target("Widget", xcconfig: "Config/Widget.xcconfig")]
        try repo.commit("chore: start", files: [
            ".gitignore": "/.slipway/\n",
            "lanes/build.yml": """
                steps:
                  - version.bump: { strategy: keep, xcodeproj: App.xcodeproj, build-number: "43" }
                    id: version
                  - run: { command: "echo version=${{ steps.version.outputs.version }}" }
                """,
            "App.xcodeproj/project.pbxproj": VersionedXcodeProject.pbxproj(targets: targets),
            "Config/Version.xcconfig": "MARKETING_VERSION = 2.4.0\nCURRENT_PROJECT_VERSION = 42\n",
            "Config/Widget.xcconfig": "MARKETING_VERSION = \(version)\nCURRENT_PROJECT_VERSION = 42\n",
        ])
        try repo.git("tag", "v2.4.0")
        return repo
    }

    @Test func keepWritesOnlyTheBuildNumber() throws {
        let repo = try app("2.4.0")
        let result = try slipway(["run", "build"], in: repo.path)
        #expect(result.status == 0, "\(result.standardOutput)\n\(result.standardError)")
        #expect(result.standardOutput.contains("version=2.4.0"))
        #expect(result.standardOutput.contains("strategy keep: the version stays 2.4.0"))
        #expect(try String(contentsOfFile: repo.path + "/Config/Version.xcconfig", encoding: .utf8)
                == "MARKETING_VERSION = 2.4.0\nCURRENT_PROJECT_VERSION = 43\n")
    }

    @Test func keepRefusesVersionsThatDisagree() throws {
        let repo = try app("2.3.0")
        let before = try Snapshot.of(repo.path).filter { !$0.key.hasPrefix(".git") && !$0.key.hasPrefix(".slipway") }
        let result = try slipway(["run", "build"], in: repo.path)
        #expect(result.status != 0)
        #expect(result.standardOutput.contains("option 'strategy' 'keep' needs one version, but the files hold several (Config/Version.xcconfig:1 = 2.4.0, Config/Widget.xcconfig:1 = 2.3.0)"),
                "\(result.standardOutput)")
        #expect(try Snapshot.of(repo.path).filter { !$0.key.hasPrefix(".git") && !$0.key.hasPrefix(".slipway") } == before)
    }

    /// owncloud/ios-app's layout: each target's `MARKETING_VERSION = "${APP_SHORT_VERSION}"` and
    /// `CURRENT_PROJECT_VERSION = "$(APP_VERSION)"`, both defined in the project's settings.
    @Test func keepFollowsBothSpellingsOfAReferenceToTheProjectsSettings() throws {
        let repo = try GitFixture(prefix: "slipway-keep-braces")
        let settings: [(key: String, value: String)] = [("CURRENT_PROJECT_VERSION", "$(APP_VERSION)"), ("MARKETING_VERSION", "${APP_SHORT_VERSION}")]
        try repo.commit("chore: start", files: [
            ".gitignore": "/.slipway/\n",
            "lanes/build.yml": "steps:\n  - version.bump: { strategy: keep, xcodeproj: App.xcodeproj, build-number: \"303\" }\n",
            "App.xcodeproj/project.pbxproj": VersionedXcodeProject.pbxproj(
                targets: [VersionedXcodeProject.Target("App", settings: settings), VersionedXcodeProject.Target("Share", settings: settings)],
                projectSettings: [("APP_SHORT_VERSION", "12.7.0"), ("APP_VERSION", "302")]),
        ])
        let plan = try slipway(["run", "build", "--dry-run"], in: repo.path)
        #expect(plan.status == 0, "\(plan.standardOutput)\(plan.standardError)")
        #expect(plan.standardOutput.contains("would other: version 12.7.0 kept (strategy keep)"), "\(plan.standardOutput)")
        #expect(plan.standardOutput.contains("would check: unchanged: App.xcodeproj/project.pbxproj:"), "\(plan.standardOutput)")
        #expect(plan.standardOutput.contains(" APP_VERSION 302 -> 303 (for CURRENT_PROJECT_VERSION)\n"), "\(plan.standardOutput)")
        let run = try slipway(["run", "build"], in: repo.path)
        #expect(run.status == 0, "\(run.standardOutput)\(run.standardError)")
        let pbxproj = try String(contentsOfFile: repo.path + "/App.xcodeproj/project.pbxproj", encoding: .utf8)
        #expect(pbxproj.components(separatedBy: "APP_VERSION = 303;").count == 3 && !pbxproj.contains("APP_VERSION = 302;"))
        #expect(pbxproj.components(separatedBy: "APP_SHORT_VERSION = 12.7.0;").count == 3)
    }
}
