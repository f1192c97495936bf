import Foundation
import SlipwayCLI
import Testing
import TestSupport
import TestThreads

/// The CLI, end to end: the built `slipway` binary run as a user would.
@Suite(.dedicatedThreads) struct CLITests {
    func slipway(_ arguments: [String], in directory: String? = nil, environment: [String: String?] = [:]) throws -> CommandResult {
        try CommandResult.run(Binaries.slipway, arguments, in: directory, environment: environment)
    }

    func project(_ lanes: [String: String]) throws -> TemporaryDirectory {
        let folder = try TemporaryDirectory(prefix: "slipway-cli")
        for (name, text) in lanes { try folder.write("lanes/\(name).yml", text) }
        return folder
    }

    @Test func versionAndHelp() throws {
        let version = try slipway(["--version"])
        #expect(version.status == 0)
        #expect(version.standardOutput == SlipwayVersion.current + "\n")
        let help = try slipway(["--help"])
        #expect(help.standardOutput.contains("EXIT CODES:"))
        #expect(help.standardOutput.contains("130  interrupted by SIGINT/SIGTERM"))
        let runHelp = try slipway(["run", "--help"])
        #expect(runHelp.standardOutput.contains("slipway run release --input bump=minor --dry-run"))
    }

    @Test func invalidLaneExitsTwoAndRunsNothing() throws {
        let folder = try project(["bad": "steps:\n  - run: touch ran\n  - swift.tset\n  - run: { comand: x }\n"])
        let result = try slipway(["run", "bad"], in: folder.path, environment: ["GITHUB_ACTIONS": nil])
        #expect(result.status == 2)
        #expect(result.standardError == """
            lanes/bad.yml:3:5: error: unknown step 'swift.tset'. Did you mean 'swift.test'? Run 'slipway steps' for the built-in steps; a plugin would be an executable 'slipway-step-swift.tset' on PATH.
            lanes/bad.yml:4:12: error: step 'run' has no option 'comand'. Did you mean 'command'? (its options are command, shell)
            lanes/bad.yml:4:5: error: step 'run' needs option 'command' (string): The command line, run by the shell (may span lines).
            3 problems found; nothing was run.

            """)
        #expect(!FileManager.default.fileExists(atPath: folder.path + "/ran"))
        let annotated = try slipway(["run", "bad"], in: folder.path, environment: ["GITHUB_ACTIONS": "true"])
        #expect(annotated.standardOutput.contains("::error file=lanes/bad.yml,line=3,col=5::unknown step 'swift.tset'."))
    }

    @Test func exitCodesOfRuns() throws {
        let folder = try project(["ok": "steps:\n  - run: 'true'\n", "fails": "steps:\n  - run: exit 5\n"])
        #expect(try slipway(["run", "ok"], in: folder.path).status == 0)
        #expect(try slipway(["run", "fails"], in: folder.path).status == 1)
        let unknown = try slipway(["run", "okk"], in: folder.path)
        #expect(unknown.status == 2)
        #expect(unknown.standardError.contains("there is no lane 'okk' in 'lanes'. Did you mean 'ok'? (available: fails, ok)"))
        let usage = try slipway(["run", "ok", "--input", "novalue"], in: folder.path)
        #expect(usage.status == 64)
        #expect(usage.standardError.contains("--input 'novalue' must be NAME=VALUE."))
        let empty = try TemporaryDirectory()
        let noLanes = try slipway(["lanes"], in: empty.path)
        #expect(noLanes.status == 2)
        #expect(noLanes.standardError.contains("the lane directory 'lanes' does not exist. Run 'slipway init'"))
    }

    @Test func initWritesTheIOSTemplate() throws {
        let folder = try TemporaryDirectory(prefix: "slipway-init-ios")
        let result = try slipway(["init", "--template", "ios"], in: folder.path)
        #expect(result.status == 0)
        #expect(result.standardOutput.contains("wrote    lanes/ios-release.yml"))
        let written = try String(contentsOfFile: folder.path + "/lanes/ios-release.yml", encoding: .utf8)
        let template = try String(contentsOfFile: Corpus.repositoryRoot + "/templates/ios/ios-release.yml", encoding: .utf8)
        #expect(written == template, "templates/ios/ios-release.yml is what 'init --template ios' writes where it finds no project: update it")
        #expect(result.standardOutput.hasPrefix("note     no .xcworkspace or .xcodeproj in this folder or its subfolders\n"))
        #expect(!FileManager.default.fileExists(atPath: folder.path + "/lanes/ci.yml"))
        let bad = try slipway(["init", "--template", "android"], in: folder.path)
        #expect(bad.status == 64 || bad.status == 2)
        #expect(bad.standardError.contains("android"))
    }

    @Test func initWritesTheEmbeddedTemplates() throws {
        let folder = try TemporaryDirectory(prefix: "slipway-init")
        let first = try slipway(["init"], in: folder.path)
        #expect(first.status == 0)
        #expect(first.standardOutput.contains("wrote    lanes/ci.yml"))
        for name in ["ci.yml", "release.yml"] {
            let written = try String(contentsOfFile: folder.path + "/lanes/" + name, encoding: .utf8)
            let template = try String(contentsOfFile: Corpus.repositoryRoot + "/templates/lanes/" + name, encoding: .utf8)
            #expect(written == template, "the embedded \(name) differs from templates/lanes/\(name): run scripts/embed-templates.sh")
        }
        try "edited".write(toFile: folder.path + "/lanes/ci.yml", atomically: true, encoding: .utf8)
        let second = try slipway(["init"], in: folder.path)
        #expect(second.standardOutput.contains("kept     lanes/ci.yml (exists; --force overwrites it)"))
        #expect(try String(contentsOfFile: folder.path + "/lanes/ci.yml", encoding: .utf8) == "edited")
        let validate = try slipway(["validate"], in: folder.path)
        #expect(validate.status == 2, "the edited ci.yml is not a lane")
        _ = try slipway(["init", "--force"], in: folder.path)
        let valid = try slipway(["validate"], in: folder.path)
        #expect(valid.status == 0, "\(valid.standardError)")
        #expect(valid.standardOutput.contains("✓ ci: 2 steps + 1 finally, valid"))
    }

    /// What scripts/quickstart.sh does: the demo package from templates/, the lanes of `slipway
    /// init`, a tag and a feat commit, and the whole release lane with a throwaway key. The
    /// lane's `configuration` input is debug here, so that its build step reuses the build that
    /// `swift.test` made (one compile of the package, not two: the release build is the
    /// quickstart's own), and the suite's outcome does not depend on the machine's load.
    @Test(.enabled(if: ReleaseChecks.hasSignify, "\(ReleaseChecks.noSignify)"), .timeLimit(.minutes(15)))
    func initsReleaseLaneReleasesTheDemoPackage() throws {
        let folder = try TemporaryDirectory(prefix: "slipway-demo")
        let package = folder.path + "/hello"
        // SwiftPM leaves a lock file in TMPDIR for every package it builds: this one goes with the folder.
        let temporary = folder.path + "/tmp"
        try FileManager.default.createDirectory(atPath: temporary, withIntermediateDirectories: true)
        try FileManager.default.copyItem(atPath: Corpus.repositoryRoot + "/templates/demo-package", toPath: package)
        #expect(try slipway(["init"], in: package, environment: ["TMPDIR": temporary]).status == 0)
        @discardableResult func git(_ arguments: String...) throws -> String { try GitFixture.run(arguments, in: package) }
        try git("init", "--quiet", "--initial-branch=main")
        try git("config", "user.name", GitFixture.userName)
        try git("config", "user.email", GitFixture.userEmail)
        try git("add", "-A")
        try git("commit", "--quiet", "-m", "Initial commit")
        try git("tag", "-a", "v0.1.0", "-m", "hello 0.1.0")
        try Data("/// How `hello` says goodbye.\npublic func farewell(for name: String) -> String { \"Goodbye, \\(name)!\" }\n".utf8)
            .write(to: URL(fileURLWithPath: package + "/Sources/Greeting/Farewell.swift"))
        try git("add", "-A")
        try git("commit", "--quiet", "-m", "feat: say goodbye")
        let feature = try git("rev-parse", "--short=7", "HEAD")
        let keys = try slipway(["keys", "generate", "--no-passphrase", "--output", folder.path + "/keys", "--name", "demo"])
        #expect(keys.status == 0, "\(keys.standardError)")
        let secretKey = try String(contentsOfFile: folder.path + "/keys/demo.sec", encoding: .utf8)

        let run = try slipway(["run", "release", "--input", "product=hello", "--input", "configuration=debug", "--no-color"], in: package,
                              environment: ["SIGNING_KEY": secretKey, "SIGNING_KEY_PASSPHRASE": nil, "GITHUB_ACTIONS": nil,
                                            "TMPDIR": temporary])
        #expect(run.status == 0, "\(run.standardOutput)\n\(run.standardError)")
        try #require(run.status == 0)
        for step in ["git.ensure-clean", "swift.test", "version", "changelog.update", "build", "archive", "checksums", "sign",
                     "git.commit", "git.tag", "upload"] {
            #expect(run.standardOutput.contains("✓ \(step) ("), "\(step) did not succeed")
        }
        #expect(run.standardOutput.contains("| 11 | upload"))
        #expect(run.standardOutput.contains("✓ lane 'release' succeeded"))
        #expect(!run.standardOutput.contains(secretKey.split(separator: "\n").last.map(String.init) ?? secretKey))

        #expect(try String(contentsOfFile: package + "/VERSION", encoding: .utf8) == "0.2.0\n")
        #expect(try git("log", "-1", "--format=%s") == "chore(release): 0.2.0")
        #expect(try git("rev-parse", "v0.2.0^{commit}") == git("rev-parse", "HEAD"))
        #expect(try git("status", "--porcelain") == "")
        let section = ReleaseChecks.section("0.2.0", underUnreleasedIn: try git("show", "HEAD:CHANGELOG.md"))
        #expect(section?.contains("### Added\n- say goodbye (\(feature))") == true, "\(section ?? "no 0.2.0 section under Unreleased")")

        let published = package + "/.slipway/published"
        #expect(try FileManager.default.contentsOfDirectory(atPath: published).sorted()
            == ["SHA256SUMS", "SHA256SUMS.sig", "hello-0.2.0.tar.gz", "hello-0.2.0.tar.gz.sig"])
        for file in ["hello-0.2.0.tar.gz", "SHA256SUMS"] {
            let verified = try ReleaseChecks.verifySignature(of: file, publicKey: folder.path + "/keys/demo.pub", in: published)
            #expect(verified.standardOutput == "Signature Verified\n", "\(file): \(verified.standardError)")
        }
        #expect(try ReleaseChecks.checkSums(in: published).standardOutput == "hello-0.2.0.tar.gz: OK\n")
        let listing = try CommandResult.run("/usr/bin/env", ["tar", "-tzf", published + "/hello-0.2.0.tar.gz"])
        #expect(listing.standardOutput == "hello-0.2.0/\nhello-0.2.0/CHANGELOG.md\nhello-0.2.0/hello\n")
        // The archived program is the one built from the released commit.
        let unpacked = folder.path + "/unpacked"
        try FileManager.default.createDirectory(atPath: unpacked, withIntermediateDirectories: true)
        let untar = try CommandResult.run("/usr/bin/env", ["tar", "-xzf", published + "/hello-0.2.0.tar.gz", "-C", unpacked])
        #expect(untar.status == 0, "\(untar.standardError)")
        let hello = try CommandResult.run(unpacked + "/hello-0.2.0/hello", ["Ada"])
        #expect(hello.standardOutput == "Hello, Ada!\n")
    }

    @Test func lanesListsWithoutRunning() throws {
        let folder = try project([
            "release": "description: Ship it\ninputs:\n  bump: { default: auto, choices: [auto, major] }\nsecrets: [TOKEN]\nsteps:\n  - run: touch ran\n",
            "broken": "steps: [\n",
        ])
        let text = try slipway(["lanes"], in: folder.path)
        #expect(text.status == 0)
        #expect(text.standardOutput.contains("release  Ship it\n    --input bump=…  (auto|major, default auto)\n    secrets: TOKEN\n    1 step · lanes/release.yml"))
        #expect(text.standardOutput.contains("broken  (no description)\n    invalid: 1 problem(s); run 'slipway validate broken'"))
        let json = try slipway(["lanes", "--json"], in: folder.path)
        let decoded = try JSONSerialization.jsonObject(with: Data(json.standardOutput.utf8)) as? [[String: Any]]
        #expect(decoded?.map { $0["name"] as? String } == ["broken", "release"])
        #expect(!FileManager.default.fileExists(atPath: folder.path + "/ran"))
    }

    @Test func stepsAndStepPages() throws {
        let list = try slipway(["steps"])
        for id in ["run", "swift.build", "swift.test", "git.ensure-clean"] { #expect(list.standardOutput.contains("  \(id) ")) }
        let page = try slipway(["step", "swift.test"])
        #expect(page.standardOutput.contains("filter (string)\n      Run only tests matching this regular expression."))
        let unknown = try slipway(["step", "swift.tests"])
        #expect(unknown.status == 2)
        #expect(unknown.standardError.contains("there is no step 'swift.tests'. Did you mean 'swift.test'?"))
    }

    @Test func colourOnlyOnATerminalAndNeverWithNO_COLOR() throws {
        let folder = try project(["ok": "steps:\n  - run: 'true'\n"])
        let piped = try slipway(["run", "ok"], in: folder.path)
        #expect(!piped.standardOutput.contains("\u{1B}["))
        guard FileManager.default.isExecutableFile(atPath: "/usr/bin/script") else { return }
        let command = "\(Binaries.slipway) run ok"
        let tty = try CommandResult.run("/usr/bin/script", ["-qec", command, "/dev/null"], in: folder.path, environment: ["NO_COLOR": nil, "TERM": "xterm"])
        #expect(tty.standardOutput.contains("\u{1B}[32m"), "colours on a terminal")
        let noColor = try CommandResult.run("/usr/bin/script", ["-qec", command, "/dev/null"], in: folder.path, environment: ["NO_COLOR": "1", "TERM": "xterm"])
        #expect(!noColor.standardOutput.contains("\u{1B}[3"), "NO_COLOR is honoured")
    }
}
