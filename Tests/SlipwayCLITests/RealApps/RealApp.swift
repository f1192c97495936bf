import Foundation
import TestSupport

/// One of the three open-source iOS apps of issue 25's acceptance: its release lane as fastlane
/// runs it, translated by `init --from-fastlane`, completed by hand, and run end to end on Linux.
///
/// Everything is in `Fixtures/apps/<name>/`: the fastlane files, `.xcconfig`s, Info.plists and
/// schemes, written for these tests in the shape of each app's own files (nothing is copied from
/// those repositories), and the hand-completed lane (`slipway/release.yml`). The Xcode project is
/// home-assistant/iOS's real pbxproj from the shared corpus (read at test time, never committed;
/// the Pods `.xcconfig`s it names are made here, as after `pod install`); the two apps whose
/// project is not in the corpus have one made with `VersionedXcodeProject` from the real
/// projects' targets, product types, bundle ids and version settings.
struct RealApp: Sendable {
    /// The fixture folder's name and the app's label in messages.
    var name: String
    /// Every file of the repository, relative to its root.
    var files: [String: String]
    /// The `.xcodeproj` folder.
    var project: String
    /// The shared scheme the release lane archives.
    var scheme: String
    /// The fastlane lane of the release, as `init --from-fastlane` names the Slipway lane it writes.
    var fastlaneLane: String
    /// The app's and its extensions' bundle ids: the match storage holds a profile for each.
    var bundleIDs: [String]
    /// The version and build number the project has before the release.
    var version: (marketing: String, build: String)
    /// Environment variables the app's lane reads (as its CI would set them), secrets excluded.
    var environment: [String: String]
    /// What `init --from-fastlane` must print (lines of its summary).
    var expectedInit: [String]
    /// The `.xcconfig` files the xcodebuild STAND-IN reads the version from (colon-separated,
    /// `#include`s followed), as Xcode would for the app's Release configuration.
    var standInXcconfig = ""
    /// Lane inputs the release needs besides the App Store Connect URL.
    var inputs: [String] = []
    /// Where the release lane's xcode.export puts the .ipa (the stand-in names it after the scheme).
    var ipa = ""
    /// The version and build number the released .ipa must carry.
    var released: (marketing: String, build: String) = ("", "")

    static let fixtures = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().path
        + "/Fixtures/apps"

    /// The files under `Fixtures/apps/<name>`, by path relative to that folder.
    static func fixtureFiles(_ name: String) throws -> [String: String] {
        let root = fixtures + "/" + name
        var files: [String: String] = [:]
        guard let walker = FileManager.default.enumerator(atPath: root) else { return files }
        while let relative = walker.nextObject() as? String {
            var isFolder: ObjCBool = false
            guard FileManager.default.fileExists(atPath: root + "/" + relative, isDirectory: &isFolder), !isFolder.boolValue else { continue }
            files[relative] = try String(contentsOfFile: root + "/" + relative, encoding: .utf8)
        }
        return files
    }

    /// The lane completed by hand (`Fixtures/apps/<name>/slipway/release.yml`), which the test
    /// puts in `lanes/release.yml` after `init` wrote its own translation.
    static func handCompletedLane(_ name: String) throws -> String {
        try String(contentsOfFile: fixtures + "/" + name + "/slipway/release.yml", encoding: .utf8)
    }
}

extension RealApp {
    /// home-assistant/iOS in January 2021: a CocoaPods project (the corpus' pbxproj), the app and
    /// six extensions, the version in `Configuration/Version.xcconfig` reached through the Pods
    /// and project xcconfigs, bundle ids from `BUNDLE_ID_PREFIX` in an xcconfig, fastlane files split
    /// into `fastlane/lanes/*.rb`. Nil when the corpus is not here.
    static func homeAssistant() throws -> RealApp? {
        guard let corpus = Corpus.pbxprojDirectory else { return nil }
        let pbxproj = try String(contentsOfFile: corpus + "/files/home-assistant__iOS__HomeAssistant-2021-01-objv53.pbxproj", encoding: .utf8)
        var files = try fixtureFiles("home-assistant").filter { !$0.key.hasPrefix("slipway/") }
        files["HomeAssistant.xcodeproj/project.pbxproj"] = pbxproj
        // The xcconfigs `pod install` writes: present, as after 'pod install'.
        for match in pbxproj.matches(of: /path = "(Pods\/Target Support Files\/[^"]+\.xcconfig)"/) {
            files[String(match.1)] = "OTHER_LDFLAGS = $(inherited) -ObjC\n"
        }
        return RealApp(
            name: "home-assistant", files: files, project: "HomeAssistant.xcodeproj", scheme: "App-Release", fastlaneLane: "build",
            bundleIDs: ["io.robbie.HomeAssistant"] + ["Intents", "NotificationContent", "NotificationService", "Share", "Today", "Widgets"]
                .map { "io.robbie.HomeAssistant.extensions." + $0 },
            version: ("2021.1", "2021.1.3"),
            environment: ["HOMEASSISTANT_TEAM_ID": "QMQYCKL255", "GITHUB_RUN_NUMBER": "2021.1.4"],
            expectedInit: ["lane 'ios build' → lanes/build.yml, 3 steps from 3 actions", "1 lane written, 5 items not translated."],
            standInXcconfig: "Configuration/HomeAssistant.release.xcconfig", ipa: "build/ios/App-Release.ipa",
            released: ("2021.1", "2021.1.4"))
    }

    /// duckduckgo/iOS: the browser and five extensions, `MARKETING_VERSION` in
    /// `Configuration/Version.xcconfig` and `CURRENT_PROJECT_VERSION` in
    /// `Configuration/BuildNumber.xcconfig`, both included by the targets' base xcconfig; match in
    /// git with six app identifiers; the release lane builds "iOS Browser" and uploads to TestFlight.
    static func duckDuckGo() throws -> RealApp {
        let files = try fixtureFiles("duckduckgo").filter { !$0.key.hasPrefix("slipway/") }
        let prefix = "com.duckduckgo.mobile.ios"
        return RealApp(
            name: "duckduckgo", files: files, project: "DuckDuckGo.xcodeproj", scheme: "iOS Browser", fastlaneLane: "release-testflight",
            bundleIDs: ["", ".ShareExtension", ".OpenAction2", ".Widgets", ".NetworkExtension", ".CredentialExtension"].map { prefix + $0 },
            version: ("7.157.0", "5"),
            environment: ["APPLE_API_KEY_ID": "ABC123DEFG"],
            expectedInit: ["lane 'ios release_testflight' → lanes/release-testflight.yml, 5 steps from 3 actions",
                           "2 lanes written, 3 items not translated."],
            standInXcconfig: "Configuration/Configuration.xcconfig", inputs: ["build-number=6"], ipa: "build/export/iOS Browser.ipa",
            released: ("7.157.0", "6"))
    }

    /// owncloud/ios-app: the app and five extensions whose `MARKETING_VERSION` is
    /// `"${APP_SHORT_VERSION}"` and `CURRENT_PROJECT_VERSION` `"$(APP_VERSION)"`, both defined in
    /// the project's own build settings; the `beta` lane bumps the build number, commits, pushes,
    /// builds and uploads, with match's type switched to appstore for that lane.
    static func ownCloud() throws -> RealApp {
        let files = try fixtureFiles("owncloud").filter { !$0.key.hasPrefix("slipway/") }
        let prefix = "com.owncloud.ios-app"
        return RealApp(
            name: "owncloud", files: files, project: "ownCloud.xcodeproj", scheme: "ownCloud", fastlaneLane: "beta",
            bundleIDs: ["", ".ownCloud-File-Provider", ".ownCloud-File-ProviderUI", ".ownCloud-Intents", ".ownCloud-Share-Extension",
                        ".ownCloud-Action-Extension"].map { prefix + $0 },
            version: ("12.7.0", "302"),
            environment: ["OWNCLOUD_APP_IDENTIFIER": prefix, "OWNCLOUD_TEAM_ID": "4AP2STM4H5"],
            expectedInit: ["lane 'ios beta' → lanes/beta.yml, 9 steps from 7 actions", "1 lane written, 0 items not translated."],
            ipa: "build/export/ownCloud.ipa", released: ("12.7.0", "303"))
    }
}
