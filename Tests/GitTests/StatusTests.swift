import Foundation
import Git
import Testing
import TestSupport
import TestThreads

@Suite("GitRepository: status", .dedicatedThreads)
struct StatusTests {
    /// A repository with one commit holding a few files.
    private func makeFixture() throws -> GitFixture {
        let fixture = try GitFixture()
        try fixture.commit("initial", files: [
            "keep.txt": "unchanged\n",
            "edit.txt": "before\n",
            "remove.txt": "going away\n",
            "stage-move.txt": String(repeating: "a line that git can follow through a rename\n", count: 20),
            "disk-move.txt": String(repeating: "another line that survives the move intact\n", count: 20),
        ])
        return fixture
    }

    @Test("modified, new, deleted and renamed files, staged and unstaged, match git status")
    func mixedChanges() throws {
        let fixture = try makeFixture()
        try fixture.write("edit.txt", "after\n")
        try fixture.write("Sources/new.swift", "let x = 1\n")
        try FileManager.default.removeItem(atPath: fixture.path + "/remove.txt")
        try FileManager.default.createDirectory(atPath: fixture.path + "/moved", withIntermediateDirectories: true)
        try fixture.git("mv", "stage-move.txt", "moved/staged.txt")
        try FileManager.default.moveItem(
            atPath: fixture.path + "/disk-move.txt", toPath: fixture.path + "/disk-moved.txt")
        try fixture.write("staged-new.txt", "staged\n")
        try fixture.git("add", "staged-new.txt")

        let entries = try fixture.open().status()
        let byPath = Dictionary(uniqueKeysWithValues: entries.map { ($0.path, $0) })
        #expect(byPath["edit.txt"] == GitStatusEntry(path: "edit.txt", index: nil, workTree: .modified))
        #expect(byPath["Sources/new.swift"] == GitStatusEntry(path: "Sources/new.swift", index: nil, workTree: .new))
        #expect(byPath["remove.txt"] == GitStatusEntry(path: "remove.txt", index: nil, workTree: .deleted))
        #expect(byPath["moved/staged.txt"]
            == GitStatusEntry(path: "moved/staged.txt", index: .renamed(from: "stage-move.txt"), workTree: nil))
        #expect(byPath["disk-moved.txt"]
            == GitStatusEntry(path: "disk-moved.txt", index: nil, workTree: .renamed(from: "disk-move.txt")))
        #expect(byPath["staged-new.txt"] == GitStatusEntry(path: "staged-new.txt", index: .new, workTree: nil))
        #expect(byPath["keep.txt"] == nil)
        #expect(entries.count == 6)

        // Cross-check the staged side with the git CLI (porcelain v1 lists work-tree renames as
        // a deletion plus an untracked file, so only compare what both report the same way).
        let porcelain = try fixture.porcelain()
        #expect(porcelain.contains("R  stage-move.txt -> moved/staged.txt"))
        #expect(porcelain.contains(" M edit.txt"))
        #expect(porcelain.contains(" D remove.txt"))
        #expect(porcelain.contains("A  staged-new.txt"))
        #expect(porcelain.contains("?? Sources/new.swift"))
    }

    @Test("a staged edit that is edited again shows on both sides")
    func bothSides() throws {
        let fixture = try makeFixture()
        try fixture.write("edit.txt", "staged version\n")
        try fixture.git("add", "edit.txt")
        try fixture.write("edit.txt", "working version\n")
        let entries = try fixture.open().status()
        #expect(entries == [GitStatusEntry(path: "edit.txt", index: .modified, workTree: .modified)])
        #expect(try fixture.porcelain() == ["MM edit.txt"])
    }

    @Test("isClean: untracked files count unless ignored by request; ignored files never count")
    func cleanliness() throws {
        let fixture = try makeFixture()
        let repository = try fixture.open()
        #expect(try repository.isClean())

        try fixture.write(".gitignore", "*.log\n")
        try fixture.git("add", ".gitignore")
        try fixture.git("commit", "--quiet", "-m", "ignore logs")
        try fixture.write("build.log", "noise\n")
        #expect(try repository.isClean())
        let ignored = try repository.status(includeIgnored: true)
        #expect(ignored == [GitStatusEntry(path: "build.log", index: nil, workTree: .ignored)])

        try fixture.write("scratch.txt", "untracked\n")
        #expect(try !repository.isClean())
        #expect(try repository.isClean(ignoringUntracked: true))
        #expect(try repository.status(includeUntracked: false).isEmpty)

        try fixture.write("keep.txt", "changed\n")
        #expect(try !repository.isClean(ignoringUntracked: true))
    }

    @Test("status works on an unborn branch")
    func unbornStatus() throws {
        let fixture = try GitFixture()
        try fixture.write("README.md", "# hi\n")
        try fixture.write("Package.swift", "// swift-tools-version:6.0\n")
        try fixture.git("add", "Package.swift")
        let entries = try fixture.open().status()
        #expect(entries == [
            GitStatusEntry(path: "Package.swift", index: .new, workTree: nil),
            GitStatusEntry(path: "README.md", index: nil, workTree: .new),
        ])
    }

    @Test("a merge conflict is reported as conflicted")
    func conflict() throws {
        let fixture = try GitFixture()
        try fixture.commit("base", files: ["shared.txt": "base\n"])
        try fixture.git("checkout", "--quiet", "-b", "other")
        try fixture.commit("other side", files: ["shared.txt": "other\n"])
        try fixture.git("checkout", "--quiet", "main")
        try fixture.commit("main side", files: ["shared.txt": "main\n"])
        #expect(throws: GitCommandError.self) { try fixture.git("merge", "--quiet", "other") }
        let entries = try fixture.open().status()
        #expect(entries == [GitStatusEntry(path: "shared.txt", index: .conflicted, workTree: .conflicted)])
    }
}
