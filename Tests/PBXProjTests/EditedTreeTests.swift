import Foundation
import Testing
import TestSupport
import TestThreads
@testable import PBXProj

/// The edited project's tree (`EditedTree`: the text read plus the edited objects' text, no
/// whole write and read back) and the copy of untouched objects (`canonicalSerialized(knowing:)`)
/// against the general path they stand for (the spliced text read back and written whole), on
/// random edits (fixed seeds) of every readable corpus project: renames (which change the
/// comments of build files and of the ids named elsewhere), build files moved between phases,
/// removals of any kind of object, additions (to existing sections and in a new one), an object
/// given another isa, and a configuration renamed.
@Suite("pbxproj canonical writing of edited projects, against the general path", .dedicatedThreads)
struct EditedTreeTests {
    typealias Generator = MergeRandomTests.Generator

    /// Random edits of `project`.
    static func edit(_ project: PBXProject, seed: Int) throws -> PBXProject {
        var generator = Generator(state: UInt64(seed) &* 2_862_933_555_777_941_757 &+ 3_037_000_493)
        var edited = project
        let ids = project.objectIDs
        guard !ids.isEmpty else { return edited }
        func pick() -> ObjectID { ids.randomElement(using: &generator)! }
        for _ in 0..<Int.random(in: 1...12, using: &generator) {
            let id = pick()
            guard var object = edited.object(id) else { continue }
            switch Int.random(in: 0..<8, using: &generator) {
            case 0, 1:
                // A rename: changes the comment of the object and of every build file of it.
                object.properties["name"] = .string("Renamed \(Int.random(in: 0..<1000, using: &generator)) */ x")
                try edited.update(object)
            case 2:
                try edited.removeObject(id)
            case 3:
                // A build file moved from its phase (its first, last or any) to the start or the
                // end of another, or just dropped from its phase (a list shortened).
                if case .array(var files)? = object.properties["files"], !files.isEmpty {
                    let at = [0, files.count - 1, Int.random(in: 0..<files.count, using: &generator)].randomElement(using: &generator)!
                    let moved = files.remove(at: at)
                    object.properties["files"] = .array(files)
                    try edited.update(object)
                    let phases = edited.objectIDs.filter { edited.isa(of: $0)?.hasSuffix("BuildPhase") == true && $0 != id }
                    if Int.random(in: 0..<3, using: &generator) > 0, let other = phases.randomElement(using: &generator),
                        var phase = edited.object(other) {
                        let existing = phase.properties["files"]?.array ?? []
                        phase.properties["files"] = .array(Bool.random(using: &generator) ? [moved] + existing : existing + [moved])
                        try edited.update(phase)
                    }
                }
            case 4:
                // Added: one in an existing section, referring to the picked object, and one of a new isa.
                let newID = edited.makeObjectID(seed: "added \(seed) \(id)")
                try edited.add(PBXObject(id: newID, properties: [
                    "isa": .string("PBXBuildFile"), "fileRef": .string(id.rawValue),
                ]))
                let other = edited.makeObjectID(seed: "other \(seed) \(id)")
                try edited.add(PBXObject(id: other, properties: [
                    "isa": .string("PBXZZSomethingNew"), "name": .string("New"), "target": .string(newID.rawValue),
                ]))
            case 5:
                // Another isa for an object read.
                object.properties["isa"] = .string(Bool.random(using: &generator) ? "PBXGroup" : "PBXAAFirstOfAll")
                try edited.update(object)
            case 6:
                // A value that names an id: the picked object now refers to another one.
                object.properties["extraReference"] = .string(pick().rawValue)
                try edited.update(object)
            default:
                // The same object edited back and forth, then a setting changed.
                object.properties["zzSetting"] = .array([.string("a b"), .string("\"quoted\""), .string(pick().rawValue)])
                try edited.update(object)
            }
        }
        return edited
    }

    @Test("the edited tree and the copy of untouched objects write what the general path writes", arguments: 0..<6)
    func sameBytes(round: Int) throws {
        guard let entries = try CorpusFixtures.readableEntries(for: "EditedTreeTests") else { return }
        var compared = 0, copiedCompared = 0
        for (index, entry) in entries.enumerated() {
            let project = try PBXProject(bytes: try entry.bytes(), projectName: entry.projectName)
            let check = project.canonicalCheck()
            #expect(check.isCanonical == project.isCanonical, "\(entry.baseName)")
            let edited = try Self.edit(project, seed: index * 7 + round)
            guard let general = try? edited.canonicalSerializedBySplicing() else { continue }
            #expect(EditedTree.of(edited) != nil, "\(entry.baseName)")
            let viaTree = try edited.canonicalSerialized()
            if viaTree != general {
                let a = String(decoding: viaTree, as: UTF8.self).split(separator: "\n", omittingEmptySubsequences: false)
                let b = String(decoding: general, as: UTF8.self).split(separator: "\n", omittingEmptySubsequences: false)
                let first = zip(a, b).enumerated().first { $0.element.0 != $0.element.1 }
                print("DIFF \(entry.baseName) round \(round): line \(first?.offset ?? -1): tree «\(first?.element.0 ?? "")» general «\(first?.element.1 ?? "")» counts \(a.count) \(b.count)")
            }
            #expect(viaTree == general, "\(entry.baseName), round \(round)")
            #expect(try edited.canonicalSerialized(knowing: check) == general, "\(entry.baseName), round \(round)")
            if let tree = EditedTree.of(edited) {
                // The table over the edits finds what an index of all its entries finds: every
                // id of the edited project, the removed ones, and strings that are no id.
                let fresh = try ObjectTable(tree: tree.tree, objectsNode: tree.table.objectsNode, entries: tree.table.entries, isaNames: tree.table.isaNames)
                var asked = (project.objectIDs + edited.objectIDs).map(\.rawValue) + ["", "isa", "0123456789ABCDEF01234567"]
                asked += project.objectIDs.prefix(5).map { $0.rawValue.lowercased() }
                for id in asked {
                    #expect(tree.table.find(id, in: tree.tree) == fresh.find(id, in: tree.tree), "\(entry.baseName): \(id)")
                }
                let all = CommentDeriver(tree: tree.tree, table: tree.table, projectName: edited.projectName, dialect: edited.commentDialect).deriveAll()
                #expect(CanonicalSplice.comments(of: tree, check: check) == all, "\(entry.baseName), round \(round)")
            }
            compared += 1
            if check.isCanonical { copiedCompared += 1 }
        }
        #expect(compared > entries.count / 2)
        #expect(copiedCompared > 20)
    }

    @Test("the check that compares as it writes agrees with a whole write on every corpus file, and on each changed in one place", arguments: 0..<4)
    func checkAgreesOnTheCorpus(round: Int) throws {
        guard let entries = try CorpusFixtures.readableEntries(for: "EditedTreeTests.check") else { return }
        var generator = Generator(state: UInt64(round) &* 0x9E37_79B9 &+ 17)
        var checked = 0
        for entry in entries {
            let bytes = try entry.bytes()
            var variants = [bytes]
            let text = String(decoding: bytes, as: UTF8.self)
            // A comment, a quoting, a space and an id's case changed in one place each.
            for (from, to) in [(" /* ", " /*  "), ("isa = PBXGroup;", "isa = \"PBXGroup\";"), (";\n", "; \n"), ("path = ", "path =  ")] {
                let ranges = text.ranges(of: from)
                guard let range = ranges.randomElement(using: &generator) else { continue }
                variants.append(Array(text.replacingCharacters(in: range, with: to).utf8))
            }
            for variant in variants {
                guard let project = try? PBXProject(bytes: variant, projectName: entry.projectName) else { continue }
                #expect(project.isCanonical == CanonicalCheckTests.general(project), "\(entry.baseName), round \(round)")
                checked += 1
            }
        }
        #expect(checked > entries.count * 2)
    }

    @Test("an object added under an id a phase already listed gets that phase in its comment")
    func addedObjectListedBefore() throws {
        // The phase lists a build file no object defines yet (no comment: canonical as it is).
        let text = SampleProject.text.replacingOccurrences(
            of: "\t\t\t\t0D0000000000000000000001 /* AppDelegate.swift in Sources */,\n",
            with: "\t\t\t\t0D0000000000000000000001 /* AppDelegate.swift in Sources */,\n\t\t\t\t0DFFFFFFFFFFFFFFFFFFFFFF,\n")
        let project = try PBXProject(bytes: Array(text.utf8), projectName: "Sample")
        let check = project.canonicalCheck()
        #expect(check.isCanonical)
        var edited = project
        let file = ObjectID("0CFFFFFFFFFFFFFFFFFFFFFF")
        try edited.add(PBXObject(id: file, properties: [
            "isa": .string("PBXFileReference"), "path": .string("Extra.swift"), "sourceTree": .string("<group>"),
        ]))
        try edited.add(PBXObject(id: ObjectID("0DFFFFFFFFFFFFFFFFFFFFFF"), properties: [
            "isa": .string("PBXBuildFile"), "fileRef": .string(file.rawValue),
        ]))
        let written = try edited.canonicalSerialized(knowing: check)
        #expect(written == (try edited.canonicalSerializedBySplicing()))
        #expect(String(decoding: written, as: UTF8.self).contains("0DFFFFFFFFFFFFFFFFFFFFFF /* Extra.swift in Sources */,"))
    }

    @Test("a check of another text or another name is not used: the general path writes")
    func checkOfAnotherText() throws {
        let project = try PBXProject(bytes: Array(SampleProject.text.utf8), projectName: "Sample")
        var other = try PBXProject(bytes: Array(SampleProject.text.utf8), projectName: "Sample")
        other.projectName = "Renamed"
        let otherCheck = other.canonicalCheck()
        var edited = project
        try edited.setName(of: SampleProject.appGroup, to: "Renamed")
        let expected = try edited.canonicalSerializedBySplicing()
        #expect(try edited.canonicalSerialized(knowing: otherCheck) == expected)
        #expect(try edited.canonicalSerialized(knowing: project.canonicalCheck()) == expected)
    }
}
