import Foundation
import Testing
import TestSupport
import TestThreads

/// Issue 40, point 8: which workspace, project and scheme `init --template ios` chooses, the
/// scheme's SDK checked against an `xcode.*` step's destination, and CocoaPods not installed yet.
@Suite(.dedicatedThreads) struct ProjectChoiceTests {
    func slipway(_ arguments: [String], in directory: String) throws -> CommandResult {
        try CommandResult.run(Binaries.slipway, arguments, in: directory, environment: ["NO_COLOR": "1"])
    }

    static func scheme(_ target: String, project: String = "App.xcodeproj") -> String {
        """
        <?xml version="1.0" encoding="UTF-8"?>
        <Scheme LastUpgradeVersion = "1500" version = "1.7">
           <BuildAction parallelizeBuildables = "YES" buildImplicitDependencies = "YES">
              <BuildActionEntries>
                 <BuildActionEntry buildForTesting = "YES" buildForRunning = "YES" buildForProfiling = "YES" buildForArchiving = "YES" buildForAnalyzing = "YES">
                    <BuildableReference BuildableIdentifier = "primary" BlueprintIdentifier = "B30000000000000000000000" BuildableName = "\(target).app" BlueprintName = "\(target)" ReferencedContainer = "container:\(project)">
                    </BuildableReference>
                 </BuildActionEntry>
              </BuildActionEntries>
           </BuildAction>
           <ArchiveAction buildConfiguration = "Release" revealArchiveInOrganizer = "YES">
           </ArchiveAction>
        </Scheme>
        """
    }

    static func workspace(_ projects: [String]) -> String {
        "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<Workspace version = \"1.0\">\n"
            + projects.map { "   <FileRef location = \"group:\($0)\">\n   </FileRef>\n" }.joined() + "</Workspace>\n"
    }

    static let framework = "com.apple.product-type.framework"

    /// A Mac-and-iOS app: target 'App' builds for macOS (SDKROOT in the pbxproj), 'App iOS' for
    /// iOS (SDKROOT in its .xcconfig); the scheme named like the project is the macOS one.
    func macAndIOSApp() throws -> TemporaryDirectory {
        let folder = try TemporaryDirectory(prefix: "slipway-mac-ios")
        try folder.write("App.xcodeproj/project.pbxproj", VersionedXcodeProject.pbxproj(targets: [
            VersionedXcodeProject.Target("App", settings: [("PRODUCT_BUNDLE_IDENTIFIER", "com.example.mac"), ("SDKROOT", "macosx")]),
            VersionedXcodeProject.Target("App iOS", settings: [("PRODUCT_BUNDLE_IDENTIFIER", "com.example.ios")], xcconfig: "Config/iOS.xcconfig"),
        ], projectSettings: [("MARKETING_VERSION", "1.0")]))
        try folder.write("Config/iOS.xcconfig", "SDKROOT = iphoneos\n")
        try folder.write("App.xcodeproj/xcshareddata/xcschemes/App.xcscheme", Self.scheme("App"))
        try folder.write("App.xcodeproj/xcshareddata/xcschemes/App iOS.xcscheme", Self.scheme("App iOS"))
        return folder
    }

    @Test func theWorkspacesProjectWithTheAppTargetIsChosenNotTheFirst() throws {
        let folder = try TemporaryDirectory(prefix: "slipway-choice")
        try folder.write("App.xcworkspace/contents.xcworkspacedata", Self.workspace(["Aardvark/Aardvark.xcodeproj", "Zebra/Zebra.xcodeproj", "Pods/Pods.xcodeproj"]))
        try folder.write("Aardvark/Aardvark.xcodeproj/project.pbxproj", VersionedXcodeProject.pbxproj(targets: [
            VersionedXcodeProject.Target("Kit", productType: Self.framework),
        ]))
        try folder.write("Zebra/Zebra.xcodeproj/project.pbxproj", VersionedXcodeProject.pbxproj(targets: [
            VersionedXcodeProject.Target("Zebra", settings: [("PRODUCT_BUNDLE_IDENTIFIER", "com.example.zebra"), ("MARKETING_VERSION", "2.0")]),
        ]))
        try folder.write("Zebra/Zebra.xcodeproj/xcshareddata/xcschemes/Zebra.xcscheme", Self.scheme("Zebra", project: "Zebra.xcodeproj"))
        // CocoaPods not installed yet: the workspace lists Pods/Pods.xcodeproj, which is not there.
        try folder.write("Podfile", "platform :ios, '16.0'\ntarget 'Zebra'\n")
        let before = try Snapshot.of(folder.path)
        let result = try slipway(["init", "--template", "ios"], in: folder.path)
        #expect(result.status == 0, "\(result.standardError)")
        #expect(result.standardOutput.hasPrefix("""
            found    App.xcworkspace (project Zebra/Zebra.xcodeproj)
                     also there, not used: Aardvark/Aardvark.xcodeproj
            schemes  Zebra; the app's: Zebra
            app      Zebra: com.example.zebra; version in Zebra/Zebra.xcodeproj/project.pbxproj
            wrote    lanes/ios-release.yml

            """), "\(result.standardOutput)")
        let lane = try String(contentsOfFile: folder.path + "/lanes/ios-release.yml", encoding: .utf8)
        #expect(lane.contains("xcodeproj: Zebra/Zebra.xcodeproj"))
        #expect(lane.contains("paths: [Zebra/Zebra.xcodeproj/project.pbxproj, CHANGELOG.md]"))
        #expect(try Self.outsideLanes(folder.path) == before)
    }

    @Test func severalProjectsWithAnAppSayWhichWasChosenAndHowToChooseAnother() throws {
        let folder = try TemporaryDirectory(prefix: "slipway-choice-several")
        try folder.write("Shop.xcworkspace/contents.xcworkspacedata", Self.workspace(["Demo/Demo.xcodeproj", "Shop/Shop.xcodeproj"]))
        for name in ["Demo", "Shop"] {
            try folder.write("\(name)/\(name).xcodeproj/project.pbxproj", VersionedXcodeProject.pbxproj(targets: [
                VersionedXcodeProject.Target(name, settings: [("PRODUCT_BUNDLE_IDENTIFIER", "com.example.\(name.lowercased())")]),
            ]))
            try folder.write("\(name)/\(name).xcodeproj/xcshareddata/xcschemes/\(name).xcscheme", Self.scheme(name, project: "\(name).xcodeproj"))
        }
        let before = try Snapshot.of(folder.path)
        let result = try slipway(["init", "--template", "ios"], in: folder.path)
        #expect(result.status == 0, "\(result.standardError)")
        #expect(try Self.outsideLanes(folder.path) == before)
        #expect(result.standardOutput.hasPrefix("found    Shop.xcworkspace (project Shop/Shop.xcodeproj)\n"), "\(result.standardOutput)")
        #expect(result.standardOutput.contains("""
            note     Shop.xcworkspace lists several projects with an application target: Demo/Demo.xcodeproj (Demo), Shop/Shop.xcodeproj (Shop); \
            chose Shop/Shop.xcodeproj (named like the workspace); to use another, set the lane's scheme and version.bump's xcodeproj to it
            """), "\(result.standardOutput)")
        let lane = try String(contentsOfFile: folder.path + "/lanes/ios-release.yml", encoding: .utf8)
        #expect(lane.contains("default: Shop\n"))
    }

    @Test func theIOSTemplatePicksTheIOSSchemeOfAMacAndIOSApp() throws {
        let folder = try macAndIOSApp()
        let before = try Snapshot.of(folder.path)
        let result = try slipway(["init", "--template", "ios"], in: folder.path)
        #expect(result.status == 0, "\(result.standardError)")
        #expect(try Self.outsideLanes(folder.path) == before)
        #expect(result.standardOutput.contains("""
            schemes  App, App iOS; the app's: App iOS
                     App iOS builds the iOS app; not for iOS: App (macosx)

            """), "\(result.standardOutput)")
        let lane = try String(contentsOfFile: folder.path + "/lanes/ios-release.yml", encoding: .utf8)
        #expect(lane.contains("""
              scheme:
                description: The scheme to test and archive
                default: App iOS
            """), "\(lane)")
    }

    @Test func validateRefusesAnIOSArchiveOfAMacScheme() throws {
        let folder = try macAndIOSApp()
        try folder.write("lanes/ship.yml", """
            steps:
              - xcode.archive: { project: App.xcodeproj, scheme: App, destinations: ["generic/platform=iOS"] }
              - xcode.archive: { project: App.xcodeproj, scheme: App iOS, destinations: ["generic/platform=iOS"], archive-path: build/iOS.xcarchive }
              - xcode.build: { project: App.xcodeproj, scheme: App, destinations: ["platform=macOS"] }
              - xcode.test: { project: App.xcodeproj, scheme: App iOS, destinations: ["platform=iOS Simulator,name=iPhone 16"] }

            """)
        try folder.write("lanes/mac.yml", """
            steps:
              - xcode.build: { project: App.xcodeproj, scheme: App iOS, sdk: macosx }

            """)
        try folder.write("lanes/fine.yml", """
            steps:
              - xcode.archive: { project: App.xcodeproj, scheme: App iOS, destinations: ["generic/platform=iOS"] }
              - xcode.build: { project: App.xcodeproj, scheme: App, destinations: ["platform=macOS"] }
              - xcode.test: { project: App.xcodeproj, scheme: App iOS, destinations: ["platform=iOS Simulator,name=iPhone 16"] }
              - xcode.build: { project: App.xcodeproj, scheme: App, destinations: ["platform=macOS,variant=Mac Catalyst"] }

            """)
        let before = try Snapshot.of(folder.path)
        let result = try slipway(["validate", "ship", "mac", "fine", "--platform", "macos"], in: folder.path)
        #expect(result.status == 2)
        let pbxproj = "App.xcodeproj/project.pbxproj"
        let line = try Self.line(of: "SDKROOT = macosx;", in: folder.path + "/" + pbxproj)
        #expect(result.standardError == """
            lanes/ship.yml:2:5: error: step 'xcode.archive' (xcode.archive): scheme 'App' builds the app target 'App' for macosx \
            (SDKROOT = macosx in \(pbxproj):\(line)), not for destination 'generic/platform=iOS' (iphoneos): give a scheme whose app \
            target is built for iphoneos, or a destination of the target's platform.
            lanes/mac.yml:2:5: error: step 'xcode.build' (xcode.build): scheme 'App iOS' builds the app target 'App iOS' for \
            iphoneos, iphonesimulator (SDKROOT = iphoneos in Config/iOS.xcconfig:1), not for destination 'sdk macosx' (macosx): give \
            a scheme whose app target is built for macosx, or a destination of the target's platform.

            """, "\(result.standardError)")
        #expect(result.standardOutput == """
            ✗ ship: 1 problem(s) (checked as on macos)
            ✗ mac: 1 problem(s) (checked as on macos)
            ✓ fine: 4 steps, valid (checked as on macos)

            """, "\(result.standardOutput)")
        #expect(try Snapshot.of(folder.path) == before)
    }

    @Test func aPodfileWithoutPodsIsANoteOnceAndAPartialInstallSaysToRunPodInstall() throws {
        let folder = try TemporaryDirectory(prefix: "slipway-pods")
        try folder.write("App.xcworkspace/contents.xcworkspacedata", Self.workspace(["App.xcodeproj", "Pods/Pods.xcodeproj"]))
        try folder.write("App.xcodeproj/project.pbxproj", VersionedXcodeProject.pbxproj(targets: [
            VersionedXcodeProject.Target("App", settings: [("SDKROOT", "iphoneos")]),
        ]))
        try folder.write("App.xcodeproj/xcshareddata/xcschemes/App.xcscheme", Self.scheme("App"))
        try folder.write("Podfile", "platform :ios, '16.0'\ntarget 'App'\n")
        try folder.write("lanes/ship.yml", """
            steps:
              - xcode.test: { workspace: App.xcworkspace, scheme: App, destinations: ["platform=iOS Simulator,name=iPhone 16"] }
              - xcode.archive: { workspace: App.xcworkspace, scheme: App, destinations: ["generic/platform=iOS"] }

            """)
        var before = try Snapshot.of(folder.path)
        let result = try slipway(["validate", "ship", "--platform", "macos"], in: folder.path)
        #expect(result.status == 0, "\(result.standardError)")
        #expect(result.standardError == """
            note: CocoaPods not installed yet (Pods/ is missing): run `pod install` (or `bundle exec pod install` when a Gemfile exists) before the xcode steps

            """)
        #expect(result.standardOutput.hasPrefix("✓ ship: 2 steps, valid"), "\(result.standardOutput)")
        #expect(try Snapshot.of(folder.path) == before)

        // Pods/ is there, the project CocoaPods writes is not: an error that says what to run.
        try FileManager.default.createDirectory(atPath: folder.path + "/Pods", withIntermediateDirectories: true)
        before = try Snapshot.of(folder.path)
        let partial = try slipway(["validate", "ship", "--platform", "macos"], in: folder.path)
        #expect(partial.status == 2)
        let message = "'Pods/Pods.xcodeproj' is listed in 'App.xcworkspace/contents.xcworkspacedata' but does not exist "
            + "(CocoaPods writes it: run `pod install` (or `bundle exec pod install` when a Gemfile exists) before this step)."
        #expect(partial.standardError == """
            lanes/ship.yml:2:5: error: step 'xcode.test' (xcode.test): \(message)

            """, "\(partial.standardError)")
        #expect(try Snapshot.of(folder.path) == before)
    }

    /// A hostile checkout: the scheme's target and a workspace member point at projects outside
    /// the folder (one with an app target built for macOS). Neither is read: validate does not
    /// check the SDK of a project outside, and init does not choose it.
    @Test func projectsOutsideTheFolderAreNeverRead() throws {
        let outside = try TemporaryDirectory(prefix: "slipway-choice-outside")
        try outside.write("Evil/Evil.xcodeproj/project.pbxproj", VersionedXcodeProject.pbxproj(targets: [
            VersionedXcodeProject.Target("Evil", settings: [("PRODUCT_BUNDLE_IDENTIFIER", "com.evil"), ("SDKROOT", "macosx")]),
        ]))
        let folder = try TemporaryDirectory(prefix: "slipway-choice-inside")
        let relative = "../" + (outside.path as NSString).lastPathComponent + "/Evil/Evil.xcodeproj"
        try folder.write("App.xcodeproj/project.pbxproj", VersionedXcodeProject.pbxproj(targets: [
            VersionedXcodeProject.Target("Kit", productType: Self.framework),
        ]))
        try folder.write("App.xcodeproj/xcshareddata/xcschemes/App.xcscheme", Self.scheme("Evil", project: relative))
        try folder.write("App.xcworkspace/contents.xcworkspacedata", Self.workspace([relative, "App.xcodeproj"]))
        try folder.write("lanes/ship.yml", """
            steps:
              - xcode.archive: { project: App.xcodeproj, scheme: App, destinations: ["generic/platform=iOS"] }

            """)
        let before = try Snapshot.of(folder.path)
        let result = try slipway(["validate", "ship", "--platform", "macos"], in: folder.path)
        #expect(result.status == 0, "\(result.standardError)")
        #expect(result.standardOutput == "✓ ship: 1 step, valid (checked as on macos)\n")
        #expect(try Snapshot.of(folder.path) == before)
        let initialized = try slipway(["init", "--template", "ios"], in: folder.path)
        #expect(initialized.status == 0, "\(initialized.standardError)")
        #expect(initialized.standardOutput.hasPrefix("found    App.xcworkspace (project App.xcodeproj)\n"), "\(initialized.standardOutput)")
        #expect(!initialized.standardOutput.contains("Evil"))
        #expect(try Self.outsideLanes(folder.path) == before.filter { $0.key != "lanes" })
    }

    /// The folder's snapshot without the lane file init writes (nothing else may change).
    static func outsideLanes(_ path: String) throws -> [String: String] {
        try Snapshot.of(path).filter { $0.key != "lanes" && $0.key != "lanes/ios-release.yml" }
    }

    static func line(of text: String, in path: String) throws -> Int {
        let lines = try String(contentsOfFile: path, encoding: .utf8).components(separatedBy: "\n")
        return (lines.lastIndex { $0.contains(text) } ?? -1) + 1
    }
}
