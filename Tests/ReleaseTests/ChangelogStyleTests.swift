import Basics
import Foundation
import Git
import Release
import Testing
import TestSupport
import TestThreads

/// Changelog styles on real histories (issue 25, point 3): every subject, pull-request titles
/// from squash and merge commits, Conventional Commits, and the detection between them.
@Suite(.dedicatedThreads) struct ChangelogStyleTests {
    static let day = Date(timeIntervalSince1970: 1_790_000_000)  // 2026-09-21

    /// `v1.2.0`, then commits that are not Conventional Commits (as the app of issue 25 had).
    static func plainHistory() throws -> GitFixture {
        let repo = try GitFixture(prefix: "slipway-style")
        try repo.commit("Initial version", files: ["f": "0"])
        try repo.git("tag", "v1.2.0")
        try repo.commit("Add the widget extension", files: ["f": "1"])
        try repo.commit("Fix the crash on launch\n\nThe body is not listed.", files: ["f": "2"])
        try repo.commit("Merge branch 'feature' into main", files: ["f": "3"])
        try repo.commit("Update translations", files: ["f": "4"])
        return repo
    }

    /// `v2.0.0`, then squash merges `Title (#N)` and one direct push.
    static func squashHistory() throws -> GitFixture {
        let repo = try GitFixture(prefix: "slipway-style")
        try repo.commit("Initial version", files: ["f": "0"])
        try repo.git("tag", "v2.0.0")
        try repo.commit("Add dark mode (#12)", files: ["f": "1"])
        try repo.commit("Bump the build number", files: ["f": "2"])
        try repo.commit("Fix login on iPad (#15)\n\n* squashed commit one\n* two", files: ["f": "3"])
        try repo.commit("Support iOS 18 (#17)", files: ["f": "4"])
        // Not GitHub: this machine's system git configuration rewrites github.com URLs to a mirror.
        try repo.git("remote", "add", "origin", "git@gitlab.com:example/app.git")
        return repo
    }

    /// `v3.0.0`, then two true merges of pull-request branches (no fast-forward), each titled by
    /// the first line of its body, as GitHub writes them.
    static func mergeHistory() throws -> GitFixture {
        let repo = try GitFixture(prefix: "slipway-style")
        try repo.commit("Initial version", files: ["main": "0"])
        try repo.git("tag", "v3.0.0")
        for (number, branch, title) in [(21, "offline", "Offline mode"), (22, "share", "Share sheet for photos")] {
            try repo.git("checkout", "--quiet", "-b", branch)
            try repo.commit("WIP \(branch)", files: [branch: "1"])
            try repo.commit("Finish \(branch)", files: [branch: "2"])
            try repo.git("checkout", "--quiet", "main")
            try repo.git("merge", "--quiet", "--no-ff", branch, "-m", "Merge pull request #\(number) from example/\(branch)", "-m", title)
        }
        return repo
    }

    func styled(_ repo: GitFixture, _ style: ChangelogStyle, merges: MergeCommits? = nil, version: String = "9.9.9")
        throws -> ReleasePlanner.StyledEntry {
        let planner = try ReleasePlanner(directory: repo.path)
        let state = try planner.state()
        return planner.entry(for: try #require(SemanticVersion(version)), state: state, style: style, source: "--style",
                             merges: merges, date: Self.day)
    }

    func hash(_ repo: GitFixture, _ revision: String) throws -> String {
        try repo.git("rev-parse", "--short=7", revision)
    }

    @Test func aHistoryWithoutConventionalCommitsIsReadAsSubjectsAndSaysWhy() throws {
        let repo = try Self.plainHistory()
        let result = try styled(repo, .auto, version: "1.2.1")
        #expect(result.choice.style == .subjects)
        #expect(result.choice.isDetected)
        #expect(result.choice.description == "subjects (detected: 0 of 4 commits since v1.2.0 are Conventional Commits, "
            + "and 0 of 4 first-parent commits are pull requests)")
        #expect(result.notes.isEmpty)
        let markdown = try ChangelogRenderer().render(result.entry)
        #expect(markdown == """
            ## [1.2.1] - 2026-09-21

            ### Changed
            - Update translations (\(try hash(repo, "HEAD")))
            - Fix the crash on launch (\(try hash(repo, "HEAD~2")))
            - Add the widget extension (\(try hash(repo, "HEAD~3")))

            """)
        #expect(ChangelogRenderer.plainText(result.entry) == "- Update translations\n- Fix the crash on launch\n- Add the widget extension\n")
    }

    @Test func autoBumpsPatchAndExplainsWhenNoCommitIsConventional() throws {
        let repo = try Self.plainHistory()
        let planner = try ReleasePlanner(directory: repo.path)
        let state = try planner.state()
        let next = try planner.nextVersionExplained(.auto, state: state)
        #expect(next.version.description == "1.2.1")
        #expect(next.note == "no Conventional Commits among the 4 commits since v1.2.0, so 'auto' cannot tell features from fixes: "
            + "bumped patch (1.2.0 → 1.2.1). To choose, set the step's option 'strategy: minor' (or major, or a version such as 1.4.0).")
        // Other strategies and conventional histories have nothing to explain.
        #expect(try planner.nextVersionExplained(.minor, state: state) == ReleasePlanner.NextVersion(version: try #require(SemanticVersion("1.3.0")), note: nil))
        try repo.commit("feat: a conventional feature", files: ["f": "5"])
        let conventional = try planner.nextVersionExplained(.auto, state: try planner.state())
        #expect(conventional.version.description == "1.3.0")
        #expect(conventional.note == nil)
    }

    @Test func squashMergesAreReadAsPullRequestsWithLinks() throws {
        let repo = try Self.squashHistory()
        let result = try styled(repo, .auto, version: "2.1.0")
        #expect(result.choice.description == "pull-requests (detected: 3 of 4 first-parent commits since v2.0.0 are pull requests "
            + "(squashed 'Title (#12)' or merged))")
        #expect(result.notes == ["1 first-parent commit is not a pull request and left out (\(try hash(repo, "HEAD~2")) 'Bump the build number'); "
            + "use style subjects to list every commit"])
        let rendered = try ChangelogRenderer().render(result.entry)
        #expect(rendered == """
            ## [2.1.0](https://gitlab.com/example/app/compare/v2.0.0...v2.1.0) - 2026-09-21

            ### Changed
            - Support iOS 18 ([#17](https://gitlab.com/example/app/-/merge_requests/17))
            - Fix login on iPad ([#15](https://gitlab.com/example/app/-/merge_requests/15))
            - Add dark mode ([#12](https://gitlab.com/example/app/-/merge_requests/12))

            """)
        #expect(ChangelogRenderer.plainText(result.entry) == "- Support iOS 18\n- Fix login on iPad\n- Add dark mode\n")
    }

    @Test func mergeCommitsGiveTheirBodysTitleAndNumber() throws {
        let repo = try Self.mergeHistory()
        let result = try styled(repo, .auto)
        #expect(result.choice.style == .pullRequests)
        #expect(result.choice.reason == "2 of 2 first-parent commits since v3.0.0 are pull requests (squashed 'Title (#12)' or merged)")
        #expect(result.notes.isEmpty)
        #expect(result.entry.sections.flatMap(\.items).map { "\($0.description) \($0.shortHash)" }
            == ["Share sheet for photos #22", "Offline mode #21"])
    }

    @Test func mergeFilteringOfSubjects() throws {
        let repo = try Self.mergeHistory()
        func subjects(_ merges: MergeCommits?) throws -> [String] {
            try styled(repo, .subjects, merges: merges).entry.sections.flatMap(\.items).map(\.description)
        }
        #expect(try subjects(nil) == ["Finish share", "WIP share", "Finish offline", "WIP offline"])
        #expect(try subjects(.exclude) == ["Finish share", "WIP share", "Finish offline", "WIP offline"])
        #expect(try subjects(.only) == ["Merge pull request #22 from example/share", "Merge pull request #21 from example/offline"])
        #expect(try subjects(.include).count == 6)
        let explicit = try styled(repo, .subjects)
        #expect(explicit.choice.description == "subjects (set with --style)")
        // A "Merge branch" subject on a single-parent commit is dropped when merges are excluded.
        let plain = try Self.plainHistory()
        #expect(try styled(plain, .subjects).entry.sections.flatMap(\.items).map(\.description).contains("Merge branch 'feature' into main") == false)
        #expect(try styled(plain, .subjects, merges: .include).entry.sections.flatMap(\.items).count == 4)
    }

    @Test func mostlyConventionalHistoriesStayConventionalAndMergeCommitsDoesNotApply() throws {
        let repo = try GitFixture(prefix: "slipway-style")
        try repo.commit("feat: first", files: ["f": "0"])
        try repo.git("tag", "v0.3.0")
        try repo.commit("feat(app): offline mode (#31)", files: ["f": "1"])
        try repo.commit("fix: crash on launch", files: ["f": "2"])
        try repo.commit("Tidy up", files: ["f": "3"])
        let result = try styled(repo, .auto, merges: .include, version: "0.4.0")
        #expect(result.choice.description == "conventional (detected: 2 of 3 commits since v0.3.0 are Conventional Commits)")
        #expect(result.notes == ["merge-commits: include applies to the subjects style only, and the style is conventional"])
        #expect(result.entry.sections.map(\.title) == ["Added", "Fixed"])
        #expect(ChangelogRenderer.plainText(result.entry) == "Added:\n- app: offline mode (#31)\n\nFixed:\n- crash on launch\n")
    }

    @Test func anEmptyRangeAndBadChoices() throws {
        let repo = try GitFixture(prefix: "slipway-style")
        try repo.commit("Initial", files: ["f": "0"])
        try repo.git("tag", "v1.0.0")
        let result = try styled(repo, .auto)
        #expect(result.choice.description == "conventional (detected: no commits since v1.0.0)")
        #expect(ChangelogRenderer.plainText(result.entry) == "No user-facing changes.\n")
        #expect(throws: ReleaseError.invalidChoice(option: "--style", value: "commits", allowed: ["auto", "subjects", "pull-requests", "conventional"])) {
            try ChangelogStyle(parsing: "commits", option: "--style", allowed: ChangelogStyle.fromCommits)
        }
        #expect(ReleaseError.invalidChoice(option: "--style", value: "commits", allowed: ["auto", "subjects", "pull-requests", "conventional"])
            .localizedDescription == "--style is 'commits', which is not one of auto, subjects, pull-requests, conventional; use one of those")
    }

    @Test func aChangelogEntryAsPlainTextForWhatToTest() throws {
        let file = ChangelogFile(text: """
            # Changelog

            ## [Unreleased]

            ## [2.1.0](https://gitlab.com/o/r/compare/v2.0.0...v2.1.0) - 2026-09-21

            ### Added
            - **app:** offline mode ([abc1234](https://gitlab.com/o/r/commit/abc1234def))
            - Support iOS 18 ([#17](https://gitlab.com/o/r/-/merge_requests/17))

            ### Fixed
            - crash on launch (abc1234)
            - See [the guide](https://example.com/guide) (for iPad)

            [2.1.0]: https://gitlab.com/o/r/compare/v2.0.0...v2.1.0

            ## [2.0.0] - 2026-01-01
            - Older.
            """, path: "CHANGELOG.md")
        #expect(file.plainEntry(version: "2.1.0") == """
            Added:
            - app: offline mode
            - Support iOS 18

            Fixed:
            - crash on launch
            - See the guide (for iPad)
            """)
        #expect(file.plainEntry(version: "v2.0.0") == "- Older.")
        #expect(file.plainEntry(version: "3.0.0") == nil)
    }

    @Test func gitLabAndBitbucketMergesArePullRequests() throws {
        let repo = try GitFixture(prefix: "slipway-style")
        try repo.commit("Initial version", files: ["main": "0"])
        try repo.git("tag", "v4.0.0")
        let merges = [
            ("widgets", "Merge branch 'widgets' into 'main'", "Home screen widgets\n\nSee merge request example/app!41"),
            ("sync", "Merged in sync (pull request #7)", "iCloud sync\n\nApproved-by: Someone"),
        ]
        for (branch, subject, body) in merges {
            try repo.git("checkout", "--quiet", "-b", branch)
            try repo.commit("Work on \(branch)", files: [branch: "1"])
            try repo.git("checkout", "--quiet", "main")
            try repo.git("merge", "--quiet", "--no-ff", branch, "-m", subject, "-m", body)
        }
        let result = try styled(repo, .auto)
        #expect(result.choice.style == .pullRequests)
        #expect(result.entry.sections.flatMap(\.items).map { "\($0.description) \($0.shortHash)" } == ["iCloud sync #7", "Home screen widgets #41"])
    }

    @Test func pullRequestParsing() throws {
        #expect(PullRequestCommit.squash("Add dark mode (#12)") == PullRequestCommit(number: 12, title: "Add dark mode"))
        #expect(PullRequestCommit.squash("Fix (#12) in the middle") == nil)
        #expect(PullRequestCommit.squash("(#12)") == nil)
        #expect(PullRequestCommit.squash("Costs (#abc)") == nil)
        #expect(RepositoryLinks(remoteURL: "git@github.com:o/r.git")?.pullRequest(3) == "https://github.com/o/r/pull/3")
        #expect(RepositoryLinks(remoteURL: "https://gitlab.com/o/r.git")?.pullRequest(3) == "https://gitlab.com/o/r/-/merge_requests/3")
        #expect(RepositoryLinks(remoteURL: "https://bitbucket.org/o/r.git")?.pullRequest(3) == "https://bitbucket.org/o/r/pull-requests/3")
        #expect(RepositoryLinks(remoteURL: "https://git.example.com/o/r.git")?.pullRequest(3) == "https://git.example.com/o/r/pulls/3")
    }
}
