import Testing
import TestThreads
@testable import PBXProj

/// The three classes of silently wrong merges found on real history (issue 27), reproduced on a
/// small hand-written project, and the check that no merge writes a dangling reference.
@Suite("pbxproj merge: no silent wrong merge", .dedicatedThreads)
struct MergeReproductionTests {
    typealias Edit = @Sendable (inout PBXProject) throws -> Void

    static func base() throws -> PBXProject { try PBXProject(bytes: Array(MiniProject.text.utf8), projectName: "Mini") }

    static func side(_ edits: [Edit]) throws -> [UInt8] {
        var project = try base()
        for edit in edits { try edit(&project) }
        return try project.canonicalSerialized()
    }

    static func merge(_ ours: [Edit], _ theirs: [Edit]) throws -> PBXProjMergeResult {
        try PBXProjMerge.merge(base: Array(MiniProject.text.utf8), ours: side(ours), theirs: side(theirs))
    }

    /// The merger after its run, to look at both resolutions.
    static func merger(_ ours: [Edit], _ theirs: [Edit]) throws -> GraphMerger {
        var merger = GraphMerger(
            base: try base(), ours: try PBXProject(bytes: side(ours), projectName: "Mini"),
            theirs: try PBXProject(bytes: side(theirs), projectName: "Mini"))
        try merger.run()
        return merger
    }

    static func add(_ path: String, to group: ObjectID) -> Edit {
        { _ = try $0.addFileReference(path: path, lastKnownFileType: "sourcecode.swift", to: group) }
    }

    static let deleteThree: Edit = { try $0.removeFileReference(MiniProject.three) }
    /// Moves Three.swift from App into the pass-through Sources group (the same object).
    static let moveThree: Edit = {
        let app = $0.object(MiniProject.appGroup)?.references("children") ?? []
        try $0.setChildren(of: MiniProject.appGroup, to: app.filter { $0 != MiniProject.three })
        try $0.setChildren(of: MiniProject.sourcesGroup, to: ($0.object(MiniProject.sourcesGroup)?.references("children") ?? []) + [MiniProject.three])
    }
    /// A new build file of Three.swift in the Resources phase.
    static let buildThreeAsResource: Edit = {
        try $0.add(PBXObject(id: "0D0000000000000000000009", isa: "PBXBuildFile", properties: ["fileRef": .string(MiniProject.three.rawValue)]))
        try $0.modify(MiniProject.resourcesPhase) { $0["files"] = .array([.string("0D0000000000000000000009")]) }
    }
    /// The pass-through Sources group gets the folder its file was already in.
    static func giveSourcesFolder(_ folder: String) -> Edit {
        { try $0.setPath(of: MiniProject.sourcesGroup, to: folder); try $0.removeName(of: MiniProject.sourcesGroup); try $0.setPath(of: MiniProject.one, to: "One.swift") }
    }
    static let renameApp: Edit = { try $0.setPath(of: MiniProject.appGroup, to: "Application") }

    static func resolved(_ bytes: [UInt8]) throws -> [String] {
        let project = try PBXProject(bytes: bytes, projectName: "Mini")
        return try project.groupTree().nodes.filter { $0.element.isa == "PBXFileReference" }.map { $0.resolvedPath.description }.sorted()
    }

    @Test("the hand-written project is in Xcode's form")
    func baseIsXcodeForm() throws {
        #expect(String(decoding: try Self.base().canonicalSerialized(), as: UTF8.self) == MiniProject.text)
    }

    // MARK: Deleted on one side, newly referenced on the other

    @Test("deleted by ours, moved into another group by theirs: a delete/reference conflict, each resolution without a dangling reference")
    func deletedButMoved() throws {
        let result = try Self.merge([Self.deleteThree], [Self.moveThree])
        #expect(result.conflicts.map(\.description) == [
            "0B0000000000000000000003 /* Three.swift */ was deleted by ours, but theirs refers to it in 0A0000000000000000000003 /* Sources */ children; keep the object (take theirs) or drop the references to it (take ours)"
        ])
        #expect(result.conflicts.map(\.kind) == ["delete/reference"])
        #expect(String(decoding: result.bytes, as: UTF8.self).contains("<<<<<<< ours\n"))
        let merger = try Self.merger([Self.deleteThree], [Self.moveThree])
        let known = merger.knownIDs
        #expect(merger.resolvedOurs.danglingReferences(known: known).isEmpty)
        #expect(merger.resolvedTheirs.danglingReferences(known: known).isEmpty)
        #expect(!merger.resolvedOurs.contains(MiniProject.three))
        #expect(merger.resolvedTheirs.object(MiniProject.sourcesGroup)?.references("children").contains(MiniProject.three) == true)
    }

    @Test("deleted by theirs, built by a new build file on ours: a conflict naming the build file's fileRef")
    func deletedButBuilt() throws {
        let result = try Self.merge([Self.buildThreeAsResource], [Self.deleteThree])
        #expect(result.conflicts.map(\.description) == [
            "0B0000000000000000000003 /* Three.swift */ was deleted by theirs, but ours refers to it in 0D0000000000000000000009 /* PBXBuildFile */ fileRef; keep the object (take ours) or drop the references to it (take theirs)"
        ])
        let merger = try Self.merger([Self.buildThreeAsResource], [Self.deleteThree])
        // Their resolution drops the new build file with the reference, and its place in the phase.
        #expect(!merger.resolvedTheirs.contains("0D0000000000000000000009"))
        #expect(merger.resolvedTheirs.object(MiniProject.resourcesPhase)?.references("files") == [])
        #expect(merger.resolvedOurs.contains(MiniProject.three))
        #expect(merger.resolvedOurs.danglingReferences(known: merger.knownIDs).isEmpty)
    }

    @Test("deleted on one side, untouched on the other: still a clean removal")
    func plainDeletion() throws {
        let result = try Self.merge([Self.deleteThree], [Self.add("Four.swift", to: MiniProject.appGroup)])
        #expect(result.conflicts.isEmpty)
        #expect(try Self.resolved(result.bytes) == ["$(BUILT_PRODUCTS_DIR)/Mini.app", "App/Four.swift", "App/Two.swift", "Sources/One.swift"])
    }

    // MARK: A group's folder changes under new files

    @Test("a pass-through group gains the folder its files are in while theirs adds a file: its path is rewritten, with a note")
    func passThroughGainsFolder() throws {
        let result = try Self.merge([Self.giveSourcesFolder("Sources")], [Self.add("Sources/New.swift", to: MiniProject.sourcesGroup)])
        #expect(result.conflicts.isEmpty)
        #expect(try Self.resolved(result.bytes) == ["$(BUILT_PRODUCTS_DIR)/Mini.app", "App/Three.swift", "App/Two.swift", "Sources/New.swift", "Sources/One.swift"])
        let id = try PBXProject(bytes: Self.side([Self.add("Sources/New.swift", to: MiniProject.sourcesGroup)]), projectName: "Mini")
            .object(MiniProject.sourcesGroup)?.references("children").last
        #expect(result.notes == [
            "theirs added Sources/New.swift to group 0A0000000000000000000003 /* Sources */, whose folder ours changed to Sources: its path was rewritten from Sources/New.swift to New.swift, so that it still resolves to Sources/New.swift"
        ])
        #expect(try PBXProject(bytes: result.bytes, projectName: "Mini").object(#require(id))?.string("path") == "New.swift")
    }

    @Test("a pass-through group gains another folder than its new file's: a file location conflict")
    func passThroughGainsOtherFolder() throws {
        let result = try Self.merge([Self.add("Sources/New.swift", to: MiniProject.sourcesGroup)], [Self.giveSourcesFolder("Code")])
        #expect(result.conflicts.map(\.description) == [
            "Sources/New.swift added by ours in group 0A0000000000000000000003 /* Code */, whose folder theirs changed from the project's folder to Code: the merge would resolve it to Code/Sources/New.swift, where ours has no such file; move the file there (take theirs) or point the reference at Sources/New.swift (take ours)"
        ])
        #expect(result.conflicts.map(\.kind) == ["file location"])
    }

    // MARK: A folder renamed while files are added to it

    @Test("a group's folder renamed while theirs adds a file to it: CONFLICT (file location), as git reports it")
    func renamedFolderWithAddition() throws {
        let result = try Self.merge([Self.renameApp], [Self.add("New.swift", to: MiniProject.appGroup)])
        #expect(result.conflicts.map(\.description) == [
            "App/New.swift added by theirs in group 0A0000000000000000000004 /* Application */, whose folder ours renamed from App to Application: the merge would resolve it to Application/New.swift, where theirs has no such file; move the file there (take ours) or point the reference at App/New.swift (take theirs)"
        ])
        #expect(result.conflicts.map(\.kind) == ["file location"])
        let merger = try Self.merger([Self.renameApp], [Self.add("New.swift", to: MiniProject.appGroup)])
        let paths = { (project: PBXProject) in try project.groupTree().nodes.map(\.resolvedPath.description) }
        #expect(try paths(merger.resolvedOurs).contains("Application/New.swift"))
        #expect(try paths(merger.resolvedTheirs).contains("App/New.swift"))
    }

    @Test("a group's folder renamed while theirs adds a subgroup with files: one conflict, on the subgroup")
    func renamedFolderWithSubgroup() throws {
        let addGroup: Edit = {
            let group = try $0.addGroup(path: "Feature", to: MiniProject.appGroup)
            _ = try $0.addFileReference(path: "F.swift", lastKnownFileType: "sourcecode.swift", to: group)
        }
        let result = try Self.merge([addGroup], [Self.renameApp])
        #expect(result.conflicts.count == 1)
        #expect(result.conflicts.first?.description.hasPrefix("App/Feature added by ours in group 0A0000000000000000000004 /* Application */, whose folder theirs renamed from App to Application") == true)
    }

    // MARK: Check before writing

    @Test("a dangling reference the merge would write, which neither parent had: a conflict naming the object and key path")
    func checkBeforeWriting() throws {
        var merger = try Self.merger([Self.add("Four.swift", to: MiniProject.appGroup)], [])
        #expect(merger.conflicts.isEmpty)
        try merger.resolvedOurs.removeObject(MiniProject.three)
        merger.checkNoNewDanglingReferences()
        #expect(merger.conflicts.map(\.description) == [
            "0B0000000000000000000003 /* Three.swift */ is referred to in 0D0000000000000000000003 /* PBXBuildFile */ fileRef but the merged project does not define it; neither version had this dangling reference: restore the object or remove the reference"
        ])
    }

    @Test("a dangling reference a parent already had is not the merge's: the merge stays clean")
    func inheritedDanglingReference() throws {
        let damage: Edit = { try $0.removeObject(MiniProject.three) }
        let result = try Self.merge([damage], [Self.add("Four.swift", to: MiniProject.sourcesGroup)])
        #expect(result.conflicts.isEmpty)
    }

    // MARK: Build-phase order

    @Test("both sides reorder a target's build phases differently: a note, not a conflict")
    func buildPhaseOrder() throws {
        let order = { (phases: [ObjectID]) -> Edit in
            { try $0.modify(MiniProject.target) { $0["buildPhases"] = .array(phases.map { .string($0.rawValue) }) } }
        }
        let ours = order([MiniProject.frameworksPhase, MiniProject.sourcesPhase, MiniProject.resourcesPhase])
        let theirs = order([MiniProject.sourcesPhase, MiniProject.resourcesPhase, MiniProject.frameworksPhase])
        let result = try Self.merge([ours], [theirs])
        #expect(result.conflicts.isEmpty)
        #expect(result.notes.count == 1)
        #expect(result.notes.first?.hasPrefix("both sides reordered the build phases of target Mini differently (ours: Frameworks, Sources, Resources; theirs: Sources, Resources, Frameworks); the merge runs them as ") == true)
        #expect(try Self.merge([ours], [Self.add("Four.swift", to: MiniProject.appGroup)]).notes.isEmpty)
        #expect(try Self.merge([ours], [ours]).notes.isEmpty)
    }

    // MARK: Symmetry

    static var pairs: [(String, [Edit], [Edit])] { [
        ("deleted/moved", [deleteThree], [moveThree]),
        ("deleted/built", [deleteThree], [buildThreeAsResource]),
        ("deleted/added elsewhere", [deleteThree], [add("Four.swift", to: MiniProject.appGroup)]),
        ("pass-through gains folder", [giveSourcesFolder("Sources")], [add("Sources/New.swift", to: MiniProject.sourcesGroup)]),
        ("pass-through gains other folder", [giveSourcesFolder("Code")], [add("Sources/New.swift", to: MiniProject.sourcesGroup)]),
        ("renamed folder", [renameApp], [add("New.swift", to: MiniProject.appGroup)]),
        ("renamed folder, other group", [renameApp], [add("Sources/New.swift", to: MiniProject.sourcesGroup)]),
        ("both add", [add("A.swift", to: MiniProject.appGroup)], [add("B.swift", to: MiniProject.appGroup)]),
    ] }

    @Test("swapping ours and theirs gives the same exit status, on every reproduction", arguments: 0..<8)
    func symmetry(index: Int) throws {
        let (name, ours, theirs) = Self.pairs[index]
        let forward = try Self.merge(ours, theirs), backward = try Self.merge(theirs, ours)
        #expect(forward.conflicts.isEmpty == backward.conflicts.isEmpty, "\(name)")
        #expect(forward.conflicts.count == backward.conflicts.count, "\(name)")
    }

    /// The sample project's merge cases (MergeTests): a renamed folder, one setting changed twice,
    /// a file removed while its setting changes elsewhere, files added on both sides.
    static var samplePairs: [(String, [MergeTests.Edit], [MergeTests.Edit])] { [
        ("renamed folder", [{ try $0.setPath(of: SampleProject.appGroup, to: "Application") }], [MergeTests.addFile("New.swift")]),
        ("same setting", [MergeTests.setting("SWIFT_VERSION", "6.0")], [MergeTests.setting("SWIFT_VERSION", "5.9")]),
        ("removal", [MergeTests.setting("SWIFT_VERSION", "6.0")], [{ try $0.removeFileReference(SampleProject.contentView) }]),
        ("both add", [MergeTests.addFile("A.swift")], [MergeTests.addFile("B.swift")]),
        ("both raise the build number", [MergeTests.setting("CURRENT_PROJECT_VERSION", "9")], [MergeTests.setting("CURRENT_PROJECT_VERSION", "12")]),
    ] }

    @Test("swapping ours and theirs gives the same exit status, on the sample project's merge cases", arguments: 0..<5)
    func symmetrySample(index: Int) throws {
        let (name, ours, theirs) = Self.samplePairs[index]
        let forward = try MergeTests.merge(ours, theirs), backward = try MergeTests.merge(theirs, ours)
        #expect(forward.conflicts.isEmpty == backward.conflicts.isEmpty, "\(name)")
        #expect(forward.conflicts.count == backward.conflicts.count, "\(name)")
    }
}
