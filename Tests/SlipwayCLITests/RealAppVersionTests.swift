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

    /// A repository holding `name`'s project files, its tags on the first commit, and a HEAD after.
    func replay(_ name: String) throws -> GitFixture {
        let source = Self.fixtures + "/" + name
        let repo = try GitFixture(prefix: "slipway-real-\(name)")
        var files: [String: String] = [".gitignore": "/.slipway/\n"]
        let enumerator = FileManager.default.enumerator(atPath: source)
        while let relative = enumerator?.nextObject() as? String {
            var isDirectory: ObjCBool = false
            guard relative != "tags.txt", FileManager.default.fileExists(atPath: source + "/" + relative, isDirectory: &isDirectory),
                  !isDirectory.boolValue else { continue }
            files[relative] = try String(contentsOfFile: source + "/" + relative, encoding: .utf8)
        }
        let tagged = try repo.commit("The project as released", files: files)
        let tags = try String(contentsOfFile: source + "/tags.txt", encoding: .utf8).split(separator: "\n")
        // Lightweight tags, written as git packs them (one file instead of a process per tag).
        let packed = "# pack-refs with: peeled fully-peeled sorted \n" + tags.sorted().map { "\(tagged) refs/tags/\($0)\n" }.joined()
        try Data(packed.utf8).write(to: URL(fileURLWithPath: repo.path + "/.git/packed-refs"))
        try repo.commit("Fix the player (#2321)", files: ["NOTES": "after the tags\n"])
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
}
