import Foundation
import Testing
import TestSupport
import TestThreads
@testable import PBXProj

/// `ProjectDiff` over the real-world corpus: no file differs from itself, nor from its canonical
/// reformatting (formatting is not a semantic change).
@Suite("Project diff: corpus", .dedicatedThreads)
struct ProjectDiffCorpusTests {
    @Test("every corpus project equals itself and its canonically reformatted copy")
    func corpus() throws {
        guard let entries = try CorpusFixtures.readableEntries(for: "ProjectDiffCorpusTests.corpus") else { return }
        #expect(!entries.isEmpty)
        var compared = 0
        for entry in entries {
            let directory = try TemporaryDirectory(prefix: "pbx-diff-corpus")
            let project = try CorpusFixtures.load(entry, in: directory)
            let snapshot: ProjectSnapshot
            do {
                snapshot = try ProjectSnapshot(project)
            } catch let error as PBXProjError {
                // Projects without a readable group tree cannot be compared; the reformatted
                // copy must fail the same way.
                let copy = try PBXProject(bytes: project.canonicalSerialized(), projectName: project.projectName)
                #expect(throws: error) { try ProjectSnapshot(copy) }
                continue
            }
            #expect(ProjectDiff(from: snapshot, to: snapshot).isEmpty, "\(entry.baseName)")
            let copy = try PBXProject(bytes: project.canonicalSerialized(), projectName: project.projectName)
            let reformatted = try ProjectSnapshot(copy)
            let difference = ProjectDiff(from: snapshot, to: reformatted)
            #expect(difference.isEmpty, "\(entry.baseName): \(difference.humanText())")
            #expect(snapshot.semanticText() == reformatted.semanticText(), "\(entry.baseName)")
            compared += 1
        }
        #expect(compared > 0)
        print("compared \(compared) of \(entries.count) corpus projects with themselves and their canonical form")
    }
}
