import Basics
import Foundation
import Testing
import TestSupport
import TestThreads

/// Issue 40, point 8 (as on macOS, with the stand-in xcodebuild): a dry run's check of a workspace
/// whose Pods/ project `pod install` has not written fails and says to run it (validate only
/// notes it), and an xcodebuild failure on CocoaPods' missing files says to run `pod install`.
@Suite(.dedicatedThreads) struct XcodeCocoaPodsRunTests {
    static let workspace = """
        <?xml version="1.0" encoding="UTF-8"?>
        <Workspace version = "1.0">
           <FileRef location = "group:App.xcodeproj"></FileRef>
           <FileRef location = "group:Pods/Pods.xcodeproj"></FileRef>
        </Workspace>
        """

    @Test func aWorkspaceWithoutPodsFailsTheDryRunsCheckAndNothingRuns() async throws {
        let project = try XcodeLaneTests.Project(["f": "steps:\n  - xcode.build: { workspace: App.xcworkspace, scheme: App }\n"])
        try project.fixture.write("App.xcworkspace/contents.xcworkspacedata", Self.workspace)
        try project.fixture.write("Podfile", "target 'App'\n")
        let outcome = try await project.fixture.run("f", configure: { $0.isDryRun = true })
        #expect(outcome.summary.steps.first?.error == "'Pods/Pods.xcodeproj' is listed in 'App.xcworkspace/contents.xcworkspacedata' but does not exist "
            + "(CocoaPods writes it: run `pod install` (or `bundle exec pod install` when a Gemfile exists) before this step).")
        #expect(project.calls().isEmpty)
    }

    @Test func anXcodebuildFailureOnAMissingPodsXcconfigSaysToRunPodInstall() async throws {
        let project = try XcodeLaneTests.Project(["f": "steps:\n  - xcode.build: { project: App.xcodeproj, scheme: App }\n"])
        try project.scenario.write("build.log", """
            /tmp/App/App.xcodeproj: error: Unable to open base configuration reference file '/tmp/App/Pods/Target Support Files/Pods-App/Pods-App.release.xcconfig'. (in target 'App' from project 'App')
            ** BUILD FAILED **

            """)
        try project.scenario.write("build.status", "65")
        let outcome = try await project.fixture.run("f")
        let error = outcome.summary.steps.first?.error ?? ""
        #expect(error.contains("\n  CocoaPods' files are missing (CocoaPods writes it: run `pod install` (or `bundle exec pod install` when a Gemfile exists) before this step).\n"), "\(error)")
    }
}
