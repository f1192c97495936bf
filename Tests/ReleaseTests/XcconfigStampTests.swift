import Basics
import Foundation
import Release
import Testing
import TestSupport
import TestThreads

/// Versions kept where real apps keep them: `.xcconfig` files behind `baseConfigurationReference`,
/// `#include` chains, the project level, conditional assignments.
@Suite(.dedicatedThreads) struct XcconfigStampTests {
    static let extensions = ["Share", "Today", "Widgets", "NotificationService", "Intents"]
    static let version = "// The version of the app and its extensions\nMARKETING_VERSION = 1.2.0 // shown in the App Store\nCURRENT_PROJECT_VERSION = 41;\n"

    /// An app and five extensions: App.xcconfig and Extension.xcconfig both include Version.xcconfig.
    func appWithExtensions(_ folder: TemporaryDirectory, version: String = XcconfigStampTests.version) throws -> String {
        _ = try folder.write("Config/App.xcconfig", "#include \"Version.xcconfig\"\n#include? \"Local.xcconfig\"\nPRODUCT_BUNDLE_IDENTIFIER = io.example.app\n")
        _ = try folder.write("Config/Extension.xcconfig", "#include \"Version.xcconfig\"\nPRODUCT_BUNDLE_IDENTIFIER = io.example.app.$(TARGET_NAME)\n")
        _ = try folder.write("Config/Version.xcconfig", version)
        let targets = [VersionedXcodeProject.Target("App", xcconfig: "Config/App.xcconfig")]
            + Self.extensions.map { VersionedXcodeProject.Target($0, xcconfig: "Config/Extension.xcconfig") }
        return try VersionedXcodeProject.write(targets: targets, in: folder.path)
    }

    /// The 1-based numbers of the lines of `file` that contain `text`.
    func lines(containing text: String, in file: String) throws -> [Int] {
        try String(contentsOfFile: file, encoding: .utf8).split(separator: "\n", omittingEmptySubsequences: false)
            .enumerated().filter { $0.element.contains(text) }.map { $0.offset + 1 }
    }

    func plan(_ targets: [VersionStamper.Target], root: String, build: String? = "42") throws -> VersionStampPlan {
        try VersionStamper(fileSystem: LocalFileSystem(), root: root).plan(targets, version: "1.3.0", buildNumber: build)
    }

    /// Asserts the error's exact text and that nothing under the folder changed.
    func expectRefusal(_ folder: TemporaryDirectory, root: String? = nil, _ targets: [VersionStamper.Target], _ expected: String,
                       sourceLocation: Testing.SourceLocation = #_sourceLocation) throws {
        let before = try Snapshot.of(folder.path)
        do {
            try VersionStamper(fileSystem: LocalFileSystem(), root: root ?? folder.path).stamp(targets, version: "1.3.0", buildNumber: "42")
            Issue.record("expected an error", sourceLocation: sourceLocation)
        } catch {
            #expect(errorText(error) == expected, sourceLocation: sourceLocation)
        }
        #expect(try Snapshot.of(folder.path) == before, sourceLocation: sourceLocation)
    }

    @Test func aSharedXcconfigIsWrittenOnceForSixTargets() throws {
        let folder = try TemporaryDirectory()
        let project = try appWithExtensions(folder)
        let pbxproj = try String(contentsOfFile: project + "/project.pbxproj", encoding: .utf8)
        let stamper = VersionStamper(fileSystem: LocalFileSystem(), root: folder.path)
        let plan = try stamper.stamp([.xcodeproj(path: project, targets: nil)], version: "1.3.0", buildNumber: "42")
        #expect(plan.changes.map(\.description) == [
            "Config/Version.xcconfig:2 MARKETING_VERSION 1.2.0 -> 1.3.0",
            "Config/Version.xcconfig:3 CURRENT_PROJECT_VERSION 41 -> 42",
        ])
        #expect(plan.edits.count == 1)
        #expect(plan.files == ["Config/Version.xcconfig"])
        #expect(try String(contentsOfFile: folder.path + "/Config/Version.xcconfig", encoding: .utf8)
            == "// The version of the app and its extensions\nMARKETING_VERSION = 1.3.0 // shown in the App Store\nCURRENT_PROJECT_VERSION = 42;\n")
        #expect(try String(contentsOfFile: project + "/project.pbxproj", encoding: .utf8) == pbxproj)
    }

    @Test func theTargetsOwnSettingWinsOverItsXcconfig() throws {
        let folder = try TemporaryDirectory()
        _ = try folder.write("Config/Version.xcconfig", "MARKETING_VERSION = 1.2.0\n")
        let project = try VersionedXcodeProject.write(targets: [
            .init("App", settings: [("MARKETING_VERSION", "1.2.0")], xcconfig: "Config/Version.xcconfig"),
        ], in: folder.path)
        let plan = try plan([.xcodeproj(path: project, targets: ["App"])], root: folder.path, build: nil)
        let lines = try lines(containing: "MARKETING_VERSION = 1.2.0;", in: project + "/project.pbxproj")
        #expect(lines.count == 2)
        #expect(plan.changes.map(\.description) == lines.map { "App.xcodeproj/project.pbxproj:\($0) MARKETING_VERSION 1.2.0 -> 1.3.0" })
        #expect(plan.edits.map(\.path) == [project + "/project.pbxproj"])
    }

    @Test func inheritedGoesDownToTheProjectsXcconfig() throws {
        let folder = try TemporaryDirectory()
        _ = try folder.write("Config/Target.xcconfig", "MARKETING_VERSION = $(inherited)\n")
        _ = try folder.write("Config/Project.xcconfig", "#include \"Base/Version.xcconfig\"\n")
        _ = try folder.write("Config/Base/Version.xcconfig", "MARKETING_VERSION = 1.2.0\nCURRENT_PROJECT_VERSION = 7\n")
        let project = try VersionedXcodeProject.write(
            targets: [.init("App", xcconfig: "Config/Target.xcconfig")], projectSettings: [("CURRENT_PROJECT_VERSION", "7")],
            projectXcconfig: "Config/Project.xcconfig", in: folder.path)
        let plan = try plan([.xcodeproj(path: project, targets: nil)], root: folder.path)
        let lines = try lines(containing: "CURRENT_PROJECT_VERSION = 7;", in: project + "/project.pbxproj")
        #expect(lines.count == 2)
        #expect(plan.changes.map(\.description) == ["Config/Base/Version.xcconfig:1 MARKETING_VERSION 1.2.0 -> 1.3.0"]
            + lines.map { "App.xcodeproj/project.pbxproj:\($0) CURRENT_PROJECT_VERSION 7 -> 42" })
        #expect(plan.files == ["Config/Base/Version.xcconfig", "App.xcodeproj/project.pbxproj"])
    }

    @Test func conditionalAssignmentsAreWrittenToo() throws {
        let folder = try TemporaryDirectory()
        _ = try folder.write("Version.xcconfig", "MARKETING_VERSION = 1.2.0\nMARKETING_VERSION[sdk=iphoneos*] = 1.2.0\nMARKETING_VERSION[sdk=macosx*][arch=arm64] = 1.2.0 // Catalyst\n")
        let project = try VersionedXcodeProject.write(targets: [.init("App", xcconfig: "Version.xcconfig")], in: folder.path)
        let plan = try plan([.xcodeproj(path: project, targets: nil)], root: folder.path, build: nil)
        #expect(plan.changes.map(\.description) == [
            "Version.xcconfig:2 MARKETING_VERSION[sdk=iphoneos*] 1.2.0 -> 1.3.0",
            "Version.xcconfig:3 MARKETING_VERSION[sdk=macosx*][arch=arm64] 1.2.0 -> 1.3.0",
            "Version.xcconfig:1 MARKETING_VERSION 1.2.0 -> 1.3.0",
        ])
        #expect(plan.edits.first?.text == "MARKETING_VERSION = 1.3.0\nMARKETING_VERSION[sdk=iphoneos*] = 1.3.0\nMARKETING_VERSION[sdk=macosx*][arch=arm64] = 1.3.0 // Catalyst\n")
    }

    @Test func quotesAndTabsAroundAValueAreKept() throws {
        let folder = try TemporaryDirectory()
        _ = try folder.write("Version.xcconfig", "MARKETING_VERSION\t=\t\"1.2.0\" ;\t// quoted\r\nCURRENT_PROJECT_VERSION=41\r\n")
        let project = try VersionedXcodeProject.write(targets: [.init("App", xcconfig: "Version.xcconfig")], in: folder.path)
        let plan = try plan([.xcodeproj(path: project, targets: nil)], root: folder.path)
        #expect(plan.changes.map(\.description) == ["Version.xcconfig:1 MARKETING_VERSION 1.2.0 -> 1.3.0", "Version.xcconfig:2 CURRENT_PROJECT_VERSION 41 -> 42"])
        #expect(plan.edits.first?.text == "MARKETING_VERSION\t=\t\"1.3.0\" ;\t// quoted\r\nCURRENT_PROJECT_VERSION=42\r\n")
    }

    @Test func aReferenceToAnotherSettingIsFollowed() throws {
        let folder = try TemporaryDirectory()
        _ = try folder.write("Version.xcconfig", "APP_VERSION = 1.2.0\nMARKETING_VERSION = $(APP_VERSION)\n")
        let project = try VersionedXcodeProject.write(targets: [.init("App", xcconfig: "Version.xcconfig")], in: folder.path)
        let plan = try plan([.xcodeproj(path: project, targets: nil)], root: folder.path, build: nil)
        #expect(plan.changes.map(\.description) == ["Version.xcconfig:1 APP_VERSION 1.2.0 -> 1.3.0 (for MARKETING_VERSION)"])
    }

    @Test func infoPlistBuildSettingsAreWrittenWhereDefined() throws {
        let folder = try TemporaryDirectory()
        _ = try folder.write("Config/Version.xcconfig", "MARKETING_VERSION = 1.2.0\nCURRENT_PROJECT_VERSION = 41\n")
        let plist = "<plist><dict>\n<key>CFBundleShortVersionString</key>\n<string>${MARKETING_VERSION}</string>\n<key>CFBundleVersion</key>\n<string>$(CURRENT_PROJECT_VERSION)</string>\n</dict></plist>\n"
        let plistPath = try folder.write("App/Info.plist", plist)
        let project = try VersionedXcodeProject.write(targets: [
            .init("App", settings: [("INFOPLIST_FILE", "App/Info.plist")], xcconfig: "Config/Version.xcconfig"),
            .init("Other", settings: [("MARKETING_VERSION", "9.0")]),
        ], in: folder.path)
        let plan = try VersionStamper(fileSystem: LocalFileSystem(), root: folder.path)
            .stamp([.infoPlist(path: plistPath), .xcodeproj(path: project, targets: ["App"])], version: "1.3.0", buildNumber: "42")
        #expect(plan.changes.map(\.description) == [
            "Config/Version.xcconfig:1 MARKETING_VERSION 1.2.0 -> 1.3.0 (for App/Info.plist CFBundleShortVersionString = ${MARKETING_VERSION})",
            "Config/Version.xcconfig:2 CURRENT_PROJECT_VERSION 41 -> 42 (for App/Info.plist CFBundleVersion = $(CURRENT_PROJECT_VERSION))",
        ])
        #expect(try String(contentsOfFile: plistPath, encoding: .utf8) == plist)
        #expect(try String(contentsOfFile: folder.path + "/Config/Version.xcconfig", encoding: .utf8) == "MARKETING_VERSION = 1.3.0\nCURRENT_PROJECT_VERSION = 42\n")
    }

    /// INFOPLIST_FILE set in an xcconfig counts; a target whose base xcconfig is missing but
    /// that is not written does not fail the stamp.
    @Test func infoPlistFileFromAnXcconfigIsFound() throws {
        let folder = try TemporaryDirectory()
        _ = try folder.write("Config/App.xcconfig", "INFOPLIST_FILE = $(SRCROOT)/App/Info.plist\nMARKETING_VERSION = 1.2.0\n")
        let plistPath = try folder.write("App/Info.plist", "<plist><dict><key>CFBundleShortVersionString</key><string>$(MARKETING_VERSION)</string></dict></plist>\n")
        let project = try VersionedXcodeProject.write(targets: [
            .init("App", xcconfig: "Config/App.xcconfig"), .init("Tests", xcconfig: "Pods/Pods-Tests.xcconfig"),
        ], in: folder.path)
        let plan = try plan([.infoPlist(path: plistPath)] + [.xcodeproj(path: project, targets: ["App"])], root: folder.path, build: nil)
        #expect(plan.changes.map(\.description) == [
            "Config/App.xcconfig:2 MARKETING_VERSION 1.2.0 -> 1.3.0 (for App/Info.plist CFBundleShortVersionString = $(MARKETING_VERSION))",
        ])
    }

    @Test func aMissingIncludeIsAnError() throws {
        let folder = try TemporaryDirectory()
        let project = try appWithExtensions(folder)
        _ = try folder.write("Config/Extension.xcconfig", "#include \"Versions.xcconfig\"\n")
        try expectRefusal(folder, [.xcodeproj(path: project, targets: nil)], """
            'Config/Extension.xcconfig:1': #include "Versions.xcconfig" names 'Config/Versions.xcconfig', which does not exist; fix the path, or write #include? for a file that may be absent
            '\(project)/project.pbxproj': targets 'Share', 'Today', 'Widgets', 'NotificationService', 'Intents' have no MARKETING_VERSION in any build configuration or .xcconfig file (its own or the project's); add it in Xcode (Build Settings), or list only the targets that have it in the step's 'targets' option
            '\(project)/project.pbxproj': targets 'Share', 'Today', 'Widgets', 'NotificationService', 'Intents' have no CURRENT_PROJECT_VERSION in any build configuration or .xcconfig file (its own or the project's); add it in Xcode (Build Settings), or list only the targets that have it in the step's 'targets' option
            """)
    }

    /// A base configuration CocoaPods writes (`pod install` not run yet) sets search paths and
    /// linker flags, never a version: the version is read and written from the other levels, and
    /// a note says so. Any other missing base configuration stays an error.
    @Test func aMissingCocoaPodsBaseConfigurationIsANoteAndOtherMissingOnesAreErrors() throws {
        let folder = try TemporaryDirectory()
        let pods = "Pods/Target Support Files/Pods-App/Pods-App.debug.xcconfig"
        let project = try VersionedXcodeProject.write(
            targets: [.init("App", xcconfig: pods)], projectSettings: [("MARKETING_VERSION", "1.2.0"), ("CURRENT_PROJECT_VERSION", "41")], in: folder.path)
        let plan = try VersionStamper(fileSystem: LocalFileSystem(), root: folder.path)
            .plan([.xcodeproj(path: project, targets: nil)], version: "1.3.0", buildNumber: "42")
        #expect(plan.notes == ["the targets' base configurations that CocoaPods writes ('Pods/Target Support Files/…/Pods-….xcconfig') do not "
            + "exist (pod install writes them); they never set MARKETING_VERSION or CURRENT_PROJECT_VERSION, so the version is read from the other levels"])
        #expect(plan.changes.map(\.new).sorted() == ["1.3.0", "1.3.0", "42", "42"])
        let other = try TemporaryDirectory()
        let missing = "Config/App.xcconfig"
        let second = try VersionedXcodeProject.write(
            targets: [.init("App", xcconfig: missing)], projectSettings: [("MARKETING_VERSION", "1.2.0"), ("CURRENT_PROJECT_VERSION", "41")], in: other.path)
        try expectRefusal(other, [.xcodeproj(path: second, targets: nil)], """
            target 'App' (configuration 'Debug'): its base configuration '\(missing)' does not exist; create it, or fix the configuration's base file in Xcode (Project › Info › Configurations)
            target 'App' (configuration 'Release'): its base configuration '\(missing)' does not exist; create it, or fix the configuration's base file in Xcode (Project › Info › Configurations)
            """)
    }

    @Test func aCycleOfIncludesIsAnError() throws {
        let folder = try TemporaryDirectory()
        let project = try appWithExtensions(folder, version: "#include \"App.xcconfig\"\nMARKETING_VERSION = 1.2.0\nCURRENT_PROJECT_VERSION = 41\n")
        try expectRefusal(folder, [.xcodeproj(path: project, targets: ["App"])], """
            'Config/Version.xcconfig:1': #include "App.xcconfig" makes a cycle of includes (Config/App.xcconfig → Config/Version.xcconfig → Config/App.xcconfig); remove one of the #include lines
            """)
    }

    @Test func includeDepthAndFileSizeAreBounded() throws {
        let folder = try TemporaryDirectory()
        for index in 0..<20 { _ = try folder.write("Chain/\(index).xcconfig", "#include \"\(index + 1).xcconfig\"\n") }
        _ = try folder.write("Chain/20.xcconfig", "MARKETING_VERSION = 1.2.0\n")
        _ = try folder.write("Big.xcconfig", "// padding\n" + String(repeating: "A = 1\n", count: 200_000) + "MARKETING_VERSION = 1.2.0\n")
        let project = try VersionedXcodeProject.write(targets: [.init("Deep", xcconfig: "Chain/0.xcconfig"), .init("Big", xcconfig: "Big.xcconfig")], in: folder.path)
        try expectRefusal(folder, [.xcodeproj(path: project, targets: nil)], """
            'Chain/15.xcconfig:1': #include "16.xcconfig" nests includes more than 16 files deep; flatten the #include chain
            'Big.xcconfig' is larger than 1024 KiB; slipway does not read an .xcconfig this large
            '\(project)/project.pbxproj': targets 'Deep', 'Big' have no MARKETING_VERSION in any build configuration or .xcconfig file (its own or the project's); add it in Xcode (Build Settings), or list only the targets that have it in the step's 'targets' option
            '\(project)/project.pbxproj': targets 'Deep', 'Big' have no CURRENT_PROJECT_VERSION in any build configuration or .xcconfig file (its own or the project's); add it in Xcode (Build Settings), or list only the targets that have it in the step's 'targets' option
            """)
    }

    @Test func anXcconfigOutsideTheRootIsRefused() throws {
        let outer = try TemporaryDirectory()
        _ = try outer.write("Shared/Version.xcconfig", "MARKETING_VERSION = 1.2.0\n")
        _ = try outer.write("App/Config/App.xcconfig", "#include \"../../Shared/Version.xcconfig\"\n")
        let project = try VersionedXcodeProject.write(targets: [
            .init("App", xcconfig: "Config/App.xcconfig"), .init("Share", xcconfig: "../Shared/Version.xcconfig"),
        ], in: outer.path + "/App")
        try expectRefusal(outer, root: outer.path + "/App", [.xcodeproj(path: project, targets: nil)], """
            'Config/App.xcconfig:1': #include "../../Shared/Version.xcconfig" is outside the project folder '\(outer.path)/App'; slipway reads and writes only files inside it: move the file inside, or write the version with the step's 'files' option
            target 'Share' (configuration 'Debug'): its base configuration '\(outer.path)/Shared/Version.xcconfig' is outside the project folder '\(outer.path)/App'; slipway reads and writes only files inside it: move the file inside, or write the version with the step's 'files' option
            target 'Share' (configuration 'Release'): its base configuration '\(outer.path)/Shared/Version.xcconfig' is outside the project folder '\(outer.path)/App'; slipway reads and writes only files inside it: move the file inside, or write the version with the step's 'files' option
            '\(project)/project.pbxproj': targets 'App', 'Share' have no MARKETING_VERSION in any build configuration or .xcconfig file (its own or the project's); add it in Xcode (Build Settings), or list only the targets that have it in the step's 'targets' option
            '\(project)/project.pbxproj': targets 'App', 'Share' have no CURRENT_PROJECT_VERSION in any build configuration or .xcconfig file (its own or the project's); add it in Xcode (Build Settings), or list only the targets that have it in the step's 'targets' option
            """)
    }

    @Test func anXcconfigLinkedOutsideTheRootIsRefused() throws {
        let outer = try TemporaryDirectory()
        _ = try outer.write("Elsewhere/Version.xcconfig", "MARKETING_VERSION = 1.2.0\n")
        try FileManager.default.createDirectory(atPath: outer.path + "/App/Config", withIntermediateDirectories: true)
        try FileManager.default.createSymbolicLink(atPath: outer.path + "/App/Config/Version.xcconfig", withDestinationPath: "../../Elsewhere/Version.xcconfig")
        let project = try VersionedXcodeProject.write(targets: [.init("App", xcconfig: "Config/Version.xcconfig")], in: outer.path + "/App")
        try expectRefusal(outer, root: outer.path + "/App", [.xcodeproj(path: project, targets: nil)], """
            target 'App' (configuration 'Debug'): its base configuration 'Config/Version.xcconfig' (a link to '\(outer.path)/Elsewhere/Version.xcconfig') is outside the project folder '\(outer.path)/App'; slipway reads and writes only files inside it: move the file inside, or write the version with the step's 'files' option
            target 'App' (configuration 'Release'): its base configuration 'Config/Version.xcconfig' (a link to '\(outer.path)/Elsewhere/Version.xcconfig') is outside the project folder '\(outer.path)/App'; slipway reads and writes only files inside it: move the file inside, or write the version with the step's 'files' option
            '\(project)/project.pbxproj': target 'App' has no MARKETING_VERSION in any build configuration or .xcconfig file (its own or the project's); add it in Xcode (Build Settings), or list only the targets that have it in the step's 'targets' option
            '\(project)/project.pbxproj': target 'App' has no CURRENT_PROJECT_VERSION in any build configuration or .xcconfig file (its own or the project's); add it in Xcode (Build Settings), or list only the targets that have it in the step's 'targets' option
            """)
    }

    @Test func anExpressionIsAnErrorNamingItsLine() throws {
        let folder = try TemporaryDirectory()
        let project = try appWithExtensions(folder, version: "BASE = 1.2\nMARKETING_VERSION = $(BASE).0\nCURRENT_PROJECT_VERSION = $(BUILD)\n")
        try expectRefusal(folder, [.xcodeproj(path: project, targets: ["App"])], """
            'Config/Version.xcconfig:2': MARKETING_VERSION is '$(BASE).0', an expression slipway cannot write; set it to a literal value there (MARKETING_VERSION = 1.2.0), or to exactly $(OTHER_SETTING) with OTHER_SETTING defined as a literal
            'Config/Version.xcconfig:3': CURRENT_PROJECT_VERSION is '$(BUILD)', but BUILD is defined nowhere for target 'App' (configuration 'Debug'); define BUILD as a literal, or set CURRENT_PROJECT_VERSION to a literal value there
            'Config/Version.xcconfig:3': CURRENT_PROJECT_VERSION is '$(BUILD)', but BUILD is defined nowhere for target 'App' (configuration 'Release'); define BUILD as a literal, or set CURRENT_PROJECT_VERSION to a literal value there
            """)
    }

    @Test func twoProjectsInOneStampAreRefused() throws {
        let folder = try TemporaryDirectory()
        let first = try VersionedXcodeProject.write(targets: [.init("App", settings: [("MARKETING_VERSION", "1.2.0"), ("CURRENT_PROJECT_VERSION", "1")])], in: folder.path + "/A")
        let second = try VersionedXcodeProject.write(targets: [.init("App", settings: [("MARKETING_VERSION", "1.2.0"), ("CURRENT_PROJECT_VERSION", "1")])], in: folder.path + "/B")
        try expectRefusal(folder, [.xcodeproj(path: first, targets: nil), .xcodeproj(path: second, targets: nil)], """
            'B/App.xcodeproj': one version stamp writes one Xcode project, and 'A/App.xcodeproj/project.pbxproj' comes first; use one step per project
            """)
    }

    @Test func aPlistSettingWithoutAProjectIsAnError() throws {
        let folder = try TemporaryDirectory()
        let plistPath = try folder.write("App/Info.plist", "<plist><dict><key>CFBundleShortVersionString</key><string>$(MARKETING_VERSION)</string><key>CFBundleVersion</key><string>7</string></dict></plist>")
        try expectRefusal(folder, [.versionFile(path: folder.path + "/VERSION"), .infoPlist(path: plistPath)], """
            'App/Info.plist': CFBundleShortVersionString is '$(MARKETING_VERSION)', a build setting; add the step's option 'xcodeproj' (the project whose targets use this Info.plist) so that MARKETING_VERSION is written where the project defines it
            """)
    }
}
