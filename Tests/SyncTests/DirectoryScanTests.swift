import Basics
import Foundation
import Sync
import Testing
import TestSupport
import TestThreads

/// `DirectoryListing.scan` with and without `lstat` details, and the disk's kinds from
/// `readdir`: the same entries and kinds either way, on a real folder with a link.
@Suite("Directory scan", .dedicatedThreads)
struct DirectoryScanTests {
    static func tree() throws -> TemporaryDirectory {
        let folder = try TemporaryDirectory(prefix: "scan")
        try folder.write("App/AppDelegate.swift", "")
        try folder.write("App/Views/ContentView.swift", "")
        try folder.write(".build/debug/ignored.o", "")
        try folder.write("App.xcodeproj/project.pbxproj", "")
        try FileManager.default.createSymbolicLink(atPath: folder.path + "/Shared", withDestinationPath: "App/Views")
        return folder
    }

    @Test("the disk's kinds while listing: sorted names, files, folders and links, as lstat says")
    func kindsOfDirectory() throws {
        let folder = try Self.tree()
        let disk = LocalFileSystem()
        let kinds = try disk.kinds(ofDirectory: folder.path)
        #expect(kinds.map(\.name) == [".build", "App", "App.xcodeproj", "Shared"])
        #expect(kinds.map(\.kind) == [.directory, .directory, .directory, .symbolicLink])
        for (name, kind) in try disk.kinds(ofDirectory: folder.path + "/App") {
            #expect(kind == disk.kind(of: folder.path + "/App/" + name))
        }
        #expect(throws: FileSystemError.self) { try disk.kinds(ofDirectory: folder.path + "/Nope") }
    }

    @Test("a scan without details has the same entries, kinds and links as one with them")
    func scanWithoutDetails() throws {
        let folder = try Self.tree()
        let full = try DirectoryListing.scan(root: folder.path, fileSystem: LocalFileSystem())
        let quick = try DirectoryListing.scan(root: folder.path, fileSystem: LocalFileSystem(), details: false)
        let sorted = { (listing: DirectoryListing) in listing.allEntries.sorted { $0.path < $1.path } }
        #expect(sorted(quick) == sorted(full))
        #expect(sorted(quick).map(\.path) == ["", ".build", "App", "App.xcodeproj", "App/AppDelegate.swift", "App/Views", "App/Views/ContentView.swift", "Shared"])
        #expect(quick.entry("Shared")?.linkDestination == "App/Views")
        #expect(quick.details("App/AppDelegate.swift") == nil)
        #expect(full.details("App/AppDelegate.swift") != nil)
        #expect(quick.children(of: "App") == full.children(of: "App"))
    }
}
