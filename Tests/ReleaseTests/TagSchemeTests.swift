import Foundation
import Git
import Release
import Testing
import TestSupport
import TestThreads

/// Which tags count as releases when a history uses `v1.2.3` and `1.2.3` tags (issue 25,
/// point 9): the baseline is the highest version of either scheme, and a disagreement is said.
@Suite(.dedicatedThreads) struct TagSchemeTests {
    /// A library's history: `v0.1.0`…`v0.2.1` first, then `1.0.0`…`6.1.1`, then two fixes,
    /// and tags that are not versions on the way.
    static func twoSchemeHistory() throws -> GitFixture {
        let repo = try GitFixture()
        for tag in ["v0.1.0", "v0.2.0", "v0.2.1", "1.0.0", "2.0.0", "6.1.0", "6.1.1"] {
            try repo.commit("feat: before \(tag)", files: ["f": tag])
            try repo.git("tag", tag)
        }
        try repo.git("tag", "latest")
        try repo.git("tag", "v0.1")
        try repo.commit("fix: one", files: ["f": "one"])
        try repo.commit("fix: two", files: ["f": "two"])
        try repo.git("tag", "nightly-2026-11-27")
        try repo.git("remote", "add", "origin", "https://github.com/example/library.git")
        return repo
    }

    @Test func theDefaultPrefixTakesTheHighestVersionOfEitherScheme() throws {
        let repo = try Self.twoSchemeHistory()
        let planner = try ReleasePlanner(directory: repo.path)
        let state = try planner.state()
        #expect(state.previousTag == "6.1.1")
        #expect(state.previous?.description == "6.1.1")
        #expect(state.commits.map(\.summary) == ["fix: two", "fix: one"])
        #expect(state.tagPrefix == "")
        #expect(state.warnings == [
            "the release tags use two schemes: the highest with the prefix 'v' is 'v0.2.1', the highest without a prefix is '6.1.1'. "
                + "'6.1.1' is taken as the latest release and new tags get no prefix. To choose explicitly, set tag-prefix: \"\" "
                + "(--tag-prefix '') for the tags without a prefix, or tag-prefix: v (--tag-prefix v) for the 'v' tags.",
        ])
        let next = try planner.nextVersion(.auto, state: state)
        #expect(next.description == "6.1.2")
        #expect(state.tagPrefix + next.description == "6.1.2")
        #expect(throws: Never.self) { try planner.checkTagIsFree(for: next, state: state) }
    }

    @Test func anExplicitPrefixCountsOnlyItsTagsAndWarnsOfAHigherBareTag() throws {
        let repo = try Self.twoSchemeHistory()
        let planner = try ReleasePlanner(directory: repo.path, tagPrefix: "v")
        let state = try planner.state()
        #expect(state.previousTag == "v0.2.1")
        #expect(state.commits.count == 6)
        #expect(state.tagPrefix == "v")
        #expect(state.warnings == [
            "tag-prefix is 'v', so the latest release is 'v0.2.1', but tag '6.1.1' (no prefix) is a higher version. "
                + "If '6.1.1' is the latest release, set the tag prefix to \"\" (tag-prefix: \"\" in the lane, --tag-prefix '' on the command line).",
        ])
        #expect(state.tagPrefix + (try planner.nextVersion(.patch, state: state)).description == "v0.2.2")
    }

    @Test func anEmptyPrefixCountsBothSchemesWithoutAWarning() throws {
        let repo = try Self.twoSchemeHistory()
        let state = try ReleasePlanner(directory: repo.path, tagPrefix: "").state()
        #expect(state.previousTag == "6.1.1")
        #expect(state.tagPrefix == "")
        #expect(state.warnings.isEmpty)
    }

    @Test func aHigherPrefixedTagWinsAndTheOtherSchemeIsNamed() throws {
        let repo = try GitFixture()
        try repo.commit("feat: a", files: ["f": "a"])
        try repo.git("tag", "1.5.0")
        try repo.commit("feat: b", files: ["f": "b"])
        try repo.git("tag", "v2.0.0")
        try repo.commit("fix: c", files: ["f": "c"])
        let state = try ReleasePlanner(directory: repo.path).state()
        #expect(state.previousTag == "v2.0.0")
        #expect(state.tagPrefix == "v")
        #expect(state.commits.map(\.summary) == ["fix: c"])
        #expect(state.warnings == [
            "the release tags use two schemes: the highest with the prefix 'v' is 'v2.0.0', the highest without a prefix is '1.5.0'. "
                + "'v2.0.0' is taken as the latest release. To choose explicitly, set tag-prefix: v (--tag-prefix v) for the 'v' tags, "
                + "or tag-prefix: \"\" (--tag-prefix '') for the others.",
        ])
        // With the prefix given, the 'v' tags count alone and nothing needs saying.
        #expect(try ReleasePlanner(directory: repo.path, tagPrefix: "v").state().warnings.isEmpty)
    }

    @Test func bothNamesOfOneReleaseAgreeAndKeepThePrefix() throws {
        let repo = try GitFixture()
        try repo.commit("feat: a", files: ["f": "a"])
        try repo.git("tag", "v1.2.3")
        try repo.git("tag", "1.2.3")
        try repo.commit("feat: b", files: ["f": "b"])
        let planner = try ReleasePlanner(directory: repo.path)
        let state = try planner.state()
        #expect(state.previousTag == "v1.2.3")
        #expect(state.tagPrefix == "v")
        #expect(state.warnings.isEmpty)
        #expect(state.commits.map(\.summary) == ["feat: b"])
        #expect(try planner.nextVersion(.auto, state: state).description == "1.3.0")
    }

    @Test func onlyBareTagsAreFollowedAndTheDefaultSaysSo() throws {
        let repo = try GitFixture()
        try repo.commit("feat: a", files: ["f": "a"])
        try repo.git("tag", "3.0.0")
        try repo.git("tag", "release-candidate")
        try repo.git("remote", "add", "origin", "https://github.com/example/library.git")
        try repo.commit("fix: b", files: ["f": "b"])
        let planner = try ReleasePlanner(directory: repo.path)
        let state = try planner.state()
        #expect(state.previousTag == "3.0.0")
        #expect(state.tagPrefix == "")
        #expect(state.warnings == [
            "the release tags have no prefix (the latest is '3.0.0'), not the default 'v', so new tags get none either. "
                + "Set tag-prefix: \"\" (--tag-prefix '') to say so and silence this warning.",
        ])
        #expect(state.tagPrefix + (try planner.nextVersion(.auto, state: state)).description == "3.0.1")
    }

    @Test func onlyPrefixedTagsNeedNoWarning() throws {
        let repo = try GitFixture()
        try repo.commit("feat: a", files: ["f": "a"])
        try repo.git("tag", "v1.0.0")
        try repo.git("tag", "docs")
        try repo.commit("fix: b", files: ["f": "b"])
        let state = try ReleasePlanner(directory: repo.path).state()
        #expect(state.previousTag == "v1.0.0")
        #expect(state.tagPrefix == "v")
        #expect(state.warnings.isEmpty)
    }

    @Test func nothingToReleaseNamesTheRealTagAndTheRemedy() throws {
        let repo = try GitFixture()
        try repo.commit("feat: a", files: ["f": "a"])
        try repo.git("tag", "v0.1.0")
        try repo.commit("docs: b", files: ["f": "b"])
        try repo.commit("Update README", files: ["f": "c"])
        let planner = try ReleasePlanner(directory: repo.path)
        let state = try planner.state()
        #expect(throws: ReleaseError.nothingToRelease(since: "v0.1.0", commits: 2)) { try planner.nextVersion(.auto, state: state) }
        do {
            _ = try planner.nextVersion(.auto, state: state)
            Issue.record("expected nothing to release")
        } catch {
            #expect(error.localizedDescription == "none of the 2 commit(s) since v0.1.0 is a feat, fix, perf or breaking change, "
                + "so 'auto' has nothing to release. To release anyway, set the step's option 'strategy: patch' (or minor, major).")
        }
        #expect(throws: ReleaseError.nothingToRelease(since: "v0.1.0", commits: 2, remedy: "pass --x")) {
            try planner.nextVersion(.auto, state: state, remedy: "pass --x")
        }
    }
}
