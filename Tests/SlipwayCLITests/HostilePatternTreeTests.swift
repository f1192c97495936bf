import Basics
import Foundation
import Testing
import TestSupport
import TestThreads

/// Issue 37: one hostile checkout tree (folder links that loop, a link out of the project, a
/// link inside it, a FIFO) run through every step that takes file patterns, by the binary.
@Suite(.dedicatedThreads) struct HostilePatternTreeTests {
    static let secretText = "secret from outside the project\n"

    struct Tree {
        let project: TemporaryDirectory
        let outside: TemporaryDirectory
        var secret: String { outside.path + "/secret.txt" }

        init(lanes: [String: String]) throws {
            project = try TemporaryDirectory(prefix: "slipway-hostile-glob")
            outside = try TemporaryDirectory(prefix: "slipway-hostile-outside")
            try outside.write("secret.txt", HostilePatternTreeTests.secretText)
            try project.write("README.md", "readme\n")
            try project.write("assets/x.txt", "x\n")
            try project.write("assets/sub/y.txt", "y\n")
            try link("assets/loop", ".")
            try link("up", "..")
            try link("assets/readme.txt", "../README.md")
            try link("private/key.pem", secret)
            #expect(mkfifo(project.path + "/assets/fifo.txt", 0o600) == 0)
            for (name, text) in lanes { try project.write("lanes/\(name).yml", text) }
            let keys = try slipway(["keys", "generate", "--no-passphrase", "--name", "ci", "--output", "keys"])
            #expect(keys.status == 0, "\(keys.standardError)")
        }

        func link(_ relative: String, _ target: String) throws {
            try FileManager.default.createDirectory(atPath: project.path + "/" + (relative as NSString).deletingLastPathComponent,
                                                    withIntermediateDirectories: true)
            try FileManager.default.createSymbolicLink(atPath: project.path + "/" + relative, withDestinationPath: target)
        }

        func slipway(_ arguments: [String]) throws -> CommandResult {
            try CommandResult.run(Binaries.slipway, arguments, in: project.path,
                                  environment: ["GITHUB_ACTIONS": nil, "XDG_CONFIG_HOME": outside.path + "/config",
                                                "SOURCE_DATE_EPOCH": "0"])
        }

        func text(_ relative: String) throws -> String {
            try String(contentsOfFile: project.path + "/" + relative, encoding: .utf8)
        }

        func shell(_ command: String) throws -> String {
            let result = try CommandResult.run("/bin/sh", ["-c", command], in: project.path)
            #expect(result.status == 0, "\(command): \(result.standardError)")
            return result.standardOutput
        }

        /// Every entry under the project, never following a link nor opening a FIFO: what a
        /// refusal must leave as it was (`Snapshot.of` would block on the FIFO).
        func listing() throws -> [String: String] {
            var result: [String: String] = [:]
            func walk(_ relative: String) throws {
                let path = relative.isEmpty ? project.path : project.path + "/" + relative
                for name in try FileManager.default.contentsOfDirectory(atPath: path) {
                    let child = relative.isEmpty ? name : relative + "/" + name
                    let full = project.path + "/" + child
                    let type = try FileManager.default.attributesOfItem(atPath: full)[.type] as? FileAttributeType
                    switch type {
                    case .typeSymbolicLink?: result[child] = "-> " + (try FileManager.default.destinationOfSymbolicLink(atPath: full))
                    case .typeDirectory?: result[child] = "folder"; try walk(child)
                    case .typeRegular?: result[child] = (FileManager.default.contents(atPath: full) ?? Data()).base64EncodedString()
                    default: result[child] = "special"
                    }
                }
            }
            try walk("")
            return result
        }
    }

    static let lane = """
        steps:
          - archive: { files: ["assets/**"], output: dist/assets.tar.gz }
          - checksums: { files: ["assets/**"], output: assets/SHA256SUMS }
            id: sums
          - checksums: { files: ["**/*.txt", "**/*.md"], output: SHA256SUMS }
            id: everything
          - sign: { files: ["assets/**"], key: keys/ci.sec, public-key: keys/ci.pub }
          - upload: { to: directory, files: ["assets/**"], directory: published }
        """

    @Test func everyPatternStepSeesTheSameFilesAndNothingOutside() throws {
        let tree = try Tree(lanes: ["release": Self.lane])
        let result = try tree.slipway(["run", "release"])
        #expect(result.status == 0, "\(result.standardOutput)\n\(result.standardError)")
        // Each file once, below the pattern's folder; the folder link and the FIFO are not entries;
        // the link inside the project is stored as a link.
        #expect(try tree.shell("tar tzvf dist/assets.tar.gz").contains("readme.txt -> ../README.md"))
        #expect(try tree.shell("tar tzf dist/assets.tar.gz") == "readme.txt\nsub/\nsub/y.txt\nx.txt\n")
        #expect(try tree.text("assets/SHA256SUMS") == """
            \(Self.sha("readme\n"))  readme.txt
            \(Self.sha("y\n"))  sub/y.txt
            \(Self.sha("x\n"))  x.txt

            """)
        #expect(try tree.text("SHA256SUMS") == """
            \(Self.sha("readme\n"))  README.md
            \(Self.sha("readme\n"))  assets/readme.txt
            \(Self.sha("y\n"))  assets/sub/y.txt
            \(Self.sha("x\n"))  assets/x.txt

            """)
        #expect(try FileManager.default.contentsOfDirectory(atPath: tree.project.path + "/published").sorted() == [
            "SHA256SUMS", "SHA256SUMS.sig", "readme.txt", "readme.txt.sig", "x.txt", "x.txt.sig", "y.txt", "y.txt.sig",
        ])
        #expect(try tree.text("published/readme.txt") == "readme\n")
        #expect(result.standardOutput.contains("skipped 'assets/loop': a symbolic link to a folder, which patterns never follow"))
        #expect(result.standardOutput.contains("skipped 'up': a symbolic link to a folder, which patterns never follow"))
        // Nothing outside was read into an output, nor changed.
        let outputs = try tree.shell("cat dist/assets.tar.gz SHA256SUMS assets/SHA256SUMS published/*")
        #expect(!outputs.contains("secret from outside"))
        #expect(try String(contentsOfFile: tree.secret, encoding: .utf8) == Self.secretText)
        #expect(try FileManager.default.contentsOfDirectory(atPath: tree.outside.path).sorted() == ["secret.txt"])
    }

    @Test(arguments: [
        "archive: { files: [\"private/*\"], output: dist/private.tar.gz }",
        "archive: { files: [private], output: dist/private.tar.gz }",
        "checksums: { files: [\"**/*.pem\"], output: SHA256SUMS }",
        "sign: { files: [private/key.pem], key: keys/ci.sec }",
        "upload: { to: directory, files: [\"private/**\"], directory: published }",
    ])
    func aLinkOutOfTheProjectIsRefusedByEveryStep(_ step: String) throws {
        let tree = try Tree(lanes: ["leak": "steps:\n  - \(step)\n"])
        let before = try tree.listing()
        let result = try tree.slipway(["run", "leak"])
        #expect(result.status == 1)
        #expect(result.standardOutput.contains("\n    'private/key.pem' is a symbolic link to '\(tree.secret)', outside the project; "
            + "Slipway publishes no file from outside the project. Replace the link by the file or remove it.\n"),
                "\(result.standardOutput)\n\(result.standardError)")
        #expect(try tree.listing().filter { !$0.key.hasPrefix(".slipway") } == before.filter { !$0.key.hasPrefix(".slipway") })
        #expect(try FileManager.default.contentsOfDirectory(atPath: tree.outside.path).sorted() == ["config", "secret.txt"]
            || FileManager.default.contentsOfDirectory(atPath: tree.outside.path).sorted() == ["secret.txt"])
    }

    @Test func aFolderLinkNamedLiterallyIsRefused() throws {
        let tree = try Tree(lanes: ["loop": "steps:\n  - checksums: { files: [assets/loop/x.txt], output: SHA256SUMS }\n"])
        let result = try tree.slipway(["run", "loop"])
        #expect(result.status == 1)
        #expect(result.standardOutput.contains("\n    'assets/loop' is a symbolic link to a folder ('.'); Slipway never follows links to folders. Name the folder itself.\n"),
                "\(result.standardOutput)\n\(result.standardError)")
    }

    @Test func artifactsUseTheSameGlob() throws {
        let tree = try Tree(lanes: [
            "leak": "steps:\n  - run: 'true'\n    artifacts: [\"private/*\"]\n",
            "ok": "steps:\n  - run: 'true'\n    id: made\n    artifacts: [\"assets/**\"]\n",
        ])
        let leak = try tree.slipway(["run", "leak"])
        #expect(leak.status == 1)
        #expect(leak.standardOutput.contains("\n    artifact pattern 'private/*': 'private/key.pem' is a symbolic link to '\(tree.secret)', "
            + "outside the project; Slipway publishes no file from outside the project. Replace the link by the file or remove it.\n"),
                "\(leak.standardOutput)\n\(leak.standardError)")
        // Over the looping folder links, the same expansion ends and succeeds.
        let ok = try tree.slipway(["run", "ok"])
        #expect(ok.status == 0, "\(ok.standardOutput)\n\(ok.standardError)")
    }

    @Test func uploadRefusesTwoFilesWithOneName() throws {
        let tree = try Tree(lanes: ["twice": "steps:\n  - upload: { to: directory, files: [\"**/x.txt\"], directory: published }\n"])
        try tree.project.write("other/x.txt", "another x\n")
        let result = try tree.slipway(["run", "twice"])
        #expect(result.status == 1)
        #expect(result.standardOutput.contains("'assets/x.txt' and 'other/x.txt', which would both be uploaded as 'x.txt'; files are uploaded "
            + "under their own names. Narrow the patterns, or upload them in two steps"), "\(result.standardOutput)")
        #expect(!FileManager.default.fileExists(atPath: tree.project.path + "/published"))
    }

    static func sha(_ text: String) -> String {
        let result = try? CommandResult.run("/bin/sh", ["-c", "printf '%s' \"$0\" | sha256sum", text])
        return String(result?.standardOutput.prefix(64) ?? "")
    }
}
