import Foundation
import Testing
import TestSupport
import TestThreads
@testable import PBXProj

/// Every kind of bad input is refused with an error naming line and column, never a crash,
/// and the file on disk stays as it was.
@Suite("Bad input", .dedicatedThreads)
struct BadInputTests {
    /// Writes `bytes` as `Bad.xcodeproj/project.pbxproj`, reads it through the file API, and
    /// checks that reading left the file alone.
    private func load(_ bytes: [UInt8]) throws -> PBXProject {
        let directory = try TemporaryDirectory(prefix: "pbx-bad")
        let folder = directory.path + "/Bad.xcodeproj"
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        let file = URL(fileURLWithPath: folder + "/project.pbxproj")
        try Data(bytes).write(to: file)
        defer { #expect((try? Data(contentsOf: file)) == Data(bytes), "the file on disk changed") }
        return try PBXProject(contentsOf: folder)
    }

    private func load(_ text: String) throws -> PBXProject { try load(Array(text.utf8)) }

    private static let header = "// !$*UTF8*$!\n{\n\tarchiveVersion = 1;\n\tobjects = {\n"

    @Test("a 0-byte file")
    func emptyFile() throws {
        #expect(throws: PBXProjError.emptyFile) { try load([UInt8]()) }
        #expect(PBXProjError.emptyFile.errorDescription?.contains("empty (0 bytes)") == true)
    }

    @Test("the corpus's 0-byte placeholder project")
    func corpusEmptyFile() throws {
        guard let directory = Corpus.pbxprojDirectory else {
            print("SKIPPED corpusEmptyFile: no corpus")
            return
        }
        let empty = try #require(PBXProjCorpusManifest.oddFiles(in: directory).first { $0.hasSuffix("empty.pbxproj") })
        #expect(throws: PBXProjError.emptyFile) { try load(Array(try Data(contentsOf: URL(fileURLWithPath: empty)))) }
    }

    @Test("a file with only whitespace and the header comment")
    func onlyHeader() throws {
        #expect(throws: PBXProjError.unexpectedEnd(expected: "'{' starting the project", at: SourceLocation(line: 2, column: 1))) {
            try load("// !$*UTF8*$!\n")
        }
    }

    @Test("a truncated file names the dictionary left open")
    func truncated() throws {
        let text = Self.header + "\t\tA = {isa = PBXGroup; children = (\n"
        #expect(throws: PBXProjError.unexpectedEnd(expected: "')' closing the list that opens at line 5", at: SourceLocation(line: 6, column: 1))) {
            try load(text)
        }
        let message = PBXProjError.unexpectedEnd(expected: "x", at: SourceLocation(line: 6, column: 1)).errorDescription ?? ""
        #expect(message.hasPrefix("6:1: the file ends too early"))
    }

    @Test("a truncated corpus file", arguments: [0.25, 0.5, 0.9])
    func truncatedSample(fraction: Double) throws {
        let bytes = Array(SampleProject.text.utf8)
        let cut = Array(bytes.prefix(Int(Double(bytes.count) * fraction)))
        #expect(throws: PBXProjError.self) { try load(cut) }
        do {
            _ = try load(cut)
        } catch let error as PBXProjError {
            #expect(error.location != nil)
        }
    }

    @Test("an unbalanced closing brace")
    func extraBrace() throws {
        #expect(throws: PBXProjError.unexpectedCharacter(found: "}", expected: "nothing after the project's closing '}'", at: SourceLocation(line: 2, column: 16))) {
            try load("// !$*UTF8*$!\n{objects = {};}}\n")
        }
    }

    @Test("unbalanced parentheses")
    func unbalancedParentheses() throws {
        #expect(throws: PBXProjError.unexpectedCharacter(found: ";", expected: "',' or ')'", at: SourceLocation(line: 5, column: 37))) {
            try load(Self.header + "\t\tA = {isa = PBXGroup; children = (B;\n")
        }
        #expect(throws: PBXProjError.unexpectedCharacter(found: ")", expected: "';'", at: SourceLocation(line: 5, column: 36))) {
            try load(Self.header + "\t\tA = {isa = PBXGroup; children = B);\n")
        }
    }

    @Test("an unterminated string points at its opening quote")
    func unterminatedString() throws {
        #expect(throws: PBXProjError.unterminatedString(at: SourceLocation(line: 5, column: 31))) {
            try load(Self.header + "\t\tA = {isa = PBXGroup; name = \"App;\n\t};\n}\n")
        }
    }

    @Test("an unterminated comment")
    func unterminatedComment() throws {
        #expect(throws: PBXProjError.unterminatedComment(at: SourceLocation(line: 5, column: 5))) {
            try load(Self.header + "\t\tA /* App = {isa = PBXGroup; };\n\t};\n}\n")
        }
    }

    @Test("a bad escape")
    func badEscape() throws {
        #expect(throws: PBXProjError.invalidEscape(sequence: "\\q", at: SourceLocation(line: 5, column: 33))) {
            try load(Self.header + "\t\tA = {isa = PBXGroup; name = \"a\\qb\"; };\n\t};\n}\n")
        }
    }

    @Test("invalid UTF-8")
    func invalidUTF8() throws {
        var bytes = Array((Self.header + "\t\tA = {isa = PBXGroup; name = \"ab\"; };\n\t};\n}\n").utf8)
        let index = try #require(bytes.indices.first { bytes[$0] == UInt8(ascii: "\"") && bytes[$0 + 1] == UInt8(ascii: "a") })
        bytes[index + 2] = 0xFF
        #expect(throws: PBXProjError.invalidUTF8(at: SourceLocation(line: 5, column: 33))) { try load(bytes) }
    }

    @Test("git merge-conflict markers name the marker's line")
    func mergeConflict() throws {
        let text = Self.header + "<<<<<<< HEAD\n\t\tA = {isa = PBXGroup; };\n=======\n\t\tB = {isa = PBXGroup; };\n>>>>>>> feature\n\t};\n}\n"
        #expect(throws: PBXProjError.mergeConflict(marker: "<<<<<<< HEAD", at: SourceLocation(line: 5, column: 1))) { try load(text) }
        let message = PBXProjError.mergeConflict(marker: "<<<<<<< HEAD", at: SourceLocation(line: 5, column: 1)).errorDescription
        #expect(message == "5:1: git merge-conflict marker '<<<<<<< HEAD' in the project file; resolve the conflict, then run again")
    }

    @Test("the corpus's merge-conflict fixture is refused at its first marker")
    func corpusMergeConflict() throws {
        guard let entries = try CorpusFixtures.entries(for: "corpusMergeConflict"),
            let entry = entries.first(where: { $0.baseName == CorpusFixtures.mergeConflict })
        else { return }
        let bytes = try entry.bytes()
        let lines = LineDiff.lines(bytes)
        let markerLine = try #require(lines.firstIndex { $0.hasPrefix("<<<<<<<") }) + 1
        #expect(throws: PBXProjError.mergeConflict(marker: String(lines[markerLine - 1]), at: SourceLocation(line: markerLine, column: 1))) {
            try load(bytes)
        }
    }

    @Test("duplicate object ids name both places")
    func duplicateIDs() throws {
        let text = Self.header + "\t\tA = {isa = PBXGroup; };\n\t\tB = {isa = PBXGroup; };\n\t\tA = {isa = PBXFileReference; };\n\t};\n}\n"
        let expected = PBXProjError.duplicateObjectID(id: "A", at: SourceLocation(line: 7, column: 3), first: SourceLocation(line: 5, column: 3))
        #expect(throws: expected) { try load(text) }
        #expect(expected.errorDescription == "7:3: object id 'A' is defined twice (first at line 5); remove or renumber one of them")
    }

    @Test("an object without isa")
    func missingIsa() throws {
        #expect(throws: PBXProjError.invalidStructure(message: "object 'A' has no 'isa'; every object needs its class name", at: SourceLocation(line: 5, column: 3))) {
            try load(Self.header + "\t\tA = {name = x; };\n\t};\n}\n")
        }
    }

    @Test("100,000 levels of nesting give an error, not a stack overflow")
    func deepNesting() throws {
        let depth = 100_000
        let text = Self.header + "\t\tA = {isa = PBXGroup; children = " + String(repeating: "(", count: depth)
            + String(repeating: ")", count: depth) + "; };\n\t};\n}\n"
        #expect(throws: PBXProjError.nestingTooDeep(limit: 256, at: SourceLocation(line: 5, column: 288))) { try load(text) }
        let xml = "<?xml version=\"1.0\"?>\n<plist version=\"1.0\">\n" + String(repeating: "<array>", count: depth)
            + String(repeating: "</array>", count: depth) + "</plist>\n"
        #expect(throws: PBXProjError.nestingTooDeep(limit: 256, at: SourceLocation(line: 3, column: 1793))) { try load(xml) }
    }

    @Test("a reference to a missing object loads, and validation names it as a warning")
    func danglingReference() throws {
        var text = SampleProject.text
        text = text.replacingOccurrences(of: "\t\t\t\t\(SampleProject.contentView) /* ContentView.swift */,\n", with: "\t\t\t\t\(SampleProject.contentView) /* ContentView.swift */,\n\t\t\t\tFFFFFFFFFFFFFFFFFFFFFFFF /* Gone.swift */,\n")
        let project = try load(text)
        #expect(try project.serialized() == Array(text.utf8))
        let diagnostics = project.validate()
        #expect(diagnostics.count == 1)
        let diagnostic = try #require(diagnostics.first)
        #expect(diagnostic.severity == .warning)
        #expect(diagnostic.objectID == SampleProject.appGroup)
        let line = try #require(LineDiff.lines(Array(text.utf8)).firstIndex { $0.contains("FFFFFFFFFFFFFFFFFFFFFFFF") }) + 1
        #expect(diagnostic.location == SourceLocation(line: line, column: 5))
        #expect(diagnostic.message.contains("refers to 'FFFFFFFFFFFFFFFFFFFFFFFF', which is not an object"))
        // The tree walk skips the dangling child instead of failing.
        #expect(try project.groupTree().nodes.contains { $0.element.id == SampleProject.contentView })
    }

    @Test("a cycle in the group tree is an error naming the group")
    func groupCycle() throws {
        let text = SampleProject.text.replacingOccurrences(
            of: "\t\t\t\t\(SampleProject.appDelegate) /* AppDelegate.swift */,\n",
            with: "\t\t\t\t\(SampleProject.appDelegate) /* AppDelegate.swift */,\n\t\t\t\t\(SampleProject.mainGroup),\n")
        let project = try load(text)
        let cycleLocation = project.location(of: SampleProject.appGroup)
        #expect(throws: PBXProjError.groupCycle(id: SampleProject.mainGroup.rawValue, at: cycleLocation)) { try project.groupTree() }
        #expect(project.validate().contains { $0.severity == .error && $0.message.contains("cycle in the group tree") })
    }

    @Test("a missing root object is an error")
    func missingRootObject() throws {
        let project = try load(Self.header + "\t\tA = {isa = PBXGroup; };\n\t};\n\trootObject = P;\n}\n")
        let diagnostics = project.validate()
        #expect(diagnostics.map(\.severity) == [.error])
        #expect(diagnostics.first?.location == SourceLocation(line: 7, column: 15))
    }

    @Test("a file that is not a project")
    func notAProject() throws {
        #expect(throws: PBXProjError.invalidStructure(message: "the project has no 'objects' dictionary; this is not a project.pbxproj file", at: SourceLocation(line: 1, column: 1))) {
            try load("{ a = b; }")
        }
    }
}
