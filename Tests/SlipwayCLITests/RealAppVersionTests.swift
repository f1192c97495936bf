import Foundation
import Testing
import TestSupport
import TestThreads

/// Issue 39 on real apps: the project files (pbxproj, xcconfigs, Info.plists) and the tag names
/// of Pocket Casts and Simplenote at the commits in `Fixtures/versions/MANIFEST.md`, replayed
/// into a repository (every tag on one commit before HEAD: both apps' release tags are in HEAD's
/// history). The expected values are what a person reading the project and the tags gives
/// (docs/versions-real-apps.md).
@Suite(.dedicatedThreads) struct RealAppVersionTests {
    static let fixtures = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("Fixtures/versions").path

    func slipway(_ arguments: [String], in directory: String) throws -> CommandResult {
        try CommandResult.run(Binaries.slipway, arguments, in: directory, environment: ["NO_COLOR": "1"])
    }

    /// `name`'s project files, as copied (tag lists aside).
    func files(of name: String) throws -> [String: String] {
        let source = Self.fixtures + "/" + name
        var files: [String: String] = [".gitignore": "/.slipway/\n"]
        let enumerator = FileManager.default.enumerator(atPath: source)
        while let relative = enumerator?.nextObject() as? String {
            var isDirectory: ObjCBool = false
            guard !relative.hasPrefix("tags"), FileManager.default.fileExists(atPath: source + "/" + relative, isDirectory: &isDirectory),
                  !isDirectory.boolValue else { continue }
            files[relative] = try String(contentsOfFile: source + "/" + relative, encoding: .utf8)
        }
        return files
    }

    /// The tag names of `name` listed in `file` (one a line).
    func tags(of name: String, in file: String = "tags.txt") throws -> [String] {
        try String(contentsOfFile: Self.fixtures + "/" + name + "/" + file, encoding: .utf8).split(separator: "\n").map(String.init)
    }

    /// Writes lightweight tags as git packs them (one file instead of a process per tag).
    func pack(_ tags: [(name: String, commit: String)], in repo: GitFixture) throws {
        let packed = "# pack-refs with: peeled fully-peeled sorted \n" + tags.sorted { $0.name < $1.name }.map { "\($0.commit) refs/tags/\($0.name)\n" }.joined()
        try Data(packed.utf8).write(to: URL(fileURLWithPath: repo.path + "/.git/packed-refs"))
    }

    /// A repository holding `name`'s project files, its tags on the first commit, and a HEAD
    /// after (`after`: that commit's subject; nil: HEAD is the tagged commit).
    func replay(_ name: String, after: String? = "Fix the player (#2321)") throws -> GitFixture {
        let repo = try GitFixture(prefix: "slipway-real-\(name)")
        let tagged = try repo.commit("The project as released", files: files(of: name))
        try pack(try tags(of: name).map { ($0, tagged) }, in: repo)
        if let after { try repo.commit(after, files: ["NOTES": "after the tags\n"]) }
        return repo
    }

    @Test func pocketCasts() throws {
        let repo = try replay("pocket-casts")
        let version = try slipway(["version"], in: repo.path)
        #expect(version.status == 0, "\(version.standardError)")
        #expect(version.standardOutput == "7.75\n")
        #expect(version.standardError.contains("note: the project 'podcasts.xcodeproj' holds version 7.75, build 7.75.0.3 "
            + "(config/Version.xcconfig:2 VERSION_SHORT); the latest release tag is '7.74.1'"), "\(version.standardError)")
        #expect(version.standardError.contains("18 tags such as '7.74.1' are versions; 52 tags such as '7.74' are versions of two parts "
            + "(7.74 is ordered as 7.74.0); 200 tags such as '7.75.0.3' are builds, not releases"), "\(version.standardError)")
        #expect(try slipway(["version", "--from-tags"], in: repo.path).standardOutput == "7.74.1\n")
        let changelog = try slipway(["changelog", "--release-version", "7.75"], in: repo.path)
        #expect(changelog.standardOutput.hasPrefix("## [7.75] - "), "\(changelog.standardOutput)")
        #expect(changelog.standardOutput.contains("Fix the player (#2321)"))
        try repo.commit("chore: lanes", files: [
            "lanes/patch.yml": "steps:\n  - version.bump: { xcodeproj: podcasts.xcodeproj, strategy: patch }\n",
            "lanes/auto.yml": "steps:\n  - version.bump: { xcodeproj: podcasts.xcodeproj }\n",
        ])
        let patch = try slipway(["run", "patch", "--dry-run"], in: repo.path)
        #expect(patch.standardOutput.contains("would write: config/Version.xcconfig:2 VERSION_SHORT 7.75 -> 7.75.1 (for podcasts/podcasts-Info.plist "
            + "CFBundleShortVersionString = $(MARKETING_VERSION))"), "\(patch.standardOutput)")
        let auto = try slipway(["run", "auto", "--dry-run"], in: repo.path)
        #expect(auto.standardOutput.contains("the project's version 7.75 (config/Version.xcconfig:2 VERSION_SHORT) is above the latest release "
            + "tag '7.74.1', so it is the version to release"), "\(auto.standardOutput)")
    }

    @Test func simplenote() throws {
        let repo = try replay("simplenote")
        // Linux reads the include's exact name: refused, naming the spelling macOS finds.
        let linux = try slipway(["version", "--platform", "linux"], in: repo.path)
        #expect(linux.status != 0)
        #expect(linux.standardError.contains("'config/Simplenote.debug.xcconfig:1': #include \"Version.public.xcconfig\" names "
            + "'config/Version.public.xcconfig', which does not exist ('config/Version.Public.xcconfig' differs only in case"), "\(linux.standardError)")
        let mac = try slipway(["version", "--platform", "macos"], in: repo.path)
        #expect(mac.status == 0, "\(mac.standardError)")
        #expect(mac.standardOutput == "4.54\n")
        #expect(mac.standardError.contains("holds version 4.54, build 4.54.0.1 (config/Version.Public.xcconfig:2 VERSION_SHORT); the latest "
            + "release tag is '4.53'"), "\(mac.standardError)")
        // Its Info.plists say ${VERSION_SHORT}: the targets' MARKETING_VERSION = 1.0 is not what ships.
        #expect(mac.standardError.contains("is what their Info.plists say"), "\(mac.standardError)")
        #expect(!mac.standardOutput.contains("1.0"))
    }

    /// ivpn/ios-app's git-flow: the project files on a commit that develop (HEAD) and main both
    /// have; the tags reachable from develop (up to 2.6.3) on it; the others (2.7.0…2.13.1) on
    /// main's "Merge branch 'develop'", which develop never merges back; after it on develop, a
    /// pull request (#487) merged with a merge commit, as in the repository.
    func replayGitFlow() throws -> GitFixture {
        let repo = try GitFixture(prefix: "slipway-real-ivpn")
        var files = try files(of: "ivpn")
        // As in the repository: each developer makes these from the templates; git ignores them.
        files[".gitignore", default: ""] += "release.xcconfig\nstaging.xcconfig\n"
        let shared = try repo.commit("The project as released", files: files)
        try repo.git("checkout", "--quiet", "-b", "main-releases")
        let released = try repo.commit("Merge branch 'develop'", files: ["CHANGELOG.md": "## 2.13.1\n"])
        try repo.git("checkout", "--quiet", "-b", "develop", shared)
        try repo.git("checkout", "--quiet", "-b", "fix/ci-hardening")
        try repo.commit("ci: update github actions", files: [".github/workflows/ci.yml": "on: push\n"])
        try repo.git("checkout", "--quiet", "develop")
        try repo.git("merge", "--quiet", "--no-ff", "-m", "Merge pull request #487 from ivpn/fix/ci-hardening",
                     "-m", "Update github actions", "fix/ci-hardening")
        let offHead = try tags(of: "ivpn", in: "tags-off-head.txt")
        try pack(try tags(of: "ivpn").map { ($0, offHead.contains($0) ? released : shared) }, in: repo)
        return repo
    }

    @Test func ivpnGitFlowWithTargetsThatDisagree() throws {
        let repo = try replayGitFlow()
        // Without the base configurations made from their templates the version cannot be read.
        let bare = try slipway(["version"], in: repo.path)
        #expect(bare.status != 0)
        #expect(bare.standardError.contains("its base configuration 'IVPNClient/Config/release.xcconfig' does not exist; create it, or fix the "
            + "configuration's base file in Xcode"), "\(bare.standardError)")
        for name in ["release", "staging"] {
            try repo.write("IVPNClient/Config/\(name).xcconfig",
                           try String(contentsOfFile: repo.path + "/IVPNClient/Config/\(name).template.xcconfig", encoding: .utf8))
        }
        let version = try slipway(["version"], in: repo.path)
        #expect(version.status == 0, "\(version.standardError)")
        // The app's version, not the tunnels' 2.7.0 nor the widget's 1.0.
        #expect(version.standardOutput == "2.13.1\n")
        #expect(version.standardError.contains("note: the project 'IVPNClient.xcodeproj' holds version 2.13.1, build 3 "
            + "(IVPNClient.xcodeproj/project.pbxproj:3367 MARKETING_VERSION, IVPNClient.xcodeproj/project.pbxproj:2878 MARKETING_VERSION, "
            + "IVPNClient.xcodeproj/project.pbxproj:3406 MARKETING_VERSION); the latest release tag is '2.6.3'"), "\(version.standardError)")
        #expect(version.standardError.contains("warning: tag '2.13.1' is a higher version than '2.6.3', the latest release tag reachable "
            + "from HEAD, but it is not in HEAD's history"), "\(version.standardError)")
        #expect(version.standardError.contains("warning: in 'IVPNClient.xcodeproj', embedded targets do not hold the version of 'IVPNClient', "
            + "2.13.1: "), "\(version.standardError)")
        // Each configuration in the order of the target's configuration list.
        for target in ["'openvpn-tunnel-provider' 2.7.0 (IVPNClient.xcodeproj/project.pbxproj:3156 MARKETING_VERSION, "
                       + "IVPNClient.xcodeproj/project.pbxproj:2961 MARKETING_VERSION, IVPNClient.xcodeproj/project.pbxproj:3208 MARKETING_VERSION)",
                       "'wireguard-tunnel-provider' 2.7.0 (IVPNClient.xcodeproj/project.pbxproj:2650 MARKETING_VERSION, "
                       + "IVPNClient.xcodeproj/project.pbxproj:3000 MARKETING_VERSION, IVPNClient.xcodeproj/project.pbxproj:2690 MARKETING_VERSION)",
                       "'IVPNWidgetExtension' 1.0 (IVPNClient.xcodeproj/project.pbxproj:3035 MARKETING_VERSION, "
                       + "IVPNClient.xcodeproj/project.pbxproj:3070 MARKETING_VERSION, IVPNClient.xcodeproj/project.pbxproj:3104 MARKETING_VERSION)"] {
            #expect(version.standardError.contains(target), "\(version.standardError)")
        }
        #expect(version.standardError.contains("App Store Connect accepts the upload but warns for each (ITMS-90473, "
            + "CFBundleShortVersionString Mismatch"), "\(version.standardError)")
        #expect(try slipway(["version", "--from-tags"], in: repo.path).standardOutput == "2.6.3\n")

        // The changelog: from 2.6.3 with a warning naming 2.13.1; since 2.13.1, the one pull request
        // (#487, "ci: update github actions"): nothing users see.
        let fromReachable = try slipway(["changelog", "--release-version", "2.13.2"], in: repo.path)
        #expect(fromReachable.standardError.contains("give it with --since 2.13.1"), "\(fromReachable.standardError)")
        let since = try slipway(["changelog", "--since", "2.13.1", "--release-version", "2.13.2"], in: repo.path)
        #expect(since.status == 0, "\(since.standardError)")
        #expect(since.standardOutput.hasPrefix("## [2.13.2] - "), "\(since.standardOutput)")
        #expect(since.standardOutput.hasSuffix("\n\nNo user-facing changes.\n"), "\(since.standardOutput)")
        #expect(since.standardError.contains("(detected: 1 of 1 commit since 2.13.1 is a Conventional Commit)"), "\(since.standardError)")
        let pullRequests = try slipway(["changelog", "--since", "2.13.1", "--release-version", "2.13.2", "--style", "pull-requests"], in: repo.path)
        #expect(pullRequests.standardOutput.contains("- Update github actions (#487)") && !pullRequests.standardOutput.contains("develop"),
                "\(pullRequests.standardOutput)")

        // version.bump: the targets disagree, so a bump needs them named; with them, 2.13.1 -> 2.13.2.
        try repo.commit("chore: lanes", files: [
            "lanes/patch.yml": "steps:\n  - version.bump: { xcodeproj: IVPNClient.xcodeproj, strategy: patch }\n",
            "lanes/app.yml": "steps:\n  - version.bump: { xcodeproj: IVPNClient.xcodeproj, strategy: patch, targets: [IVPNClient] }\n",
        ])
        let before = try Snapshot.of(repo.path).filter { !$0.key.hasPrefix(".git") && !$0.key.hasPrefix(".slipway") }
        let refused = try slipway(["run", "patch", "--dry-run"], in: repo.path)
        #expect(refused.status != 0)
        #expect(refused.standardOutput.contains("'patch' bumps the project's version, but the files hold several ("), "\(refused.standardOutput)")
        #expect(refused.standardOutput.contains("IVPNClient.xcodeproj/project.pbxproj:3035 = 1.0 ('IVPNWidgetExtension')"), "\(refused.standardOutput)")
        #expect(refused.standardOutput.contains("choose the targets to bump with the step's option 'targets' (targets: [IVPNClient])"),
                "\(refused.standardOutput)")
        let app = try slipway(["run", "app", "--dry-run"], in: repo.path)
        #expect(app.status == 0, "\(app.standardOutput)\(app.standardError)")
        for line in [2878, 3367, 3406] {
            #expect(app.standardOutput.contains("would write: IVPNClient.xcodeproj/project.pbxproj:\(line) MARKETING_VERSION 2.13.1 -> 2.13.2\n"),
                    "\(app.standardOutput)")
        }
        #expect(try Snapshot.of(repo.path).filter { !$0.key.hasPrefix(".git") && !$0.key.hasPrefix(".slipway") } == before)
    }

    /// WireGuard/wireguard-apple: the version in `Version.xcconfig` (`VERSION_NAME`), read through
    /// the Info.plists' `$(VERSION_NAME)`; every tag is a version, a dash and a build (`1.0.16-27`),
    /// and HEAD is the latest release's commit. `Config.xcconfig` includes `Developer.xcconfig`,
    /// which each developer makes from its template (git ignores it).
    @Test func wireGuard() throws {
        let repo = try replay("wireguard", after: nil)
        let missing = try slipway(["version"], in: repo.path)
        #expect(missing.status != 0)
        #expect(missing.standardError.contains("'Sources/WireGuardApp/Config/Config.xcconfig:2': #include \"Developer.xcconfig\" names "
            + "'Sources/WireGuardApp/Config/Developer.xcconfig', which does not exist; fix the path, or write #include? for a file that may be absent"),
                "\(missing.standardError)")
        try repo.write("Sources/WireGuardApp/Config/Developer.xcconfig",
                       try String(contentsOfFile: repo.path + "/Sources/WireGuardApp/Config/Developer.xcconfig.template", encoding: .utf8))
        let version = try slipway(["version"], in: repo.path)
        #expect(version.status == 0, "\(version.standardError)")
        #expect(version.standardOutput == "1.0.16\n")
        #expect(version.standardError.contains("note: the project 'WireGuard.xcodeproj' holds version 1.0.16, build 27 "
            + "(Sources/WireGuardApp/Config/Version.xcconfig:1 VERSION_NAME); the latest release tag is '1.0.16-27'"), "\(version.standardError)")
        #expect(version.standardError.contains("37 tags such as '1.0.16-27' are releases: a version, a dash and a number, read as version "
            + "1.0.16 build 27"), "\(version.standardError)")
        #expect(version.standardError.contains("the project's version 1.0.16 is the latest release's: the next release needs a bump"),
                "\(version.standardError)")
        #expect(!version.standardError.contains("embedded targets"), "\(version.standardError)")
        // Nothing since the release: no changelog to write.
        let changelog = try slipway(["changelog"], in: repo.path)
        #expect(changelog.status == 4, "\(changelog.standardOutput)\(changelog.standardError)")
        try repo.commit("chore: lanes", files: [
            "lanes/patch.yml": "steps:\n  - version.bump: { xcodeproj: WireGuard.xcodeproj, strategy: patch }\n",
        ])
        let patch = try slipway(["run", "patch", "--dry-run"], in: repo.path)
        #expect(patch.status == 0, "\(patch.standardOutput)\(patch.standardError)")
        #expect(patch.standardOutput.contains("would write: Sources/WireGuardApp/Config/Version.xcconfig:1 VERSION_NAME 1.0.16 -> 1.0.17 (for "),
                "\(patch.standardOutput)")
    }
}
