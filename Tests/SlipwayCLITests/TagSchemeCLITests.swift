import Foundation
import Testing
import TestSupport
import TestThreads

/// `slipway version` and `slipway changelog` on tag schemes (issue 25, point 9) and with
/// nothing to release (point 3), through the built binary.
@Suite(.dedicatedThreads) struct TagSchemeCLITests {
    func slipway(_ arguments: [String], in directory: String) throws -> CommandResult {
        try CommandResult.run(Binaries.slipway, arguments, in: directory, environment: ["NO_COLOR": "1"])
    }

    @Test func versionTakesTheHighestSchemeAndWarnsOnStandardError() throws {
        let repo = try GitFixture(prefix: "slipway-tags")
        for tag in ["v0.1.0", "v0.2.1", "1.0.0", "6.1.1"] {
            try repo.commit("feat: before \(tag)", files: ["f": tag])
            try repo.git("tag", tag)
        }
        try repo.commit("fix: after", files: ["f": "after"])
        let current = try slipway(["version"], in: repo.path)
        #expect(current.status == 0)
        #expect(current.standardOutput == "6.1.1\n")
        #expect(current.standardError == "warning: the release tags use two schemes: the highest with the prefix 'v' is 'v0.2.1', "
            + "the highest without a prefix is '6.1.1'. '6.1.1' is taken as the latest release and new tags get no prefix. "
            + "To choose explicitly, set tag-prefix: \"\" (--tag-prefix '') for the tags without a prefix, or tag-prefix: v (--tag-prefix v) for the 'v' tags.\n")
        let next = try slipway(["version", "--next", "--tag-prefix", ""], in: repo.path)
        #expect(next.status == 0)
        #expect(next.standardOutput == "6.1.2\n")
        #expect(next.standardError == "")
        let explicit = try slipway(["version", "--tag-prefix", "v"], in: repo.path)
        #expect(explicit.standardOutput == "0.2.1\n")
        #expect(explicit.standardError.contains("warning: tag-prefix is 'v', so the latest release is 'v0.2.1', but tag '6.1.1' (no prefix) is a higher version."))
    }

    @Test func nothingToReleaseNamesTheTagAndTheFlag() throws {
        let repo = try GitFixture(prefix: "slipway-tags")
        try repo.commit("feat: first", files: ["f": "a"])
        try repo.git("tag", "v0.1.0")
        try repo.commit("Update the README", files: ["f": "b"])
        try repo.commit("docs: typo", files: ["f": "c"])
        let before = try Snapshot.of(repo.path)
        let next = try slipway(["version", "--next"], in: repo.path)
        #expect(next.status == 4)
        #expect(next.standardOutput == "")
        #expect(next.standardError.contains("none of the 2 commit(s) since v0.1.0 is a feat, fix, perf or breaking change, so 'auto' has nothing "
            + "to release. To release anyway, run 'slipway version --next --strategy patch' (or minor, major)."))
        let changelog = try slipway(["changelog"], in: repo.path)
        #expect(changelog.status == 4)
        #expect(changelog.standardError.contains("none of the 2 commit(s) since v0.1.0 is a feat, fix, perf or breaking change, so 'auto' has "
            + "nothing to release. To release anyway, give the version: 'slipway changelog --release-version 0.1.1'."))
        #expect(try Snapshot.of(repo.path) == before)
    }
}
