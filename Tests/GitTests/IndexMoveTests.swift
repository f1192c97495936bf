import Foundation
import Git
import Testing
import TestSupport
import TestThreads

/// `stageMoves` records moves the way `git mv` does (index entries re-used, no file read), and
/// must leave the index exactly as staging the old and new paths by content (`stage(paths:)`)
/// does: the same entries, the same `git diff --cached -M`, the same `git status`.
@Suite("GitRepository: staging moves without re-hashing", .dedicatedThreads)
struct IndexMoveTests {
    private static let body = String(repeating: "let line = \"long enough for git to pair renames\"\n", count: 8)

    /// The same repository, history and moves on disk, made afresh for each way of staging.
    static func movedRepository() throws -> GitFixture {
        let fixture = try GitFixture()
        let files = [
            "App/View.swift": body + "1", "App/Model.swift": body + "2", "App/Edited.swift": body + "3",
            "App/Assets.xcassets/Contents.json": body + "4", "App/Assets.xcassets/Icon.appiconset/Contents.json": body + "5",
            "App/run.sh": body + "6", ".gitignore": "*.log\n",
        ]
        for (path, contents) in files { try fixture.write(path, contents) }
        chmod(fixture.path + "/App/run.sh", 0o755)
        // Written a minute "ago": entries modified in the second the index is written are racily
        // clean, and both git and stageMoves then look at the file's contents.
        var past = [timespec(tv_sec: time(nil) - 60, tv_nsec: 0), timespec(tv_sec: time(nil) - 60, tv_nsec: 0)]
        for path in files.keys { #expect(utimensat(AT_FDCWD, fixture.path + "/" + path, &past, 0) == 0) }
        try fixture.git("add", "-A")
        try fixture.git("commit", "--quiet", "-m", "initial")
        try fixture.write("App/Untracked.swift", body + "7")
        try fixture.write("App/Edited.swift", body + "3, edited before the move")
        let moves = [("App/View.swift", "App/Views/View.swift"), ("App/Model.swift", "App/Models/Model.swift"),
                     ("App/Edited.swift", "App/Views/Edited.swift"), ("App/Assets.xcassets", "App/Resources/Assets.xcassets"),
                     ("App/run.sh", "Scripts/run.sh"), ("App/Untracked.swift", "App/Views/Untracked.swift")]
        for (from, to) in moves {
            try FileManager.default.createDirectory(atPath: fixture.path + "/" + (to as NSString).deletingLastPathComponent,
                                                    withIntermediateDirectories: true)
            try FileManager.default.moveItem(atPath: fixture.path + "/" + from, toPath: fixture.path + "/" + to)
        }
        try fixture.write("App/Resources/Assets.xcassets/New.json", body + "8")
        try fixture.write("App/Resources/Assets.xcassets/debug.log", "ignored")
        return fixture
    }

    static let moves = [
        GitIndexMove(from: "App/View.swift", to: "App/Views/View.swift"),
        GitIndexMove(from: "App/Model.swift", to: "App/Models/Model.swift"),
        GitIndexMove(from: "App/Edited.swift", to: "App/Views/Edited.swift"),
        GitIndexMove(from: "App/Assets.xcassets", to: "App/Resources/Assets.xcassets"),
        GitIndexMove(from: "App/run.sh", to: "Scripts/run.sh"),
        GitIndexMove(from: "App/Untracked.swift", to: "App/Views/Untracked.swift"),
        GitIndexMove(from: "App/Gone.swift", to: "App/Views/Gone.swift"),
    ]

    static func views(of fixture: GitFixture) throws -> [String] {
        [try fixture.git("ls-files", "--stage"), try fixture.git("diff", "--cached", "-M", "--name-status"),
         try fixture.git("status", "--porcelain")]
    }

    @Test("the index, git diff --cached -M and git status are the same as after staging by content")
    func sameAsStagingByContent() throws {
        let byContent = try Self.movedRepository(), byEntry = try Self.movedRepository()
        let paths = Self.moves.flatMap { [$0.from, $0.to] }
        do {
            try byContent.open().stage(paths: paths)
            Issue.record("stage(paths:) should refuse a path known neither on disk nor in the index")
        } catch GitError.pathNotFound {
            // What Sync did before: paths unknown to git (gone, or untracked and moved) skipped.
            try byContent.open().stage(paths: paths.filter { !$0.contains("Gone") && $0 != "App/Untracked.swift" })
        }
        let skipped = try byEntry.open().stageMoves(Self.moves)
        #expect(skipped.sorted() == ["App/Gone.swift", "App/Untracked.swift", "App/Views/Gone.swift"])
        #expect(try Self.views(of: byEntry) == Self.views(of: byContent))
        let renames = try byEntry.git("diff", "--cached", "-M", "--name-status").split(separator: "\n").filter { $0.hasPrefix("R") }
        #expect(renames.count == 6, "\(renames)")
        #expect(try byEntry.git("status", "--porcelain").contains("R  App/View.swift -> App/Views/View.swift"))
    }

    @Test("a moved file's entry keeps its object id and gets fresh stat data: no file is read")
    func entriesAreReusedNotRehashed() throws {
        let fixture = try Self.movedRepository()
        // Same size, same modification time, other bytes: only a read of the file could tell.
        let path = fixture.path + "/App/Views/View.swift"
        var info = stat()
        #expect(stat(path, &info) == 0)
        var bytes = Array(try Data(contentsOf: URL(fileURLWithPath: path)))
        bytes[0] = UInt8(ascii: "#")
        let handle = open(path, O_WRONLY)
        #expect(pwrite(handle, bytes, 1, 0) == 1)
        close(handle)
        var times = [info.st_atim, info.st_mtim]
        #expect(utimensat(AT_FDCWD, path, &times, 0) == 0)

        let before = try fixture.git("rev-parse", "HEAD:App/View.swift")
        _ = try fixture.open().stageMoves(Self.moves)
        #expect(try fixture.git("rev-parse", ":App/Views/View.swift") == before)
        // Fresh stat data: git compares stat data alone here and finds nothing changed but the
        // file edited before the move (its entry was staged by content, so the edit is staged).
        #expect(try fixture.git("diff-files", "--name-only", "--", "App/Views/View.swift", "App/Models", "Scripts") == "")
        #expect(try fixture.git("rev-parse", ":App/Views/Edited.swift") != fixture.git("rev-parse", "HEAD:App/Edited.swift"))
        // git compares whole seconds only: check the nanoseconds against the file itself.
        var moved = stat()
        #expect(stat(fixture.path + "/App/Models/Model.swift", &moved) == 0)
        let debug = try fixture.git("ls-files", "--debug", "App/Models/Model.swift")
        #expect(debug.contains("ctime: \(moved.st_ctim.tv_sec):\(moved.st_ctim.tv_nsec)"), "\(debug)")
        #expect(debug.contains("ino: \(moved.st_ino)"), "\(debug)")
    }

    /// A repository with a committed project file, a text file under an eol filter and a script,
    /// each then changed on disk (the script also made executable).
    static func editedRepository() throws -> GitFixture {
        let fixture = try GitFixture()
        try fixture.write(".gitattributes", "*.txt text eol=crlf\n")
        try fixture.write("App.xcodeproj/project.pbxproj", body + "// project\n")
        try fixture.write("Notes.txt", "one\ntwo\n")
        try fixture.write("tool.sh", "echo one\n")
        var past = [timespec(tv_sec: time(nil) - 60, tv_nsec: 0), timespec(tv_sec: time(nil) - 60, tv_nsec: 0)]
        for path in ["App.xcodeproj/project.pbxproj", "Notes.txt", "tool.sh"] {
            #expect(utimensat(AT_FDCWD, fixture.path + "/" + path, &past, 0) == 0)
        }
        try fixture.git("add", "-A")
        try fixture.git("commit", "--quiet", "-m", "initial")
        try fixture.write("App.xcodeproj/project.pbxproj", body + "// project, edited by the sync\n")
        try fixture.write("Notes.txt", "one\r\ntwo\r\nthree\r\n")
        try fixture.write("tool.sh", "echo two\n")
        chmod(fixture.path + "/tool.sh", 0o755)
        return fixture
    }

    @Test("files staged with the moves (hashed on a thread of their own) are recorded as git add records them")
    func alsoStagedFilesMatchGitAdd() throws {
        let paths = ["App.xcodeproj/project.pbxproj", "Notes.txt", "tool.sh"]
        let byGit = try Self.editedRepository(), bySlipway = try Self.editedRepository()
        try byGit.git(["add", "--"] + paths)
        let skipped = try bySlipway.open().stageMoves([], alsoStaging: paths)
        #expect(skipped == [])
        #expect(try bySlipway.git("ls-files", "--stage") == byGit.git("ls-files", "--stage"))
        #expect(try bySlipway.git("status", "--porcelain") == byGit.git("status", "--porcelain"))
        // The stat data is the file's: git finds nothing to re-check in the working tree.
        #expect(try bySlipway.git("diff-files", "--name-only") == "")
        #expect(try bySlipway.git("diff", "--cached", "--name-status") == "M\tApp.xcodeproj/project.pbxproj\nM\tNotes.txt\nM\ttool.sh")
    }
}
