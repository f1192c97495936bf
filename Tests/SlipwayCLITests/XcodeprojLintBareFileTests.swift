import Foundation
import ProjectLint
import TestSupport
import TestThreads
import Testing

/// A `project.pbxproj` outside an `.xcodeproj` folder: lint cannot know the project's folder or
/// name, so it refuses the file instead of reporting every file missing.
@Suite("slipway xcodeproj lint: a bare project.pbxproj", .dedicatedThreads)
struct XcodeprojLintBareFileTests {
    @Test func aBarePbxprojIsRefusedWithExitTwoAndNothingChanges() async throws {
        let folder = try XcodeprojLintCommandTests.project(MissingFileRule(), files: ["Gone.swift"])
        let example = try #require(MissingFileRule().examples.first)
        try folder.write("copies/project.pbxproj", example.project)
        let before = try Snapshot.of(folder.path)
        for arguments in [["copies/project.pbxproj"], ["copies/project.pbxproj", "--fix"], ["copies/project.pbxproj", "--json"]] {
            let result = try await Binaries.runSlipway(["xcodeproj", "lint"] + arguments, in: folder.path)
            #expect(result.status == .exited(2), "\(arguments): \(result.outputText)\(result.errorText)")
            #expect(result.outputText == "")
            #expect(result.errorText == "error: 'copies/project.pbxproj' is not inside an .xcodeproj folder, so lint cannot "
                    + "tell the project's folder or name (its file checks would look in the wrong place): give the .xcodeproj that holds it, "
                    + "or put the file back as NAME.xcodeproj/project.pbxproj next to the project's files\n")
        }
        #expect(try Snapshot.of(folder.path) == before, "a refused lint changed the disk")
    }

    @Test func theFileInsideAnXcodeprojIsStillLinted() async throws {
        let folder = try XcodeprojLintCommandTests.project(MissingFileRule(), files: ["Gone.swift"])
        try folder.write(".slipway/lint.yml", "rules:\n  source-in-no-target: off\n  non-canonical-format: off\n")
        for (arguments, directory) in [(["App.xcodeproj/project.pbxproj"], folder.path), (["project.pbxproj"], folder.path + "/App.xcodeproj")] {
            let result = try await Binaries.runSlipway(["xcodeproj", "lint"] + arguments, in: directory)
            #expect(result.status == .exited(0), "\(arguments): \(result.outputText)\(result.errorText)")
            #expect(result.outputText.hasPrefix("0 errors, 0 warnings, 0 notes in "), "\(result.outputText)")
        }
    }
}
