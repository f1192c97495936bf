import Foundation
import Testing
import TestSupport
import TestThreads
@testable import PBXProj

/// `ProjectDiff`: hand-made pairs of the sample project, one kind of change each.
@Suite("Project diff", .dedicatedThreads)
struct ProjectDiffTests {
    private func sample() throws -> PBXProject {
        try PBXProject(bytes: Array(SampleProject.text.utf8), projectName: "Sample")
    }

    private func diff(_ edit: (inout PBXProject) throws -> Void) throws -> ProjectDiff {
        let base = try sample()
        var edited = base
        try edit(&edited)
        // Through the written bytes, as two files on disk would be compared.
        let reread = try PBXProject(bytes: edited.serialized(), projectName: "Sample")
        return try ProjectDiff(from: base, to: reread)
    }

    @Test("a project compared with itself or its canonical form has no difference")
    func identical() throws {
        let base = try sample()
        #expect(try ProjectDiff(from: base, to: base).isEmpty)
        #expect(try ProjectDiff(from: base, to: base).humanText() == "")
        let reformatted = SampleProject.text.replacingOccurrences(of: "path = App;", with: "path = \"App\";")
            .replacingOccurrences(of: "\t", with: "  ")
        let other = try PBXProject(bytes: Array(reformatted.utf8), projectName: "Sample")
        #expect(try ProjectDiff(from: base, to: other).isEmpty)
        #expect(try ProjectSnapshot(other).semanticText() == ProjectSnapshot(base).semanticText())
    }

    @Test("targets: added, removed and renamed")
    func targets() throws {
        let difference = try diff { project in
            try project.modify(SampleProject.testTarget) { $0["name"] = "UnitTests" }
            let widget = ObjectID("0F00000000000000000000AA")
            try project.add(PBXObject(id: widget, isa: PBXIsa.nativeTarget, properties: [
                "buildPhases": [], "name": "Widget", "productType": "com.apple.product-type.app-extension",
            ]))
            try project.modify(SampleProject.project) { $0["targets"] = .array([.string(SampleProject.testTarget.rawValue), .string(widget.rawValue)]) }
            try project.removeObject(SampleProject.appTarget)
        }
        #expect(difference.targets.added == ["Widget (com.apple.product-type.app-extension)"])
        #expect(difference.targets.removed == ["App (com.apple.product-type.application)"])
        #expect(difference.targets.renamed == [ProjectDiff.Move(from: "AppTests", to: "UnitTests")])
        #expect(difference.buildPhases.isEmpty)
        #expect(difference.humanText().contains("Targets:\n  + Widget (com.apple.product-type.app-extension)\n  - App (com.apple.product-type.application)\n  ~ AppTests → UnitTests (renamed)\n"))
    }

    @Test("build phases: files added to and removed from a target's phase")
    func phases() throws {
        let difference = try diff { project in
            let file = try project.addFileReference(path: "Extra.swift", lastKnownFileType: "sourcecode.swift", to: SampleProject.appGroup)
            let buildFile = ObjectID("0D00000000000000000000AA")
            try project.add(PBXObject(id: buildFile, isa: PBXIsa.buildFile, properties: ["fileRef": .string(file.rawValue)]))
            try project.modify(SampleProject.sourcesPhase) {
                $0["files"] = .array([.string("0D0000000000000000000001"), .string("0D0000000000000000000005"), .string(buildFile.rawValue)])
            }
            try project.modify("0E0000000000000000000003") { $0["files"] = .array([.string("0D0000000000000000000004")]) }
        }
        #expect(difference.buildPhases == [
            ProjectDiff.PhaseChange(target: "App", phase: "Sources", change: "changed", filesAdded: ["App/Extra.swift"], filesRemoved: ["App/ContentView.swift"]),
            ProjectDiff.PhaseChange(target: "App", phase: "Frameworks", change: "changed", filesAdded: [],
                                    filesRemoved: ["package product ArgumentParser", "package product Core"]),
        ])
        #expect(difference.files.added == ["App/Extra.swift"])
        #expect(difference.humanText().contains("Build phases:\n  App › Sources:\n    + App/Extra.swift\n    - App/ContentView.swift\n"))
    }

    @Test("groups: added, removed, renamed, and a group moved under another parent")
    func groups() throws {
        let difference = try diff { project in
            try project.addGroup(path: "Views", to: SampleProject.appGroup)
            try project.setPath(of: SampleProject.testsGroup, to: "UnitTests")
            try project.modify(SampleProject.mainGroup) { group in
                group["children"] = .array(group.references("children").filter { $0.rawValue != "0A0000000000000000000005" }.map { .string($0.rawValue) })
            }
            try project.modify(SampleProject.appGroup) { group in
                group["children"] = .array(group.references("children").map { .string($0.rawValue) } + [.string("0A0000000000000000000005")])
            }
            try project.removeGroup(SampleProject.productsGroup)
        }
        #expect(difference.groups.added == ["App/Views"])
        #expect(difference.groups.removed == ["Products"])
        #expect(difference.groups.renamed == [ProjectDiff.Move(from: "Tests", to: "UnitTests")])
        #expect(difference.groups.moved == [ProjectDiff.Move(from: "Frameworks", to: "App/Frameworks")])
        #expect(difference.files.moved.isEmpty)
    }

    @Test("a group deleted and added again with a new id, the same path, name and children, is no change; a real rename still is")
    func groupReplacedAtTheSamePath() throws {
        let replacement = ObjectID("0A00000000000000000000AA")
        let replace: (inout PBXProject) throws -> Void = { project in
            let children = project.fileElement(SampleProject.appGroup)?.children ?? []
            try project.removeObject(SampleProject.appGroup)
            // The shape Xcode writes when a folder is removed and added back: a new id, an explicit
            // name, and the top-level group anchored at the project's folder instead of its parent.
            try project.add(PBXObject(id: replacement, isa: PBXIsa.group, properties: [
                "children": .array(children.map { .string($0.rawValue) }), "name": "App", "path": "App", "sourceTree": "SOURCE_ROOT",
            ]))
            let main = project.fileElement(SampleProject.mainGroup)?.children ?? []
            try project.setChildren(of: SampleProject.mainGroup, to: main.map { $0 == SampleProject.appGroup ? replacement : $0 })
        }
        let replaced = try diff(replace)
        #expect(replaced.groups == ProjectDiff.Elements())
        #expect(replaced.files == ProjectDiff.Elements())
        #expect(replaced.isEmpty)
        #expect(replaced.humanText() == "")

        let renamedToo = try diff { project in
            try replace(&project)
            try project.setPath(of: SampleProject.testsGroup, to: "UnitTests")
        }
        #expect(renamedToo.groups == ProjectDiff.Elements(renamed: [ProjectDiff.Move(from: "Tests", to: "UnitTests")]))
        // The renamed group's file moves with it: reported once, as the group's rename.
        #expect(renamedToo.files == ProjectDiff.Elements())
        #expect(renamedToo.humanText().contains("~ Tests → UnitTests (renamed)"))
        #expect(!renamedToo.humanText().contains("App → App"))
    }

    @Test("moves: a file under another group, the same file under a new id, a file deleted and added elsewhere")
    func moves() throws {
        let moved = try diff { project in
            let children = project.fileElement(SampleProject.appGroup)?.children ?? []
            try project.setChildren(of: SampleProject.appGroup, to: children.filter { $0 != SampleProject.contentView })
            try project.setChildren(of: SampleProject.testsGroup, to: ["0B000000000000000000000C", SampleProject.contentView])
        }
        #expect(moved.files == ProjectDiff.Elements(moved: [ProjectDiff.Move(from: "App/ContentView.swift", to: "Tests/ContentView.swift")]))
        #expect(moved.buildPhases.isEmpty)
        #expect(moved.humanText() == "Files:\n  > App/ContentView.swift → Tests/ContentView.swift (moved)\n")

        // Deleted and added again at the same place (a new id): no change at all.
        let recreated = try diff { project in
            try project.removeObject(SampleProject.appDelegate)
            let again = try project.addFileReference(path: "AppDelegate.swift", lastKnownFileType: "sourcecode.swift", to: SampleProject.appGroup)
            try project.modify("0D0000000000000000000001") { $0["fileRef"] = .string(again.rawValue) }
            let children = project.fileElement(SampleProject.appGroup)?.children ?? []
            try project.setChildren(of: SampleProject.appGroup, to: children.filter { $0 != SampleProject.appDelegate })
        }
        #expect(recreated.isEmpty)

        // Deleted here and added there under a new id: one move.
        let readded = try diff { project in
            try project.removeFileReference(SampleProject.contentView)
            try project.addFileReference(path: "ContentView.swift", lastKnownFileType: "sourcecode.swift", to: SampleProject.testsGroup)
        }
        #expect(readded.files == ProjectDiff.Elements(moved: [ProjectDiff.Move(from: "App/ContentView.swift", to: "Tests/ContentView.swift")]))
        #expect(readded.buildPhases == [ProjectDiff.PhaseChange(
            target: "App", phase: "Sources", change: "changed", filesAdded: [], filesRemoved: ["App/ContentView.swift"])])
    }

    @Test("build settings: added, removed and changed per target and configuration")
    func settings() throws {
        let difference = try diff { project in
            try project.setBuildSetting("MARKETING_VERSION", to: "1.3.0", in: SampleProject.appRelease)
            try project.setBuildSetting("SWIFT_STRICT_CONCURRENCY", to: "complete", in: SampleProject.appRelease)
            try project.setBuildSetting("SWIFT_VERSION", to: nil, in: SampleProject.appDebug)
            try project.setBuildSetting("OTHER_LDFLAGS", to: ["-ObjC", "-framework Foo"], in: SampleProject.projectDebug)
        }
        #expect(difference.buildSettings == [
            ProjectDiff.SettingsChange(target: nil, configuration: "Debug", change: "changed",
                                       added: ["OTHER_LDFLAGS": "-ObjC \"-framework Foo\""], removed: [:], changed: [:]),
            ProjectDiff.SettingsChange(target: "App", configuration: "Debug", change: "changed",
                                       added: [:], removed: ["SWIFT_VERSION": "5.0"], changed: [:]),
            ProjectDiff.SettingsChange(target: "App", configuration: "Release", change: "changed",
                                       added: ["SWIFT_STRICT_CONCURRENCY": "complete"], removed: [:],
                                       changed: ["MARKETING_VERSION": ProjectDiff.ValueChange(old: "1.2.0", new: "1.3.0")]),
        ])
        #expect(difference.humanText().contains("  App › Release:\n    + SWIFT_STRICT_CONCURRENCY = complete\n    ~ MARKETING_VERSION: 1.2.0 → 1.3.0\n"))
    }

    @Test("build settings: the base .xcconfig of a configuration")
    func baseConfiguration() throws {
        let difference = try diff { project in
            try project.modify(SampleProject.appRelease) { $0["baseConfigurationReference"] = nil }
        }
        #expect(difference.buildSettings == [ProjectDiff.SettingsChange(
            target: "App", configuration: "Release", change: "changed", added: [:], removed: [:], changed: [:],
            baseConfiguration: ProjectDiff.ValueChange(old: "Config.xcconfig", new: "none"))])
        #expect(difference.humanText() == "Build settings:\n  App › Release:\n    ~ based on: Config.xcconfig → none\n")
        #expect(try ProjectSnapshot(sample()).semanticText().contains("\nconfiguration target App › Release  based on Config.xcconfig\n"))
    }

    @Test("human text: each line painted by its mark, headings too")
    func painted() throws {
        let difference = try diff { project in
            try project.addGroup(path: "Views", to: SampleProject.appGroup)
            try project.removeGroup(SampleProject.testsGroup)
            try project.setBuildSetting("MARKETING_VERSION", to: "1.3.0", in: SampleProject.appRelease)
        }
        let text = difference.humanText { text, mark in "<\(mark)>\(text)</>" }
        #expect(text.contains("<heading>Groups:</>\n  <added>+ App/Views</>\n  <removed>- Tests</>\n"))
        #expect(text.contains("    <changed>~ MARKETING_VERSION: 1.2.0 → 1.3.0</>\n"))
    }

    @Test("Swift packages: added, removed, requirement changed")
    func packages() throws {
        let difference = try diff { project in
            try project.modify(SampleProject.remotePackage) {
                $0["requirement"] = ["kind": "exactVersion", "version": "1.6.0"]
            }
            let added = ObjectID("13000000000000000000AAAA")
            try project.add(PBXObject(id: added, isa: "XCRemoteSwiftPackageReference", properties: [
                "repositoryURL": "https://github.com/apple/swift-collections",
                "requirement": ["kind": "upToNextMinorVersion", "minimumVersion": "1.1.0"],
            ]))
            try project.removeObject(SampleProject.localPackage)
        }
        #expect(difference.packages.added == [ProjectDiff.Package(location: "https://github.com/apple/swift-collections", requirement: "up to next minor from 1.1.0")])
        #expect(difference.packages.removed == [ProjectDiff.Package(location: "local:../Packages/Core", requirement: "")])
        #expect(difference.packages.changed.values.first == ProjectDiff.ValueChange(old: "up to next major from 1.5.0", new: "exactly 1.6.0"))
        #expect(difference.humanText().contains("  + https://github.com/apple/swift-collections (up to next minor from 1.1.0)\n  - local:../Packages/Core\n  ~ "))
    }

    @Test("JSON: every section present with sorted keys")
    func json() throws {
        let difference = try diff { project in
            try project.setBuildSetting("MARKETING_VERSION", to: "1.3.0", in: SampleProject.appRelease)
        }
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys]
        let text = String(decoding: try encoder.encode(difference), as: UTF8.self)
        #expect(text == #"{"buildPhases":[],"buildSettings":[{"added":{},"change":"changed","changed":{"MARKETING_VERSION":{"new":"1.3.0","old":"1.2.0"}},"configuration":"Release","removed":{},"target":"App"}],"files":{"added":[],"moved":[],"removed":[],"renamed":[]},"groups":{"added":[],"moved":[],"removed":[],"renamed":[]},"packages":{"added":[],"changed":{},"removed":[]},"synchronizedFolders":[],"targets":{"added":[],"changed":[],"removed":[],"renamed":[]}}"#)
        #expect(try JSONDecoder().decode(ProjectDiff.self, from: Data(text.utf8)) == difference)
    }

    @Test("semantic text: one fact per line")
    func semanticText() throws {
        let text = try ProjectSnapshot(sample()).semanticText()
        #expect(text.hasPrefix("# project.pbxproj as semantic text (slipway xcodeproj diff --textconv)\n"))
        for line in [
            "package https://github.com/apple/swift-argument-parser.git  up to next major from 1.5.0",
            "group App/", "file App/AppDelegate.swift", "file App/words  @ /usr/share/dict/words",
            "target App  com.apple.product-type.application", "phase App › Sources: App/AppDelegate.swift",
            "phase App › Frameworks: package product ArgumentParser", "setting target App › Release: MARKETING_VERSION = 1.2.0",
        ] {
            #expect(text.contains("\n" + line + "\n"), "missing line: \(line)")
        }
    }
}
