import Basics
import Foundation
import Testing
import TestSupport
import TestThreads

/// The door for the project's files: links at every path component, devices, FIFOs, `..`,
/// size caps, writes through links.
@Suite(.dedicatedThreads) struct ProjectFilesTests {
    struct Fixture {
        let project: TemporaryDirectory
        let outside: TemporaryDirectory
        let door: ProjectFiles
        let fileSystem: ProjectFileSystem

        init() throws {
            project = try TemporaryDirectory(prefix: "slipway-door")
            outside = try TemporaryDirectory(prefix: "slipway-door-outside")
            try outside.write("secret.txt", "aws_access_key_id = AKIAEXAMPLE\n")
            try outside.write("folder/inner.txt", "outside\n")
            try project.write("inside.txt", "inside\n")
            try project.write("Sub/deeper/file.txt", "deep\n")
            door = ProjectFiles(root: project.path)
            fileSystem = ProjectFileSystem(root: project.path)
        }

        func link(_ name: String, to target: String) throws {
            let path = project.path + "/" + name
            try FileManager.default.createDirectory(atPath: (path as NSString).deletingLastPathComponent,
                                                    withIntermediateDirectories: true)
            try FileManager.default.createSymbolicLink(atPath: path, withDestinationPath: target)
        }
    }

    @Test func readsRegularFilesAndLinksThatStayInside() throws {
        let fixture = try Fixture()
        try fixture.link("alias.txt", to: "inside.txt")
        try fixture.link("Alias", to: "Sub/deeper")
        #expect(try fixture.door.readText("inside.txt", as: .configuration) == "inside\n")
        #expect(try fixture.door.readText("alias.txt", as: .configuration) == "inside\n")
        #expect(try fixture.door.readText("Alias/file.txt", as: .configuration) == "deep\n")
        #expect(try fixture.door.readText("Sub/deeper/../../inside.txt", as: .configuration) == "inside\n")
        #expect(try fixture.fileSystem.readText(fixture.project.path + "/Alias/file.txt") == "deep\n")
    }

    @Test func aFileLinkedOutsideIsRefusedNamingTheLink() throws {
        let fixture = try Fixture()
        try fixture.link("Podfile.lock", to: fixture.outside.path + "/secret.txt")
        #expect(throws: ProjectFileError.outside(path: "Podfile.lock", link: "Podfile.lock",
                                                 target: fixture.outside.path + "/secret.txt", root: fixture.project.path)) {
            try fixture.door.read("Podfile.lock", as: .lockfile)
        }
        let error = try #require(throws: ProjectFileError.self) { try fixture.fileSystem.read(fixture.project.path + "/Podfile.lock") }
        #expect(error.localizedDescription.contains("'Podfile.lock' is a symbolic link to '\(fixture.outside.path)/secret.txt', outside the project"))
    }

    @Test func aFolderLinkedOutsideIsRefusedAtEveryComponent() throws {
        let fixture = try Fixture()
        try fixture.link("Support", to: fixture.outside.path + "/folder")
        try fixture.link("Sub/up", to: "../..")
        for path in ["Support/inner.txt", "Sub/up/" + (fixture.outside.path as NSString).lastPathComponent + "/secret.txt"] {
            let error = try #require(throws: ProjectFileError.self, "\(path)") { try fixture.door.read(path, as: .other) }
            guard case .outside(let shown, let link, _, _) = error else { Issue.record("\(error)"); continue }
            #expect(shown == path)
            #expect(link == (path.hasPrefix("Support") ? "Support" : "Sub/up"))
        }
        #expect(throws: ProjectFileError.self) { try fixture.fileSystem.contents(ofDirectory: fixture.project.path + "/Support") }
    }

    @Test func climbingOutWithDotDotIsRefused() throws {
        let fixture = try Fixture()
        let relative = "../" + (fixture.outside.path as NSString).lastPathComponent + "/secret.txt"
        #expect(throws: ProjectFileError.self) { try fixture.door.read(relative, as: .other) }
        #expect(throws: ProjectFileError.self) { try fixture.door.write("x", to: relative) }
    }

    @Test func devicesFIFOsAndProcFilesAreRefused() throws {
        let fixture = try Fixture()
        try fixture.link("zero", to: "/dev/zero")
        try fixture.link("environ", to: "/proc/self/environ")
        #expect(mkfifo(fixture.project.path + "/fifo", 0o644) == 0)
        #expect(throws: ProjectFileError.self) { try fixture.door.read("zero", as: .lockfile) }
        #expect(throws: ProjectFileError.self) { try fixture.door.read("environ", as: .lockfile) }
        let fifo = try #require(throws: ProjectFileError.self) { try fixture.door.read("fifo", as: .lockfile) }
        #expect(fifo == .notAFile(path: "fifo", kind: .other, expectedFolder: false))
        // The disk itself refuses devices too, for paths outside any project.
        #expect(throws: FileSystemError.self) { try LocalFileSystem().read("/dev/zero") }
    }

    @Test func readsAreCappedByKind() throws {
        let fixture = try Fixture()
        try fixture.project.write("big.md", String(repeating: "x", count: (256 << 10) + 1))
        #expect(throws: ProjectFileError.tooLarge(path: "big.md", kind: "template", limit: 256 << 10)) {
            try fixture.door.read("big.md", as: .template)
        }
        #expect(try fixture.door.read("big.md", as: .changelog).count == (256 << 10) + 1)
        #expect(throws: FileSystemError.tooLarge(path: fixture.project.path + "/big.md", limit: 1000)) {
            try fixture.fileSystem.read(fixture.project.path + "/big.md", limit: 1000)
        }
    }

    @Test func writesNeverGoThroughALinkNorLeaveTheProject() throws {
        let fixture = try Fixture()
        try fixture.link("Support", to: fixture.outside.path + "/folder")
        try fixture.link("CHANGELOG.md", to: fixture.outside.path + "/secret.txt")
        try fixture.link("Inner", to: "Sub")
        #expect(throws: ProjectFileError.self) { try fixture.door.write("1.2.3\n", to: "Support/VERSION") }
        #expect(throws: ProjectFileError.self) { try fixture.fileSystem.writeAtomically("1.2.3\n", to: fixture.project.path + "/Support/VERSION") }
        #expect(throws: ProjectFileError.self) { try fixture.fileSystem.createDirectory(fixture.project.path + "/Support/new") }
        let linked = try #require(throws: ProjectFileError.self) { try fixture.door.write("x", to: "CHANGELOG.md") }
        #expect(linked == .writeThroughLink(path: "CHANGELOG.md", target: fixture.outside.path + "/secret.txt"))
        #expect(!FileManager.default.fileExists(atPath: fixture.outside.path + "/folder/VERSION"))
        #expect(try String(contentsOfFile: fixture.outside.path + "/secret.txt", encoding: .utf8) == "aws_access_key_id = AKIAEXAMPLE\n")
        // A folder link that stays inside is fine for the folder; new folders are made inside.
        try fixture.door.write("v\n", to: "Inner/VERSION")
        #expect(try String(contentsOfFile: fixture.project.path + "/Sub/VERSION", encoding: .utf8) == "v\n")
        try fixture.door.write("n\n", to: "New/Folder/file.txt")
        #expect(try String(contentsOfFile: fixture.project.path + "/New/Folder/file.txt", encoding: .utf8) == "n\n")
    }

    @Test func movesAndRemovalsStayInside() throws {
        let fixture = try Fixture()
        try fixture.link("Support", to: fixture.outside.path + "/folder")
        try fixture.link("dangling", to: fixture.outside.path + "/secret.txt")
        #expect(throws: ProjectFileError.self) { try fixture.fileSystem.move(fixture.project.path + "/inside.txt", to: fixture.project.path + "/Support/x.txt") }
        #expect(throws: ProjectFileError.self) { try fixture.fileSystem.remove(fixture.project.path + "/Support/inner.txt") }
        // The link itself may go: its target stays.
        try fixture.fileSystem.remove(fixture.project.path + "/dangling")
        #expect(FileManager.default.fileExists(atPath: fixture.outside.path + "/secret.txt"))
        #expect(FileManager.default.fileExists(atPath: fixture.outside.path + "/folder/inner.txt"))
        #expect(FileManager.default.fileExists(atPath: fixture.project.path + "/inside.txt"))
    }

    @Test func pathsOutsideTheProjectPassThrough() throws {
        let fixture = try Fixture()
        #expect(try fixture.fileSystem.readText(fixture.outside.path + "/secret.txt").hasPrefix("aws"))
        try fixture.fileSystem.writeAtomically("out\n", to: fixture.outside.path + "/written.txt")
        #expect(FileManager.default.fileExists(atPath: fixture.outside.path + "/written.txt"))
    }

    @Test func aLinkLoopIsAnError() throws {
        let fixture = try Fixture()
        try fixture.link("a", to: "b")
        try fixture.link("b", to: "a")
        #expect(throws: ProjectFileError.linkLoop(path: fixture.project.path + "/a")) { try fixture.door.read("a", as: .other) }
    }

    @Test func aProjectReachedThroughALinkIsStillItself() throws {
        let fixture = try Fixture()
        let alias = fixture.outside.path + "/project-alias"
        try FileManager.default.createSymbolicLink(atPath: alias, withDestinationPath: fixture.project.path)
        let door = ProjectFiles(root: alias)
        #expect(try door.readText("inside.txt", as: .other) == "inside\n")
        #expect(try door.readText(fixture.project.path + "/inside.txt", as: .other) == "inside\n")
        try door.write("w\n", to: "Sub/w.txt")
        #expect(FileManager.default.fileExists(atPath: fixture.project.path + "/Sub/w.txt"))
    }
}
