import Foundation
import Git
import Testing
import TestSupport
import TestThreads

@Suite("GitRepository: index (staging) for file moves", .dedicatedThreads)
struct IndexTests {
    private let body = String(repeating: "import Foundation // a line long enough to compare\n", count: 10)

    @Test("stageRename after moving a file: git status shows R")
    func renameFile() throws {
        let fixture = try GitFixture()
        try fixture.commit("initial", files: ["App/View.swift": body])
        try FileManager.default.createDirectory(atPath: fixture.path + "/App/Views", withIntermediateDirectories: true)
        try FileManager.default.moveItem(atPath: fixture.path + "/App/View.swift", toPath: fixture.path + "/App/Views/View.swift")

        let repository = try fixture.open()
        try repository.stageRename(from: "App/View.swift", to: "App/Views/View.swift")
        #expect(try fixture.porcelain() == ["R  App/View.swift -> App/Views/View.swift"])
        #expect(try repository.status()
            == [GitStatusEntry(path: "App/Views/View.swift", index: .renamed(from: "App/View.swift"), workTree: nil)])
    }

    @Test("stageRename of a whole directory (e.g. an asset catalog) records each file as a rename")
    func renameDirectory() throws {
        let fixture = try GitFixture()
        try fixture.commit("initial", files: [
            "App/Assets.xcassets/Contents.json": body + "1",
            "App/Assets.xcassets/AppIcon.appiconset/Contents.json": body + "2",
            "App/Other.swift": body + "3",
        ])
        try FileManager.default.createDirectory(atPath: fixture.path + "/App/Resources", withIntermediateDirectories: true)
        try FileManager.default.moveItem(
            atPath: fixture.path + "/App/Assets.xcassets", toPath: fixture.path + "/App/Resources/Assets.xcassets")
        try fixture.write("App/Resources/Assets.xcassets/.DS_Store", "junk")
        try fixture.write(".gitignore", ".DS_Store\n")

        let repository = try fixture.open()
        try repository.stageRename(
            from: fixture.path + "/App/Assets.xcassets", to: "App/Resources/Assets.xcassets")
        let porcelain = try fixture.porcelain()
        #expect(porcelain.contains(
            "R  App/Assets.xcassets/AppIcon.appiconset/Contents.json -> App/Resources/Assets.xcassets/AppIcon.appiconset/Contents.json"))
        #expect(porcelain.contains("R  App/Assets.xcassets/Contents.json -> App/Resources/Assets.xcassets/Contents.json"))
        #expect(porcelain.contains("?? .gitignore"))
        #expect(porcelain.count == 3, "ignored .DS_Store must not be staged: \(porcelain)")
    }

    @Test("stageRename errors: old path not in the index, new path missing, path outside the repository")
    func renameErrors() throws {
        let fixture = try GitFixture()
        try fixture.commit("initial", files: ["a.txt": "a\n"])
        try fixture.write("b.txt", "a\n")
        let repository = try fixture.open()
        let root = realPath(fixture.path)

        let notTracked = #expect(throws: GitError.self) { try repository.stageRename(from: "zzz.txt", to: "b.txt") }
        #expect(notTracked == .pathNotFound(path: "zzz.txt", repository: root))
        let notOnDisk = #expect(throws: GitError.self) { try repository.stageRename(from: "a.txt", to: "c.txt") }
        #expect(notOnDisk == .pathNotFound(path: "c.txt", repository: root))
        let outside = #expect(throws: GitError.self) { try repository.stageRename(from: "a.txt", to: "../elsewhere.txt") }
        #expect(outside == .pathOutsideWorkingDirectory(path: "../elsewhere.txt", workingDirectory: root))
        #expect(outside?.localizedDescription.contains("is outside the working directory") == true)
        // Nothing was staged by the failed calls.
        #expect(try fixture.porcelain() == ["?? b.txt"])
    }

    @Test("stage(paths:) adds new, updates modified and removes deleted files; unstage reverts the index")
    func stageAndUnstage() throws {
        let fixture = try GitFixture()
        try fixture.commit("initial", files: ["keep.txt": "1\n", "gone.txt": "2\n"])
        try fixture.write("keep.txt", "changed\n")
        try fixture.write("Sources/new.swift", "new\n")
        try FileManager.default.removeItem(atPath: fixture.path + "/gone.txt")
        let repository = try fixture.open()

        try repository.stage(paths: ["keep.txt", "Sources", "gone.txt"])
        #expect(try fixture.porcelain() == ["A  Sources/new.swift", "D  gone.txt", "M  keep.txt"])

        try repository.unstage(paths: ["keep.txt", "Sources/new.swift", "gone.txt"])
        #expect(try fixture.porcelain() == [" D gone.txt", " M keep.txt", "?? Sources/new.swift"])
        #expect(try String(contentsOfFile: fixture.path + "/keep.txt", encoding: .utf8) == "changed\n")
    }

    @Test("unstage on an unborn branch removes the entries from the index")
    func unstageUnborn() throws {
        let fixture = try GitFixture()
        try fixture.write("a.txt", "a\n")
        try fixture.git("add", "a.txt")
        try fixture.open().unstage(paths: ["a.txt"])
        #expect(try fixture.porcelain() == ["?? a.txt"])
    }
}
