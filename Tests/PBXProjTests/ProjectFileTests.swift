import Foundation
import Testing
import TestSupport
import TestThreads
@testable import PBXProj

/// Finding, reading and writing project files on disk.
@Suite("Project files", .dedicatedThreads)
struct ProjectFileTests {
    @Test("a .xcodeproj folder, the pbxproj inside it, or a lone pbxproj file")
    func locating() throws {
        let directory = try TemporaryDirectory(prefix: "pbx-files")
        try directory.write("My App.xcodeproj/project.pbxproj", SampleProject.text)
        let folder = ProjectFile(path: directory.path + "/My App.xcodeproj/")
        #expect(folder.projectName == "My App")
        #expect(folder.pbxprojPath == directory.path + "/My App.xcodeproj/project.pbxproj")
        #expect(folder.projectDirectory == ProjectPath.normalize(directory.path))
        let file = ProjectFile(path: directory.path + "/My App.xcodeproj/project.pbxproj")
        #expect(file.projectName == "My App")
        #expect(file.projectDirectory == folder.projectDirectory)
        let lone = ProjectFile(path: directory.path + "/Other.pbxproj")
        #expect(lone.projectName == "Other")
    }

    @Test("the project's name comes from the folder and shows in the configuration list's comment")
    func nameFromFolder() throws {
        let directory = try TemporaryDirectory(prefix: "pbx-files")
        try directory.write("Renamed.xcodeproj/project.pbxproj", SampleProject.text)
        let project = try PBXProject(contentsOf: directory.path + "/Renamed.xcodeproj")
        #expect(project.projectName == "Renamed")
        #expect(try project.serialized() == Array(SampleProject.text.utf8))
        let canonical = String(decoding: try project.canonicalSerialized(), as: UTF8.self)
        #expect(canonical.contains("Build configuration list for PBXProject \"Renamed\""))
    }

    @Test("writing is atomic and keeps the file's permissions")
    func writing() throws {
        let directory = try TemporaryDirectory(prefix: "pbx-files")
        let path = try directory.write("App.xcodeproj/project.pbxproj", SampleProject.text)
        try FileManager.default.setAttributes([.posixPermissions: 0o640], ofItemAtPath: path)
        var project = try PBXProject(contentsOf: path)
        try project.setPath(of: SampleProject.contentView, to: "Views/ContentView.swift")
        try project.write(to: path)
        let written = try String(contentsOfFile: path, encoding: .utf8)
        #expect(written.contains("path = Views/ContentView.swift;"))
        let permissions = try FileManager.default.attributesOfItem(atPath: path)[.posixPermissions] as? Int
        #expect(permissions == 0o640)
        let leftovers = try FileManager.default.contentsOfDirectory(atPath: directory.path + "/App.xcodeproj")
        #expect(leftovers == ["project.pbxproj"])
    }

    @Test("writing without flushing (git's temporary file) is as atomic; a file larger than its stated size is read whole")
    func writingUndurablyAndStaleSizes() throws {
        let directory = try TemporaryDirectory(prefix: "pbx-files")
        let path = try directory.write("project.pbxproj", "old")
        try FileIO.writeAtomically(Array("new text".utf8), to: path, durable: false)
        #expect(try String(contentsOfFile: path, encoding: .utf8) == "new text")
        #expect(try FileManager.default.contentsOfDirectory(atPath: directory.path) == ["project.pbxproj"])
        #if os(Linux)
        // A /proc file states a size of 0 and holds more: what is past the stated size is read too.
        let read = try FileIO.read("/proc/self/maps")
        #expect(read.count > 100 && String(decoding: read, as: UTF8.self).contains("\n"))
        #endif
    }

    @Test("a missing file and a folder without a project are reported by path")
    func unreadable() throws {
        let directory = try TemporaryDirectory(prefix: "pbx-files")
        #expect(throws: PBXProjError.self) { try PBXProject(contentsOf: directory.path + "/Nope.xcodeproj") }
        do {
            _ = try PBXProject(contentsOf: directory.path + "/Nope.xcodeproj")
        } catch let error as PBXProjError {
            #expect(error.message.hasPrefix("cannot read '\(directory.path)/Nope.xcodeproj/project.pbxproj'"))
        }
    }

    @Test("verify and format reports")
    func reports() throws {
        let directory = try TemporaryDirectory(prefix: "pbx-files")
        let text = SampleProject.text.replacingOccurrences(of: "path = App;", with: "path = \"App\";")
        let path = try directory.write("Sample.xcodeproj/project.pbxproj", text)
        let verify = try PBXProject.verify(at: path)
        #expect(verify.isIdentical)
        #expect(verify.diagnostics.isEmpty)
        let check = try PBXProject.format(at: path, write: false)
        let difference = try #require(check.firstDifference)
        #expect(difference.original == "\t\t\tpath = \"App\";")
        #expect(difference.written == "\t\t\tpath = App;")
        #expect(!check.wrote)
        #expect(try String(contentsOfFile: path, encoding: .utf8) == text)
        #expect(try PBXProject.format(at: path, write: true).wrote)
        #expect(try String(contentsOfFile: path, encoding: .utf8) == SampleProject.text)
        #expect(try PBXProject.format(at: path, write: true).firstDifference == nil)
    }

    @Test("the first differing line, also at the end of a file")
    func firstDifference() {
        #expect(LineDifference.first(Array("a\nb\n".utf8), Array("a\nb\n".utf8)) == nil)
        #expect(LineDifference.first(Array("a\nb\n".utf8), Array("a\nc\n".utf8)) == LineDifference(line: 2, original: "b", written: "c"))
        #expect(LineDifference.first(Array("a\n".utf8), Array("a\nb\n".utf8)) == LineDifference(line: 2, original: nil, written: "b"))
        #expect(LineDifference.changedLineCount(Array("a\nb\nc\n".utf8), Array("a\nx\nc\n".utf8)) == 1)
    }
}
