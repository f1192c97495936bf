import Foundation
import Testing
import TestSupport
import TestThreads
@testable import PBXProj

/// The merge driver's flow and the diff's sides, in process (the binary's tests are in
/// MergeCommandTests and DiffCommandLineTests).
@Suite("PBXProjMergeDriver and ProjectDiffSource", .dedicatedThreads)
struct MergeDriverTests {
    @Test("an unreadable version is refused before anything is written")
    func unreadableInput() async throws {
        let directory = try TemporaryDirectory(prefix: "pbx-driver")
        let base = try directory.write("base.pbxproj", SampleProject.text)
        let ours = try directory.write("ours.pbxproj", SampleProject.text)
        let driver = PBXProjMergeDriver(base: base, ours: ours, theirs: directory.path + "/missing.pbxproj")
        await #expect(throws: PBXProjMergeError.unreadableFile(path: directory.path + "/missing.pbxproj")) {
            _ = try await driver.run { _, _, _ in nil }
        }
        #expect(try String(contentsOfFile: ours, encoding: .utf8) == SampleProject.text)
    }

    @Test("a clean merge is written into ours")
    func cleanMerge() async throws {
        let directory = try TemporaryDirectory(prefix: "pbx-driver")
        let text = SampleProject.text
        let paths = try ["base", "ours", "theirs"].map { try directory.write("\($0).pbxproj", text) }
        let outcome = try await PBXProjMergeDriver(base: paths[0], ours: paths[1], theirs: paths[2]).run { _, _, _ in
            Issue.record("no line merge for projects that read")
            return nil
        }
        guard case .merged(let conflicts, let notes) = outcome else { Issue.record("\(outcome)"); return }
        #expect(conflicts.isEmpty && notes.isEmpty)
        let merged = try PBXProject(bytes: Array(try String(contentsOfFile: paths[1], encoding: .utf8).utf8), projectName: "Sample")
        let original = try PBXProject(bytes: Array(text.utf8), projectName: "Sample")
        #expect(ProjectDiff(from: try ProjectSnapshot(original), to: try ProjectSnapshot(merged)).isEmpty)
    }

    @Test("a version that is no project is merged line by line; without git, both sides whole between markers")
    func lineMergeFallback() async throws {
        let directory = try TemporaryDirectory(prefix: "pbx-driver")
        let base = try directory.write("base.pbxproj", SampleProject.text)
        let ours = try directory.write("ours.pbxproj", "ours {")
        let theirs = try directory.write("theirs.pbxproj", SampleProject.text)
        let outcome = try await PBXProjMergeDriver(base: base, ours: ours, theirs: theirs).run { _, _, _ in nil }
        guard case .mergedLineByLine(let reason, let writeError) = outcome else { Issue.record("\(outcome)"); return }
        #expect(reason.hasPrefix("the ours version does not read as a project"))
        #expect(writeError == nil)
        #expect(try String(contentsOfFile: ours, encoding: .utf8)
                == "<<<<<<< ours\nours {\n=======\n" + SampleProject.text + "\n>>>>>>> theirs\n")
    }

    @Test("a working copy without a project file is not a project")
    func workingCopyWithoutProject() throws {
        let directory = try TemporaryDirectory(prefix: "pbx-diff-source")
        let path = directory.path + "/None.xcodeproj"
        #expect(throws: ProjectDiffInputError.notAProject(path: path, pbxproj: path + "/project.pbxproj")) {
            _ = try ProjectDiffSource.workingCopy(path).snapshot()
        }
    }
}
