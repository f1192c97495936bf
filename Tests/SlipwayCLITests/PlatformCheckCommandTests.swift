import Foundation
import Testing
import TestSupport
import TestThreads

/// Checking a macOS lane from Linux (issue 25, point 4) through the built `slipway` binary:
/// `validate --platform macos`, `run --dry-run --platform macos`, the refusal without it, and the
/// read-only checks of a dry run. Nothing here runs xcodebuild; every test proves that nothing on
/// disk changed.
@Suite("slipway validate/run --platform", .dedicatedThreads)
struct PlatformCheckCommandTests {
    static let scheme = """
        <?xml version="1.0" encoding="UTF-8"?>
        <Scheme LastUpgradeVersion = "1620" version = "1.7">
           <BuildAction parallelizeBuildables = "YES" buildImplicitDependencies = "YES">
              <BuildActionEntries>
                 <BuildActionEntry buildForTesting = "YES" buildForRunning = "YES" buildForArchiving = "YES">
                    <BuildableReference BuildableIdentifier = "primary" BlueprintIdentifier = "A1B2C3D4E5F60718293A4B5C"
                       BuildableName = "App.app" BlueprintName = "App" ReferencedContainer = "container:App.xcodeproj">
                    </BuildableReference>
                 </BuildActionEntry>
              </BuildActionEntries>
           </BuildAction>
           <ArchiveAction buildConfiguration = "Release" revealArchiveInOrganizer = "YES"/>
        </Scheme>
        """

    /// An iOS app's release lane (build, test, archive, export) with `scheme` for the test step.
    static func lane(testScheme: String) -> String {
        """
        steps:
          - git.ensure-clean
          - xcode.build: { project: App.xcodeproj, scheme: App, destinations: ["generic/platform=iOS Simulator"] }
            id: build
          - xcode.test: { project: App.xcodeproj, scheme: \(testScheme), destinations: ["platform=iOS Simulator,name=iPhone 16,OS=18.2"] }
            id: test
          - xcode.archive: { project: App.xcodeproj, scheme: App, archive-path: build/App.xcarchive }
            id: archive
          - xcode.export: { archive: "${{ steps.archive.outputs.archive }}", export-path: build/export, method: app-store-connect, team-id: ABCDE12345 }
            id: export
        """
    }

    /// A committed app project with one shared scheme 'App' and the lane.
    func project(testScheme: String = "App") throws -> GitFixture {
        let repository = try GitFixture(prefix: "slipway-platform")
        try repository.write("App.xcodeproj/project.pbxproj", "// !$*UTF8*$!\n{ }\n")
        try repository.write("App.xcodeproj/xcshareddata/xcschemes/App.xcscheme", Self.scheme)
        try repository.write("lanes/ios.yml", Self.lane(testScheme: testScheme))
        try repository.write(".gitignore", "/.slipway/\n/build/\n")
        try repository.commit("app")
        return repository
    }

    func slipway(_ arguments: [String], in directory: String) throws -> CommandResult {
        try CommandResult.run(Binaries.slipway, arguments, in: directory,
                              environment: ["NO_COLOR": "1", "GITHUB_ACTIONS": nil, "DEVELOPER_DIR": nil])
    }

    @Test("on Linux, validate refuses the macOS-only steps and says how to check them from here")
    func refusalSaysHowToCheck() throws {
        guard Platform.isLinux else { return }
        let repository = try project()
        let before = try Snapshot.of(repository.path)
        let result = try slipway(["validate", "ios"], in: repository.path)
        #expect(result.status == 2)
        let hint = "; to check this lane from linux, run 'slipway validate ios --platform macos' or 'slipway run ios --dry-run --platform macos'"
        #expect(result.standardError == ["3:5 'xcode.build'", "5:5 'xcode.test'", "7:5 'xcode.archive'", "9:5 'xcode.export'"].map { entry in
            let (place, step) = (entry.split(separator: " ")[0], entry.split(separator: " ")[1])
            return "lanes/ios.yml:\(place): error: step \(step) runs only on macos, not on linux; run this lane on macos or remove the step\(hint)\n"
        }.joined(), "\(result.standardError)")
        #expect(result.standardOutput == "✗ ios: 4 problem(s)\n")
        let run = try slipway(["run", "ios"], in: repository.path)
        #expect(run.status == 2)
        #expect(run.standardError.contains("error: step 'xcode.test' runs only on macos, not on linux; run this lane on macos or remove the step\(hint)\n"),
                "\(run.standardError)")
        #expect(try Snapshot.of(repository.path) == before)
    }

    @Test("validate --platform macos runs every check: a misspelt scheme is reported with its place")
    func validateAsMacOSFindsAMisspeltScheme() throws {
        let repository = try project(testScheme: "Ap")
        let before = try Snapshot.of(repository.path)
        let result = try slipway(["validate", "ios", "--platform", "macos"], in: repository.path)
        #expect(result.status == 2)
        #expect(result.standardError == "lanes/ios.yml:5:5: error: step 'test' (xcode.test): No scheme 'Ap' in 'App.xcodeproj' (its schemes: 'App'). Did you mean 'App'?\n",
                "\(result.standardError)")
        #expect(result.standardOutput == "✗ ios: 1 problem(s)\(Platform.isLinux ? " (checked as on macos)" : "")\n")

        try repository.write("lanes/ios.yml", Self.lane(testScheme: "App"))
        let valid = try slipway(["validate", "ios", "--platform", "macos"], in: repository.path)
        #expect(valid.status == 0, "\(valid.standardError)")
        #expect(valid.standardOutput == "✓ ios: 5 steps, valid\(Platform.isLinux ? " (checked as on macos)" : "")\n")
        let bad = try slipway(["validate", "ios", "--platform", "windows"], in: repository.path)
        #expect(bad.status == 64)
        #expect(bad.standardError.contains("'windows'"), "\(bad.standardError)")
        try repository.write("lanes/ios.yml", Self.lane(testScheme: "Ap"))
        #expect(try Snapshot.of(repository.path) == before)
    }

    @Test("run --dry-run --platform macos prints every step's plan with the exact xcodebuild lines, and writes nothing")
    func dryRunAsMacOSPrintsTheCommandLines() throws {
        let repository = try project()
        let root = repository.path
        let before = try Snapshot.of(root)
        let result = try slipway(["run", "ios", "--dry-run", "--platform", "macos"], in: root)
        #expect(result.status == 0, "\(result.standardOutput)\(result.standardError)")
        let out = result.standardOutput
        for line in [
            "▸ lane 'ios' (lanes/ios.yml) — dry run, nothing will be changed",
            "    would check: the git working tree at \(root) has no staged, unstaged or untracked files",
            "    would check: use the Xcode that xcode-select points to (no 'xcode:' option, no DEVELOPER_DIR)",
            "    would process: xcodebuild -project \(root)/App.xcodeproj -scheme App -destination 'generic/platform=iOS Simulator' build",
            "    would write: .slipway/logs/ios-build-build.log (the raw xcodebuild log)",
            "    would process: xcodebuild -project \(root)/App.xcodeproj -scheme App -destination 'generic/platform=iOS Simulator' -showBuildSettings -json (read the products' paths)",
            "    would process: xcodebuild -project \(root)/App.xcodeproj -scheme App -destination 'platform=iOS Simulator,name=iPhone 16,OS=18.2' -resultBundlePath \(root)/.slipway/results/ios-test.xcresult test",
            "    would process: xcodebuild -project \(root)/App.xcodeproj -scheme App -archivePath \(root)/build/App.xcarchive archive",
            "    would write: \(root)/.slipway/build/ios-export-ExportOptions.plist (ExportOptions.plist, method app-store-connect)",
            "    would process: xcodebuild -exportArchive -archivePath '\(root)/<steps.archive.outputs.archive>' -exportPath \(root)/build/export -exportOptionsPlist \(root)/.slipway/build/ios-export-ExportOptions.plist",
            "✓ lane 'ios' planned in",
        ] {
            #expect(out.contains(line), "missing \(line)\nin \(out)")
        }
        #expect(try Snapshot.of(root) == before)
    }

    @Test("run --platform macos without --dry-run is a usage error saying why; nothing runs")
    func realRunForAnotherPlatformIsRefused() throws {
        guard Platform.isLinux else { return }
        let repository = try project()
        let before = try Snapshot.of(repository.path)
        let result = try slipway(["run", "ios", "--platform", "macos"], in: repository.path)
        #expect(result.status == 64)
        #expect(result.standardError.hasPrefix("Error: --platform macos checks and plans the lane as on macos, which needs --dry-run: this machine runs linux, where a real run of macos-only steps cannot happen. Add --dry-run, or run the lane on macos.\n"),
                "\(result.standardError)")
        #expect(result.standardOutput.isEmpty)
        #expect(try Snapshot.of(repository.path) == before)
    }

    @Test("a dry run on a dirty tree says git.ensure-clean would fail, plans the rest and exits 1")
    func dirtyTreeDryRunFails() throws {
        let repository = try project()
        try repository.write("README.md", "draft\n")
        let before = try Snapshot.of(repository.path)
        let result = try slipway(["run", "ios", "--dry-run", "--platform", "macos"], in: repository.path)
        #expect(result.status == 1, "\(result.standardOutput)\(result.standardError)")
        let out = result.standardOutput
        #expect(out.contains("""
            ✗ git.ensure-clean would fail
                the working tree has 1 uncommitted change(s):
                  ?? README.md
                Commit or stash them first, or set allow-untracked: true if only untracked files remain.
            """), "\(out)")
        #expect(out.contains("✓ export planned"), "the later steps are still planned: \(out)")
        #expect(out.contains("✗ lane 'ios': the dry run found 1 step(s) that would fail (git.ensure-clean); nothing was changed. Fix them, then run the lane."),
                "\(out)")
        #expect(!out.contains("--resume"), "\(out)")
        #expect(try Snapshot.of(repository.path) == before)
    }
}

private enum Platform {
    static var isLinux: Bool {
        #if os(Linux)
        return true
        #else
        return false
        #endif
    }
}
