import Foundation
import Testing
import TestSupport
import TestThreads

/// `changelog.update` with `style: unreleased` (the notes written by hand under Unreleased
/// become the release's section) and `version.bump`'s first release (no release tag yet: the
/// version the files hold, given explicitly, is released as it is), through the built binary. Slipway's own
/// release lane uses both.
@Suite(.dedicatedThreads) struct ChangelogUnreleasedTests {
    func slipway(_ arguments: [String], in directory: String) throws -> CommandResult {
        try CommandResult.run(Binaries.slipway, arguments, in: directory, environment: ["NO_COLOR": "1", "GITHUB_ACTIONS": nil])
    }

    static let lane = """
        steps:
          - version.bump: { files: [{ path: Sources/Version.swift, pattern: 'current = "(.*)"' }], strategy: 0.1.0 }
            id: version
          - changelog.update: { version: "${{ steps.version.outputs.version }}", style: unreleased }

        """

    static let notes = """
        # Changelog

        ## [Unreleased]

        ### Added
        - **Sync** keeps every file: a move that breaks
          a path is refused.

        ### Fixed
        - The merge driver's requirement conflict.

        """

    /// A project at 0.1.0 with no tag, a hand-written changelog and the lane.
    func project(notes: String = ChangelogUnreleasedTests.notes) throws -> GitFixture {
        let repo = try GitFixture(prefix: "slipway-unreleased")
        try repo.commit("Start", files: ["Sources/Version.swift": "let current = \"0.1.0\"\n", "CHANGELOG.md": notes,
                                         "lanes/release.yml": Self.lane])
        return repo
    }

    @Test func theFirstReleaseReleasesTheFilesVersionWithTheNotesWrittenUnderUnreleased() throws {
        let repo = try project()
        let plan = try slipway(["run", "release", "--dry-run"], in: repo.path)
        #expect(plan.status == 0, "\(plan.standardOutput)\(plan.standardError)")
        #expect(plan.standardOutput.contains("no release tag yet, so 0.1.0, the version Sources/Version.swift:1 holds, is released as the first release"),
                "\(plan.standardOutput)")
        #expect(plan.standardOutput.contains("would other: changelog style: unreleased (set with the step's option 'style')"), "\(plan.standardOutput)")

        let result = try slipway(["run", "release"], in: repo.path)
        #expect(result.status == 0, "\(result.standardOutput)\(result.standardError)")
        #expect(try String(contentsOfFile: repo.path + "/Sources/Version.swift", encoding: .utf8) == "let current = \"0.1.0\"\n")
        let changelog = try String(contentsOfFile: repo.path + "/CHANGELOG.md", encoding: .utf8)
        let day = try #require(changelog.firstMatch(of: /## \[0\.1\.0\] - (\d{4}-\d{2}-\d{2})/)).1
        #expect(changelog == """
            # Changelog

            ## [Unreleased]

            ## [0.1.0] - \(day)

            ### Added
            - **Sync** keeps every file: a move that breaks
              a path is refused.

            ### Fixed
            - The merge driver's requirement conflict.

            """)
    }

    @Test func anEmptyUnreleasedSectionIsRefusedAndNothingChanges() throws {
        let repo = try project(notes: "# Changelog\n\n## [Unreleased]\n\n## [0.0.9] - 2026-01-01\n\n- Old.\n")
        let before = try Snapshot.of(repo.path)
        let result = try slipway(["run", "release"], in: repo.path)
        #expect(result.status != 0)
        #expect((result.standardOutput + result.standardError).contains("'CHANGELOG.md' has nothing written under '## [Unreleased]', "
            + "and style unreleased releases what is written there; write the release's notes under it, or choose a style that lists "
            + "the commits (auto, conventional, subjects or pull-requests)"), "\(result.standardOutput)\(result.standardError)")
        // The run's journal aside (.slipway/runs), the files are as they were.
        let project = { (snapshot: [String: String]) in snapshot.filter { !$0.key.hasPrefix(".slipway") } }
        #expect(project(try Snapshot.of(repo.path)) == project(before), "the version file and changelog are unchanged")
    }

    @Test func aTemplateWithStyleUnreleasedIsAValidationError() throws {
        let repo = try project()
        try repo.write("lanes/release.yml", """
            steps:
              - changelog.update: { version: 1.0.0, style: unreleased, template: entry.mustache }

            """)
        let before = try Snapshot.of(repo.path)
        let result = try slipway(["validate"], in: repo.path)
        #expect(result.status == 2)
        #expect(result.standardError.contains("option 'template' renders the commits into a section, but style unreleased releases the notes "
            + "written under '## [Unreleased]' as they are; remove template, or choose a style that lists the commits"), "\(result.standardError)")
        #expect(try Snapshot.of(repo.path) == before)
    }

    @Test func slipwayChangelogSaysUnreleasedIsTheStepsStyle() throws {
        let repo = try project()
        let result = try slipway(["changelog", "--style", "unreleased", "--release-version", "0.2.0"], in: repo.path)
        #expect(result.status == 2)
        #expect(result.standardError.contains("--style unreleased releases the notes written under '## [Unreleased]', which CHANGELOG.md "
            + "already shows as they will be; it is the changelog.update step's style."), "\(result.standardError)")
    }

    @Test func theFilesVersionIsReleasedOnlyWhenGivenAndNeverWhenATagExists() throws {
        let repo = try project()
        // 'auto' with no release tag cannot know whether 0.1.0 was released (untagged): refused.
        try repo.write("lanes/release.yml", Self.lane.replacingOccurrences(of: ", strategy: 0.1.0 }", with: " }"))
        try repo.git("commit", "--quiet", "-am", "Auto")
        let auto = try slipway(["run", "release", "--dry-run"], in: repo.path)
        #expect(auto.status != 0)
        #expect(auto.standardOutput.contains("there is no semver tag reachable from HEAD, so there is nothing to bump from."), "\(auto.standardOutput)")
        try repo.write("lanes/release.yml", Self.lane)
        try repo.git("commit", "--quiet", "-am", "Explicit")
        // Once 0.1.0 is tagged, the same version is refused as before.
        try repo.git("tag", "v0.1.0")
        let again = try slipway(["run", "release", "--dry-run"], in: repo.path)
        #expect(again.status != 0)
        #expect(again.standardOutput.contains("'0.1.0'") || again.standardOutput.contains("0.1.0"), "\(again.standardOutput)")
        #expect(!again.standardOutput.contains("first release"), "\(again.standardOutput)")
    }
}
