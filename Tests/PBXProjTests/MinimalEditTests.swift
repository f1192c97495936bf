import Foundation
import Testing
import TestSupport
import TestThreads
@testable import PBXProj

/// Edits change only the lines of the objects they touch and the comments naming them.
@Suite("Minimal edits", .dedicatedThreads)
struct MinimalEditTests {
    /// Renames a file reference and checks that nothing outside its own entry, its build files'
    /// entries and the lines naming either changed.
    private func checkRename(
        _ project: PBXProject, _ file: FileElement, originalLines: [Substring], buildFiles: [ObjectID]
    ) throws -> Bool {
        var edited = project
        let newPath = "Renamed Folder/\(file.path ?? "file")-renamed.swift"
        try edited.setPath(of: file.id, to: newPath)
        try edited.setName(of: file.id, to: nil)
        let output = try edited.serialized()
        let reread = try PBXProject(bytes: output, projectName: project.projectName)
        guard reread.fileElement(file.id)?.path == newPath, reread.fileElement(file.id)?.name == nil else { return false }
        let mentioning = Set([file.id.rawValue] + buildFiles.map(\.rawValue))
        let touched = Set([file.id] + buildFiles)
        let before = LineDiff.untouchedLines(of: project, lines: originalLines, objects: touched, mentioning: mentioning)
        let after = LineDiff.untouchedLines(of: reread, lines: LineDiff.lines(output), objects: touched, mentioning: mentioning)
        guard before == after else { return false }
        // The comments naming the file now say its new name.
        let text = String(decoding: output, as: UTF8.self)
        return text.contains("\(file.id.rawValue) /* \(newPath) */")
    }

    @Test("renaming each file reference in turn changes only its lines and the comments naming it")
    func renameEveryFileReference() throws {
        guard let entries = try CorpusFixtures.readableEntries(for: "renameEveryFileReference") else { return }
        var checked = 0
        var failures: [String] = []
        for entry in entries where CorpusFixtures.notWrittenByXcode.contains(entry.baseName) == false || entry.baseName.contains("XcodeGen") {
            let original = try entry.bytes()
            let project = try PBXProject(bytes: original, projectName: entry.projectName)
            let originalLines = LineDiff.lines(original)
            var buildFiles: [ObjectID: [ObjectID]] = [:]
            for id in project.objectIDs(isa: PBXIsa.buildFile) {
                if let reference = project.object(id)?.reference("fileRef") { buildFiles[reference, default: []].append(id) }
            }
            // Every reference of projects under 60 KB; an even sample of 12 in larger ones
            // (each rename rewrites the whole file, and the debug build is slow).
            let files = project.fileReferences
            let stride = original.count < 60_000 ? 1 : max(1, files.count / 12)
            for (index, file) in files.enumerated() where index % stride == 0 {
                checked += 1
                if try !checkRename(project, file, originalLines: originalLines, buildFiles: buildFiles[file.id] ?? []) { failures.append("\(entry.baseName): \(file.id)") }
            }
        }
        print("PBXProj minimal edits: \(checked - failures.count)/\(checked) file-reference renames stayed within their lines")
        #expect(failures.isEmpty, "\(failures.prefix(10))")
    }

    @Test("a rename in a small project changes exactly the expected lines")
    func renameExactLines() throws {
        let original = Array(SampleProject.text.utf8)
        var project = try PBXProject(bytes: original, projectName: "Sample")
        try project.setPath(of: SampleProject.appDelegate, to: "Sources/Delegate.swift")
        let output = String(decoding: try project.serialized(), as: UTF8.self)
        let expected = SampleProject.text
            .replacingOccurrences(
                of: "\(SampleProject.appDelegate) /* AppDelegate.swift */ = {isa = PBXFileReference; lastKnownFileType = sourcecode.swift; path = AppDelegate.swift; sourceTree = \"<group>\"; };",
                with: "\(SampleProject.appDelegate) /* Sources/Delegate.swift */ = {isa = PBXFileReference; lastKnownFileType = sourcecode.swift; path = Sources/Delegate.swift; sourceTree = \"<group>\"; };")
            .replacingOccurrences(of: "/* AppDelegate.swift in Sources */", with: "/* Sources/Delegate.swift in Sources */")
            .replacingOccurrences(of: "/* AppDelegate.swift */", with: "/* Sources/Delegate.swift */")
        #expect(output == expected)
    }

    @Test("renaming a group changes its path line and the comments naming it")
    func renameGroup() throws {
        let original = Array(SampleProject.text.utf8)
        var project = try PBXProject(bytes: original, projectName: "Sample")
        try project.setPath(of: SampleProject.appGroup, to: "Application")
        let output = try project.serialized()
        let removed = Set(LineDiff.lines(original)).subtracting(LineDiff.lines(output))
        let added = Set(LineDiff.lines(output)).subtracting(LineDiff.lines(original))
        #expect(removed == ["\t\t\t\t\(SampleProject.appGroup) /* App */,", "\t\t\(SampleProject.appGroup) /* App */ = {", "\t\t\tpath = App;"])
        #expect(added == ["\t\t\t\t\(SampleProject.appGroup) /* Application */,", "\t\t\(SampleProject.appGroup) /* Application */ = {", "\t\t\tpath = Application;"])
    }

    @Test("adding a group and a file inserts their lines in Xcode's order and nothing else")
    func addGroupAndFile() throws {
        let original = Array(SampleProject.text.utf8)
        var project = try PBXProject(bytes: original, projectName: "Sample")
        let group = try project.addGroup(path: "Feature", to: SampleProject.appGroup)
        let file = try project.addFileReference(path: "Feature.swift", lastKnownFileType: "sourcecode.swift", to: group)
        let output = try project.serialized()
        let reread = try PBXProject(bytes: output, projectName: "Sample")
        #expect(reread.fileElement(group)?.children == [file])
        #expect(try reread.resolvedPath(of: file) == .relative("App/Feature/Feature.swift"))
        let before = try LineDiff.untouchedLines(original, objects: [SampleProject.appGroup], mentioning: [])
        let after = try LineDiff.untouchedLines(output, objects: [SampleProject.appGroup, group, file], mentioning: [])
        #expect(before == after)
        // The new objects are where Xcode puts them, so the result is still canonical.
        #expect(try reread.canonicalSerialized() == output)
    }

    @Test("removing a file reference removes its build files and list entries only")
    func removeFile() throws {
        let original = Array(SampleProject.text.utf8)
        var project = try PBXProject(bytes: original, projectName: "Sample")
        try project.removeFileReference(SampleProject.appDelegate)
        let output = String(decoding: try project.serialized(), as: UTF8.self)
        let expected = SampleProject.text.split(separator: "\n", omittingEmptySubsequences: false)
            .filter { !$0.contains("AppDelegate.swift") }.joined(separator: "\n")
        #expect(output == expected)
        #expect(try PBXProject(bytes: Array(output.utf8), projectName: "Sample").validate().isEmpty)
    }

    @Test("removing a group removes it, its contents and its entry in the parent")
    func removeGroup() throws {
        var project = try PBXProject(bytes: Array(SampleProject.text.utf8), projectName: "Sample")
        try project.removeGroup(SampleProject.appGroup)
        let reread = try PBXProject(bytes: try project.serialized(), projectName: "Sample")
        #expect(reread.object(SampleProject.appGroup) == nil)
        #expect(reread.object(SampleProject.appDelegate) == nil)
        #expect(reread.validate().isEmpty)
        #expect(try reread.canonicalSerialized() == (try project.serialized()))
    }

    @Test("changing a build setting changes one line")
    func buildSetting() throws {
        let original = Array(SampleProject.text.utf8)
        var project = try PBXProject(bytes: original, projectName: "Sample")
        try project.setBuildSetting("SWIFT_VERSION", to: "6.0", in: SampleProject.appDebug)
        let output = try project.serialized()
        #expect(LineDiff.changedLineCount(original, output) == 2)
        #expect(String(decoding: output, as: UTF8.self).contains("\t\t\t\tSWIFT_VERSION = 6.0;\n"))
    }

    @Test("setting a value back to what was read gives the original bytes")
    func noOpEdit() throws {
        let original = Array(SampleProject.text.utf8)
        var project = try PBXProject(bytes: original, projectName: "Sample")
        try project.setPath(of: SampleProject.appDelegate, to: "Other.swift")
        try project.setPath(of: SampleProject.appDelegate, to: "AppDelegate.swift")
        #expect(!project.hasChanges)
        #expect(try project.serialized() == original)
    }

    @Test("reordering a group's children moves only those lines")
    func reorderChildren() throws {
        let original = Array(SampleProject.text.utf8)
        var project = try PBXProject(bytes: original, projectName: "Sample")
        let children = try #require(project.fileElement(SampleProject.appGroup)?.children)
        try project.setChildren(of: SampleProject.appGroup, to: children.reversed())
        let output = try project.serialized()
        #expect(Set(LineDiff.lines(output)) == Set(LineDiff.lines(original)))
        #expect(try PBXProject(bytes: output, projectName: "Sample").fileElement(SampleProject.appGroup)?.children == children.reversed())
    }

    @Test("an edit of a SwiftPM-generated file keeps its style: quoted values, spaces, no comments")
    func editKeepsForeignStyle() throws {
        guard let entries = try CorpusFixtures.readableEntries(for: "editKeepsForeignStyle"),
            let entry = entries.first(where: { $0.baseName == "tuist__XcodeProj__WithoutWorkspace" })
        else { return }
        let original = try entry.bytes()
        var project = try PBXProject(bytes: original, projectName: entry.projectName)
        let file = try #require(project.fileReferences.first)
        try project.setPath(of: file.id, to: "Renamed.swift")
        let output = try project.serialized()
        #expect(LineDiff.changedLineCount(original, output) == 2)
        #expect(String(decoding: output, as: UTF8.self).contains("         path = \"Renamed.swift\";\n"))
    }

    @Test("edits of a file with everything on one line still read back")
    func oneLineFile() throws {
        let text = "{archiveVersion = 1; objectVersion = 46; objects = {G = {isa = PBXGroup; children = (F); sourceTree = \"<group>\"; }; F = {isa = PBXFileReference; path = a.swift; sourceTree = \"<group>\"; }; P = {isa = PBXProject; mainGroup = G; targets = (); };}; rootObject = P; }"
        var project = try PBXProject(bytes: Array(text.utf8), projectName: "Flat")
        let file = try project.addFileReference(path: "b.swift", to: "G")
        let group = try project.addGroup(path: "Sub", to: "G")
        try project.setRootValue("classes", .dictionary(PBXDictionary()))
        try project.removeFileReference("F")
        let reread = try PBXProject(bytes: try project.serialized(), projectName: "Flat")
        #expect(reread.fileElement("G")?.children == [file, group])
        #expect(reread.object("F") == nil)
        #expect(reread.rootValue("classes") == .dictionary(PBXDictionary()))
        for id in project.objectIDs { #expect(reread.object(id) == project.object(id)) }
    }
}
