import Basics
import Foundation
@testable import ProjectLint
import Testing
import TestSupport
import TestThreads

/// `LintFiles.disk` answers from one scan of the project's folder, and asks the disk for what
/// the scan does not hold: the answers equal the disk's own for every kind of path.
@Suite("lint's view of the disk", .dedicatedThreads)
struct LintDiskFilesTests {
    @Test("exists: inside, missing, in an unlisted folder, through a link, outside, absolute — as the disk says")
    func existsAsTheDiskSays() throws {
        let root = try TemporaryDirectory(prefix: "lint-disk")
        try root.write("Outside.swift", "")
        try root.write("Project/App/AppDelegate.swift", "")
        try root.write("Project/.build/debug/Generated.swift", "")
        try root.write("Project/App.xcodeproj/project.pbxproj", "")
        try FileManager.default.createSymbolicLink(atPath: root.path + "/Project/Linked", withDestinationPath: "App")
        let files = LintFiles.disk(LocalFileSystem(), projectDirectory: root.path + "/Project")
        let expected: [(String, Bool)] = [
            ("App/AppDelegate.swift", true), ("App", true), ("./App/../App/AppDelegate.swift", true),
            ("App/Gone.swift", false), (".build/debug/Generated.swift", true), ("Linked/AppDelegate.swift", true),
            ("Linked", true), ("../Outside.swift", true), ("../Gone.swift", false),
            (root.path + "/Outside.swift", true), ("App.xcodeproj/project.pbxproj", true),
        ]
        for (path, exists) in expected {
            #expect(files.exists(path) == exists, "\(path)")
        }
        #expect(files.listing()?.entry("App/AppDelegate.swift")?.kind == .file)
        #expect(files.listing()?.details("App/AppDelegate.swift") == nil)
    }
}
