import Crypto
import Foundation
import Testing
import TestSupport
import TestThreads

/// Issue 39: versions as app teams keep them. The project's version is the truth for an app,
/// tags are read as apps write them (`20.7`, `20.8.0.0`, `7.1.3-7206`), a release tag off HEAD's
/// branch is named, and a bump never goes backwards. Through the built binary.
@Suite(.dedicatedThreads) struct AppVersionCLITests {
    func slipway(_ arguments: [String], in directory: String) throws -> CommandResult {
        try CommandResult.run(Binaries.slipway, arguments, in: directory, environment: ["NO_COLOR": "1"])
    }

    /// Everything but git's and Slipway's own state, to show that a refusal changed nothing.
    func checkout(_ repo: GitFixture) throws -> [String: String] {
        try Snapshot.of(repo.path).filter { !$0.key.hasPrefix(".git") && !$0.key.hasPrefix(".slipway") }
    }

    // MARK: Tags as apps write them

    @Test func twoPartReleaseTagsAndFourPartBuildTags() throws {
        let repo = try GitFixture(prefix: "slipway-app-tags")
        for tag in ["19.7.1", "20.6", "20.7", "20.8.0.0"] {
            try repo.commit("Release \(tag) (#\(tag.count))", files: ["f": tag])
            try repo.git("tag", tag)
        }
        try repo.commit("Fix the reader (#12)", files: ["f": "after"])
        let current = try slipway(["version"], in: repo.path)
        #expect(current.status == 0, "\(current.standardError)")
        #expect(current.standardOutput == "20.7\n")
        #expect(current.standardError.contains("note: how the tags were read: '19.7.1' is a version; 2 tags such as '20.7' are versions of two "
            + "parts (20.7 is ordered as 20.7.0); '20.8.0.0' is a build, not a release (the history has release tags without a build): "
            + "four parts, read as version 20.8.0 build 0."), "\(current.standardError)")
        // A fix after 20.7 is 20.7.1; a release of two parts is written in two parts.
        let next = try slipway(["version", "--next"], in: repo.path)
        #expect(next.standardOutput == "20.7.1\n", "\(next.standardError)")
        let minor = try slipway(["version", "--next", "--strategy", "minor"], in: repo.path)
        #expect(minor.standardOutput == "20.8\n")
        // --json with --next, for a package: the next version and what the tags said, one object.
        let json = try slipway(["version", "--next", "--strategy", "minor", "--json"], in: repo.path)
        #expect(json.standardOutput.hasPrefix("{") && json.standardOutput.contains("\"version\":\"20.8\"")
                && json.standardOutput.contains("\"latestReleaseTag\":\"20.7\"") && json.standardOutput.contains("\"source\":\"tags\""),
                "\(json.standardOutput)")
        #expect(json.standardError == "")
        // The changelog counts from 20.7, not from the year-old hotfix; --release-version takes X.Y.
        let changelog = try slipway(["changelog", "--release-version", "20.8", "--format", "text", "--json"], in: repo.path)
        #expect(changelog.status == 0, "\(changelog.standardError)")
        #expect(changelog.standardOutput.contains("\"version\" : \"20.8\""), "\(changelog.standardOutput)")
        #expect(changelog.standardOutput.contains("Release 20.8.0.0") && changelog.standardOutput.contains("Fix the reader"))
        #expect(!changelog.standardOutput.contains("Release 20.7 "))
        let since = try slipway(["changelog", "--since", "20.6", "--release-version", "20.8", "--json"], in: repo.path)
        #expect(since.status == 0, "\(since.standardError)")
        #expect(since.standardOutput.contains("Release 20.7"))
    }

    @Test func sinceNamesTheTagItCannotUseAndWhy() throws {
        let repo = try GitFixture(prefix: "slipway-app-since")
        try repo.commit("first", files: ["f": "a"])
        try repo.git("tag", "0.1.0")
        try repo.git("tag", "release-candidate")
        try repo.commit("second", files: ["f": "b"])
        let missing = try slipway(["changelog", "--since", "20.7"], in: repo.path)
        #expect(missing.status != 0)
        #expect(missing.standardError.contains("--since names '20.7', which is not a tag or commit of this repository; list the tags with "
            + "'git tag --list' and give one of them"), "\(missing.standardError)")
        let word = try slipway(["changelog", "--since", "release-candidate"], in: repo.path)
        #expect(word.status != 0)
        #expect(word.standardError.contains("--since names 'release-candidate', which is not a version once its prefix 'v' is removed"),
                "\(word.standardError)")
        #expect(!word.standardError.contains("are not semantic versions"))
    }

    @Test func aVersionDashNumberTagIsAVersionAndABuild() throws {
        let repo = try GitFixture(prefix: "slipway-app-build-tags")
        for tag in ["iOS-7.1.2-7100", "iOS-7.1.3-7206"] {
            try repo.commit("fix: before \(tag)", files: ["f": tag])
            try repo.git("tag", tag)
        }
        try repo.commit("fix: after", files: ["f": "after"])
        let current = try slipway(["version", "--tag-prefix", "iOS-"], in: repo.path)
        #expect(current.standardOutput == "7.1.3\n", "\(current.standardError)")
        #expect(current.standardError.contains("2 tags such as 'iOS-7.1.3-7206' are releases: a version, a dash and a number, read as "
            + "version 7.1.3 build 7206."), "\(current.standardError)")
        #expect(try slipway(["version", "--next", "--tag-prefix", "iOS-"], in: repo.path).standardOutput == "7.1.4\n")
    }

    @Test func aHigherReleaseTagOffHeadsBranchIsNamed() throws {
        let repo = try GitFixture(prefix: "slipway-app-gitflow")
        try repo.commit("feat: start", files: ["f": "a"])
        try repo.git("tag", "v3.1.2")
        try repo.git("branch", "develop")
        for tag in ["v3.3.0", "v3.4.0", "v3.5.0"] {
            try repo.commit("Release \(tag)", files: ["g": tag])
            try repo.git("tag", tag)
        }
        try repo.git("checkout", "-q", "develop")
        try repo.commit("feat: on develop", files: ["f": "b"])
        let current = try slipway(["version"], in: repo.path)
        #expect(current.standardOutput == "3.1.2\n")
        #expect(current.standardError.contains("warning: tag 'v3.5.0' is a higher version than 'v3.1.2', the latest release tag reachable "
            + "from HEAD, but it is not in HEAD's history (a release made on another branch, as git-flow does on master or main). If "
            + "'v3.5.0' is the last release, give it with --since v3.5.0 (since: in the step), or run from the release branch after "
            + "merging it back."), "\(current.standardError)")
        // With the app's project (3.5.2), the project is the truth.
        try repo.commit("chore: project", files: [
            "App.xcodeproj/project.pbxproj": VersionedXcodeProject.pbxproj(targets: [VersionedXcodeProject.Target("App", xcconfig: "Version.xcconfig")]),
            "Version.xcconfig": "MARKETING_VERSION = 3.5.2\nCURRENT_PROJECT_VERSION = 812\n",
        ])
        let app = try slipway(["version"], in: repo.path)
        #expect(app.status == 0, "\(app.standardError)")
        #expect(app.standardOutput == "3.5.2\n")
        #expect(app.standardError.contains("note: the project 'App.xcodeproj' holds version 3.5.2, build 812 (Version.xcconfig:1 "
            + "MARKETING_VERSION); the latest release tag is 'v3.1.2'"), "\(app.standardError)")
        let json = try slipway(["version", "--json"], in: repo.path)
        #expect(json.standardOutput.contains("\"build\":\"812\"") && json.standardOutput.contains("\"source\":\"project\""), "\(json.standardOutput)")
        #expect(try slipway(["version", "--from-tags"], in: repo.path).standardOutput == "3.1.2\n")
    }

    // MARK: Never backwards

    func app(version: String, tag: String, strategy: String, buildNumber: String? = nil,
             extraTargets: [VersionedXcodeProject.Target] = []) throws -> GitFixture {
        let repo = try GitFixture(prefix: "slipway-app-bump")
        let build = buildNumber.map { ", build-number: \"\($0)\"" } ?? ""
        try repo.commit("chore: start", files: [
            ".gitignore": "/.slipway/\n",
            "lanes/bump.yml": "steps:\n  - version.bump: { strategy: \"\(strategy)\", xcodeproj: App.xcodeproj\(build) }\n",
            "App.xcodeproj/project.pbxproj": VersionedXcodeProject.pbxproj(
                targets: [VersionedXcodeProject.Target("App", xcconfig: "Config/Version.xcconfig")] + extraTargets),
            "Config/Version.xcconfig": "MARKETING_VERSION = \(version)\nCURRENT_PROJECT_VERSION = 42\n",
        ])
        try repo.git("tag", tag)
        try repo.commit("fix: a bug", files: ["f": "b"])
        return repo
    }

    @Test func aBumpAppliesToTheProjectsVersion() throws {
        for (strategy, expected) in [("patch", "7.75 -> 7.75.1"), ("minor", "7.75 -> 7.76"), ("major", "7.75 -> 8.0")] {
            let repo = try app(version: "7.75", tag: "7.74.1", strategy: strategy)
            let plan = try slipway(["run", "bump", "--dry-run"], in: repo.path)
            #expect(plan.status == 0, "\(plan.standardOutput)\(plan.standardError)")
            #expect(plan.standardOutput.contains("Config/Version.xcconfig:1 MARKETING_VERSION \(expected)"), "\(strategy): \(plan.standardOutput)")
        }
        // auto: the project's 7.75 is above the latest release 7.74.1, so it is the release.
        let auto = try app(version: "7.75", tag: "7.74.1", strategy: "auto")
        let plan = try slipway(["run", "bump", "--dry-run"], in: auto.path)
        #expect(plan.standardOutput.contains("the project's version 7.75 (Config/Version.xcconfig:1 MARKETING_VERSION) is above the latest "
            + "release tag '7.74.1', so it is the version to release"), "\(plan.standardOutput)")
        #expect(plan.standardOutput.contains("unchanged: Config/Version.xcconfig:1 MARKETING_VERSION 7.75 -> 7.75"), "\(plan.standardOutput)")
    }

    @Test func aBackwardsVersionIsRefusedBeforeAnythingIsWritten() throws {
        let repo = try app(version: "7.75", tag: "7.74.1", strategy: "7.74.2")
        let before = try checkout(repo)
        for arguments in [["run", "bump", "--dry-run"], ["run", "bump"]] {
            let result = try slipway(arguments, in: repo.path)
            #expect(result.status != 0)
            #expect(result.standardOutput.contains("version.bump would write 7.74.2 where the project holds 7.75 (Config/Version.xcconfig:1 "
                + "MARKETING_VERSION): that is not above it, and a release never goes backwards"), "\(result.standardOutput)")
        }
        #expect(try checkout(repo) == before)
        // Below the latest release tag while the project is behind it.
        let behind = try app(version: "19.0", tag: "20.7", strategy: "minor")
        let result = try slipway(["run", "bump"], in: behind.path)
        #expect(result.status != 0)
        #expect(result.standardOutput.contains("the next version would be 19.1, which is not above the latest release tag '20.7' (20.7), while "
            + "the project holds 19.0 (Config/Version.xcconfig:1 MARKETING_VERSION): a release never goes backwards"), "\(result.standardOutput)")
    }

    @Test func aVersionFileBehindTheTagsIsNotOverwrittenWithALowerVersion() throws {
        let repo = try GitFixture(prefix: "slipway-app-version-file")
        try repo.commit("chore: start", files: [
            ".gitignore": "/.slipway/\n", "VERSION": "2.0.0\n",
            "lanes/bump.yml": "steps:\n  - version.bump: { strategy: patch, version-file: VERSION }\n",
        ])
        try repo.git("tag", "v1.4.0")
        try repo.commit("fix: a bug", files: ["f": "b"])
        let before = try checkout(repo)
        let result = try slipway(["run", "bump"], in: repo.path)
        #expect(result.status != 0)
        #expect(result.standardOutput.contains("version.bump would write 1.4.1 where the project holds 2.0.0 (VERSION)"), "\(result.standardOutput)")
        #expect(try checkout(repo) == before)
    }

    /// The build number only goes up: with a key, it is checked against App Store Connect's
    /// latest (the contract fake, seeded with build 42) before anything is written.
    @Test func aBuildNumberNotAboveAppStoreConnectsLatestIsRefused() throws {
        let key = P256.Signing.PrivateKey()
        let fake = try AppStoreConnectContractFake(keys: [.init(issuerID: Self.issuer, keyID: "ABC123DEFG",
                                                                publicKeyPEM: key.publicKey.pemRepresentation)],
                                                   onViolations: recordContractViolations)
        let appID = try fake.seedApp(bundleID: "com.example.app", name: "Example")
        _ = try fake.seedBuild(appID: appID, version: "7.74.1", buildNumber: "42")
        func lane(_ number: String) -> String {
            """
            secrets: [ASC_KEY]
            steps:
              - version.bump:
                  strategy: keep
                  xcodeproj: App.xcodeproj
                  build-number: "\(number)"
                  bundle-id: com.example.app
                  issuer-id: \(Self.issuer)
                  key-id: ABC123DEFG
                  key: "${{ secrets.ASC_KEY }}"
                  api-url: \(fake.url)
            """
        }
        let repo = try app(version: "7.75", tag: "7.74.1", strategy: "keep")
        try repo.commit("chore: lanes", files: ["lanes/low.yml": lane("41"), "lanes/high.yml": lane("43")])
        let before = try checkout(repo)
        let environment = ["NO_COLOR": "1", "ASC_KEY": key.pemRepresentation]
        let plan = try CommandResult.run(Binaries.slipway, ["run", "low", "--dry-run"], in: repo.path, environment: environment)
        #expect(plan.standardOutput.contains("would network: check that build number 41 is above App Store Connect's latest for com.example.app"),
                "\(plan.standardOutput)\(plan.standardError)")
        let low = try CommandResult.run(Binaries.slipway, ["run", "low"], in: repo.path, environment: environment)
        #expect(low.status != 0)
        #expect(low.standardOutput.contains("version.bump would write build number 41, but App Store Connect's latest for com.example.app is 42: "
            + "a build number only goes up, and App Store Connect refuses this one only after the upload. Give a higher one (build-number: 43)"),
                "\(low.standardOutput)")
        #expect(try checkout(repo) == before)
        let high = try CommandResult.run(Binaries.slipway, ["run", "high"], in: repo.path, environment: environment)
        #expect(high.status == 0, "\(high.standardOutput)\(high.standardError)")
        #expect(try String(contentsOfFile: repo.path + "/Config/Version.xcconfig", encoding: .utf8).contains("CURRENT_PROJECT_VERSION = 43"))
        #expect(try fake.state().violations == [])
    }

    /// `build-number: increment` (what init --from-fastlane writes for increment_build_number
    /// without a number): the project's build number plus one, as agvtool does.
    @Test func incrementIsTheProjectsBuildNumberPlusOne() throws {
        let repo = try app(version: "7.75", tag: "7.74.1", strategy: "keep", buildNumber: "increment")
        let plan = try slipway(["run", "bump", "--dry-run"], in: repo.path)
        #expect(plan.status == 0, "\(plan.standardOutput)\(plan.standardError)")
        #expect(plan.standardOutput.contains("Config/Version.xcconfig:2 CURRENT_PROJECT_VERSION 42 -> 43"), "\(plan.standardOutput)")
    }

    static let issuer = "69a6de7e-2f4c-47e3-e053-5b8c7c11a4d1"

    // MARK: Targets

    @Test func theDefaultTargetsAreTheAppAndWhatItEmbeds() throws {
        let repo = try app(version: "2.0", tag: "2.0", strategy: "minor", extraTargets: [
            VersionedXcodeProject.Target("Widget", xcconfig: "Config/Version.xcconfig", productType: "com.apple.product-type.app-extension"),
            VersionedXcodeProject.Target("AppTests", productType: "com.apple.product-type.bundle.unit-test"),
            VersionedXcodeProject.Target("AppUITests", settings: [("MARKETING_VERSION", "1.0")], productType: "com.apple.product-type.bundle.ui-testing"),
        ])
        let plan = try slipway(["run", "bump", "--dry-run"], in: repo.path)
        #expect(plan.status == 0, "\(plan.standardOutput)\(plan.standardError)")
        #expect(plan.standardOutput.contains("Config/Version.xcconfig:1 MARKETING_VERSION 2.0 -> 2.1"), "\(plan.standardOutput)")
        #expect(plan.standardOutput.contains("note: 'App.xcodeproj': the version is written for 'App', 'Widget'; left out: 'AppTests' (unit "
            + "tests), 'AppUITests' (UI tests). List targets in the step's 'targets' option to choose otherwise."), "\(plan.standardOutput)")
        #expect(!plan.standardOutput.contains("1.0 ->"))
    }

    // MARK: Xcode's own forms

    @Test func xcodesOwnFormsAreReadAsXcodeReadsThem() throws {
        let repo = try GitFixture(prefix: "slipway-app-forms")
        try repo.commit("chore: start", files: [
            ".gitignore": "/.slipway/\n",
            "lanes/keep.yml": "steps:\n  - version.bump: { strategy: keep, xcodeproj: App.xcodeproj, build-number: \"9\" }\n",
            "App.xcodeproj/project.pbxproj": VersionedXcodeProject.pbxproj(targets: [VersionedXcodeProject.Target("App", xcconfig: "Config/App.xcconfig")]),
            "Config/App.xcconfig": "#include? \"../../SharedXcodeSettings/Developer.xcconfig\"\n#include \"Version.public.xcconfig\"\n"
                + "MARKETING_VERSION = $VERSION_SHORT\nCURRENT_PROJECT_VERSION = $VERSION_LONG\n",
            "Config/Version.Public.xcconfig": "VERSION_SHORT = 20.8\nVERSION_LONG = 8\n",
        ])
        let before = try checkout(repo)
        // On Linux the include's case matters: the message says the other spelling exists.
        let linux = try slipway(["run", "keep", "--dry-run", "--platform", "linux"], in: repo.path)
        #expect(linux.status != 0)
        #expect(linux.standardOutput.contains("names 'Config/Version.public.xcconfig', which does not exist ('Config/Version.Public.xcconfig' "
            + "differs only in case: Xcode finds it on macOS's case-insensitive disk; plan with --platform macos to read it so, or write "
            + "the exact name for Linux)"), "\(linux.standardOutput)")
        let mac = try slipway(["run", "keep", "--dry-run", "--platform", "macos"], in: repo.path)
        #expect(mac.status == 0, "\(mac.standardOutput)\(mac.standardError)")
        #expect(mac.standardOutput.contains("version 20.8 kept (strategy keep)"), "\(mac.standardOutput)")
        #expect(mac.standardOutput.contains("Config/Version.Public.xcconfig:2 VERSION_LONG 8 -> 9 (for CURRENT_PROJECT_VERSION)"), "\(mac.standardOutput)")
        #expect(mac.standardOutput.contains("#include? \"../../SharedXcodeSettings/Developer.xcconfig\" is outside the project folder"),
                "\(mac.standardOutput)")
        #expect(mac.standardOutput.contains("was found as 'Config/Version.Public.xcconfig' by ignoring case, as Xcode does on macOS's "
            + "case-insensitive disk; on Linux (and a case-sensitive disk) the name must match exactly"), "\(mac.standardOutput)")
        #expect(try checkout(repo) == before)
    }
}
