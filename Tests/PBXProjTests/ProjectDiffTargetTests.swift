import Foundation
import Testing
import TestSupport
import TestThreads
@testable import PBXProj

/// `ProjectDiff` of what targets are made of beyond phases and settings: dependencies, package
/// products, synchronized folders and their exceptions, product, phase order and attributes,
/// build rules. Hand-made pairs of the sample project; human text and JSON asserted exactly.
@Suite("Project diff: targets and synchronized folders", .dedicatedThreads)
struct ProjectDiffTargetTests {
    private typealias Edit = (inout PBXProject) throws -> Void

    /// The sample with `base` applied, against it with `base` and then `edit` applied, both
    /// through written bytes.
    private func diff(base: Edit = { _ in }, _ edit: Edit) throws -> ProjectDiff {
        var before = try PBXProject(bytes: Array(SampleProject.text.utf8), projectName: "Sample")
        try base(&before)
        var after = before
        try edit(&after)
        return try ProjectDiff(
            from: PBXProject(bytes: before.serialized(), projectName: "Sample"),
            to: PBXProject(bytes: after.serialized(), projectName: "Sample"))
    }

    private func json(_ value: some Encodable) throws -> String {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        return String(decoding: try encoder.encode(value), as: UTF8.self)
    }

    private func setList(_ key: String, of id: ObjectID, to ids: [ObjectID], in project: inout PBXProject) throws {
        try project.modify(id) { $0[key] = .array(ids.map { .string($0.rawValue) }) }
    }

    @Test("dependencies: on a target, on a target of another project, on a package product; package products linked")
    func dependencies() throws {
        let difference = try diff { project in
            try setList("dependencies", of: SampleProject.testTarget, to: [], in: &project)
            let other = try project.addFileReference(path: "Other.xcodeproj", lastKnownFileType: "wrapper.pb-project", to: SampleProject.mainGroup)
            try project.add(PBXObject(id: "10000000000000000000000A", isa: "PBXContainerItemProxy", properties: [
                "containerPortal": .string(other.rawValue), "proxyType": "1", "remoteGlobalIDString": "AAAAAAAAAAAAAAAAAAAAAAAA", "remoteInfo": "Kit",
            ]))
            try project.add(PBXObject(id: "10000000000000000000000B", isa: "PBXTargetDependency", properties: [
                "name": "Kit", "targetProxy": "10000000000000000000000A",
            ]))
            try project.add(PBXObject(id: "13000000000000000000000A", isa: "XCSwiftPackageProductDependency", properties: [
                "package": .string(SampleProject.remotePackage.rawValue), "productName": "plugin:Lint",
            ]))
            try project.add(PBXObject(id: "10000000000000000000000C", isa: "PBXTargetDependency", properties: ["productRef": "13000000000000000000000A"]))
            try project.add(PBXObject(id: "13000000000000000000000B", isa: "XCSwiftPackageProductDependency", properties: [
                "package": .string(SampleProject.remotePackage.rawValue), "productName": "ArgumentParserToolInfo",
            ]))
            try setList("dependencies", of: SampleProject.testTarget, to: ["10000000000000000000000B"], in: &project)
            try setList("dependencies", of: SampleProject.appTarget, to: ["10000000000000000000000C"], in: &project)
            try setList("packageProductDependencies", of: SampleProject.appTarget,
                        to: ["130000000000000000000003", "13000000000000000000000B"], in: &project)
        }
        #expect(difference.humanText() == """
            Targets:
              App:
                + dependency: package product plugin:Lint
                + package product: ArgumentParserToolInfo (https://github.com/apple/swift-argument-parser.git)
                - package product: Core
              AppTests:
                + dependency: target Kit in Other.xcodeproj
                - dependency: target App
            Files:
              + Other.xcodeproj

            """)
        #expect(try json(difference.targets) == #"{"added":[],"changed":[{"buildRules":{"added":[],"removed":[]},"dependencies":{"added":["package product plugin:Lint"],"removed":[]},"packageProducts":{"added":["ArgumentParserToolInfo (https://github.com/apple/swift-argument-parser.git)"],"removed":["Core"]},"synchronizedFolders":{"added":[],"removed":[]},"target":"App"},{"buildRules":{"added":[],"removed":[]},"dependencies":{"added":["target Kit in Other.xcodeproj"],"removed":["target App"]},"packageProducts":{"added":[],"removed":[]},"synchronizedFolders":{"added":[],"removed":[]},"target":"AppTests"}],"removed":[],"renamed":[]}"#)
    }

    @Test("dependencies: a renamed target depended on is a rename, not a changed dependency")
    func renamedDependency() throws {
        let difference = try diff { project in
            try project.modify(SampleProject.appTarget) { $0["name"] = "Application" }
        }
        #expect(difference.humanText() == "Targets:\n  ~ App → Application (renamed)\n")
    }

    @Test("synchronized folders: added, a target gaining and losing one, exception entries per target and phase")
    func synchronizedFolders() throws {
        let difference = try diff { project in
            try project.add(PBXObject(id: "0C00000000000000000000AA", isa: PBXIsa.synchronizedRootGroup, properties: [
                "path": "Shared", "sourceTree": "<group>",
            ]))
            let children = project.fileElement(SampleProject.mainGroup)?.children ?? []
            try project.setChildren(of: SampleProject.mainGroup, to: children + ["0C00000000000000000000AA"])
            try setList("fileSystemSynchronizedGroups", of: SampleProject.appTarget, to: [], in: &project)
            try setList("fileSystemSynchronizedGroups", of: SampleProject.testTarget, to: ["0C00000000000000000000AA"], in: &project)
            try project.modify(SampleProject.exceptionSet) { $0["membershipExceptions"] = ["Info.plist", "Extra.swift"] }
            try project.add(PBXObject(id: "0C00000000000000000000AB", isa: "PBXFileSystemSynchronizedGroupBuildPhaseMembershipExceptionSet", properties: [
                "attributesByRelativePath": ["Tool": ["RemoveHeadersOnCopy"]], "buildPhase": "0E0000000000000000000002",
                "membershipExceptions": ["Assets/big.bin"],
            ]))
            try setList("exceptions", of: SampleProject.syncGroup, to: [SampleProject.exceptionSet, "0C00000000000000000000AB"], in: &project)
        }
        #expect(difference.humanText() == """
            Targets:
              App:
                - synchronized folder: Synced
              AppTests:
                + synchronized folder: Shared
            Groups:
              + Shared
            Synchronized folders:
              Synced › exceptions for App:
                + Extra.swift
                - Excluded/Skip.swift
              Synced › exceptions for App › Resources:
                + Assets/big.bin
                + attributesByRelativePath Tool: RemoveHeadersOnCopy

            """)
        #expect(try json(difference.synchronizedFolders) == #"[{"added":["Extra.swift"],"folder":"Synced","removed":["Excluded/Skip.swift"],"target":"App"},{"added":["Assets/big.bin","attributesByRelativePath Tool: RemoveHeadersOnCopy"],"folder":"Synced","phase":"Resources","removed":[],"target":"App"}]"#)
        #expect(try json(difference.targets.changed.map(\.synchronizedFolders)) == #"[{"added":[],"removed":["Synced"]},{"added":["Shared"],"removed":[]}]"#)
    }

    @Test("synchronized folders: one moved is a move; one removed takes its exceptions with it")
    func synchronizedFolderMovedAndRemoved() throws {
        let moved = try diff { project in
            let children = project.fileElement(SampleProject.mainGroup)?.children ?? []
            try project.setChildren(of: SampleProject.mainGroup, to: children.filter { $0 != SampleProject.syncGroup })
            let appChildren = project.fileElement(SampleProject.appGroup)?.children ?? []
            try project.setChildren(of: SampleProject.appGroup, to: appChildren + [SampleProject.syncGroup])
        }
        #expect(moved.humanText() == "Groups:\n  > Synced → App/Synced (moved)\n")
        let removed = try diff { project in
            let children = project.fileElement(SampleProject.mainGroup)?.children ?? []
            try project.setChildren(of: SampleProject.mainGroup, to: children.filter { $0 != SampleProject.syncGroup })
            try project.removeObject(SampleProject.syncGroup)
            try project.removeObject(SampleProject.exceptionSet)
            try setList("fileSystemSynchronizedGroups", of: SampleProject.appTarget, to: [], in: &project)
        }
        #expect(removed.humanText() == """
            Targets:
              App:
                - synchronized folder: Synced
            Groups:
              - Synced
            Synchronized folders:
              Synced › exceptions for App:
                - Excluded/Skip.swift
                - Info.plist

            """)
    }

    @Test("product type and name, build phase order, script and copy destination, build rules")
    func productPhasesAndRules() throws {
        let embed: Edit = { project in
            try project.add(PBXObject(id: "0E00000000000000000000AA", isa: "PBXCopyFilesBuildPhase", properties: [
                "buildActionMask": "2147483647", "dstPath": "", "dstSubfolderSpec": "13", "files": [], "name": "Embed",
                "runOnlyForDeploymentPostprocessing": "0",
            ]))
            try project.modify(SampleProject.appTarget) { target in
                target["buildPhases"] = .array((target.references("buildPhases") + ["0E00000000000000000000AA"]).map { .string($0.rawValue) })
            }
        }
        let difference = try diff(base: embed) { project in
            try project.modify(SampleProject.appTarget) { target in
                target["productType"] = "com.apple.product-type.app-extension"
                target["productName"] = "Main"
                target["buildRules"] = ["0E00000000000000000000BB"]
                target["buildPhases"] = ["0E0000000000000000000002", "0E0000000000000000000001", "0E0000000000000000000003",
                                         "0E0000000000000000000004", "0E00000000000000000000AA"]
            }
            try project.add(PBXObject(id: "0E00000000000000000000BB", isa: "PBXBuildRule", properties: [
                "compilerSpec": "com.apple.compilers.proxy.script", "filePatterns": "*.proto", "fileType": "pattern.proxy",
                "isEditable": "1", "outputFiles": ["$(DERIVED_FILE_DIR)/$(INPUT_FILE_BASE).pb.swift"], "script": "protoc $INPUT_FILE_PATH\n",
            ]))
            try project.modify("0E0000000000000000000004") { $0["shellScript"] = "swiftlint lint --strict\n" }
            try project.modify("0E00000000000000000000AA") {
                $0["dstPath"] = "Helpers"
                $0["dstSubfolderSpec"] = "10"
            }
        }
        #expect(difference.humanText() == #"""
            Targets:
              App:
                ~ build phase order: Sources, Resources, Frameworks, Lint, Embed → Resources, Sources, Frameworks, Lint, Embed
                ~ product name: App → Main
                ~ product type: com.apple.product-type.application → com.apple.product-type.app-extension
                + build rule: files *.proto; using com.apple.compilers.proxy.script; script protoc $INPUT_FILE_PATH\n; outputs $(DERIVED_FILE_DIR)/$(INPUT_FILE_BASE).pb.swift
            Build phases:
              App › Lint:
                ~ shellScript: swiftlint lint --quiet\n → swiftlint lint --strict\n
              App › Embed:
                ~ dstPath: none → Helpers
                ~ dstSubfolderSpec: PlugIns (13) → Frameworks (10)

            """#)
        #expect(try json(difference.buildPhases) == #"[{"change":"changed","details":{"shellScript":{"new":"swiftlint lint --strict\\n","old":"swiftlint lint --quiet\\n"}},"filesAdded":[],"filesRemoved":[],"phase":"Lint","target":"App"},{"change":"changed","details":{"dstPath":{"new":"Helpers","old":"none"},"dstSubfolderSpec":{"new":"Frameworks (10)","old":"PlugIns (13)"}},"filesAdded":[],"filesRemoved":[],"phase":"Embed","target":"App"}]"#)
        #expect(try json(difference.targets.changed) == #"[{"buildRules":{"added":["files *.proto; using com.apple.compilers.proxy.script; script protoc $INPUT_FILE_PATH\\n; outputs $(DERIVED_FILE_DIR)/$(INPUT_FILE_BASE).pb.swift"],"removed":[]},"dependencies":{"added":[],"removed":[]},"packageProducts":{"added":[],"removed":[]},"phaseOrder":{"new":"Resources, Sources, Frameworks, Lint, Embed","old":"Sources, Resources, Frameworks, Lint, Embed"},"productName":{"new":"Main","old":"App"},"productType":{"new":"com.apple.product-type.app-extension","old":"com.apple.product-type.application"},"synchronizedFolders":{"added":[],"removed":[]},"target":"App"}]"#)
    }

    @Test("per-file settings of a build file: compiler flags added, weak linking dropped")
    func fileSettings() throws {
        let difference = try diff { project in
            try project.modify("0D0000000000000000000001") { $0["settings"] = ["COMPILER_FLAGS": "-w"] }
            try project.modify("0D0000000000000000000004") { $0["settings"] = nil }
        }
        #expect(difference.humanText() == """
            Build phases:
              App › Sources:
                ~ settings of App/AppDelegate.swift: none → {COMPILER_FLAGS = -w}
              App › Frameworks:
                ~ settings of Frameworks/UIKit.framework: {ATTRIBUTES = Weak} → none

            """)
        #expect(try json(difference.buildPhases.map(\.details)) == #"[{"settings of App/AppDelegate.swift":{"new":"{COMPILER_FLAGS = -w}","old":"none"}},{"settings of Frameworks/UIKit.framework":{"new":"none","old":"{ATTRIBUTES = Weak}"}}]"#)
    }

    @Test("semantic text: dependencies, products, folders, exceptions, phase attributes and file settings, one per line")
    func semanticText() throws {
        let text = try ProjectSnapshot(PBXProject(bytes: Array(SampleProject.text.utf8), projectName: "Sample")).semanticText()
        for line in [
            "product name App: App", "dependency AppTests: target App", "package product App: ArgumentParser (https://github.com/apple/swift-argument-parser.git)",
            "package product App: Core", "synchronized folder App: Synced",
            #"phase App › Lint  shellScript = swiftlint lint --quiet\n"#, "phase App › Lint  shellPath = /bin/sh",
            "exception Synced › App: Excluded/Skip.swift", "exception Synced › App: Info.plist",
            "phase App › Frameworks: Frameworks/UIKit.framework  settings {ATTRIBUTES = Weak}",
        ] {
            #expect(text.contains("\n" + line + "\n"), "missing line: \(line)")
        }
    }
}
