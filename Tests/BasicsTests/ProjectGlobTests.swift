import Basics
import Foundation
import Testing
import TestSupport
import TestThreads

/// Issue 37: the one glob of every step that takes file patterns (docs/patterns.md), its
/// semantics table over one tree, and the hostile cases: folder links, links out of the
/// project, special files, caps.
@Suite(.dedicatedThreads) struct ProjectGlobTests {
    struct Tree {
        let project: TemporaryDirectory
        let outside: TemporaryDirectory
        var root: String { project.path }

        init() throws {
            project = try TemporaryDirectory(prefix: "slipway-glob")
            outside = try TemporaryDirectory(prefix: "slipway-glob-outside")
            try outside.write("secret.txt", "outside\n")
            for path in ["README.md", "dist/a.tar.gz", "dist/b.zip", "dist/.hidden.zip", "dist/sub/c.tar.gz",
                         "dist/sub/deeper/d.tar.gz", "dist/.cache/e.zip", "assets/x.txt", "assets/sub/y.txt",
                         "assets/sub/x/z.txt", "other/e.txt"] {
                try project.write(path, path + "\n")
            }
            try link("assets/loop", ".")
            try link("up", "..")
            try link("assets/readme.txt", "../README.md")
            #expect(mkfifo(project.path + "/assets/fifo.txt", 0o600) == 0)
        }

        func link(_ relative: String, _ target: String) throws {
            try FileManager.default.createSymbolicLink(atPath: project.path + "/" + relative, withDestinationPath: target)
        }

        func glob(_ limits: ProjectGlob.Limits = ProjectGlob.Limits()) -> ProjectGlob {
            ProjectGlob(fileSystem: LocalFileSystem(), root: root, limits: limits)
        }

        func relative(_ patterns: [String], in folder: String = "", folders: Bool = false) throws -> [String] {
            let directory = folder.isEmpty ? root : root + "/" + folder
            return try glob().expand(patterns, in: directory, includeDirectories: folders).matches.map(\.relative)
        }
    }

    @Test func semanticsTable() throws {
        let tree = try Tree()
        let table: [(pattern: String, folders: Bool, expected: [String])] = [
            // `*`, `?`, `[...]` within one component; a leading dot only when written.
            ("dist/*.zip", false, ["dist/b.zip"]),
            ("dist/.*.zip", false, ["dist/.hidden.zip"]),
            ("dist/?.zip", false, ["dist/b.zip"]),
            ("dist/[ab].*", false, ["dist/a.tar.gz", "dist/b.zip"]),
            ("dist/*", false, ["dist/a.tar.gz", "dist/b.zip"]),
            ("dist/*", true, ["dist/a.tar.gz", "dist/b.zip", "dist/sub"]),
            ("*/x.txt", false, ["assets/x.txt"]),
            // `x/**`: everything inside x at any depth, not x itself; never into hidden folders.
            ("dist/**", false, ["dist/a.tar.gz", "dist/b.zip", "dist/sub/c.tar.gz", "dist/sub/deeper/d.tar.gz"]),
            ("dist/**", true, ["dist/a.tar.gz", "dist/b.zip", "dist/sub", "dist/sub/c.tar.gz", "dist/sub/deeper",
                               "dist/sub/deeper/d.tar.gz"]),
            // `**/x`: x in any folder, the top one included.
            ("**/x.txt", false, ["assets/x.txt"]),
            ("**/x", true, ["assets/sub/x"]),
            ("**/*.tar.gz", false, ["dist/a.tar.gz", "dist/sub/c.tar.gz", "dist/sub/deeper/d.tar.gz"]),
            // `a/**/b`: zero or more folders between.
            ("dist/**/c.tar.gz", false, ["dist/sub/c.tar.gz"]),
            ("dist/**/*.tar.gz", false, ["dist/a.tar.gz", "dist/sub/c.tar.gz", "dist/sub/deeper/d.tar.gz"]),
            ("dist/**/**/d.tar.gz", false, ["dist/sub/deeper/d.tar.gz"]),
            // Hidden folders only when named.
            ("dist/.cache/*", false, ["dist/.cache/e.zip"]),
            ("dist/.*/*.zip", false, ["dist/.cache/e.zip"]),
            // Literal paths, `./` and `..` that stay inside.
            ("./README.md", false, ["README.md"]),
            ("dist/../README.md", false, ["README.md"]),
            // Links: the file link inside is a match; the folder links are not followed; the FIFO never matches.
            ("assets/**", false, ["assets/readme.txt", "assets/sub/x/z.txt", "assets/sub/y.txt", "assets/x.txt"]),
            ("assets/*.txt", false, ["assets/readme.txt", "assets/x.txt"]),
        ]
        for row in table {
            #expect(try tree.relative([row.pattern], folders: row.folders) == row.expected, "\(row.pattern)")
        }
        #expect(try tree.relative(["../README.md", "*.tar.gz"], in: "dist") == ["README.md", "dist/a.tar.gz"])
        #expect(try tree.relative([tree.root + "/other/[e]*"], in: "dist") == ["other/e.txt"])
    }

    @Test func tailIsThePathBelowThePatternsLeadingFolders() throws {
        let tree = try Tree()
        let tails = { (pattern: String) in try tree.glob().expand([pattern], in: tree.root).matches.map(\.tail) }
        #expect(try tails("assets/**") == ["readme.txt", "sub/x/z.txt", "sub/y.txt", "x.txt"])
        #expect(try tails("dist/*.zip") == ["b.zip"])
        #expect(try tails("dist/sub/c.tar.gz") == ["c.tar.gz"])
        #expect(try tails("**/y.txt") == ["assets/sub/y.txt"])
    }

    @Test func folderLinksAreNotedNotFollowed() throws {
        let tree = try Tree()
        let expansion = try tree.glob().expand(["**/*.txt"], in: tree.root)
        #expect(expansion.matches.map(\.relative) == ["assets/readme.txt", "assets/sub/x/z.txt", "assets/sub/y.txt", "assets/x.txt",
                                                      "other/e.txt"])
        #expect(expansion.skippedFolderLinks == ["assets/loop", "up"])
        #expect(expansion.matches.first?.kind == .linkedFile)
    }

    @Test func refusals() throws {
        let tree = try Tree()
        let glob = tree.glob()
        #expect(throws: ProjectGlobError.noMatch(pattern: "dist/*.dmg")) { try glob.expand(["dist/*.zip", "dist/*.dmg"], in: tree.root) }
        #expect(throws: ProjectGlobError.notAFile(path: "dist/sub")) { try glob.expand(["dist/sub"], in: tree.root) }
        #expect(throws: ProjectGlobError.notAFile(path: "assets/fifo.txt")) { try glob.expand(["assets/fifo.txt"], in: tree.root) }
        #expect(throws: ProjectGlobError.folderLink(path: "assets/loop", target: ".")) {
            try glob.expand(["assets/loop/x.txt"], in: tree.root)
        }
        #expect(throws: ProjectGlobError.folderLink(path: "up", target: "..")) { try glob.expand(["up"], in: tree.root) }
        #expect(throws: ProjectGlobError.outsideProject(pattern: "../*")) { try glob.expand(["../*"], in: tree.root) }
        #expect(throws: ProjectGlobError.outsideProject(pattern: tree.outside.path + "/*.txt")) {
            try glob.expand([tree.outside.path + "/*.txt"], in: tree.root)
        }
        let secret = tree.outside.path + "/secret.txt"
        try tree.link("assets/key.pem", secret)
        for pattern in ["assets/key.pem", "assets/*", "**/*.pem"] {
            #expect(throws: ProjectGlobError.linkOutsideProject(path: "assets/key.pem", target: secret)) {
                try glob.expand([pattern], in: tree.root)
            }
        }
        #expect(ProjectGlobError.linkOutsideProject(path: "assets/key.pem", target: secret).errorDescription
            == "'assets/key.pem' is a symbolic link to '\(secret)', outside the project; Slipway publishes no file from outside the project. Replace the link by the file or remove it.")
        #expect(throws: ProjectGlobError.linkOutsideProject(path: "assets/key.pem", target: secret)) {
            try glob.checkLink(tree.root + "/assets/key.pem")
        }
        try glob.checkLink(tree.root + "/assets/loop")
    }

    @Test func capsNameThePattern() throws {
        let tree = try Tree()
        let small = tree.glob(ProjectGlob.Limits(matches: 2, folders: 3))
        #expect(throws: ProjectGlobError.tooMany(pattern: "dist/**", what: "files", limit: 2)) {
            try small.expand(["dist/**"], in: tree.root)
        }
        #expect(throws: ProjectGlobError.tooMany(pattern: "**/*.md", what: "folders", limit: 3)) {
            try small.expand(["**/*.md"], in: tree.root)
        }
        #expect(ProjectGlobError.tooMany(pattern: "**/*.md", what: "folders", limit: 3).errorDescription
            == "'**/*.md' reaches more than 3 folders; Slipway stops there. Narrow the pattern.")
    }
}
