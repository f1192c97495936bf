import Foundation
import TestSupport

/// Scheme and workspace files written for the tests, in the shapes Xcode 16 writes.
enum SchemeFixtures {
    static func scheme(target: String = "App", project: String = "App.xcodeproj", testPlan: Bool = true) -> String {
        let plans = testPlan ? """
                  <TestPlans>
                     <TestPlanReference reference = "container:\(target).xctestplan" default = "YES"/>
                     <TestPlanReference reference = "container:Plans/Smoke.xctestplan"/>
                  </TestPlans>
            """ : ""
        return """
            <?xml version="1.0" encoding="UTF-8"?>
            <Scheme LastUpgradeVersion = "1620" version = "1.7">
               <BuildAction parallelizeBuildables = "YES" buildImplicitDependencies = "YES">
                  <BuildActionEntries>
                     <BuildActionEntry buildForTesting = "YES" buildForRunning = "YES" buildForArchiving = "YES">
                        <BuildableReference BuildableIdentifier = "primary" BlueprintIdentifier = "A1B2C3D4E5F60718293A4B5C"
                           BuildableName = "\(target).app" BlueprintName = "\(target)" ReferencedContainer = "container:\(project)">
                        </BuildableReference>
                     </BuildActionEntry>
                  </BuildActionEntries>
               </BuildAction>
               <TestAction buildConfiguration = "Debug" selectedDebuggerIdentifier = "Xcode.DebuggerFoundation.Debugger.LLDB"
                  shouldUseLaunchSchemeArgsEnv = "YES">
            \(plans)
                  <Testables>
                     <TestableReference skipped = "NO" parallelizable = "YES">
                        <BuildableReference BuildableIdentifier = "primary" BlueprintIdentifier = "B1B2C3D4E5F60718293A4B5C"
                           BuildableName = "\(target)Tests.xctest" BlueprintName = "\(target)Tests" ReferencedContainer = "container:\(project)">
                        </BuildableReference>
                     </TestableReference>
                     <TestableReference skipped = "YES">
                        <BuildableReference BuildableIdentifier = "primary" BlueprintIdentifier = "C1B2C3D4E5F60718293A4B5C"
                           BuildableName = "\(target)UITests.xctest" BlueprintName = "\(target)UITests" ReferencedContainer = "container:\(project)">
                        </BuildableReference>
                     </TestableReference>
                  </Testables>
               </TestAction>
               <LaunchAction buildConfiguration = "Debug" launchStyle = "0">
                  <BuildableProductRunnable runnableDebuggingMode = "0">
                     <BuildableReference BuildableIdentifier = "primary" BlueprintIdentifier = "A1B2C3D4E5F60718293A4B5C"
                        BuildableName = "\(target).app" BlueprintName = "\(target)" ReferencedContainer = "container:\(project)">
                     </BuildableReference>
                  </BuildableProductRunnable>
               </LaunchAction>
               <ProfileAction buildConfiguration = "Release"/>
               <AnalyzeAction buildConfiguration = "Debug"/>
               <ArchiveAction buildConfiguration = "Release" revealArchiveInOrganizer = "YES"/>
            </Scheme>
            """
    }

    /// A project folder with a pbxproj (one app target "App"), no schemes.
    @discardableResult
    static func project(_ relative: String, in directory: TemporaryDirectory) throws -> String {
        try directory.write(relative + "/project.pbxproj", SyntheticXcodeProject.pbxproj(files: 1, groups: 1))
        return directory.path + "/" + relative
    }

    static func workspace(_ fileRefs: String) -> String {
        """
        <?xml version="1.0" encoding="UTF-8"?>
        <Workspace
           version = "1.0">
        \(fileRefs)
        </Workspace>
        """
    }
}
