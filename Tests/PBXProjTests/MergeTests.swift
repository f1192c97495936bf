import Testing
import TestThreads
@testable import PBXProj

/// `PBXProjMerge`: hand-made three-way merges of the sample project.
@Suite("pbxproj merge", .dedicatedThreads)
struct MergeTests {
    typealias Edit = (inout PBXProject) throws -> Void

    static func base() throws -> PBXProject {
        try PBXProject(bytes: Array(SampleProject.text.utf8), projectName: "Sample")
    }

    /// The base with `edits` applied, in Xcode's form.
    static func side(_ edits: [Edit]) throws -> [UInt8] {
        var project = try base()
        for edit in edits { try edit(&project) }
        return try project.canonicalSerialized()
    }

    static func merge(_ ours: [Edit], _ theirs: [Edit]) throws -> PBXProjMergeResult {
        try PBXProjMerge.merge(base: Array(SampleProject.text.utf8), ours: side(ours), theirs: side(theirs))
    }

    static func text(_ bytes: [UInt8]) -> String { String(decoding: bytes, as: UTF8.self) }

    static func addFile(_ path: String, to group: ObjectID = SampleProject.appGroup) -> Edit {
        { try $0.addFileReference(path: path, lastKnownFileType: "sourcecode.swift", to: group) }
    }

    static func setting(_ key: String, _ value: String, in configuration: ObjectID = SampleProject.appDebug) -> Edit {
        { try $0.setBuildSetting(key, to: .string(value), in: configuration) }
    }

    @Test("nothing changed on either side: the base comes back, in Xcode's form")
    func unchanged() throws {
        let result = try Self.merge([], [])
        #expect(result.conflicts.isEmpty)
        #expect(result.isCanonical)
        #expect(result.bytes == Array(SampleProject.text.utf8))
    }

    @Test("both sides add files to the same group: both are kept, ours first")
    func bothAddToSameGroup() throws {
        let result = try Self.merge([Self.addFile("A.swift")], [Self.addFile("B.swift")])
        #expect(result.conflicts.isEmpty)
        #expect(result.bytes == (try Self.side([Self.addFile("A.swift"), Self.addFile("B.swift")])))
        let merged = try PBXProject(bytes: result.bytes, projectName: "Sample")
        let children = merged.object(SampleProject.appGroup)?.references("children") ?? []
        let names = children.compactMap { merged.object($0)?.string("path") }
        #expect(Array(names.suffix(2)) == ["A.swift", "B.swift"])
    }

    @Test("one side renames a group's folder while the other adds a file to it: a file location conflict, as git's")
    func renameWhileAdding() throws {
        let rename: Edit = { try $0.setPath(of: SampleProject.appGroup, to: "Application") }
        let result = try Self.merge([rename], [Self.addFile("New.swift")])
        #expect(result.conflicts.map(\.kind) == ["file location"])
        #expect(result.conflicts.first?.description.hasPrefix("App/New.swift added by theirs in group 0A0000000000000000000003 /* Application */, whose folder ours renamed from App to Application") == true)
    }

    @Test("one side renames a group (its name only) while the other adds a file to it: both changes are kept")
    func renameNameWhileAdding() throws {
        let rename: Edit = { try $0.setName(of: SampleProject.appGroup, to: "Application") }
        let result = try Self.merge([rename], [Self.addFile("New.swift")])
        #expect(result.conflicts.isEmpty)
        #expect(result.bytes == (try Self.side([rename, Self.addFile("New.swift")])))
    }

    @Test("both sides change different settings of one configuration: both are taken")
    func differentSettings() throws {
        let ours = Self.setting("SWIFT_VERSION", "6.0"), theirs = Self.setting("MARKETING_VERSION", "1.3.0")
        let result = try Self.merge([ours], [theirs])
        #expect(result.conflicts.isEmpty)
        #expect(result.bytes == (try Self.side([ours, theirs])))
    }

    @Test("a file removed on one side and untouched on the other is removed")
    func removal() throws {
        let remove: Edit = { try $0.removeFileReference(SampleProject.contentView) }
        let result = try Self.merge([Self.setting("SWIFT_VERSION", "6.0")], [remove])
        #expect(result.conflicts.isEmpty)
        #expect(result.bytes == (try Self.side([Self.setting("SWIFT_VERSION", "6.0"), remove])))
    }

    @Test("the same setting changed to different values: conflict markers around just that entry")
    func sameSettingConflict() throws {
        let result = try Self.merge([Self.setting("SWIFT_VERSION", "6.0"), Self.addFile("A.swift")], [Self.setting("SWIFT_VERSION", "5.10")])
        #expect(result.conflicts.count == 1)
        let conflict = try #require(result.conflicts.first)
        #expect(conflict.objectID == SampleProject.appDebug)
        #expect(conflict.keyPath == ["buildSettings", "SWIFT_VERSION"])
        #expect(conflict.description == #"120000000000000000000003 /* Debug */ buildSettings.SWIFT_VERSION: ours "6.0", theirs "5.10""#)
        let text = Self.text(result.bytes)
        #expect(text.contains("<<<<<<< ours\n\t\t\t\tSWIFT_VERSION = 6.0;\n=======\n\t\t\t\tSWIFT_VERSION = 5.10;\n>>>>>>> theirs\n"))
        #expect(text.components(separatedBy: "<<<<<<<").count == 2)
        // Taking our side gives our merge: the markers wrap nothing else.
        let oursTaken = text.replacingOccurrences(
            of: "<<<<<<< ours\n\t\t\t\tSWIFT_VERSION = 6.0;\n=======\n\t\t\t\tSWIFT_VERSION = 5.10;\n>>>>>>> theirs\n",
            with: "\t\t\t\tSWIFT_VERSION = 6.0;\n")
        #expect(oursTaken == Self.text(try Self.side([Self.setting("SWIFT_VERSION", "6.0"), Self.addFile("A.swift")])))
    }

    @Test("an object changed on one side and removed on the other is a conflict")
    func modifyDeleteConflict() throws {
        let remove: Edit = { try $0.removeObject(SampleProject.words) }
        let rename: Edit = { try $0.setName(of: SampleProject.words, to: "dictionary") }
        let result = try Self.merge([rename], [remove])
        #expect(result.conflicts.count == 1)
        #expect(result.conflicts.first?.keyPath == [])
        #expect(result.conflicts.first?.theirs == nil)
        #expect(Self.text(result.bytes).contains("<<<<<<< ours\n"))
    }

    @Test("both sides move the same group to different groups: a conflict, not a group in two places")
    func doubleMove() throws {
        func move(into destination: ObjectID) -> Edit {
            { project in
                let children = project.object(SampleProject.mainGroup)?.references("children") ?? []
                try project.setChildren(of: SampleProject.mainGroup, to: children.filter { $0 != SampleProject.testsGroup })
                let target = project.object(destination)?.references("children") ?? []
                try project.setChildren(of: destination, to: target + [SampleProject.testsGroup])
            }
        }
        let result = try Self.merge([move(into: SampleProject.appGroup)], [move(into: SampleProject.productsGroup)])
        #expect(result.conflicts.count == 1)
        #expect(result.conflicts.first?.objectID == SampleProject.testsGroup)
        #expect(result.conflicts.first?.keyPath == ["(group)"])
        let text = Self.text(result.bytes)
        #expect(text.components(separatedBy: "<<<<<<< ours\n").count > 1)
        let same = try Self.merge([move(into: SampleProject.appGroup)], [move(into: SampleProject.appGroup)])
        #expect(same.conflicts.isEmpty)
    }

    @Test("ordered sets: each side's additions go next to their neighbours, removals stay removed")
    func orderedSets() {
        let merged = OrderedSetMerge.merge(base: ["a", "b", "c", "d"], ours: ["a", "x", "b", "d"], theirs: ["y", "a", "b", "c", "z", "d"])
        #expect(merged == ["y", "a", "x", "b", "z", "d"])
        #expect(OrderedSetMerge.merge(base: ["a", "b"], ours: ["a", "b"], theirs: ["b", "a"]) == ["b", "a"])
    }

    @Test("a list that already repeats an id (left by an earlier bad merge) still merges as an ordered set")
    func repeatedIDs() throws {
        let children = try Self.base().object(SampleProject.appGroup)?.references("children") ?? []
        let repeated = try #require(children.first)
        let withRepeat: Edit = { try $0.setChildren(of: SampleProject.appGroup, to: children + [repeated]) }
        let repeatedBase = try Self.side([withRepeat])
        func side(_ edits: [Edit]) throws -> [UInt8] {
            var project = try PBXProject(bytes: repeatedBase, projectName: "Sample")
            for edit in edits { try edit(&project) }
            return try project.canonicalSerialized()
        }
        // Both sides add a file: both kept, and the repeat stays (neither side touched it).
        let both = try PBXProjMerge.merge(base: repeatedBase, ours: side([Self.addFile("A.swift")]), theirs: side([Self.addFile("B.swift")]))
        #expect(both.conflicts.isEmpty)
        #expect(both.bytes == (try side([Self.addFile("A.swift"), Self.addFile("B.swift")])))
        // One side removes the repeat while the other adds a file: the repeat is gone, the file kept.
        let dedupe: Edit = { try $0.setChildren(of: SampleProject.appGroup, to: children) }
        let removed = try PBXProjMerge.merge(base: repeatedBase, ours: side([Self.addFile("A.swift")]), theirs: side([dedupe]))
        #expect(removed.conflicts.isEmpty)
        #expect(removed.bytes == (try side([dedupe, Self.addFile("A.swift")])))
    }

    /// Adds `path` to the app group under the id `file` and, when `build` is given, to the
    /// sources phase under that id: the same file added by hand on two branches gets other ids.
    static func addByHand(_ path: String, file: ObjectID, build: ObjectID?, to group: ObjectID = SampleProject.appGroup) -> Edit {
        { project in
            try project.add(PBXObject(id: file, isa: "PBXFileReference", properties: [
                "lastKnownFileType": .string("sourcecode.swift"), "path": .string(path), "sourceTree": .string("<group>"),
            ]))
            try project.setChildren(of: group, to: (project.object(group)?.references("children") ?? []) + [file])
            guard let build else { return }
            try project.add(PBXObject(id: build, isa: "PBXBuildFile", properties: ["fileRef": .string(file.rawValue)]))
            let files = project.object(SampleProject.sourcesPhase)?.references("files") ?? []
            try project.modify(SampleProject.sourcesPhase) { $0.properties["files"] = .array((files + [build]).map { .string($0.rawValue) }) }
        }
    }

    @Test("the same file added on both sides under different ids is kept once, with one build file")
    func twinAdditions() throws {
        let ours = Self.addByHand("Shared.swift", file: "AA0000000000000000000001", build: "AA0000000000000000000002")
        let theirs = Self.addByHand("Shared.swift", file: "BB0000000000000000000001", build: "BB0000000000000000000002")
        let result = try Self.merge([ours], [theirs, Self.addFile("Other.swift")])
        #expect(result.conflicts.isEmpty)
        #expect(result.bytes == (try Self.side([ours, Self.addFile("Other.swift")])))
        let merged = try PBXProject(bytes: result.bytes, projectName: "Sample")
        #expect(!merged.contains("BB0000000000000000000001") && !merged.contains("BB0000000000000000000002"))
    }

    @Test("a twin file reference written with other attributes (includeInIndex, by a generator) is still the same file")
    func twinWithOtherAttributes() throws {
        let ours = Self.addByHand("Shared.swift", file: "AA0000000000000000000001", build: "AA0000000000000000000002")
        let theirs = Self.addByHand("Shared.swift", file: "BB0000000000000000000001", build: "BB0000000000000000000002")
        let attributes: Edit = { try $0.modify("BB0000000000000000000001") { $0["includeInIndex"] = .string("1") } }
        let result = try Self.merge([ours], [theirs, attributes])
        #expect(result.conflicts.isEmpty)
        #expect(result.bytes == (try Self.side([ours])))
    }

    @Test("twins are matched only in the same list: the same file added to two groups is kept twice")
    func twinsInOtherLists() throws {
        let ours = Self.addByHand("Shared.swift", file: "AA0000000000000000000001", build: nil)
        let theirs = Self.addByHand("Shared.swift", file: "BB0000000000000000000001", build: nil, to: SampleProject.testsGroup)
        let result = try Self.merge([ours], [theirs])
        #expect(result.conflicts.isEmpty)
        #expect(result.bytes == (try Self.side([ours, theirs])))
    }

    @Test("their build file of a twin reference is kept, pointing at our reference")
    func twinReferenceOwnBuildFile() throws {
        let ours = Self.addByHand("Shared.swift", file: "AA0000000000000000000001", build: nil)
        let theirs = Self.addByHand("Shared.swift", file: "BB0000000000000000000001", build: "BB0000000000000000000002")
        let result = try Self.merge([ours], [theirs])
        #expect(result.conflicts.isEmpty)
        let merged = try PBXProject(bytes: result.bytes, projectName: "Sample")
        #expect(!merged.contains("BB0000000000000000000001"))
        #expect(merged.object("BB0000000000000000000002")?.string("fileRef") == "AA0000000000000000000001")
        #expect(merged.object(SampleProject.sourcesPhase)?.references("files").contains("BB0000000000000000000002") == true)
        let children = merged.object(SampleProject.appGroup)?.references("children") ?? []
        #expect(children.filter { $0 == "AA0000000000000000000001" }.count == 1)
    }

    @Test("a conflict between two long lists is summarised by what only one side has")
    func longListConflictSummary() {
        let ids = (0..<12).map { PBXValue.string(String(format: "%024X", $0)) }
        let ours = PBXProjMergeConflict(
            objectID: "AA0000000000000000000001", comment: "App", keyPath: ["buildSettings", "OTHER_LDFLAGS"],
            ours: .array(ids + [.string("-ObjC")]), theirs: .array(ids + [.string("-lz")]))
        #expect(ours.description == #"AA0000000000000000000001 /* App */ buildSettings.OTHER_LDFLAGS: only ours has "-ObjC", only theirs has "-lz" (lists of 13 and 13)"#)
        let reordered = PBXProjMergeConflict(
            objectID: nil, comment: nil, keyPath: ["list"], ours: .array(ids), theirs: .array(ids.reversed()))
        #expect(reordered.description == "(top level) list: the same 12 elements in another order")
        let short = PBXProjMergeConflict(objectID: nil, comment: nil, keyPath: ["list"], ours: .array([.string("a")]), theirs: .array([.string("b")]))
        #expect(short.description == #"(top level) list: ours "(a)", theirs "(b)""#)
    }

    @Test("neither side in Xcode's form: our text is kept and only the changes are spliced in")
    func preservesSharedStyle() throws {
        let oddBase = SampleProject.text.replacingOccurrences(of: "\t\t\t\tSDKROOT = iphoneos;\n\t\t\t\tVALIDATE_PRODUCT = YES;", with: "\t\t\t\tVALIDATE_PRODUCT = YES;\n\t\t\t\tSDKROOT = iphoneos;")
        func side(_ edit: Edit) throws -> [UInt8] {
            var project = try PBXProject(bytes: Array(oddBase.utf8), projectName: "Sample")
            try edit(&project)
            return try project.serialized()
        }
        let result = try PBXProjMerge.merge(
            base: Array(oddBase.utf8), ours: side(Self.setting("SWIFT_VERSION", "6.0")), theirs: side(Self.setting("MARKETING_VERSION", "2.0")))
        #expect(!result.isCanonical)
        #expect(result.conflicts.isEmpty)
        let text = Self.text(result.bytes)
        #expect(text.contains("\t\t\t\tVALIDATE_PRODUCT = YES;\n\t\t\t\tSDKROOT = iphoneos;"))
        #expect(text.contains("SWIFT_VERSION = 6.0;") && text.contains("MARKETING_VERSION = 2.0;"))
    }

    @Test("byte-equal versions: whether the result is in Xcode's form is what it was (worked out when asked)")
    func equalVersionsCanonicalForm() throws {
        let odd = Array(SampleProject.text.replacingOccurrences(
            of: "\t\t\t\tSDKROOT = iphoneos;\n\t\t\t\tVALIDATE_PRODUCT = YES;", with: "\t\t\t\tVALIDATE_PRODUCT = YES;\n\t\t\t\tSDKROOT = iphoneos;").utf8)
        let canonical = Array(SampleProject.text.utf8)
        let same = try PBXProjMerge.merge(base: odd, ours: odd, theirs: odd)
        #expect(!same.isCanonical && same.bytes == odd && same.conflicts.isEmpty && same.notes.isEmpty)
        let sameCanonical = try PBXProjMerge.merge(base: odd, ours: canonical, theirs: canonical)
        #expect(sameCanonical.isCanonical && sameCanonical.bytes == canonical)
        let theirsIsBase = try PBXProjMerge.merge(base: canonical, ours: odd, theirs: canonical)
        #expect(theirsIsBase.isCanonical && theirsIsBase.bytes == canonical)
        let neither = try PBXProjMerge.merge(base: odd, ours: odd + [0x0A], theirs: odd)
        #expect(!neither.isCanonical && neither.bytes == odd + [0x0A])
        var overridden = same
        overridden.isCanonical = true
        #expect(overridden.isCanonical)
    }

    @Test("a side with conflict markers or a base that does not parse: an error naming the side and the line")
    func unreadableInput() throws {
        let marked = SampleProject.text.replacingOccurrences(of: "/* Begin PBXGroup section */\n", with: "/* Begin PBXGroup section */\n<<<<<<< HEAD\n")
        let line = (marked.split(separator: "\n", omittingEmptySubsequences: false).firstIndex { $0.hasPrefix("<<<<<<<") } ?? 0) + 1
        let base = Array(SampleProject.text.utf8)
        #expect {
            try PBXProjMerge.merge(base: base, ours: base, theirs: Array(marked.utf8))
        } throws: { error in
            guard let error = error as? PBXProjMergeError, case .unreadable(let side, let inner) = error else { return false }
            return side == "theirs" && inner.location?.line == line && error.message.contains("line \(line)")
        }
        #expect(throws: PBXProjMergeError.self) {
            try PBXProjMerge.merge(base: Array(SampleProject.text.prefix(2000).utf8), ours: base, theirs: base)
        }
    }

    @Test("an object a version defines twice with the same value (a line merge's leftover; comments may differ) is merged with one definition")
    func identicalRepeats() throws {
        let buildFile = "\t\t0D0000000000000000000002 /* ContentView.swift in Sources */ = {isa = PBXBuildFile; fileRef = 0B0000000000000000000002 /* ContentView.swift */; };\n"
        let group = try #require(SampleProject.text.range(of: "\t\t0A0000000000000000000003 /* App */ = {\n"))
        let groupEnd = try #require(SampleProject.text.range(of: "\t\t};\n", range: group.upperBound..<SampleProject.text.endIndex))
        let groupText = String(SampleProject.text[group.lowerBound..<groupEnd.upperBound])
        let renamedComment = buildFile.replacingOccurrences(of: "/* ContentView.swift in Sources */", with: "/* App/ContentView.swift in Sources */")
        let repeated = SampleProject.text
            .replacingOccurrences(of: buildFile, with: buildFile + renamedComment)
            .replacingOccurrences(of: groupText, with: groupText + groupText)
        #expect(throws: PBXProjError.self) { try PBXProject(bytes: Array(repeated.utf8), projectName: "Sample") }
        let result = try PBXProjMerge.merge(
            base: Array(repeated.utf8), ours: Array(repeated.utf8), theirs: Self.side([Self.setting("SWIFT_VERSION", "6.0")]))
        #expect(result.conflicts.isEmpty)
        #expect(result.bytes == (try Self.side([Self.setting("SWIFT_VERSION", "6.0")])))
        #expect(result.notes == [
            "the base version defines 0D0000000000000000000002, 0A0000000000000000000003 twice with the same value (left by a line merge); merged with one definition, as Xcode reads it",
            "the ours version defines 0D0000000000000000000002, 0A0000000000000000000003 twice with the same value (left by a line merge); merged with one definition, as Xcode reads it",
        ])
    }

    @Test("an object defined twice with different text is still unreadable: the merge names the side and both lines")
    func differingRepeats() throws {
        let buildFile = "\t\t0D0000000000000000000002 /* ContentView.swift in Sources */ = {isa = PBXBuildFile; fileRef = 0B0000000000000000000002 /* ContentView.swift */; };\n"
        let changed = buildFile.replacingOccurrences(of: "; };", with: "; settings = {COMPILER_FLAGS = \"-w\"; }; };")
        let repeated = SampleProject.text.replacingOccurrences(of: buildFile, with: buildFile + changed)
        let line = (SampleProject.text.split(separator: "\n", omittingEmptySubsequences: false).firstIndex { $0.hasPrefix("\t\t0D0000000000000000000002") } ?? 0) + 1
        let base = Array(SampleProject.text.utf8)
        #expect {
            try PBXProjMerge.merge(base: base, ours: Array(repeated.utf8), theirs: base)
        } throws: { error in
            (error as? PBXProjMergeError)?.message
                == "the ours version does not read as a project at line \(line + 1), column 3: object id '0D0000000000000000000002' is defined twice (first at line \(line)); remove or renumber one of them"
        }
    }

    @Test("the project's name is read from the configuration list's comment")
    func projectName() {
        #expect(PBXProjMerge.detectProjectName(Array(SampleProject.text.utf8)) == "Sample")
        #expect(PBXProjMerge.detectProjectName(Array("{}".utf8)) == nil)
    }
}
