@testable import FastlaneImport
import Testing
import TestThreads

/// increment_version_number, increment_build_number, add_git_tag, commit_version_bump,
/// git_commit, push_to_git_remote, changelog_from_git_commits and sh, with fastlane's
/// documented examples.
@Suite(.dedicatedThreads) struct VersionActionTranslatorTests {
    // https://docs.fastlane.tools/actions/increment_version_number/
    @Test func incrementVersionNumberDocumentedExamples() throws {
        let cases: [(String, String)] = [
            ("increment_version_number", "patch"), (#"increment_version_number(bump_type: "patch")"#, "patch"),
            (#"increment_version_number(bump_type: "minor")"#, "minor"), (#"increment_version_number(bump_type: "major")"#, "major"),
            (#"increment_version_number(version_number: "2.1.1")"#, "2.1.1"),
        ]
        for (source, strategy) in cases {
            let lane = try ActionCase(source)
            #expect(try lane.step("version.bump").options == [DraftPair("xcodeproj", .string("App.xcodeproj")), DraftPair("strategy", .string(strategy))])
            #expect(lane.listed == [])
        }
        let project = try ActionCase(#"increment_version_number(version_number: "2.1.1", xcodeproj: "./path/to/MyApp.xcodeproj")"#)
        #expect(try project.step("version.bump").option("xcodeproj") == .string("./path/to/MyApp.xcodeproj"))
    }

    /// Issue 40, point 3: the translation says which version is bumped.
    @Test func bumpTypeSaysItStartsFromTheProject() throws {
        let lane = try ActionCase(#"increment_version_number(bump_type: "minor")"#)
        #expect(lane.differences == [
            "increment_version_number: version.bump's strategy minor starts from the project's version (MARKETING_VERSION in App.xcodeproj, where the app and its extensions define it), as fastlane does; a result at or below the latest release tag is refused",
        ])
        var survey = FastlaneTranslatorTests.survey
        survey.project = nil
        let tagged = try ActionCase(#"increment_version_number(bump_type: "minor")"#, survey: survey)
        #expect(tagged.differences == [
            "increment_version_number: no Xcode project was found, so version.bump's strategy minor starts from the latest release tag, not from the project: give version.bump's xcodeproj",
        ])
    }

    // https://docs.fastlane.tools/actions/increment_build_number/
    @Test func incrementBuildNumberDocumentedExamples() throws {
        #expect(try ActionCase("increment_build_number").step("version.bump").option("build-number") == .string("increment"))
        #expect(try ActionCase(#"increment_build_number(build_number: "75")"#).step("version.bump").option("build-number") == .string("75"))
        let project = try ActionCase(#"increment_build_number(build_number: 75, xcodeproj: "./path/to/MyApp.xcodeproj")"#)
        #expect(try project.step("version.bump").options == [
            DraftPair("xcodeproj", .string("./path/to/MyApp.xcodeproj")), DraftPair("build-number", .string("75")), DraftPair("strategy", .string("keep")),
        ])
        let query = try ActionCase("increment_build_number({ build_number: latest_testflight_build_number + 1 })")
        #expect(query.kinds == ["appstore.build-number", "version.bump"])
        #expect(try query.step("version.bump").option("build-number") == .string("${{ steps.build-number.outputs.next }}"))
        let version = try ActionCase(#"latest_testflight_build_number(version: "1.3", live: true)"#)
        #expect(try version.step("appstore.build-number").option("version") == .string("1.3"))
        #expect(version.listed == ["latest_testflight_build_number(live: …): appstore.build-number reads the builds uploaded (TestFlight), not the live App Store version"])
    }

    // https://docs.fastlane.tools/actions/add_git_tag/
    @Test func addGitTagDocumentedExamples() throws {
        let simple = try ActionCase("increment_build_number(build_number: 42)\nadd_git_tag")
        #expect(try simple.step("git.tag").options == [DraftPair("name", .string("builds/release/42")), DraftPair("message", .string("builds/release/42 (fastlane)"))])
        let parts = try ActionCase(#"add_git_tag(grouping: "fastlane-builds", includes_lane: true, prefix: "v", postfix: "-RC1", build_number: 123)"#)
        #expect(try parts.step("git.tag").option("name") == .string("fastlane-builds/release/v123-RC1"))
        let custom = try ActionCase(#"add_git_tag(tag: "my_custom_tag")"#)
        #expect(try custom.step("git.tag").options == [DraftPair("name", .string("my_custom_tag")), DraftPair("message", .string("my_custom_tag (fastlane)"))])
        #expect(simple.listed == [] && parts.listed == [] && custom.listed == [])
    }

    /// Issue 40, point 7: in a platform lane fastlane's lane name is "ios release" without the space.
    @Test func addGitTagInAPlatformLaneNamesThePlatform() throws {
        let lane = try ActionCase("increment_build_number(build_number: 7)\nadd_git_tag", platform: "ios")
        #expect(try lane.step("git.tag").option("name") == .string("builds/iosrelease/7"))
        let archived = try ActionCase("increment_build_number\ngym(scheme: 'App')\nadd_git_tag(includes_lane: false)", platform: "ios")
        #expect(try archived.step("git.tag").option("name") == .string("builds/${{ steps.archive.outputs.build-number }}"))
    }

    // https://docs.fastlane.tools/actions/git_commit/
    @Test func gitCommitDocumentedExamples() throws {
        let one = try ActionCase(#"git_commit(path: "./version.txt", message: "Version Bump")"#)
        #expect(try one.step("git.commit").options == [
            DraftPair("message", .string("Version Bump")), DraftPair("paths", .list([.string("./version.txt")])), DraftPair("allow-dirty", .bool(true)),
        ])
        let two = try ActionCase(#"git_commit(path: ["./version.txt", "./changelog.txt"], message: "Version Bump")"#)
        #expect(try two.step("git.commit").option("paths") == .list([.string("./version.txt"), .string("./changelog.txt")]))
        let hooks = try ActionCase(#"git_commit(path: ["./*.txt", "./*.md"], message: "Update documentation", skip_git_hooks: true)"#)
        #expect(try hooks.step("git.commit").option("paths") == .list([.string("./*.txt"), .string("./*.md")]))
        #expect(one.listed == [] && two.listed == [] && hooks.listed == [])
    }

    /// Issue 40, point 1: a path only Ruby knows would widen the commit to every change: the
    /// step names an input the lane does not declare, so validation fails until it is written.
    @Test func gitCommitWithARubyPathCannotWiden() throws {
        let lane = try ActionCase("git_commit(path: VERSION_FILE, message: 'Bump')")
        #expect(try lane.step("git.commit").option("paths") == .string("${{ inputs.git-commit-paths }}"))
        #expect(lane.lane.draft.inputs.isEmpty)
        #expect(lane.listed == [
            "git_commit(path: …): its value (VERSION_FILE) is only known when Ruby runs: fastlane commits only those paths, and git.commit without paths would commit every tracked change. The step's paths is ${{ inputs.git-commit-paths }}, an input the lane does not declare, so 'slipway validate' fails until you write the paths there",
        ])
        let known = try ActionCase("git_commit(path: VERSION_FILE, message: 'Bump')", before: "VERSION_FILE = 'Config/Version.xcconfig'\n")
        #expect(try known.step("git.commit").option("paths") == .list([.string("Config/Version.xcconfig")]))
        #expect(known.listed == [])
    }

    // https://docs.fastlane.tools/actions/commit_version_bump/
    @Test func commitVersionBumpDocumentedExamples() throws {
        let plain = try ActionCase("commit_version_bump")
        #expect(try plain.step("git.commit").options == [DraftPair("message", .string("Version Bump")), DraftPair("paths", .list([.string("Config/Version.xcconfig")]))])
        let include = try ActionCase("commit_version_bump(include: %w[package.json custom.cfg])")
        #expect(try include.step("git.commit").option("paths") == .list([.string("Config/Version.xcconfig"), .string("package.json"), .string("custom.cfg")]))
        let settings = try ActionCase("commit_version_bump(settings: true)")
        #expect(settings.listed == ["commit_version_bump(settings: …): add the Settings.bundle's Root.plist to git.commit's paths by hand"])
        #expect(try ActionCase("commit_version_bump(no_verify: true)").listed == [])
    }

    // https://docs.fastlane.tools/actions/push_to_git_remote/
    @Test func pushToGitRemoteDocumentedExamples() throws {
        #expect(try ActionCase("push_to_git_remote").step("git.push").options == [])
        let all = try ActionCase("""
            push_to_git_remote(remote: "origin", local_branch: "develop", remote_branch: "develop", force: true, force_with_lease: true, tags: false, no_verify: true, set_upstream: true)
            """)
        #expect(try all.step("git.push").options == [DraftPair("remote", .string("origin"))])
        #expect(all.listed.map { String($0.prefix(while: { $0 != ":" })) } == [
            "push_to_git_remote(local_branch", "push_to_git_remote(remote_branch", "push_to_git_remote(force",
            "push_to_git_remote(force_with_lease", "push_to_git_remote(set_upstream",
        ])
    }

    @Test func pushToARemoteOnlyRubyKnowsCannotGoToOrigin() throws {
        let lane = try ActionCase("push_to_git_remote(remote: REMOTE)")
        #expect(try lane.step("git.push").options == [DraftPair("remote", .string("${{ inputs.git-push-remote }}"))])
        #expect(lane.listed == [
            "push_to_git_remote(remote: …): its value (REMOTE) is only known when Ruby runs: git.push without it would push to origin. The step's remote is ${{ inputs.git-push-remote }}, an input the lane does not declare, so 'slipway validate' fails until you write the remote there",
        ])
    }

    // https://docs.fastlane.tools/actions/changelog_from_git_commits/
    @Test func changelogFromGitCommitsDocumentedExamples() throws {
        #expect(try ActionCase("changelog_from_git_commits").kinds == ["changelog.update"])
        let range = try ActionCase("""
            changelog_from_git_commits(between: ["7b092b3", "HEAD"], pretty: "- (%ae) %s", date_format: "short", match_lightweight_tag: false, merge_commit_filtering: "exclude_merges")
            """)
        #expect(try range.step("changelog.update").option("since") == .string("7b092b3"))
        #expect(try range.step("changelog.update").option("merge-commits") == .string("exclude"))
        #expect(range.listed.count == 3)
    }

    // https://docs.fastlane.tools/actions/sh/
    @Test func shDocumentedExamples() throws {
        #expect(try ActionCase(#"sh("ls")"#).step("run").option("command") == .string("cd fastlane && ls"))
        #expect(try ActionCase(#"sh("git", "commit", "-m", "My message")"#).step("run").option("command") == .string("cd fastlane && git commit -m 'My message'"))
    }

    /// Issue 40, point 7: a command on the file gym made is not kept as it is.
    @Test func shOnGymsIpaIsListed() throws {
        let lane = try ActionCase("gym(scheme: 'App')\nsh('cd .. && rm App.ipa')")
        #expect(lane.kinds == ["xcode.archive", "xcode.export"])
        #expect(lane.listed == [
            "sh('cd .. && rm App.ipa'): names a file gym made (.ipa) where gym put it; xcode.export puts its file at ${{ steps.export.outputs.path }} (in build/export) and the dSYMs stay in the archive: write the command with that path in a run step",
        ])
    }
}
