import Basics
import Foundation
import Release
import Testing
import TestSupport
import TestThreads

/// Version stamping in real Xcode projects from the shared corpus (skipped, and said so, when
/// the corpus is absent).
@Suite(.dedicatedThreads) struct XcodeprojStampTests {
    func copy(_ name: String, as project: String) throws -> (TemporaryDirectory, String)? {
        guard let corpus = Corpus.pbxprojDirectory else {
            print("note: the pbxproj corpus is absent (../shared/corpus/pbxproj); skipping \(name)")
            return nil
        }
        let folder = try TemporaryDirectory(prefix: "slipway-stamp")
        let path = try folder.write("\(project).xcodeproj/project.pbxproj", try String(contentsOfFile: "\(corpus)/files/\(name).pbxproj", encoding: .utf8))
        return (folder, path)
    }

    @Test func marketingVersionChangesOnlyItsLines() throws {
        guard let (folder, path) = try copy("fastlane__fastlane__VisionExample", as: "VisionExample") else { return }
        let before = try String(contentsOfFile: path, encoding: .utf8)
        let stamper = VersionStamper(fileSystem: LocalFileSystem())
        try stamper.apply(try stamper.edits([.xcodeproj(path: folder.path + "/VisionExample.xcodeproj", targets: nil)], version: "2.5.0", buildNumber: "77"))
        let after = try String(contentsOfFile: path, encoding: .utf8)
        let old = before.split(separator: "\n", omittingEmptySubsequences: false)
        let new = after.split(separator: "\n", omittingEmptySubsequences: false)
        #expect(old.count == new.count)
        let changed = zip(old, new).filter { $0 != $1 }
        #expect(!changed.isEmpty)
        for (was, now) in changed {
            #expect(now.contains("MARKETING_VERSION = 2.5.0;") || now.contains("CURRENT_PROJECT_VERSION = 77;"), "unexpected change: \(was) → \(now)")
        }
    }

    @Test func targetsWithoutTheSettingAreNamed() throws {
        guard let (folder, path) = try copy("nohana__NohanaImagePicker__NohanaImagePicker", as: "NohanaImagePicker") else { return }
        let before = try Data(contentsOf: URL(fileURLWithPath: path))
        do {
            _ = try VersionStamper(fileSystem: LocalFileSystem()).edits([.xcodeproj(path: folder.path + "/NohanaImagePicker.xcodeproj", targets: nil)], version: "1.0.0", buildNumber: nil)
            Issue.record("expected an error")
        } catch {
            #expect(errorText(error).hasPrefix("'\(path)': targets "))
            #expect(errorText(error).contains("have no MARKETING_VERSION in any build configuration; add it in Xcode (Build Settings), or list only the targets that have it in the step's 'targets' option"))
        }
        #expect(try Data(contentsOf: URL(fileURLWithPath: path)) == before)
    }
}
