import Basics
import Foundation
import Git
import Testing
import TestSupport
import TestThreads

/// `isProvablyClean` may answer "not proven" for a clean tree (it never reads a file), but it
/// must never answer "clean" when `git status` (untracked files included, ignored ones not)
/// has something to say under the folder. Each case is checked against the real `git status`.
@Suite("GitRepository: proving a tree clean without reading files", .dedicatedThreads)
struct CleanProofTests {
    private static let files = [
        "App/View.swift": "struct View {}\n", "App/Model.swift": "struct Model {}\n",
        "App/run.sh": "#!/bin/sh\n", "Other/Notes.md": "notes\n", ".gitignore": "*.log\nBuild/\n",
    ]

    /// A committed tree whose files were written a minute ago (so that no index entry is racily
    /// clean), with the index refreshed as a checkout leaves it.
    private static func committed() throws -> GitFixture {
        let fixture = try GitFixture()
        for (path, contents) in files { try fixture.write(path, contents) }
        chmod(fixture.path + "/App/run.sh", 0o755)
        age(fixture, Array(files.keys))
        try fixture.git("add", "-A")
        try fixture.git("commit", "--quiet", "-m", "initial")
        try fixture.git("update-index", "-q", "--refresh")
        return fixture
    }

    private static func age(_ fixture: GitFixture, _ paths: [String]) {
        var past = [timespec(tv_sec: time(nil) - 60, tv_nsec: 0), timespec(tv_sec: time(nil) - 60, tv_nsec: 0)]
        for path in paths { _ = utimensat(AT_FDCWD, fixture.path + "/" + path, &past, AT_SYMLINK_NOFOLLOW) }
    }

    /// The folder as a sync's own walk would describe it: every item below it, with `.git`
    /// and `unlisted` folders not entered.
    private static func walked(_ fixture: GitFixture, prefix: String = "", unlisted: [String] = [], withDetails: Bool = true) -> GitWalkedFolder {
        let folder = prefix.isEmpty ? fixture.path : fixture.path + "/" + prefix
        let items = LocalFileSystem.itemsBelow(folder, unentered: Set([".git"] + unlisted)) ?? []
        let unlistedPaths = items.filter { item in item == ".git" || unlisted.contains { item == $0 || item.hasSuffix("/" + $0) } }
        var walked = GitWalkedFolder(prefix: prefix, files: items.filter { !unlistedPaths.contains($0) }, unlistedFolders: unlistedPaths)
        if withDetails { walked.details = { LocalFileSystem().status(of: folder + "/" + $0)?.details } }
        return walked
    }

    private static func status(_ fixture: GitFixture, under prefix: String = "") throws -> String {
        try fixture.git(["status", "--porcelain", "--untracked-files=all"] + (prefix.isEmpty ? [] : ["--", prefix]))
    }

    private static func proof(_ fixture: GitFixture, prefix: String = "", unlisted: [String] = []) throws -> Bool {
        try GitRepository.open(at: fixture.path).isProvablyClean(walked(fixture, prefix: prefix, unlisted: unlisted))
    }

    @Test("a freshly committed tree is proven clean, with or without the walk's lstat data", arguments: [true, false])
    func cleanTree(withDetails: Bool) throws {
        let fixture = try Self.committed()
        #expect(try Self.status(fixture).isEmpty)
        let repository = try GitRepository.open(at: fixture.path)
        #expect(try repository.isProvablyClean(Self.walked(fixture, withDetails: withDetails)))
        // Ignored files (by pattern, or inside an ignored folder) are not changes.
        try fixture.write("App/debug.log", "log")
        try fixture.write("Build/Intermediates/App.o", "object")
        #expect(try Self.status(fixture).isEmpty)
        #expect(try Self.proof(fixture))
        #expect(try Self.proof(fixture, unlisted: ["Build"]))
    }

    @Test("every kind of change git status reports is not proven clean")
    func changes() throws {
        let cases: [(String, (GitFixture) throws -> Void)] = [
            ("edited", { try $0.write("App/View.swift", "struct View { let changed = true }\n") }),
            ("deleted", { try FileManager.default.removeItem(atPath: $0.path + "/App/Model.swift") }),
            ("untracked", { try $0.write("App/New.swift", "struct New {}\n") }),
            ("staged", { fixture in
                try fixture.write("App/View.swift", "struct View { let staged = true }\n")
                Self.age(fixture, ["App/View.swift"])
                try fixture.git("add", "App/View.swift")
            }),
            ("staged removal", { try $0.git("rm", "--quiet", "--cached", "Other/Notes.md") }),
            ("executable bit", { _ = chmod($0.path + "/App/View.swift", 0o755) }),
            ("became a link", { fixture in
                try FileManager.default.removeItem(atPath: fixture.path + "/Other/Notes.md")
                try FileManager.default.createSymbolicLink(atPath: fixture.path + "/Other/Notes.md", withDestinationPath: "../App/View.swift")
            }),
            ("nested repository", { fixture in
                try FileManager.default.createDirectory(atPath: fixture.path + "/Vendor/Lib", withIntermediateDirectories: true)
                _ = try GitFixture.run(["init", "--quiet"], in: fixture.path + "/Vendor/Lib")
            }),
        ]
        for (name, change) in cases {
            let fixture = try Self.committed()
            try change(fixture)
            #expect(try !Self.status(fixture).isEmpty, "git status should see the change '\(name)'")
            #expect(try !Self.proof(fixture), "'\(name)' must not be proven clean")
        }
    }

    @Test("an untracked file inside a folder the walk did not enter is found")
    func unlistedFolder() throws {
        let fixture = try Self.committed()
        try fixture.write("DerivedData/App/new.swift", "untracked")
        #expect(try !Self.status(fixture).isEmpty)
        #expect(try !Self.proof(fixture, unlisted: ["DerivedData"]))
    }

    @Test("a file touched but unchanged is left to git status (not proven), which finds it clean")
    func touchedFile() throws {
        let fixture = try Self.committed()
        var now = [timespec(tv_sec: time(nil) - 5, tv_nsec: 0), timespec(tv_sec: time(nil) - 5, tv_nsec: 0)]
        #expect(utimensat(AT_FDCWD, fixture.path + "/App/View.swift", &now, 0) == 0)
        #expect(try !Self.proof(fixture))
        #expect(try GitRepository.open(at: fixture.path).status(includeUntracked: true).isEmpty)
    }

    @Test("only the folder counts: changes elsewhere in the repository do not")
    func prefix() throws {
        let fixture = try Self.committed()
        try fixture.write("Other/Untracked.md", "elsewhere")
        try fixture.write("Other/Notes.md", "edited elsewhere, and longer than before\n")
        #expect(try Self.status(fixture, under: "App").isEmpty)
        #expect(try Self.proof(fixture, prefix: "App"))
        try fixture.git("add", "Other")
        #expect(try Self.proof(fixture, prefix: "App"))
        try fixture.write("App/New.swift", "struct New {}\n")
        #expect(try !Self.proof(fixture, prefix: "App"))
    }

    @Test("nothing is written to the repository: no object, no index change")
    func readOnly() throws {
        let fixture = try Self.committed()
        // Re-recording an entry invalidates the index's cached tree ids of its folders, so the
        // tree is computed (in memory) rather than taken from the cache.
        let blob = try fixture.git("rev-parse", "HEAD:App/View.swift").trimmingCharacters(in: .whitespacesAndNewlines)
        try fixture.git("update-index", "--cacheinfo", "100644,\(blob),App/View.swift")
        try fixture.git("update-index", "-q", "--refresh")
        let before = try Self.snapshot(fixture)
        #expect(try Self.proof(fixture))
        #expect(try Self.snapshot(fixture) == before)
    }

    private static func snapshot(_ fixture: GitFixture) throws -> [String] {
        let objects = LocalFileSystem.itemsBelow(fixture.path + "/.git/objects") ?? []
        let index = try Data(contentsOf: URL(fileURLWithPath: fixture.path + "/.git/index"))
        return objects.sorted() + [index.base64EncodedString()]
    }
}
