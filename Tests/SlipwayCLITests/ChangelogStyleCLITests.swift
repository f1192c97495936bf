import Foundation
import Testing
import TestSupport
import TestThreads

/// `slipway changelog --style`, `version --next` on a history without Conventional Commits, and
/// the lane-level `tag-prefix` (issue 25, point 3), through the built binary.
@Suite(.dedicatedThreads) struct ChangelogStyleCLITests {
    func slipway(_ arguments: [String], in directory: String) throws -> CommandResult {
        try CommandResult.run(Binaries.slipway, arguments, in: directory, environment: ["NO_COLOR": "1"])
    }

    /// `v1.2.0` and three commits that are not Conventional Commits.
    func plainHistory() throws -> GitFixture {
        let repo = try GitFixture(prefix: "slipway-style-cli")
        try repo.commit("Initial version", files: ["VERSION": "1.2.0\n"])
        try repo.git("tag", "v1.2.0")
        try repo.commit("Add the widget extension", files: ["a": "1"])
        try repo.commit("Fix the crash on launch", files: ["a": "2"])
        try repo.commit("Update translations", files: ["a": "3"])
        return repo
    }

    static let reason = "0 of 3 commits since v1.2.0 are Conventional Commits, and 0 of 3 first-parent commits are pull requests"

    @Test func changelogDetectsTheStyleAndSaysWhichOnStandardError() throws {
        let repo = try plainHistory()
        let before = try Snapshot.of(repo.path)
        let result = try slipway(["changelog"], in: repo.path)
        #expect(result.status == 0, "\(result.standardError)")
        #expect(result.standardError == "note: no Conventional Commits among the 3 commits since v1.2.0, so 'auto' cannot tell features "
            + "from fixes: bumped patch (1.2.0 → 1.2.1). To choose, give the version: 'slipway changelog --release-version 1.2.1'.\n"
            + "changelog style: subjects (detected: \(Self.reason)); choose one with --style\n")
        let hashes = try repo.git("log", "--format=%h", "--abbrev=7", "-3").split(separator: "\n").map(String.init)
        #expect(result.standardOutput.hasPrefix("## [1.2.1] - "))
        #expect(result.standardOutput.hasSuffix("""

            ### Changed
            - Update translations (\(hashes[0]))
            - Fix the crash on launch (\(hashes[1]))
            - Add the widget extension (\(hashes[2]))

            """))
        let text = try slipway(["changelog", "--format", "text", "--style", "subjects", "--release-version", "1.3.0"], in: repo.path)
        #expect(text.status == 0)
        #expect(text.standardOutput == "- Update translations\n- Fix the crash on launch\n- Add the widget extension\n")
        #expect(text.standardError == "changelog style: subjects (set with --style)\n")
        #expect(try Snapshot.of(repo.path) == before)
    }

    @Test func changelogJSONHasTheStyleAndReason() throws {
        let repo = try plainHistory()
        let result = try slipway(["changelog", "--json", "--release-version", "1.3.0"], in: repo.path)
        #expect(result.status == 0, "\(result.standardError)")
        #expect(result.standardError == "")
        let object = try #require(try JSONSerialization.jsonObject(with: Data(result.standardOutput.utf8)) as? [String: Any])
        #expect(object["version"] as? String == "1.3.0")
        #expect(object["style"] as? String == "subjects")
        #expect(object["detected"] as? Bool == true)
        #expect(object["reason"] as? String == Self.reason)
        #expect(object["notes"] as? [String] == [])
        #expect(object["text"] as? String == "- Update translations\n- Fix the crash on launch\n- Add the widget extension\n")
        #expect((object["markdown"] as? String)?.hasPrefix("## [1.3.0] - ") == true)
    }

    @Test func badStyleChoicesAreRefused() throws {
        let repo = try plainHistory()
        let style = try slipway(["changelog", "--style", "commits"], in: repo.path)
        #expect(style.status == 2)
        #expect(style.standardError == "error: --style is 'commits', which is not one of auto, subjects, pull-requests, conventional; use one of those\n")
        let merges = try slipway(["changelog", "--style", "conventional", "--merge-commits", "only"], in: repo.path)
        #expect(merges.status == 2)
        #expect(merges.standardError.contains("--merge-commits applies to --style subjects only, not --style conventional; "
            + "remove --merge-commits or use --style subjects"), "\(merges.standardError)")
    }

    @Test func versionNextExplainsAutoOnStandardError() throws {
        let repo = try plainHistory()
        let result = try slipway(["version", "--next"], in: repo.path)
        #expect(result.status == 0, "\(result.standardError)")
        #expect(result.standardOutput == "1.2.1\n")
        #expect(result.standardError == "note: no Conventional Commits among the 3 commits since v1.2.0, so 'auto' cannot tell features "
            + "from fixes: bumped patch (1.2.0 → 1.2.1). To choose, run 'slipway version --next --strategy minor' (or major, or a version such as 1.4.0).\n")
    }

    @Test func aStepThatDisagreesWithTheLanesTagPrefixIsAValidationError() throws {
        let folder = try TemporaryDirectory(prefix: "slipway-tag-prefix")
        try folder.write("lanes/release.yml", """
            tag-prefix: v
            steps:
              - version.bump:
                  version-file: VERSION
                id: version
              - changelog.update:
                  version: "${{ steps.version.outputs.version }}"
                  tag-prefix: release-

            """)
        let before = try Snapshot.of(folder.path)
        let result = try slipway(["validate"], in: folder.path)
        #expect(result.status == 2)
        #expect(result.standardError.contains("lanes/release.yml:8:7: error: step 'changelog.update' sets tag-prefix 'release-' at "
            + "lanes/release.yml:8:7, but the lane sets tag-prefix 'v' at lanes/release.yml:1:1; steps of one lane must agree on it: "
            + "remove the step's tag-prefix to use the lane's, or change the lane's tag-prefix"), "\(result.standardError)")
        #expect(try Snapshot.of(folder.path) == before)
        // The same value on the step is fine; so is an expression at the lane level only when plain.
        try folder.write("lanes/release.yml", "tag-prefix: v\nsteps:\n  - version.bump: { version-file: VERSION, tag-prefix: v }\n")
        let agreeing = try slipway(["validate"], in: folder.path)
        #expect(agreeing.status == 0, "\(agreeing.standardError)")
        try folder.write("lanes/release.yml", "tag-prefix: v\nsteps:\n  - run: echo hello\n")
        let unused = try slipway(["validate"], in: folder.path)
        #expect(unused.status == 0, "\(unused.standardError)")
        #expect((unused.standardOutput + unused.standardError).contains("lanes/release.yml:1:1: warning: the lane's 'tag-prefix' applies to no step: "
            + "none of its steps has a 'tag-prefix' option (version.bump and changelog.update do); remove it or add such a step"),
                "\(unused.standardOutput)\(unused.standardError)")
        try folder.write("lanes/release.yml", "tag-prefix: ${{ env.PREFIX }}\nsteps:\n  - version.bump: { version-file: VERSION }\n")
        let expression = try slipway(["validate"], in: folder.path)
        #expect(expression.status == 2)
        #expect(expression.standardError.contains("lanes/release.yml:1:13: error: the lane's 'tag-prefix' must be a plain string, not an "
            + "expression; set an expression on the steps' own 'tag-prefix' option instead"), "\(expression.standardError)")
    }

    @Test func theLanesTagPrefixReachesEveryStepThatHasTheOption() throws {
        let repo = try GitFixture(prefix: "slipway-tag-prefix")
        try repo.commit("Initial version", files: ["VERSION": "1.0.0\n", "CHANGELOG.md": "# Changelog\n\n## [Unreleased]\n"])
        try repo.git("tag", "release-1.0.0")
        try repo.commit("Unrelated v tag", files: ["a": "1"])
        try repo.git("tag", "v5.0.0")
        try repo.commit("Add the widget extension", files: ["a": "2"])
        try repo.write("lanes/release.yml", """
            tag-prefix: release-
            steps:
              - version.bump: { version-file: VERSION }
                id: version
              - changelog.update: { version: "${{ steps.version.outputs.version }}" }

            """)
        try repo.git("add", "-A")
        try repo.git("commit", "--quiet", "-m", "Add the lane")
        let result = try slipway(["run", "release"], in: repo.path)
        #expect(result.status == 0, "\(result.standardOutput)\(result.standardError)")
        #expect(try String(contentsOfFile: repo.path + "/VERSION", encoding: .utf8) == "1.0.1\n")
        let changelog = try String(contentsOfFile: repo.path + "/CHANGELOG.md", encoding: .utf8)
        #expect(changelog.contains("## [1.0.1] - "))
        #expect(changelog.contains("- Add the widget extension ("))
        #expect(changelog.contains("- Unrelated v tag ("), "the v5.0.0 tag is not a release with the lane's prefix")
    }
}
