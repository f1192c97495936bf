import Basics
import Testing
import TestSupport
import TestThreads
import Xcode

@Suite("Schemes of projects and workspaces", .dedicatedThreads)
struct SchemeTests {
    let fileSystem = LocalFileSystem()

    @Test("a scheme file: build targets, testables, test plans, configurations")
    func parse() throws {
        let scheme = try XcodeScheme(xml: Array(SchemeFixtures.scheme().utf8), path: "x/App Release.xcscheme", origin: .shared)
        #expect(scheme.name == "App Release")
        #expect(scheme.buildableReferences == [XcodeScheme.BuildableReference(
            blueprintName: "App", buildableName: "App.app", blueprintIdentifier: "A1B2C3D4E5F60718293A4B5C",
            referencedContainer: "container:App.xcodeproj")])
        #expect(scheme.testables.map(\.reference.blueprintName) == ["AppTests", "AppUITests"])
        #expect(scheme.testables.map(\.isSkipped) == [false, true])
        #expect(scheme.testPlans.map(\.name) == ["App", "Smoke"])
        #expect(scheme.defaultTestPlan?.reference == "container:App.xctestplan")
        #expect(scheme.testConfiguration == "Debug")
        #expect(scheme.launchConfiguration == "Debug")
        #expect(scheme.archiveConfiguration == "Release")
    }

    @Test("a project: shared schemes, then each user's")
    func project() throws {
        let directory = try TemporaryDirectory()
        let project = try SchemeFixtures.project("App.xcodeproj", in: directory)
        try directory.write("App.xcodeproj/xcshareddata/xcschemes/App.xcscheme", SchemeFixtures.scheme())
        try directory.write("App.xcodeproj/xcshareddata/xcschemes/notes.txt", "not a scheme")
        try directory.write("App.xcodeproj/xcuserdata/ana.xcuserdatad/xcschemes/App Debug.xcscheme", SchemeFixtures.scheme(testPlan: false))
        let schemes = try XcodeSchemes.list(in: XcodeContainer(path: project), fileSystem: fileSystem)
        #expect(schemes.map(\.name) == ["App", "App Debug"])
        #expect(schemes.map(\.origin) == [.shared, .user("ana")])
        #expect(schemes[1].testPlans.isEmpty)
    }

    @Test("a project without scheme files: one autocreated scheme per target")
    func autocreated() throws {
        let directory = try TemporaryDirectory()
        let project = try SchemeFixtures.project("App.xcodeproj", in: directory)
        let schemes = try XcodeSchemes.list(in: XcodeContainer(path: project + "/"), fileSystem: fileSystem)
        #expect(schemes.map(\.name) == ["App"])
        #expect(schemes.first?.origin == .autocreated)
        #expect(schemes.first?.buildableReferences.map(\.buildableName) == ["App.app"])
        #expect(schemes.first?.buildableReferences.map(\.referencedContainer) == ["container:App.xcodeproj"])
    }

    @Test("a workspace: its own schemes, then each project's, through groups and every location kind")
    func workspace() throws {
        let directory = try TemporaryDirectory()
        try SchemeFixtures.project("App.xcodeproj", in: directory)
        try directory.write("App.xcodeproj/xcshareddata/xcschemes/App.xcscheme", SchemeFixtures.scheme())
        try SchemeFixtures.project("Modules/Core/Core.xcodeproj", in: directory)
        try directory.write("Modules/Core/Core.xcodeproj/xcshareddata/xcschemes/Core.xcscheme", SchemeFixtures.scheme(target: "Core"))
        try SchemeFixtures.project("Pods/Pods.xcodeproj", in: directory)
        try SchemeFixtures.project("Tools/Lint.xcodeproj", in: directory)
        try directory.write("App.xcworkspace/xcshareddata/xcschemes/Everything.xcscheme", SchemeFixtures.scheme())
        try directory.write("App.xcworkspace/contents.xcworkspacedata", SchemeFixtures.workspace("""
               <FileRef location = "group:App.xcodeproj"></FileRef>
               <Group location = "group:Modules" name = "Modules">
                  <Group location = "group:Core" name = "Core">
                     <FileRef location = "group:Core.xcodeproj"></FileRef>
                     <FileRef location = "group:README.md"></FileRef>
                  </Group>
                  <FileRef location = "container:Pods/Pods.xcodeproj"></FileRef>
               </Group>
               <FileRef location = "absolute:\(directory.path)/Tools/Lint.xcodeproj"></FileRef>
               <FileRef location = "developer:Library/Xcode/Templates/X.xcodeproj"></FileRef>
            """))
        let workspace = try XcodeContainer(path: directory.path + "/App.xcworkspace")
        let schemes = try XcodeSchemes.list(in: workspace, fileSystem: fileSystem)
        #expect(schemes.map(\.name) == ["Everything", "App", "Core", "App", "App"])
        #expect(schemes.map(\.origin) == [.shared, .shared, .shared, .autocreated, .autocreated])
        #expect(schemes[3].path == directory.path + "/Pods/Pods.xcodeproj")
        #expect(schemes[4].path == directory.path + "/Tools/Lint.xcodeproj")
        #expect(try XcodeSchemes.find("Core", in: workspace, fileSystem: fileSystem).path
            == directory.path + "/Modules/Core/Core.xcodeproj/xcshareddata/xcschemes/Core.xcscheme")
    }

    @Test("self: in a project's embedded workspace names the project's folder")
    func selfLocation() throws {
        let projects = try XcodeWorkspaceData.projects(
            xml: Array(SchemeFixtures.workspace("<FileRef location = \"self:\"></FileRef>").utf8),
            path: "App.xcodeproj/project.xcworkspace/contents.xcworkspacedata", workspace: "ios/App.xcodeproj/project.xcworkspace")
        #expect(projects == ["ios/App.xcodeproj"])
        let relative = try XcodeWorkspaceData.projects(
            xml: Array(SchemeFixtures.workspace("<Group location = \"group:../Other\"><FileRef location = \"group:./B.xcodeproj\"/></Group>").utf8),
            path: "W.xcworkspace/contents.xcworkspacedata", workspace: "ios/W.xcworkspace")
        #expect(relative == ["Other/B.xcodeproj"])
    }

    @Test("a scheme that does not exist: the container, its schemes and the nearest name")
    func notFound() throws {
        let directory = try TemporaryDirectory()
        let project = try SchemeFixtures.project("App.xcodeproj", in: directory)
        try directory.write("App.xcodeproj/xcshareddata/xcschemes/App.xcscheme", SchemeFixtures.scheme())
        try directory.write("App.xcodeproj/xcshareddata/xcschemes/App Staging.xcscheme", SchemeFixtures.scheme())
        #expect {
            try XcodeSchemes.find("App Stagign", in: XcodeContainer(path: project), fileSystem: fileSystem)
        } throws: { error in
            (error as? XcodeProjectError)?.errorDescription
                == "No scheme 'App Stagign' in '\(project)' (its schemes: 'App', 'App Staging'). Did you mean 'App Staging'?"
        }
    }

    @Test("no such project, workspace or listed project; not a container")
    func missing() throws {
        let directory = try TemporaryDirectory()
        #expect(throws: XcodeProjectError.notAContainer(path: directory.path + "/Nope.xcworkspace", reason: "does not exist")) {
            try XcodeSchemes.list(in: XcodeContainer(path: directory.path + "/Nope.xcworkspace"), fileSystem: fileSystem)
        }
        #expect(XcodeProjectError.notAContainer(path: "Nope.xcodeproj", reason: "does not exist").errorDescription
            == "'Nope.xcodeproj' does not exist. Give the path of an .xcodeproj or .xcworkspace.")
        #expect(throws: XcodeProjectError.notAContainer(path: "App.xcode", reason: "is neither an .xcodeproj nor an .xcworkspace")) {
            try XcodeContainer(path: "App.xcode")
        }
        try directory.write("Empty.xcodeproj/.keep", "")
        #expect(throws: XcodeProjectError.notAContainer(path: directory.path + "/Empty.xcodeproj", reason: "has no project.pbxproj")) {
            try XcodeSchemes.list(in: XcodeContainer(path: directory.path + "/Empty.xcodeproj"), fileSystem: fileSystem)
        }
        try directory.write("W.xcworkspace/contents.xcworkspacedata", SchemeFixtures.workspace("<FileRef location = \"group:Gone.xcodeproj\"/>"))
        #expect(throws: XcodeProjectError.notAContainer(
            path: directory.path + "/Gone.xcodeproj",
            reason: "is listed in '\(directory.path)/W.xcworkspace/contents.xcworkspacedata' but does not exist")) {
            try XcodeSchemes.list(in: XcodeContainer(path: directory.path + "/W.xcworkspace"), fileSystem: fileSystem)
        }
    }

    @Test("a malformed scheme file: file, line and column")
    func malformed() throws {
        let directory = try TemporaryDirectory()
        let project = try SchemeFixtures.project("App.xcodeproj", in: directory)
        let path = try directory.write("App.xcodeproj/xcshareddata/xcschemes/App.xcscheme", """
            <?xml version="1.0" encoding="UTF-8"?>
            <Scheme version = "1.7">
               <BuildAction>
               </TestAction>
            </Scheme>
            """)
        #expect {
            try XcodeSchemes.list(in: XcodeContainer(path: project), fileSystem: fileSystem)
        } throws: { error in
            // libxml2 notices the mismatch when the document's end tag arrives.
            (error as? XcodeProjectError)?.errorDescription
                == "\(path):5:10: malformed XML: a tag is not closed, or closed by the wrong end tag. Fix the file (or recreate it in Xcode)."
        }
    }
}
