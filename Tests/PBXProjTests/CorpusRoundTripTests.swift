import Foundation
import Testing
import TestSupport
import TestThreads
@testable import PBXProj

/// The real-world corpus: every file reads and writes back byte for byte, and every file Xcode
/// wrote comes out of the canonical writer unchanged.
@Suite("Corpus round trip", .dedicatedThreads)
struct CorpusRoundTripTests {
    @Test("every corpus file is written back byte for byte")
    func losslessRoundTrip() throws {
        guard let entries = try CorpusFixtures.entries(for: "losslessRoundTrip") else { return }
        let directory = try TemporaryDirectory(prefix: "pbx-roundtrip")
        var passed = 0
        var failures: [String] = []
        for entry in entries {
            if entry.baseName == CorpusFixtures.mergeConflict {
                // Refused with the marker's line (asserted in BadInputTests); counts as handled.
                #expect(throws: PBXProjError.self) { try CorpusFixtures.load(entry, in: directory) }
                passed += 1
                continue
            }
            let project = try CorpusFixtures.load(entry, in: directory)
            if try project.serialized() == (try entry.bytes()) { passed += 1 } else { failures.append(entry.baseName) }
        }
        print("PBXProj corpus round trip: \(passed)/\(entries.count) files byte-identical (merge-conflict fixture refused as required)")
        #expect(failures.isEmpty, "not byte-identical: \(failures)")
        #expect(passed == entries.count)
    }

    @Test("every file Xcode wrote equals its canonical re-serialization")
    func canonicalForm() throws {
        guard let entries = try CorpusFixtures.readableEntries(for: "canonicalForm") else { return }
        let directory = try TemporaryDirectory(prefix: "pbx-canonical")
        var xcodePassed = 0, xcodeTotal = 0, otherPassed = 0, otherTotal = 0
        var failures: [String] = []
        for entry in entries {
            let project = try CorpusFixtures.load(entry, in: directory)
            let same = try project.canonicalSerialized() == (try entry.bytes())
            if CorpusFixtures.notWrittenByXcode.contains(entry.baseName) {
                otherTotal += 1
                if same { otherPassed += 1 }
            } else {
                xcodeTotal += 1
                if same { xcodePassed += 1 } else { failures.append(entry.baseName) }
            }
        }
        print("PBXProj canonical writer: \(xcodePassed)/\(xcodeTotal) Xcode-written files identical; "
            + "\(otherPassed)/\(otherTotal) of the other readable files happen to be canonical too")
        #expect(failures.isEmpty, "canonical form differs: \(failures)")
    }

    @Test("the canonical form is stable: writing it again changes nothing")
    func canonicalIsFixedPoint() throws {
        guard let entries = try CorpusFixtures.readableEntries(for: "canonicalIsFixedPoint") else { return }
        for entry in entries {
            let project = try PBXProject(bytes: try entry.bytes(), projectName: entry.projectName)
            let canonical = try project.canonicalSerialized()
            let again = try PBXProject(bytes: canonical, projectName: entry.projectName)
            #expect(try again.canonicalSerialized() == canonical, "\(entry.baseName)")
            #expect(again.objectIDs.count == project.objectIDs.count, "\(entry.baseName)")
        }
    }

    @Test("non-canonical files become canonical with format and keep every object and key")
    func formattingKeepsContent() throws {
        guard let entries = try CorpusFixtures.readableEntries(for: "formattingKeepsContent") else { return }
        for entry in entries where CorpusFixtures.notWrittenByXcode.contains(entry.baseName) {
            let project = try PBXProject(bytes: try entry.bytes(), projectName: entry.projectName)
            let formatted = try PBXProject(bytes: try project.canonicalSerialized(), projectName: entry.projectName)
            for id in project.objectIDs {
                #expect(formatted.object(id) == project.object(id), "\(entry.baseName): \(id)")
            }
        }
    }

    @Test("verifying through the file API leaves the file untouched")
    func readingDoesNotWrite() throws {
        guard let entries = try CorpusFixtures.readableEntries(for: "readingDoesNotWrite") else { return }
        let directory = try TemporaryDirectory(prefix: "pbx-untouched")
        for entry in entries.prefix(5) {
            let folder = try entry.install(in: directory)
            let before = try Data(contentsOf: URL(fileURLWithPath: folder + "/project.pbxproj"))
            let project = try PBXProject(contentsOf: folder)
            _ = try project.canonicalSerialized()
            _ = project.validate()
            #expect(try Data(contentsOf: URL(fileURLWithPath: folder + "/project.pbxproj")) == before)
        }
    }
}
