import Foundation
import SlipwayCLI
import Testing
import TestSupport
import TestThreads

/// `slipway init --from-fastlane` and `init --template ios` on a project folder (issue 25, point 5).
@Suite(.dedicatedThreads) struct InitFromFastlaneTests {
    func slipway(_ arguments: [String], in directory: String) throws -> CommandResult {
        try CommandResult.run(Binaries.slipway, arguments, in: directory, environment: ["NO_COLOR": "1"])
    }

    /// An app project: App.xcodeproj with an app and a widget extension, a shared scheme, and a
    /// fastlane folder.
    func project(fastfile: String, appfile: String? = nil, matchfile: String? = nil) throws -> TemporaryDirectory {
        let folder = try TemporaryDirectory(prefix: "slipway-init-fastlane")
        try folder.write("App.xcodeproj/project.pbxproj", Self.pbxproj)
        try folder.write("App.xcodeproj/xcshareddata/xcschemes/App.xcscheme", Self.scheme)
        try folder.write("fastlane/Fastfile", fastfile)
        if let appfile { try folder.write("fastlane/Appfile", appfile) }
        if let matchfile { try folder.write("fastlane/Matchfile", matchfile) }
        return folder
    }

    @Test func translatesTheLanesAndListsWhatItCouldNot() throws {
        let folder = try project(fastfile: """
            default_platform(:ios)
            platform :ios do
              desc "Ship a beta"
              lane :beta do
                ensure_git_status_clean
                match(type: "appstore", readonly: true)
                increment_build_number(build_number: latest_testflight_build_number + 1)
                gym(export_method: "app-store")
                upload_to_testflight(groups: ["QA"])
                hipchat(message: "shipped")
              end
            end
            """, appfile: "app_identifier 'com.example.app'\nteam_id 'ABCDE12345'\n",
            matchfile: "git_url 'https://git.example.com/certs.git'\n")
        let result = try slipway(["init", "--from-fastlane"], in: folder.path)
        #expect(result.status == 0, "\(result.standardError)")
        #expect(result.standardOutput == """
            read     fastlane/Fastfile: 1 lane, fastlane/Appfile, fastlane/Matchfile
            found    App.xcodeproj
            wrote    lanes/beta.yml

            lane 'ios beta' → lanes/beta.yml, 9 steps from 6 actions
              not translated: fastlane/Fastfile:10 hipchat(message: "shipped") — Slipway has no step for 'hipchat'; use a 'run' step or a plugin step

            1 lane written, 1 item not translated. Next: 'slipway validate NAME --platform macos' for each lane.

            """)
        let lane = try String(contentsOfFile: folder.path + "/lanes/beta.yml", encoding: .utf8)
        #expect(lane.contains("""
              - xcode.archive:
                  project: App.xcodeproj
                  scheme: App
                  destinations: ["generic/platform=iOS"]
                id: archive
            """))
        #expect(lane.contains("#   fastlane/Fastfile:10 hipchat(message: \"shipped\"): Slipway has no step for 'hipchat'"))

        // Run again: the lane is kept unless --force.
        let again = try slipway(["init", "--from-fastlane"], in: folder.path)
        #expect(again.standardOutput.contains("kept     lanes/beta.yml (exists; --force overwrites it)"))
    }

    @Test func aFastfileThatDoesNotParseIsAnErrorAndNothingIsWritten() throws {
        let folder = try project(fastfile: "lane :beta do\n  gym(scheme: \"App)\nend\n")
        let before = try Snapshot.of(folder.path)
        let result = try slipway(["init", "--from-fastlane"], in: folder.path)
        #expect(result.status == 2)
        #expect(result.standardError == "error: fastlane/Fastfile:2:15: this string is not closed; Slipway reads Fastfiles without running them, so fix the file (does 'ruby -c fastlane/Fastfile' accept it?) or translate that lane by hand\n")
        #expect(try Snapshot.of(folder.path) == before)
    }

    @Test func noFastfileAndALinkedFastfileAreRefused() throws {
        let folder = try TemporaryDirectory(prefix: "slipway-init-fastlane")
        let before = try Snapshot.of(folder.path)
        let missing = try slipway(["init", "--from-fastlane"], in: folder.path)
        #expect(missing.status == 2)
        #expect(missing.standardError == "error: no Fastfile in \(folder.path)/fastlane or \(folder.path)/.fastlane; run 'slipway init --from-fastlane' in the folder that holds the fastlane folder\n")
        #expect(try Snapshot.of(folder.path) == before)

        let outside = try TemporaryDirectory(prefix: "slipway-outside")
        try outside.write("Fastfile", "lane :a do\n  gym\nend\n")
        try FileManager.default.createDirectory(atPath: folder.path + "/fastlane", withIntermediateDirectories: true)
        try FileManager.default.createSymbolicLink(atPath: folder.path + "/fastlane/Fastfile", withDestinationPath: outside.path + "/Fastfile")
        let linked = try slipway(["init", "--from-fastlane"], in: folder.path)
        #expect(linked.status == 2)
        #expect(linked.standardError == "error: cannot read fastlane/Fastfile: it is not a regular file (a link or a folder); Slipway reads only regular files there\n")
        #expect(!FileManager.default.fileExists(atPath: folder.path + "/lanes"))
    }

    @Test func importsAreFollowedInsideTheFastlaneFolderOnly() throws {
        let folder = try project(fastfile: """
            import './lanes/release.rb'
            import '../../outside.rb'
            import 'linked/evil.rb'
            """)
        try folder.write("fastlane/lanes/release.rb", "lane :release do\n  ensure_git_status_clean\nend\n")
        let outside = try TemporaryDirectory(prefix: "slipway-outside")
        try outside.write("evil.rb", "lane :evil do\n  ensure_git_status_clean\nend\n")
        try FileManager.default.createSymbolicLink(atPath: folder.path + "/fastlane/linked", withDestinationPath: outside.path)
        let result = try slipway(["init", "--from-fastlane"], in: folder.path)
        #expect(result.status == 2)
        #expect(result.standardError == "error: cannot read fastlane/linked/evil.rb: 'fastlane/linked' is a symbolic link; Slipway reads only regular files and folders there\n")
        #expect(!FileManager.default.fileExists(atPath: folder.path + "/lanes"))

        try FileManager.default.removeItem(atPath: folder.path + "/fastlane/linked")
        try folder.write("fastlane/Fastfile", "import './lanes/release.rb'\nimport '../../outside.rb'\n")
        let followed = try slipway(["init", "--from-fastlane"], in: folder.path)
        #expect(followed.status == 0, "\(followed.standardError)")
        #expect(followed.standardOutput.contains("lane 'release' → lanes/release.yml, 1 step from 1 action"))
        #expect(followed.standardOutput.contains("note: fastlane/Fastfile:2: 'import '../../outside.rb'' was not read: imports a file outside the fastlane folder; Slipway reads only files inside it"))
        let lane = try String(contentsOfFile: folder.path + "/lanes/release.yml", encoding: .utf8)
        #expect(lane.contains("# fastlane/lanes/release.rb:2 ensure_git_status_clean"))
    }

    @Test func theIOSTemplateFillsInTheProject() throws {
        let folder = try project(fastfile: "lane :a do\nend\n")
        let result = try slipway(["init", "--template", "ios"], in: folder.path)
        #expect(result.status == 0, "\(result.standardError)")
        #expect(result.standardOutput.hasPrefix("""
            found    App.xcodeproj
            schemes  App; the app's: App
            app      App: com.example.app; version in App.xcodeproj/project.pbxproj
            ships    Widget: com.example.app.widget; version in App.xcodeproj/project.pbxproj
            wrote    lanes/ios-release.yml

            """))
        let lane = try String(contentsOfFile: folder.path + "/lanes/ios-release.yml", encoding: .utf8)
        #expect(lane.contains("""
              scheme:
                description: The scheme to test and archive
                default: App
            """))
        #expect(lane.contains("paths: [App.xcodeproj/project.pbxproj, CHANGELOG.md]"))
    }

    @Test func bundleIdsAndTheVersionInXcconfigFilesAreFound() throws {
        let folder = try TemporaryDirectory(prefix: "slipway-init-xcconfig")
        try folder.write("App.xcodeproj/project.pbxproj", VersionedXcodeProject.pbxproj(targets: [
            VersionedXcodeProject.Target("App", xcconfig: "Config/App.xcconfig"),
        ]))
        try folder.write("Config/App.xcconfig", "#include \"Version.xcconfig\"\nBASE_ID = com.example.shop\nPRODUCT_BUNDLE_IDENTIFIER = $(BASE_ID)\n")
        try folder.write("Config/Version.xcconfig", "MARKETING_VERSION = 3.1.0\nCURRENT_PROJECT_VERSION = 7\n")
        let result = try slipway(["init", "--template", "ios"], in: folder.path)
        #expect(result.status == 0, "\(result.standardError)")
        #expect(result.standardOutput.contains("app      App: com.example.shop; version in Config/Version.xcconfig\n"), "\(result.standardOutput)")
        let lane = try String(contentsOfFile: folder.path + "/lanes/ios-release.yml", encoding: .utf8)
        #expect(lane.contains("paths: [Config/Version.xcconfig, CHANGELOG.md]"))
    }

    static let scheme = """
        <?xml version="1.0" encoding="UTF-8"?>
        <Scheme LastUpgradeVersion = "1500" version = "1.7">
           <BuildAction parallelizeBuildables = "YES" buildImplicitDependencies = "YES">
              <BuildActionEntries>
                 <BuildActionEntry buildForTesting = "YES" buildForRunning = "YES" buildForProfiling = "YES" buildForArchiving = "YES" buildForAnalyzing = "YES">
                    <BuildableReference BuildableIdentifier = "primary" BlueprintIdentifier = "A10000000000000000000001" BuildableName = "App.app" BlueprintName = "App" ReferencedContainer = "container:App.xcodeproj">
                    </BuildableReference>
                 </BuildActionEntry>
              </BuildActionEntries>
           </BuildAction>
           <ArchiveAction buildConfiguration = "Release" revealArchiveInOrganizer = "YES">
           </ArchiveAction>
        </Scheme>
        """

    static let pbxproj = """
        // !$*UTF8*$!
        {
        \tarchiveVersion = 1;
        \tclasses = {
        \t};
        \tobjectVersion = 56;
        \tobjects = {
        \t\tA10000000000000000000001 /* App */ = {
        \t\t\tisa = PBXNativeTarget;
        \t\t\tbuildConfigurationList = C10000000000000000000001 /* Build configuration list for PBXNativeTarget "App" */;
        \t\t\tbuildPhases = (
        \t\t\t);
        \t\t\tdependencies = (
        \t\t\t);
        \t\t\tname = App;
        \t\t\tproductName = App;
        \t\t\tproductType = "com.apple.product-type.application";
        \t\t};
        \t\tA10000000000000000000002 /* Widget */ = {
        \t\t\tisa = PBXNativeTarget;
        \t\t\tbuildConfigurationList = C10000000000000000000002 /* Build configuration list for PBXNativeTarget "Widget" */;
        \t\t\tbuildPhases = (
        \t\t\t);
        \t\t\tdependencies = (
        \t\t\t);
        \t\t\tname = Widget;
        \t\t\tproductName = Widget;
        \t\t\tproductType = "com.apple.product-type.app-extension";
        \t\t};
        \t\tA10000000000000000000003 /* AppTests */ = {
        \t\t\tisa = PBXNativeTarget;
        \t\t\tbuildConfigurationList = C10000000000000000000003 /* Build configuration list for PBXNativeTarget "AppTests" */;
        \t\t\tbuildPhases = (
        \t\t\t);
        \t\t\tdependencies = (
        \t\t\t);
        \t\t\tname = AppTests;
        \t\t\tproductName = AppTests;
        \t\t\tproductType = "com.apple.product-type.bundle.unit-test";
        \t\t};
        \t\tB10000000000000000000001 /* Release */ = {
        \t\t\tisa = XCBuildConfiguration;
        \t\t\tbuildSettings = {
        \t\t\t\tCURRENT_PROJECT_VERSION = 1;
        \t\t\t\tMARKETING_VERSION = 1.0.0;
        \t\t\t\tPRODUCT_BUNDLE_IDENTIFIER = com.example.app;
        \t\t\t};
        \t\t\tname = Release;
        \t\t};
        \t\tB10000000000000000000002 /* Release */ = {
        \t\t\tisa = XCBuildConfiguration;
        \t\t\tbuildSettings = {
        \t\t\t\tCURRENT_PROJECT_VERSION = 1;
        \t\t\t\tMARKETING_VERSION = 1.0.0;
        \t\t\t\tPRODUCT_BUNDLE_IDENTIFIER = com.example.app.widget;
        \t\t\t};
        \t\t\tname = Release;
        \t\t};
        \t\tB10000000000000000000003 /* Release */ = {
        \t\t\tisa = XCBuildConfiguration;
        \t\t\tbuildSettings = {
        \t\t\t\tPRODUCT_BUNDLE_IDENTIFIER = com.example.app.tests;
        \t\t\t};
        \t\t\tname = Release;
        \t\t};
        \t\tB10000000000000000000004 /* Release */ = {
        \t\t\tisa = XCBuildConfiguration;
        \t\t\tbuildSettings = {
        \t\t\t};
        \t\t\tname = Release;
        \t\t};
        \t\tC10000000000000000000001 /* Build configuration list for PBXNativeTarget "App" */ = {
        \t\t\tisa = XCConfigurationList;
        \t\t\tbuildConfigurations = (
        \t\t\t\tB10000000000000000000001 /* Release */,
        \t\t\t);
        \t\t\tdefaultConfigurationName = Release;
        \t\t};
        \t\tC10000000000000000000002 /* Build configuration list for PBXNativeTarget "Widget" */ = {
        \t\t\tisa = XCConfigurationList;
        \t\t\tbuildConfigurations = (
        \t\t\t\tB10000000000000000000002 /* Release */,
        \t\t\t);
        \t\t\tdefaultConfigurationName = Release;
        \t\t};
        \t\tC10000000000000000000003 /* Build configuration list for PBXNativeTarget "AppTests" */ = {
        \t\t\tisa = XCConfigurationList;
        \t\t\tbuildConfigurations = (
        \t\t\t\tB10000000000000000000003 /* Release */,
        \t\t\t);
        \t\t\tdefaultConfigurationName = Release;
        \t\t};
        \t\tC10000000000000000000004 /* Build configuration list for PBXProject "App" */ = {
        \t\t\tisa = XCConfigurationList;
        \t\t\tbuildConfigurations = (
        \t\t\t\tB10000000000000000000004 /* Release */,
        \t\t\t);
        \t\t\tdefaultConfigurationName = Release;
        \t\t};
        \t\tD10000000000000000000001 /* main */ = {
        \t\t\tisa = PBXGroup;
        \t\t\tchildren = (
        \t\t\t);
        \t\t\tsourceTree = "<group>";
        \t\t};
        \t\tE10000000000000000000001 /* Project object */ = {
        \t\t\tisa = PBXProject;
        \t\t\tbuildConfigurationList = C10000000000000000000004 /* Build configuration list for PBXProject "App" */;
        \t\t\tmainGroup = D10000000000000000000001 /* main */;
        \t\t\tprojectDirPath = "";
        \t\t\tprojectRoot = "";
        \t\t\ttargets = (
        \t\t\t\tA10000000000000000000001 /* App */,
        \t\t\t\tA10000000000000000000002 /* Widget */,
        \t\t\t\tA10000000000000000000003 /* AppTests */,
        \t\t\t);
        \t\t};
        \t};
        \trootObject = E10000000000000000000001 /* Project object */;
        }

        """
}
