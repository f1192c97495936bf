import Basics
import Foundation
import Release
import Testing
import TestSupport
import TestThreads

/// Version stamping in real Xcode projects from the shared corpus (skipped, and said so, when
/// the corpus is absent).
@Suite(.dedicatedThreads) struct XcodeprojStampTests {
    func copy(_ name: String, as project: String) throws -> (TemporaryDirectory, String)? {
        guard let corpus = Corpus.pbxprojDirectory else {
            print("note: the pbxproj corpus is absent (../shared/corpus/pbxproj); skipping \(name)")
            return nil
        }
        let folder = try TemporaryDirectory(prefix: "slipway-stamp")
        let path = try folder.write("\(project).xcodeproj/project.pbxproj", try String(contentsOfFile: "\(corpus)/files/\(name).pbxproj", encoding: .utf8))
        return (folder, path)
    }

    @Test func marketingVersionChangesOnlyItsLines() throws {
        guard let (folder, path) = try copy("fastlane__fastlane__VisionExample", as: "VisionExample") else { return }
        let before = try String(contentsOfFile: path, encoding: .utf8)
        let stamper = VersionStamper(fileSystem: LocalFileSystem())
        try stamper.apply(try stamper.edits([.xcodeproj(path: folder.path + "/VisionExample.xcodeproj", targets: nil)], version: "2.5.0", buildNumber: "77"))
        let after = try String(contentsOfFile: path, encoding: .utf8)
        let old = before.split(separator: "\n", omittingEmptySubsequences: false)
        let new = after.split(separator: "\n", omittingEmptySubsequences: false)
        #expect(old.count == new.count)
        let changed = zip(old, new).filter { $0 != $1 }
        #expect(!changed.isEmpty)
        for (was, now) in changed {
            #expect(now.contains("MARKETING_VERSION = 2.5.0;") || now.contains("CURRENT_PROJECT_VERSION = 77;"), "unexpected change: \(was) → \(now)")
        }
    }

    @Test func targetsWithoutTheSettingAreNamed() throws {
        guard let (folder, path) = try copy("nohana__NohanaImagePicker__NohanaImagePicker", as: "NohanaImagePicker") else { return }
        let before = try Data(contentsOf: URL(fileURLWithPath: path))
        do {
            _ = try VersionStamper(fileSystem: LocalFileSystem()).edits([.xcodeproj(path: folder.path + "/NohanaImagePicker.xcodeproj", targets: nil)], version: "1.0.0", buildNumber: nil)
            Issue.record("expected an error")
        } catch {
            // By default the app ('Demo') and its extensions: the test bundles are left out.
            #expect(errorText(error) == "'\(path)': target 'Demo' has no MARKETING_VERSION in any build configuration or .xcconfig file (its own or the project's); add it in Xcode (Build Settings), or list only the targets that have it in the step's 'targets' option")
        }
        #expect(try Data(contentsOf: URL(fileURLWithPath: path)) == before)
    }

    /// home-assistant/iOS (2021): the targets' base configurations are CocoaPods' xcconfigs, the
    /// project's are HomeAssistant.{debug,beta,release}.xcconfig, which include
    /// HomeAssistant.xcconfig, which includes Version.xcconfig: the app and its six extensions get
    /// their version from that one file, written once, and the pbxproj stays as it is.
    @Test func homeAssistantsVersionXcconfigIsWrittenOnce() throws {
        guard let (folder, path) = try copy("home-assistant__iOS__HomeAssistant-2021-01-objv53", as: "HomeAssistant") else { return }
        let pbxproj = try String(contentsOfFile: path, encoding: .utf8)
        for match in pbxproj.matches(of: /path = "(Pods\/Target Support Files\/[^"]+\.xcconfig)"/) {
            _ = try folder.write(String(match.1), "FRAMEWORK_SEARCH_PATHS = $(inherited) \"${PODS_ROOT}/Firebase\"\nOTHER_LDFLAGS = $(inherited) -ObjC\n")
        }
        let version = "// Version of the app\nMARKETING_VERSION = 2021.1\nCURRENT_PROJECT_VERSION = 2021.1.3\n"
        _ = try folder.write("Configuration/Version.xcconfig", version)
        _ = try folder.write("Configuration/HomeAssistant.xcconfig", "#include \"Version.xcconfig\"\nDEVELOPMENT_TEAM = QMQYCKL255\n")
        for name in ["debug", "beta", "release"] {
            _ = try folder.write("Configuration/HomeAssistant.\(name).xcconfig", "#include \"HomeAssistant.xcconfig\"\n")
        }
        let targets = ["App", "Extensions-Share", "Extensions-Widgets", "Extensions-NotificationContent", "Extensions-Intents",
                       "Extensions-Today", "Extensions-NotificationService"]
        let plan = try VersionStamper(fileSystem: LocalFileSystem(), root: folder.path)
            .stamp([.xcodeproj(path: folder.path + "/HomeAssistant.xcodeproj", targets: targets)], version: "2021.2.0", buildNumber: "2021.2.1")
        #expect(plan.changes.map(\.description) == [
            "Configuration/Version.xcconfig:2 MARKETING_VERSION 2021.1 -> 2021.2.0",
            "Configuration/Version.xcconfig:3 CURRENT_PROJECT_VERSION 2021.1.3 -> 2021.2.1",
        ])
        #expect(try String(contentsOfFile: folder.path + "/Configuration/Version.xcconfig", encoding: .utf8)
            == "// Version of the app\nMARKETING_VERSION = 2021.2.0\nCURRENT_PROJECT_VERSION = 2021.2.1\n")
        #expect(try String(contentsOfFile: path, encoding: .utf8) == pbxproj)
    }
}
