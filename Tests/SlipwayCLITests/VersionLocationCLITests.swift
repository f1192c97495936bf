import Foundation
import Testing
import TestSupport
import TestThreads

/// `version.bump` on an app that keeps its version in an `.xcconfig` and its Info.plists as
/// `$(MARKETING_VERSION)` / `$(CURRENT_PROJECT_VERSION)` (issue 25, point 2), through the built
/// binary: the dry run lists every file and key, the real run changes exactly those bytes.
@Suite(.dedicatedThreads) struct VersionLocationCLITests {
    static let lane = """
        steps:
          - version.bump: { xcodeproj: App.xcodeproj, info-plists: [App/Info.plist], build-number: "42" }
            id: version
          - run: { command: "echo wrote ${{ steps.version.outputs.files }}" }
        """
    static let plist = "<plist><dict>\n<key>CFBundleShortVersionString</key>\n<string>$(MARKETING_VERSION)</string>\n<key>CFBundleVersion</key>\n<string>$(CURRENT_PROJECT_VERSION)</string>\n</dict></plist>\n"

    func slipway(_ arguments: [String], in directory: String) throws -> CommandResult {
        try CommandResult.run(Binaries.slipway, arguments, in: directory, environment: ["NO_COLOR": "1"])
    }

    /// An app and five extensions whose xcconfigs include Config/Version.xcconfig, tagged v1.2.0, then a feature.
    func app(version: String = "// Version of the app and its extensions\nMARKETING_VERSION = 1.2.0\nCURRENT_PROJECT_VERSION = 41 // bumped by CI\n") throws -> GitFixture {
        let repo = try GitFixture(prefix: "slipway-xcconfig")
        let targets = [VersionedXcodeProject.Target("App", settings: [("INFOPLIST_FILE", "App/Info.plist")], xcconfig: "Config/App.xcconfig")]
            + ["Share", "Today", "Widgets", "NotificationService", "Intents"].map { VersionedXcodeProject.Target($0, xcconfig: "Config/Extension.xcconfig") }
        try repo.commit("chore: start", files: [
            ".gitignore": "/.slipway/\n",
            "lanes/release.yml": Self.lane,
            "App.xcodeproj/project.pbxproj": VersionedXcodeProject.pbxproj(targets: targets),
            "App/Info.plist": Self.plist,
            "Config/App.xcconfig": "#include \"Version.xcconfig\"\n#include? \"Local.xcconfig\"\n",
            "Config/Extension.xcconfig": "#include \"Version.xcconfig\"\n",
            "Config/Version.xcconfig": version,
        ])
        try repo.git("tag", "v1.2.0")
        try repo.commit("feat: widgets", files: ["App/Widget.swift": "struct Widget {}\n"])
        return repo
    }

    func files(_ repo: GitFixture) throws -> [String: String] {
        try Snapshot.of(repo.path).filter { !$0.key.hasPrefix(".git") && !$0.key.hasPrefix(".slipway") }
    }

    @Test func theDryRunListsEveryFileAndKeyAndTheRunWritesExactlyThose() throws {
        let repo = try app()
        let before = try files(repo)
        let plan = try slipway(["run", "release", "--dry-run"], in: repo.path)
        #expect(plan.status == 0, "\(plan.standardOutput)\n\(plan.standardError)")
        for line in [
            "would write: Config/Version.xcconfig:2 MARKETING_VERSION 1.2.0 -> 1.3.0 (for App/Info.plist CFBundleShortVersionString = $(MARKETING_VERSION))\n",
            "would write: Config/Version.xcconfig:3 CURRENT_PROJECT_VERSION 41 -> 42 (for App/Info.plist CFBundleVersion = $(CURRENT_PROJECT_VERSION))\n",
        ] {
            #expect(plan.standardOutput.contains(line), "missing \(line) in:\n\(plan.standardOutput)")
        }
        #expect(plan.standardOutput.components(separatedBy: "would write:").count == 3, "exactly two writes")
        #expect(!plan.standardOutput.contains("would write: App/Info.plist"), "the Info.plist is not written: its values are build settings")
        #expect(!plan.standardOutput.contains("project.pbxproj"), "the pbxproj defines no version")
        #expect(try files(repo) == before)

        let run = try slipway(["run", "release"], in: repo.path)
        #expect(run.status == 0, "\(run.standardOutput)\n\(run.standardError)")
        // The output `files` is a JSON list (the shell drops its quotes).
        #expect(run.standardOutput.contains("wrote [Config/Version.xcconfig]"), "\(run.standardOutput)")
        var expected = before
        let written = "// Version of the app and its extensions\nMARKETING_VERSION = 1.3.0\nCURRENT_PROJECT_VERSION = 42 // bumped by CI\n"
        let after = try files(repo)
        expected["Config/Version.xcconfig"] = after["Config/Version.xcconfig"]
        #expect(after == expected, "only Config/Version.xcconfig changes")
        #expect(try String(contentsOfFile: repo.path + "/Config/Version.xcconfig", encoding: .utf8) == written)
        let status = try repo.git("status", "--porcelain")
        #expect(status == " M Config/Version.xcconfig", "\(status)")
    }

    @Test func anExpressionFailsTheDryRunAndChangesNothing() throws {
        let repo = try app(version: "MARKETING_VERSION = $(BASE).0\nCURRENT_PROJECT_VERSION = 41\n")
        let before = try files(repo)
        let plan = try slipway(["run", "release", "--dry-run"], in: repo.path)
        #expect(plan.status != 0)
        #expect((plan.standardOutput + plan.standardError).contains(
            "'Config/Version.xcconfig:1': MARKETING_VERSION is '$(BASE).0', an expression slipway cannot write; set it to a literal value there (MARKETING_VERSION = 1.2.0), or to exactly $(OTHER_SETTING) with OTHER_SETTING defined as a literal"),
            "\(plan.standardOutput)\n\(plan.standardError)")
        #expect(try files(repo) == before)
    }
}
