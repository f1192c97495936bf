import Foundation
import Testing
import TestSupport
import TestThreads
@testable import PBXProj

/// The merge's fast paths against the general ones they stand for, on randomised inputs (fixed
/// seeds): the walk over the object tables (`mergeObjectsByEntry`) against the walk by id
/// (`mergeObjectsByID`), the additions found through the tables against `objectIDs.filter`, and
/// the object table's packed ids against a search of every entry.
@Suite("pbxproj merge, fast paths against the general ones", .dedicatedThreads)
struct MergeFastPathTests {
    typealias Generator = MergeRandomTests.Generator

    /// Three versions of the sample project with random edits on both sides: additions, moves,
    /// settings (some of them the same key on both sides: conflicts), and removals of files and
    /// groups (some of them what the other side changes), read back as the driver reads them.
    static func versions(seed: Int) throws -> (base: PBXProject, ours: PBXProject, theirs: PBXProject) {
        var generator = Generator(state: UInt64(seed) &* 6_364_136_223 &+ 1_442_695)
        let (base, groups) = try MergeRandomTests.base()
        let files = base.fileReferences.map(\.id)
        let shared = ["SWIFT_VERSION", "MARKETING_VERSION"]
        let ourShare = MergeRandomTests.Share(label: "Ours", groups: Array(groups.shuffled(using: &generator).prefix(5)), settings: shared + ["OURS_FLAG"])
        let theirShare = MergeRandomTests.Share(label: "Theirs", groups: Array(groups.shuffled(using: &generator).prefix(5)), settings: shared + ["THEIRS_FLAG"])
        var ours = try MergeRandomTests.apply(
            MergeRandomTests.edits(ourShare, count: Int.random(in: 0...8, using: &generator), using: &generator), to: base)
        var theirs = try MergeRandomTests.apply(
            MergeRandomTests.edits(theirShare, count: Int.random(in: 0...8, using: &generator), using: &generator), to: base)
        for _ in 0..<Int.random(in: 0...3, using: &generator) {
            if let file = files.randomElement(using: &generator), ours.contains(file) { try ours.removeFileReference(file) }
        }
        for _ in 0..<Int.random(in: 0...3, using: &generator) {
            if let file = files.randomElement(using: &generator), theirs.contains(file) { try theirs.removeFileReference(file) }
        }
        if Bool.random(using: &generator), let group = groups.randomElement(using: &generator), ours.contains(group) {
            try ours.removeObject(group)
        }
        if Bool.random(using: &generator), let group = groups.randomElement(using: &generator), theirs.contains(group) {
            try theirs.removeObject(group)
        }
        let read = { (project: PBXProject) in try PBXProject(bytes: project.serialized(), projectName: "Sample") }
        return (try read(base), try read(ours), try read(theirs))
    }

    @Test("the walk over the object tables gives what the walk by id gives", arguments: 0..<40)
    func walkByEntry(seed: Int) throws {
        let (base, ours, theirs) = try Self.versions(seed: seed)
        for (o, t) in [(ours, theirs), (theirs, ours), (ours, base), (base, theirs), (ours, ours)] {
            var fast = GraphMerger(base: base, ours: o, theirs: t)
            var general = fast
            try fast.mergeObjectsByEntry()
            try general.mergeObjectsByID()
            #expect(fast.conflicts == general.conflicts, "seed \(seed)")
            #expect(fast.notes == general.notes, "seed \(seed)")
            #expect(try fast.resolvedOurs.serialized() == general.resolvedOurs.serialized(), "seed \(seed)")
            #expect(try fast.resolvedTheirs.serialized() == general.resolvedTheirs.serialized(), "seed \(seed)")
        }
    }

    @Test("the additions found through the object tables are objectIDs.filter's, edited projects too", arguments: 0..<24)
    func additionsThroughTables(seed: Int) throws {
        var generator = Generator(state: UInt64(seed) &+ 4_242)
        let (base, ours, theirs) = try Self.versions(seed: seed)
        // Edited copies take the general path; read ones the tables.
        var edited = ours
        if let file = edited.fileReferences.randomElement(using: &generator)?.id { try edited.removeFileReference(file) }
        try edited.addFileReference(path: "Edited.swift", lastKnownFileType: "sourcecode.swift", to: SampleProject.appGroup)
        for (side, others) in [(ours, [base]), (theirs, [base, ours]), (base, [ours, theirs]), (edited, [base]), (theirs, [edited]), (ours, [])] {
            let expected = side.objectIDs.filter { id in !others.contains { $0.contains(id) } }
            #expect(GraphMerger.ids(of: side, outside: others) == expected, "seed \(seed)")
        }
    }

    @Test("object ids found through packed slots: Xcode's form, lower case, other lengths, quoted and escaped", arguments: 0..<16)
    func packedIDs(seed: Int) throws {
        var generator = Generator(state: UInt64(seed) &* 31 &+ 7)
        let hex = Array("0123456789ABCDEF"), lower = Array("0123456789abcdef")
        var ids = Set<String>()
        while ids.count < 300 {
            let upper = String((0..<24).map { _ in hex.randomElement(using: &generator)! })
            switch Int.random(in: 0..<6, using: &generator) {
            case 0, 1: ids.insert(upper)
            case 2: ids.insert(upper.lowercased())  // the same digits in lower case: another id
            case 3: ids.insert(String((0..<24).map { _ in lower.randomElement(using: &generator)! }))
            case 4: ids.insert(String(upper.prefix(Int.random(in: 1...30, using: &generator))))
            default: ids.insert("OBJ_\(Int.random(in: 0..<100_000, using: &generator))")
            }
            ids.insert(upper)
        }
        let list = Array(ids).shuffled(using: &generator)
        // Some ids written quoted, some with their first character as an octal escape (`\101`
        // for A): the table holds those by hash and compares them in the text.
        let written = list.enumerated().map { index, id in
            if index % 7 == 0 { return "\"\(id)\"" }
            guard index % 11 == 1, let first = id.first?.asciiValue else { return id }
            let octal = String(first, radix: 8)
            return "\"\\" + String(repeating: "0", count: 3 - octal.count) + octal + id.dropFirst() + "\""
        }
        let objects = written.map { "\t\t\($0) = {isa = PBXFileReference; path = a.swift; };\n" }.joined()
        let text = "// !$*UTF8*$!\n{\n\tarchiveVersion = 1;\n\tobjects = {\n\(objects)\t};\n\trootObject = \(list[0]);\n}\n"
        let project = try PBXProject(bytes: Array(text.utf8), projectName: "P")
        let table = project.table
        for (index, id) in list.enumerated() {
            #expect(table.find(id, in: project.tree) == index, "seed \(seed): \(id)")
        }
        // Ids the table does not hold: near misses of every kind.
        for id in list.prefix(80) {
            for probe in [id.lowercased(), id.uppercased(), String(id.dropLast()) + "G", id + "0", String(id.dropFirst())] where !ids.contains(probe) {
                #expect(table.find(probe, in: project.tree) == nil, "seed \(seed): \(probe)")
            }
        }
        // The same id twice is refused; the same digits in another case are two ids.
        let twice = "// !$*UTF8*$!\n{\n\tobjects = {\n\t\t\(list[1]) = {isa = A; };\n\t\t\"\(list[1])\" = {isa = B; };\n\t};\n}\n"
        #expect(throws: PBXProjError.self) { try PBXProject(bytes: Array(twice.utf8), projectName: "P") }
        let upper = list.first { $0.count == 24 && $0 == $0.uppercased() && $0 != $0.lowercased() } ?? "0A0000000000000000000001"
        let cases = "// !$*UTF8*$!\n{\n\tobjects = {\n\t\t\(upper) = {isa = A; };\n\t\t\(upper.lowercased()) = {isa = B; };\n\t};\n}\n"
        let both = try PBXProject(bytes: Array(cases.utf8), projectName: "P")
        #expect(both.table.find(upper, in: both.tree) == 0)
        #expect(both.table.find(upper.lowercased(), in: both.tree) == 1)
    }
}

/// `CanonicalWriter.isCanonical` (compares as it writes, stops at the first difference) against
/// the general check, a whole canonical write compared with the text.
@Suite("pbxproj canonical check against a whole canonical write", .dedicatedThreads)
struct CanonicalCheckTests {
    static func general(_ project: PBXProject) -> Bool {
        CanonicalWriter.write(tree: project.tree, table: project.table, projectName: project.projectName, dialect: project.commentDialect)
            == project.originalBytes
    }

    @Test("canonical files, and the same files with one random change (spacing, a comment, a line moved or dropped, text added)", arguments: 0..<30)
    func randomChanges(seed: Int) throws {
        var generator = MergeRandomTests.Generator(state: UInt64(seed) &* 2_654_435_761 &+ 11)
        let (base, _) = try MergeRandomTests.base()
        let canonical = try base.canonicalSerialized()
        let project = try PBXProject(bytes: canonical, projectName: "Sample")
        #expect(project.isCanonical && Self.general(project))
        var lines = String(decoding: canonical, as: UTF8.self).split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        let index = Int.random(in: 1..<(lines.count - 2), using: &generator)
        switch Int.random(in: 0..<6, using: &generator) {
        case 0: lines[index] += " "
        case 1: lines[index] = lines[index].replacingOccurrences(of: "/* ", with: "/*  ")
        case 2: lines.swapAt(index, index + 1)
        case 3: lines.remove(at: index)
        case 4: lines.insert("", at: index)
        default: lines[lines.count - 1] += "\n"
        }
        let changed = Array(lines.joined(separator: "\n").utf8)
        // A change may leave a file that no longer reads: then there is nothing to check.
        guard let read = try? PBXProject(bytes: changed, projectName: "Sample") else { return }
        #expect(read.isCanonical == Self.general(read), "seed \(seed)")
        // Cut short at the end, or with a byte more: never canonical, as the general check says.
        for variant in [Array(canonical.dropLast()), canonical + [0x0A]] {
            guard let other = try? PBXProject(bytes: variant, projectName: "Sample") else { continue }
            #expect(other.isCanonical == Self.general(other), "seed \(seed)")
        }
    }
}

extension CanonicalCheckTests {
    @Test("every corpus file: the check agrees with a whole canonical write (canonical or not)")
    func corpus() throws {
        guard let entries = try CorpusFixtures.readableEntries(for: "canonical check on the corpus") else { return }
        let directory = try TemporaryDirectory(prefix: "pbx-canonical-check")
        var canonical = 0
        for entry in entries {
            guard let project = try? CorpusFixtures.load(entry, in: directory) else { continue }
            #expect(project.isCanonical == Self.general(project), "\(entry.baseName)")
            if project.isCanonical { canonical += 1 }
        }
        #expect(canonical > 0 && canonical < entries.count)
    }
}

extension MergeFastPathTests {
    @Test("ids looked up in step with another version's order are find's answers, in any order asked", arguments: 0..<16)
    func sequentialFinder(seed: Int) throws {
        var generator = Generator(state: UInt64(seed) &* 97 &+ 5)
        let (base, ours, theirs) = try Self.versions(seed: seed)
        for (source, target) in [(ours, base), (theirs, base), (theirs, ours), (base, theirs)] {
            var ids = source.objectIDs.map(\.rawValue) + ["0A0000000000000000000FFF", "missing", ""]
            // In order (the walk), then partly shuffled, then at random.
            for round in 0..<3 {
                if round == 1 { for i in stride(from: 0, to: ids.count - 1, by: 5) { ids.swapAt(i, i + 1) } }
                if round == 2 { ids.shuffle(using: &generator) }
                var finder = SequentialFinder(target)
                for id in ids {
                    let found = id.withUTF8String { finder.find($0) }
                    #expect(found == target.table.find(id, in: target.tree), "seed \(seed): \(id)")
                }
            }
        }
    }

    @Test("the ids of a class found through the table are objectIDs.filter's, edited projects too", arguments: 0..<16)
    func idsWhereIsa(seed: Int) throws {
        var generator = Generator(state: UInt64(seed) &+ 777)
        let (base, ours, theirs) = try Self.versions(seed: seed)
        var edited = theirs
        // Edits of every kind: an object retyped, one removed, targets added.
        if let group = edited.objectIDs(isa: "PBXGroup").randomElement(using: &generator) {
            try edited.modify(group) { $0["isa"] = "PBXNativeTarget" }
        }
        if let target = edited.objectIDs(isa: "PBXNativeTarget").randomElement(using: &generator) { try edited.removeObject(target) }
        try MergeRandomTests.addTarget("Added\(seed)", in: &edited)
        for project in [base, ours, theirs, edited] {
            for test in [PBXIsa.isTarget, { $0 == "PBXGroup" }, { _ in true }, { _ in false }] as [(String) -> Bool] {
                let expected = project.objectIDs.filter { project.isa(of: $0).map(test) == true }
                #expect(project.objectIDs(whereIsa: test) == expected, "seed \(seed)")
            }
        }
    }
}

extension MergeFastPathTests {
    @Test("ids spelled differently but equal as Unicode text (U+212A for K, a decomposed accent) walk as the general walk does")
    func unicodeSpellings() throws {
        let marker = "/* Begin PBXFileReference section */\n"
        func version(_ ids: [String], path: String) throws -> PBXProject {
            let lines = ids.map { "\t\t\"\($0)\" = {isa = PBXFileReference; path = \(path); sourceTree = \"<group>\"; };\n" }.joined()
            let text = SampleProject.text.replacingOccurrences(of: marker, with: marker + lines)
            return try PBXProject(bytes: Array(text.utf8), projectName: "Sample")
        }
        let kelvin = "\u{212A}0000000000000000000000", plainK = "K0000000000000000000000"
        let composed = "\u{E9}0000000000000000000000", decomposed = "e\u{301}0000000000000000000000"
        let cases: [([String], [String], [String])] = [
            ([], [plainK], [kelvin]), ([], [kelvin], [plainK]), ([], [composed], [decomposed]),
            ([plainK], [plainK], [kelvin]), ([composed], [], [decomposed]), ([plainK, composed], [plainK], [plainK, composed]),
        ]
        for (baseIDs, ourIDs, theirIDs) in cases {
            let base = try version(baseIDs, path: "base.swift"), ours = try version(ourIDs, path: "ours.swift")
            let theirs = try version(theirIDs, path: "theirs.swift")
            var fast = GraphMerger(base: base, ours: ours, theirs: theirs)
            var general = fast
            try fast.mergeObjectsByEntry()
            try general.mergeObjectsByID()
            #expect(fast.conflicts == general.conflicts, "\(baseIDs) \(ourIDs) \(theirIDs)")
            #expect(try fast.resolvedOurs.serialized() == general.resolvedOurs.serialized(), "\(baseIDs) \(ourIDs) \(theirIDs)")
            #expect(try fast.resolvedTheirs.serialized() == general.resolvedTheirs.serialized(), "\(baseIDs) \(ourIDs) \(theirIDs)")
            var edited = theirs
            try edited.addFileReference(path: "New.swift", lastKnownFileType: "sourcecode.swift", to: SampleProject.appGroup)
            if let first = theirIDs.first { try edited.removeObject(ObjectID(first)) }
            for project in [ours, theirs, edited] {
                for test in [{ $0 == "PBXFileReference" }, { _ in true }] as [(String) -> Bool] {
                    #expect(project.objectIDs(whereIsa: test) == project.objectIDs.filter { project.isa(of: $0).map(test) == true })
                }
            }
        }
    }
}
