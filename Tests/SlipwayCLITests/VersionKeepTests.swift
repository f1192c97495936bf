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
}
