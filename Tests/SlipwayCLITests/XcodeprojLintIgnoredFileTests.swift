import Foundation
import ProjectLint
import TestSupport
import TestThreads
import Testing

/// A reference to a file the build makes (a Run Script's `build/docs.json`, an xcframework a
/// script builds) is missing in a fresh checkout; when git ignores it, it is a note, not an error.
@Suite("slipway xcodeproj lint: missing files that git ignores", .dedicatedThreads)
struct XcodeprojLintIgnoredFileTests {
    @Test func aMissingFileGitIgnoresIsANoteAndOneItDoesNotIgnoreStaysAnError() async throws {
        let folder = try XcodeprojLintCommandTests.project(MissingFileRule())
        try folder.write(".slipway/lint.yml", "rules:\n  source-in-no-target: off\n  non-canonical-format: off\n")
        // off-pool: a test's own set-up; git runs as a child process and returns at once.
        try GitFixture.run(["init", "--quiet", "--initial-branch=main"], in: folder.path)

        let notIgnored = try await Binaries.runSlipway(["xcodeproj", "lint", "App.xcodeproj"], in: folder.path)
        #expect(notIgnored.status == .exited(1), "\(notIgnored.outputText)\(notIgnored.errorText)")
        #expect(notIgnored.outputText.contains("error: 'Gone.swift' does not exist (file reference 'Gone.swift'); restore the file or remove the reference [missing-file]"))

        try folder.write(".gitignore", "Gone.swift\n")
        let before = try Snapshot.of(folder.path)
        let ignored = try await Binaries.runSlipway(["xcodeproj", "lint", "App.xcodeproj"], in: folder.path)
        #expect(ignored.status == .exited(0), "\(ignored.outputText)\(ignored.errorText)")
        #expect(ignored.outputText.contains("note: 1 reference to missing files that git ignores (a build's output) is not checked (first: 'Gone.swift'); build once to make them, or stop ignoring them if they belong in the repository [unchecked-reference]"), "\(ignored.outputText)")
        #expect(!ignored.outputText.contains("[missing-file]"))
        #expect(try Snapshot.of(folder.path) == before, "lint changed the disk")
    }
}
