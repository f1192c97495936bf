import Testing
import TestThreads
@testable import PBXProj

/// The typed model over the syntax: every kind of object the issue lists.
@Suite("Typed model", .dedicatedThreads)
struct ModelTests {
    let project: PBXProject

    init() throws {
        project = try PBXProject(bytes: Array(SampleProject.text.utf8), projectName: "Sample")
    }

    @Test("the project object, main group and product group")
    func projectObject() throws {
        #expect(project.rootObjectID == SampleProject.project)
        #expect(project.objectVersion == 77)
        #expect(project.mainGroupID == SampleProject.mainGroup)
        #expect(project.productRefGroupID == SampleProject.productsGroup)
        #expect(project.sourceFormat == .openStep)
        #expect(project.isCanonical)
    }

    @Test("groups, variant groups and version groups")
    func groups() throws {
        let app = try #require(project.fileElement(SampleProject.appGroup))
        #expect(app.kind == .group)
        #expect(app.path == "App")
        #expect(app.children.count == 6)
        let variant = try #require(project.fileElement(SampleProject.variantGroup))
        #expect(variant.kind == .variantGroup)
        #expect(variant.displayName == "Main.storyboard")
        #expect(variant.children.count == 2)
        let version = try #require(project.fileElement(SampleProject.versionGroup))
        #expect(version.kind == .versionGroup)
        #expect(version.children == [SampleProject.model])
        #expect(project.groups.count == 7)
    }

    @Test("file references")
    func fileReferences() throws {
        let delegate = try #require(project.fileElement(SampleProject.appDelegate))
        #expect(delegate.kind == .fileReference)
        #expect(delegate.fileType == "sourcecode.swift")
        #expect(delegate.name == nil)
        #expect(project.fileReferences.count == 13)
    }

    @Test("resolved paths for every sourceTree kind")
    func resolvedPaths() throws {
        #expect(try project.resolvedPath(of: SampleProject.appDelegate) == .relative("App/AppDelegate.swift"))
        #expect(try project.resolvedPath(of: SampleProject.baseStoryboard) == .relative("App/Base.lproj/Main.storyboard"))
        #expect(try project.resolvedPath(of: SampleProject.model) == .relative("App/Model.xcdatamodeld/Model.xcdatamodel"))
        #expect(try project.resolvedPath(of: SampleProject.infoPlist) == .relative("App/Info.plist"))
        #expect(try project.resolvedPath(of: SampleProject.words) == .absolute("/usr/share/dict/words"))
        #expect(try project.resolvedPath(of: SampleProject.uikit) == .buildSetting(name: "SDKROOT", path: "System/Library/Frameworks/UIKit.framework"))
        #expect(try project.resolvedPath(of: SampleProject.appProduct) == .buildSetting(name: "BUILT_PRODUCTS_DIR", path: "App.app"))
        #expect(try project.resolvedPath(of: SampleProject.syncGroup) == .relative("Synced"))
        #expect(ResolvedPath.buildSetting(name: "BUILT_PRODUCTS_DIR", path: "App.app").description == "$(BUILT_PRODUCTS_DIR)/App.app")
        #expect(ResolvedPath.relative("App/x.swift").absolutePath(projectDirectory: "/src/proj") == "/src/proj/App/x.swift")
        #expect(ResolvedPath.relative("../Shared/x.swift").absolutePath(projectDirectory: "/src/proj") == "/src/Shared/x.swift")
    }

    @Test("projectDirPath shifts what SOURCE_ROOT and the main group point at")
    func projectDirPath() throws {
        var edited = project
        try edited.modify(SampleProject.project) { $0["projectDirPath"] = "Sub" }
        #expect(try edited.resolvedPath(of: SampleProject.appDelegate) == .relative("Sub/App/AppDelegate.swift"))
        #expect(try edited.resolvedPath(of: SampleProject.infoPlist) == .relative("Sub/App/Info.plist"))
    }

    @Test("the group tree walks from the main group in order with depths")
    func groupTree() throws {
        let tree = try project.groupTree()
        #expect(tree.nodes.first?.element.id == SampleProject.mainGroup)
        #expect(tree.nodes.count == 21)
        let delegate = try #require(tree.nodes.first { $0.element.id == SampleProject.appDelegate })
        #expect(delegate.depth == 2)
        #expect(delegate.parent.map { tree.nodes[$0].element.id } == SampleProject.appGroup)
        #expect(tree.resolvedPaths()[SampleProject.contentView] == .relative("App/ContentView.swift"))
    }

    @Test("synchronized root groups and their exception sets")
    func synchronizedGroups() throws {
        let group = try #require(project.synchronizedRootGroup(SampleProject.syncGroup))
        #expect(group.element.path == "Synced")
        #expect(group.exceptions == [SampleProject.exceptionSet])
        let exceptions = try #require(project.exceptionSet(SampleProject.exceptionSet))
        #expect(exceptions.target == SampleProject.appTarget)
        #expect(exceptions.membershipExceptions == ["Info.plist", "Excluded/Skip.swift"])
        #expect(project.synchronizedRootGroups.count == 1)
    }

    @Test("targets, build phases, build files")
    func targets() throws {
        #expect(project.targets.map(\.name) == ["App", "AppTests"])
        let app = try #require(project.target(named: "App"))
        #expect(app.productType == "com.apple.product-type.application")
        #expect(app.fileSystemSynchronizedGroups == [SampleProject.syncGroup])
        #expect(app.packageProductDependencies.count == 2)
        let phases = app.buildPhases.compactMap { project.buildPhase($0) }
        #expect(phases.map(\.isa) == ["PBXSourcesBuildPhase", "PBXResourcesBuildPhase", "PBXFrameworksBuildPhase", "PBXShellScriptBuildPhase"])
        #expect(phases.last?.name == "Lint")
        let sources = try #require(phases.first)
        let files = sources.files.compactMap { project.buildFile($0)?.fileRef }
        #expect(files == [SampleProject.appDelegate, SampleProject.contentView, SampleProject.versionGroup])
        let frameworks = phases[2].files.compactMap { project.buildFile($0) }
        #expect(frameworks.first?.settings?["ATTRIBUTES"] == ["Weak"])
        #expect(frameworks[1].productRef != nil)
    }

    @Test("configurations and configuration lists")
    func configurations() throws {
        let app = try #require(project.target(named: "App"))
        let configurations = project.buildConfigurations(of: app.id)
        #expect(configurations.map(\.name) == ["Debug", "Release"])
        #expect(configurations[0].baseConfigurationReference == SampleProject.xcconfig)
        #expect(configurations[0].buildSettings["MARKETING_VERSION"] == "1.2.0")
        let list = try #require(app.buildConfigurationList.flatMap { project.configurationList($0) })
        #expect(list.defaultConfigurationName == "Release")
        #expect(project.buildConfigurations(of: SampleProject.project).map(\.id) == [SampleProject.projectDebug, "120000000000000000000002"])
    }

    @Test("Swift packages, remote and local, and their products")
    func packages() throws {
        let packages = project.swiftPackageReferences
        #expect(packages.count == 2)
        #expect(packages.contains { $0.location == .local(relativePath: "../Packages/Core") })
        let remote = try #require(packages.first { if case .remote = $0.location { return true } else { return false } })
        if case .remote(let url, let requirement) = remote.location {
            #expect(url == "https://github.com/apple/swift-argument-parser.git")
            #expect(requirement?["minimumVersion"] == "1.5.0")
        }
        #expect(Set(project.swiftPackageProducts.map(\.productName)) == ["ArgumentParser", "Core"])
    }

    @Test("target dependencies and container item proxies")
    func dependencies() throws {
        let dependency = try #require(project.targetDependency(SampleProject.dependency))
        #expect(dependency.target == SampleProject.appTarget)
        #expect(dependency.targetProxy == SampleProject.proxy)
        let proxy = try #require(project.containerItemProxy(SampleProject.proxy))
        #expect(proxy.containerPortal == SampleProject.project)
        #expect(proxy.remoteGlobalIDString == SampleProject.appTarget.rawValue)
        #expect(proxy.remoteInfo == "App")
    }

    @Test("unknown isas and unknown keys are kept through edits")
    func unknownsKept() throws {
        var edited = project
        try edited.modify(SampleProject.appDelegate) { $0["futureFlag"] = "1" }
        try edited.setPath(of: SampleProject.appGroup, to: "Application")
        let reread = try PBXProject(bytes: try edited.serialized(), projectName: "Sample")
        let future = try #require(reread.object(SampleProject.future))
        #expect(future.isa == "PBXFutureThing")
        #expect(future.string("futureKey") == "kept as is")
        #expect(reread.object(SampleProject.appDelegate)?.string("futureFlag") == "1")
        #expect(reread.object(SampleProject.appDelegate)?.properties.keys == ["isa", "futureFlag", "lastKnownFileType", "path", "sourceTree"])
    }

    @Test("new object ids are Xcode-shaped, unused and deterministic")
    func objectIDs() {
        let first = project.makeObjectID(seed: "x")
        #expect(first.rawValue.count == 24)
        #expect(first.rawValue.allSatisfy { $0.isHexDigit && ($0.isNumber || $0.isUppercase) })
        #expect(project.makeObjectID(seed: "x") == first)
        #expect(project.makeObjectID(seed: "y") != first)
        #expect(!project.contains(first))
    }
}
