import Basics
import Foundation
import Steps
import Sync
import Testing
import TestSupport
import TestThreads

/// Issue 38 point 1: no move that breaks a path. Before anything moves, every file in the
/// repository that names a moving path is found; xcconfigs are rewritten as part of the
/// transaction, everything else is refused (exit 2, nothing changed) unless accepted.
@Suite("Sync path references", .dedicatedThreads)
struct PathReferenceTests {
    /// A temporary tree and its own user state folder (the journal of a sync without git).
    struct Tree {
        let directory: TemporaryDirectory
        let stateHome: TemporaryDirectory
        /// The folder holding `App.xcodeproj`.
        let project: String
        var root: String { directory.path }
        var environment: [String: String?] { ["XDG_STATE_HOME": stateHome.path, "GITHUB_ACTIONS": nil] }

        /// `projectFolder`: where the project goes inside the tree ("" at its root);
        /// `git`: make the tree a git repository (not committed: the syncs run with --no-git).
        init(_ fixture: PathReferenceFixture, projectFolder: String = "", git: Bool = false, files: [String: String] = [:]) throws {
            directory = try TemporaryDirectory(prefix: "sync-path-references")
            stateHome = try TemporaryDirectory(prefix: "sync-path-references-state")
            project = projectFolder.isEmpty ? directory.path : directory.path + "/" + projectFolder
            try fixture.write(in: project)
            for (path, text) in files { try directory.write(path, text) }
            if git { _ = try GitFixture.run(["init", "--quiet", "--initial-branch=main"], in: directory.path) }
        }

        func sync(_ extra: [String] = [], git: Bool = false, environment more: [String: String?] = [:]) throws -> CommandResult {
            try CommandResult.run(
                Binaries.slipway, ["sync", project + "/App.xcodeproj"] + (git ? [] : ["--no-git"]) + ["--groups-without-path", "folder", "--no-sort-by-name"] + extra,
                environment: environment.merging(more) { $1 })
        }

        func read(_ path: String) -> String { (try? String(contentsOfFile: root + "/" + path, encoding: .utf8)) ?? "(missing)" }
    }

    static let refusalAdvice = "Move these files by hand and fix the references, leave their group alone with --exclude <group>, "
        + "or pass --accept-path-references to sync anyway (they are then printed as warnings)."

    static func refusal(_ lines: [String]) -> String {
        "error: The sync would break \(lines.count) path reference\(lines.count == 1 ? "" : "s") in files Slipway does not rewrite; nothing was moved.\n"
            + lines.map { "  " + $0 + "\n" }.joined() + refusalAdvice + "\n"
    }

    /// Runs the sync, expects the refusal with exactly `lines`, and that nothing changed.
    func expectRefused(_ tree: Tree, _ lines: [String], sourceLocation: Testing.SourceLocation = #_sourceLocation) throws {
        let before = try Snapshot.of(tree.root)
        let result = try tree.sync()
        #expect(result.status == 2, "\(result.standardOutput)\(result.standardError)", sourceLocation: sourceLocation)
        #expect(result.standardError == Self.refusal(lines), sourceLocation: sourceLocation)
        #expect(try Snapshot.of(tree.root) == before, "nothing on disk changed", sourceLocation: sourceLocation)
    }

    // MARK: xcconfig

    static let baseXCConfig = """
        // Settings of the app
        #include? "Shared.xcconfig"
        INFOPLIST_FILE = $(SRCROOT)/Info.plist
        GCC_PREFIX_HEADER = Prefix.pch // the prefix header
        INFOPLIST_FILE[sdk=iphonesimulator*] = "Info.plist"

        """

    static let baseXCConfigAfter = """
        // Settings of the app
        #include? "Shared.xcconfig"
        INFOPLIST_FILE = $(SRCROOT)/Support/Info.plist
        GCC_PREFIX_HEADER = Support/Prefix.pch // the prefix header
        INFOPLIST_FILE[sdk=iphonesimulator*] = "Support/Info.plist"

        """

    static var xcconfigApp: PathReferenceFixture {
        PathReferenceFixture(moving: ["Info.plist", "Prefix.pch"], staying: ["Base.xcconfig"], baseConfiguration: "Base.xcconfig")
    }

    @Test("an xcconfig naming INFOPLIST_FILE and GCC_PREFIX_HEADER of files a path-less group moves is rewritten (prefix, quotes and condition kept); the settings resolve after")
    func xcconfigRewritten() throws {
        let tree = try Tree(Self.xcconfigApp, files: ["Base.xcconfig": Self.baseXCConfig])
        let dry = try tree.sync(["--dry-run"])
        #expect(dry.status == 0, "\(dry.standardError)")
        #expect(dry.standardOutput.contains("""
            Files rewritten to follow the moves (3):
              Base.xcconfig:3: INFOPLIST_FILE = $(SRCROOT)/Info.plist → INFOPLIST_FILE = $(SRCROOT)/Support/Info.plist
              Base.xcconfig:4: GCC_PREFIX_HEADER = Prefix.pch // the prefix header → GCC_PREFIX_HEADER = Support/Prefix.pch // the prefix header
              Base.xcconfig:5: INFOPLIST_FILE[sdk=iphonesimulator*] = "Info.plist" → INFOPLIST_FILE[sdk=iphonesimulator*] = "Support/Info.plist"
            """), "\(dry.standardOutput)")
        #expect(!dry.standardOutput.contains("Path references the moves would break"), "\(dry.standardOutput)")
        #expect(tree.read("Base.xcconfig") == Self.baseXCConfig, "a dry run changes nothing")

        let result = try tree.sync()
        #expect(result.status == 0, "\(result.standardOutput)\(result.standardError)")
        #expect(tree.read("Base.xcconfig") == Self.baseXCConfigAfter)
        for setting in ["Support/Info.plist", "Support/Prefix.pch"] {
            #expect(FileManager.default.fileExists(atPath: tree.root + "/" + setting), "the setting resolves: \(setting)")
        }
        #expect(!FileManager.default.fileExists(atPath: tree.root + "/Info.plist"))
        let again = try tree.sync(["--check"])
        #expect(again.status == 0, "\(again.standardOutput)\(again.standardError)")
    }

    @Test("killed after the xcconfigs were rewritten (one moves too and is edited at its new place): --recover restores every file byte for byte")
    func xcconfigRolledBack() throws {
        var fixture = Self.xcconfigApp
        fixture.moving.append("App.xcconfig")
        let tree = try Tree(fixture, files: ["Base.xcconfig": Self.baseXCConfig, "App.xcconfig": "#include \"Base.xcconfig\"\nSWIFT_VERSION = 6.0\n"])
        let before = try Snapshot.of(tree.root)
        let killed = try tree.sync(["--quiet"], environment: [SyncApplier.testStopAfterFileEditsVariable: "1"])
        #expect(killed.status == SIGKILL, "\(killed.standardOutput)\(killed.standardError)")
        #expect(tree.read("Support/App.xcconfig") == "#include \"../Base.xcconfig\"\nSWIFT_VERSION = 6.0\n", "edited at its new place")
        #expect(tree.read("Base.xcconfig") == Self.baseXCConfigAfter)
        let recover = try CommandResult.run(Binaries.slipway, ["sync", tree.project + "/App.xcodeproj", "--recover"], environment: tree.environment)
        #expect(recover.status == 0, "\(recover.standardOutput)\(recover.standardError)")
        #expect(recover.standardOutput.contains("Rolled back the interrupted sync: 3 move(s) undone"), "\(recover.standardOutput)")
        let after = try Snapshot.of(tree.root)
        #expect(after == before, "\(Set(after.keys).symmetricDifference(before.keys)) \(after.filter { before[$0.key] != $0.value }.keys.sorted())")
    }

    @Test("with git, the rewritten xcconfigs are staged with the moves: a moved and edited xcconfig is staged with its new text")
    func xcconfigStagedInGit() throws {
        var fixture = Self.xcconfigApp
        fixture.moving.append("App.xcconfig")
        let tree = try Tree(fixture, git: true, files: ["Base.xcconfig": Self.baseXCConfig, "App.xcconfig": "#include \"Base.xcconfig\"\n"])
        _ = try GitFixture.run(["add", "-A"], in: tree.root)
        _ = try GitFixture.run(["-c", "user.name=T", "-c", "user.email=t@example.com", "commit", "--quiet", "-m", "app"], in: tree.root)
        let result = try tree.sync(git: true)
        #expect(result.status == 0, "\(result.standardOutput)\(result.standardError)")
        #expect(tree.read("Support/App.xcconfig") == "#include \"../Base.xcconfig\"\n")
        #expect(try GitFixture.run(["diff", "--name-only"], in: tree.root) == "", "everything the sync changed is staged")
        // (GitFixture.run drops the output's last newline.)
        #expect(try GitFixture.run(["show", ":Support/App.xcconfig"], in: tree.root) + "\n" == "#include \"../Base.xcconfig\"\n")
        #expect(try GitFixture.run(["show", ":Base.xcconfig"], in: tree.root) + "\n" == Self.baseXCConfigAfter)
    }

    // MARK: Refused

    @Test("Package.swift's target path and publicHeadersPath name folders headers would move out of: refused, listed, nothing changed")
    func packageHeadersRefused() throws {
        let fixture = PathReferenceFixture(moving: ["Lib/include/A.h"], staying: ["Lib/include/B.h"])
        let manifest = """
            // swift-tools-version:5.9
            import PackageDescription

            let package = Package(
                name: "Lib",
                targets: [
                    .target(name: "Lib", path: "App/Lib", publicHeadersPath: "include"),
                ]
            )

            """
        let tree = try Tree(fixture, projectFolder: "App", git: true, files: ["Package.swift": manifest])
        try expectRefused(tree, [
            "Package.swift:7: Package.swift: 'App/Lib' names a folder from which 'Lib/include/A.h' would move to 'Support/A.h'",
            "Package.swift:7: Package.swift: 'include' names a folder from which 'Lib/include/A.h' would move to 'Support/A.h'",
        ])
    }

    @Test("a script phase, its input paths and a HEADER_SEARCH_PATHS setting naming moving files: refused with the pbxproj's lines")
    func scriptPhaseRefused() throws {
        var fixture = PathReferenceFixture(moving: ["Info.plist", "Headers/Lib.h"])
        fixture.script = "# copies the plist\ncp \"$SRCROOT/Info.plist\" \"$BUILT_PRODUCTS_DIR/\"\n"
        fixture.inputPaths = ["$(SRCROOT)/Info.plist"]
        fixture.settings = ["HEADER_SEARCH_PATHS": "$(SRCROOT)/Headers", "PRODUCT_NAME": "App"]
        let tree = try Tree(fixture)
        let phase = fixture.line(of: "isa = PBXShellScriptBuildPhase"), debug = fixture.line(of: "isa = XCBuildConfiguration")
        let file = "App.xcodeproj/project.pbxproj"
        try expectRefused(tree, [
            "\(file):\(debug): build setting HEADER_SEARCH_PATHS of 'Debug' of target 'App': '$(SRCROOT)/Headers' names a folder from which 'Headers/Lib.h' would move to 'Support/Lib.h'",
            "\(file):\(phase): script phase 'Run Script' of target 'App' (script line 2): '$SRCROOT/Info.plist' names 'Info.plist' which would move to 'Support/Info.plist'",
            "\(file):\(phase): script phase input/output 'Run Script' of target 'App' inputPaths: '$(SRCROOT)/Info.plist' names 'Info.plist' which would move to 'Support/Info.plist'",
        ])
    }

    @Test("swiftgen.yml moving away from where SwiftGen finds it, its output, and a file .swiftlint.yml excludes: refused")
    func toolConfigurationsRefused() throws {
        let fixture = PathReferenceFixture(moving: ["Generated.swift", "swiftgen.yml"], staying: ["Assets.xcassets/Contents.json"])
        let tree = try Tree(fixture, files: [
            ".swiftlint.yml": "disabled_rules:\n  - line_length\nexcluded:\n  - Generated.swift\n  - Pods\n",
            "swiftgen.yml": "xcassets:\n  inputs: Assets.xcassets\n  outputs:\n    templateName: swift5\n    output: Generated.swift\n",
        ])
        try expectRefused(tree, [
            ".swiftlint.yml:4: SwiftLint configuration: 'Generated.swift' names 'Generated.swift' which would move to 'Support/Generated.swift'",
            "swiftgen.yml:1: found by its place: 'swiftgen.yml' would move to 'Support/swiftgen.yml'",
            "swiftgen.yml:5: SwiftGen configuration: 'Generated.swift' names 'Generated.swift' which would move to 'Support/Generated.swift'",
        ])
    }

    @Test("a Makefile and a GitHub workflow at the repository's root name files of a project in a subfolder: refused, paths from the root")
    func makefileAndWorkflowRefused() throws {
        let fixture = PathReferenceFixture()
        let tree = try Tree(fixture, projectFolder: "ios", git: true, files: [
            "Makefile": "# checks\nlint:\n\tplutil -lint ios/Info.plist\n",
            ".github/workflows/ci.yml": "on: push\njobs:\n  build:\n    steps:\n      - run: clang -include ./ios/Prefix.pch -fsyntax-only x.m\n",
            "README.md": "ios/Info.plist is not read\n",
        ])
        try expectRefused(tree, [
            ".github/workflows/ci.yml:5: CI configuration: './ios/Prefix.pch' names 'Prefix.pch' which would move to 'Support/Prefix.pch'",
            "Makefile:3: Makefile: 'ios/Info.plist' names 'Info.plist' which would move to 'Support/Info.plist'",
        ])
    }

    @Test("a scheme's and a test plan's paths to a moving file: refused")
    func schemeAndTestPlanRefused() throws {
        let fixture = PathReferenceFixture(moving: ["Fixtures.json"])
        let tree = try Tree(fixture, files: [
            "App.xcodeproj/xcshareddata/xcschemes/App.xcscheme": """
                <?xml version="1.0" encoding="UTF-8"?>
                <Scheme version = "1.7">
                   <LaunchAction>
                      <EnvironmentVariables>
                         <EnvironmentVariable key = "FIXTURES" value = "$(SRCROOT)/Fixtures.json" isEnabled = "YES"></EnvironmentVariable>
                      </EnvironmentVariables>
                   </LaunchAction>
                </Scheme>

                """,
            "App.xctestplan": "{\n  \"defaultOptions\" : {\n    \"environmentVariableEntries\" : [\n      { \"key\" : \"FIXTURES\", \"value\" : \"$(SRCROOT)\\/Fixtures.json\" }\n    ]\n  }\n}\n",
        ])
        try expectRefused(tree, [
            "App.xcodeproj/xcshareddata/xcschemes/App.xcscheme:5: scheme: '$(SRCROOT)/Fixtures.json' names 'Fixtures.json' which would move to 'Support/Fixtures.json'",
            "App.xctestplan:4: test plan: '$(SRCROOT)/Fixtures.json' names 'Fixtures.json' which would move to 'Support/Fixtures.json'",
        ])
    }

    @Test("a .gitignore pattern that matches a moving file at its place and not at its destination: refused; a pattern matching both is not listed")
    func gitignoreRefused() throws {
        let fixture = PathReferenceFixture(moving: ["Secrets.plist", "Prefix.pch"])
        let tree = try Tree(fixture, files: [".gitignore": "# local files\n/Secrets.plist\n*.pch\n", ".gitattributes": "*.plist diff\n"])
        try expectRefused(tree, [
            ".gitignore:2: git pattern (.gitignore): '/Secrets.plist' names 'Secrets.plist' which would move to 'Support/Secrets.plist'",
        ])
    }

    @Test("a quoted path with blanks is one word; a moving file whose name holds terminal controls is shown escaped, never sent raw")
    func quotedAndControlCharacters() throws {
        let name = "Info\u{1B}x\u{07}.plist"
        let tree = try Tree(PathReferenceFixture(moving: [name, "Launch Screen.plist"]),
                            files: ["Makefile": "all:\n\tcat '\(name)'\n\tplutil -lint \"Launch Screen.plist\"\n"])
        let before = try Snapshot.of(tree.root)
        let result = try tree.sync()
        #expect(result.status == 2, "\(result.standardError)")
        #expect(result.standardError.contains("Makefile:2: Makefile: 'Info"), "\(result.standardError)")
        #expect(result.standardError.contains(
            "  Makefile:3: Makefile: 'Launch Screen.plist' names 'Launch Screen.plist' which would move to 'Support/Launch Screen.plist'\n"),
            "\(result.standardError)")
        #expect(!result.standardError.contains("\u{1B}") && !result.standardError.contains("\u{07}"), "\(result.standardError.debugDescription)")
        #expect(try Snapshot.of(tree.root) == before)
    }

    // MARK: Accepted, listed, unread

    @Test("--accept-path-references: the sync runs and prints them as warnings, GitHub annotations under Actions, a pathReferences array in --json; --dry-run and --check list them")
    func acceptedAsWarnings() throws {
        let makefile = "plist:\n\tplutil -lint Info.plist\n"
        let line = "Makefile:2: Makefile: 'Info.plist' names 'Info.plist' which would move to 'Support/Info.plist'"
        do {
            let tree = try Tree(PathReferenceFixture(), files: ["Makefile": makefile])
            let dry = try tree.sync(["--dry-run"])
            #expect(dry.status == 0, "\(dry.standardError)")
            #expect(dry.standardOutput.contains("Path references the moves would break (1):\n  \(line)\n"), "\(dry.standardOutput)")
            let check = try tree.sync(["--check"])
            #expect(check.status == 1, "out of place, as before: \(check.standardError)")
            #expect(check.standardOutput.contains("Path references the moves would break (1):\n  \(line)\n"), "\(check.standardOutput)")
            let result = try tree.sync(["--accept-path-references"], environment: ["GITHUB_ACTIONS": "true"])
            #expect(result.status == 0, "\(result.standardOutput)\(result.standardError)")
            #expect(result.standardOutput.contains("warning: \(line)\n"), "\(result.standardOutput)")
            #expect(result.standardOutput.contains(
                "::warning file=Makefile,line=2,col=15,title=slipway sync%3A path reference::\(line)\n"), "\(result.standardOutput)")
            #expect(FileManager.default.fileExists(atPath: tree.root + "/Support/Info.plist"))
            #expect(tree.read("Makefile") == makefile, "only what has a known format is rewritten")
        }
        let tree = try Tree(PathReferenceFixture(), files: ["Makefile": makefile])
        let json = try tree.sync(["--accept-path-references", "--json"])
        #expect(json.status == 0, "\(json.standardError)")
        let object = try JSONSerialization.jsonObject(with: Data(json.standardOutput.utf8)) as? [String: Any]
        let references = object?["pathReferences"] as? [[String: Any]] ?? []
        #expect(references.count == 1)
        #expect(references.first?["file"] as? String == "Makefile" && references.first?["line"] as? Int == 2
            && references.first?["column"] as? Int == 15 && references.first?["kind"] as? String == "Makefile"
            && references.first?["movingPath"] as? String == "Info.plist" && references.first?["destination"] as? String == "Support/Info.plist"
            && references.first?["rewritten"] as? Bool == false, "\(json.standardOutput)")
    }

    @Test("a Makefile over its budget and a .swiftlint.yml that is not UTF-8 are named as not read: refused, nothing changed; accepting them warns")
    func unreadFilesNamed() throws {
        let big = String(repeating: "# padding\n", count: (1 << 20) / 10 + 1)
        let tree = try Tree(PathReferenceFixture(), files: ["Makefile": big])
        try Data([0x65, 0x78, 0xFF, 0x0A]).write(to: URL(fileURLWithPath: tree.root + "/.swiftlint.yml"))
        let before = try Snapshot.of(tree.root)
        let result = try tree.sync()
        #expect(result.status == 2)
        #expect(result.standardError.hasPrefix("error: The sync would break 0 path references in files Slipway does not rewrite, and 2 files could not be read to tell; nothing was moved.\n  .swiftlint.yml: not read: "), "\(result.standardError)")
        #expect(result.standardError.contains("\n  Makefile: not read: "), "\(result.standardError)")
        #expect(result.standardError.contains("configuration file"), "the budget is named: \(result.standardError)")
        #expect(try Snapshot.of(tree.root) == before)
        let accepted = try tree.sync(["--accept-path-references"])
        #expect(accepted.status == 0, "\(accepted.standardError)")
        #expect(accepted.standardOutput.contains("warning: Makefile: not read: "), "\(accepted.standardOutput)")
    }

    @Test("an extensionless file in bin/ or scripts/ is read as a script only with #!: a binary is skipped, a Latin-1 script is searched")
    func scriptsInAnyEncoding() throws {
        let tree = try Tree(PathReferenceFixture())
        // A binary (not UTF-8, no #!) is not a script: nothing to refuse.
        try FileManager.default.createDirectory(atPath: tree.root + "/bin", withIntermediateDirectories: true)
        try Data([0x7F, 0x45, 0x4C, 0x46, 0xFF, 0x00, 0xE9]).write(to: URL(fileURLWithPath: tree.root + "/bin/tool"))
        // A Latin-1 Perl script that names a moving path (ASCII) on line 3.
        try FileManager.default.createDirectory(atPath: tree.root + "/scripts", withIntermediateDirectories: true)
        try Data(Array("#!/usr/bin/perl\n# caf".utf8) + [0xE9] + Array("\nopen(F, \"Info.plist\");\n".utf8))
            .write(to: URL(fileURLWithPath: tree.root + "/scripts/stamp"))
        try expectRefused(tree, ["scripts/stamp:3: shell script: 'Info.plist' names 'Info.plist' which would move to 'Support/Info.plist'"])
        // Without the script, the binary alone refuses nothing.
        try FileManager.default.removeItem(atPath: tree.root + "/scripts/stamp")
        let result = try tree.sync()
        #expect(result.status == 0, "\(result.standardOutput)\(result.standardError)")
        #expect(!result.standardOutput.contains("bin/tool") && !result.standardError.contains("bin/tool"))
    }

    @Test("a Makefile with CRLF line endings is read line by line: the reference's line and word are right")
    func crlfLines() throws {
        let tree = try Tree(PathReferenceFixture(), files: ["Makefile": "all:\r\n\tcp Info.plist build/\r\n\techo done\r\n"])
        try expectRefused(tree, ["Makefile:2: Makefile: 'Info.plist' names 'Info.plist' which would move to 'Support/Info.plist'"])
    }

    @Test("the sync step takes accept-path-references")
    func stepOption() throws {
        let standard = try SyncStep(options: StepOptions(["project": .string("App.xcodeproj")], for: SyncStep.description))
        #expect(!standard.acceptPathReferences)
        let accepting = try SyncStep(options: StepOptions(
            ["project": .string("App.xcodeproj"), "accept-path-references": .bool(true)], for: SyncStep.description))
        #expect(accepting.acceptPathReferences)
    }
}

/// The scanner's bounds and links, through the library (the limits are not options).
@Suite("Sync path reference scanner", .dedicatedThreads)
struct PathReferenceScannerTests {
    @Test("a scan that reaches its bound of files says so; a file of a scanned kind that is a symbolic link is named, never followed")
    func boundAndLinks() throws {
        let directory = try TemporaryDirectory(prefix: "sync-path-reference-scanner")
        let fixture = PathReferenceFixture()
        try fixture.write(in: directory.path, contents: ["Makefile": "all:\n\tcat Info.plist\n", "b.sh": "cat Prefix.pch\n"])
        try FileManager.default.createSymbolicLink(atPath: directory.path + "/.swiftlint.yml", withDestinationPath: "/etc/hostname")
        let project = try fixture.project()
        let listing = try DirectoryListing.scan(root: directory.path, fileSystem: LocalFileSystem())
        let plan = try SyncPlanner.plan(project: project, listing: listing, options: SyncOptions(groupsWithoutPath: .folder), projectBundle: "App.xcodeproj")
        #expect(plan.moves.map(\.source).sorted() == ["Info.plist", "Prefix.pch"])

        let bounded = PathReferenceScanner(fileSystem: LocalFileSystem(), root: directory.path, projectPrefix: "", projectBundle: "App.xcodeproj",
                                           limits: .init(files: 1)).scan(plan: plan, project: project)
        #expect(bounded.limitReached == "it reached its bound of 1 files read; the rest were not read")
        #expect(bounded.references.map(\.file) == ["Makefile"], "the first file in path order was read")
        #expect(bounded.unread == [UnreadReferenceFile(file: ".swiftlint.yml", reason: "a symbolic link; links are not followed")])
        #expect(!bounded.isClear)

        let full = PathReferenceScanner(fileSystem: LocalFileSystem(), root: directory.path, projectPrefix: "", projectBundle: "App.xcodeproj")
            .scan(plan: plan, project: project)
        #expect(full.limitReached == nil)
        #expect(full.references.map(\.description) == [
            "Makefile:2: Makefile: 'Info.plist' names 'Info.plist' which would move to 'Support/Info.plist'",
            "b.sh:1: shell script: 'Prefix.pch' names 'Prefix.pch' which would move to 'Support/Prefix.pch'",
        ])
    }
}

/// The journal's record of rewritten files is checked like its moves.
@Suite("Sync journal file edits", .dedicatedThreads)
struct PathReferenceJournalTests {
    @Test("a signed journal whose fileEdits name a file outside the project (or a bad digest) is refused before anything is written")
    func fileEditsOutsideRefused() throws {
        let repository = try SyntheticRepository(files: 4, groups: 2)
        let outside = try TemporaryDirectory(prefix: "sync-file-edit-victim")
        try outside.write("victim.txt", "victim\n")
        let state = repository.syncState
        let away = "../" + URL(fileURLWithPath: outside.path).lastPathComponent + "/victim.txt"
        let resolvedRoot = StateFiles.resolved(repository.root) ?? repository.root
        let digest = SyncJournal.sha256(Array("original\n".utf8))
        let cases: [(SyncJournal.FileEdit, String)] = [
            (.init(path: away, finalPath: "App/Base.xcconfig", originalSHA256: digest),
             "it names '\(away)': it is not a plain relative path inside the project folder '\(resolvedRoot)'"),
            (.init(path: "App/Base.xcconfig", finalPath: ".git/config", originalSHA256: digest),
             "it names '.git/config': it is inside the git directory, which a sync never touches"),
            (.init(path: "App/Base.xcconfig", finalPath: "App/Base.xcconfig", originalSHA256: "../x"),
             "its record of the saved copy of 'App/Base.xcconfig' ('../x') is not a SHA-256"),
        ]
        let sync = ProjectSync(fileSystem: LocalFileSystem(), environment: repository.environment)
        for (edit, reason) in cases {
            var header = SyncJournal.Header(
                version: 1, kind: "slipway-sync", projectBundle: "App.xcodeproj", pbxprojSHA256: SyncJournal.sha256(fileBytes(repository.pbxprojPath)),
                moves: [], gitIndex: repository.root + "/.git/index")
            header.fileEdits = [edit]
            try state.sign(&header)
            try SyncJournalHeaderFixture.plant(try JSONFormatting.line(header) + "\n", in: state)
            try Data("original\n".utf8).write(to: URL(fileURLWithPath: state.fileBackupPath(0)))
            let before = try Snapshot.of(repository.root)
            #expect(throws: SyncError.untrustedJournal(path: state.journalPath, reason: reason)) { try sync.recover(repository.bundle) }
            #expect(try Snapshot.of(repository.root) == before, "\(reason)")
            #expect(try String(contentsOfFile: outside.path + "/victim.txt", encoding: .utf8) == "victim\n")
        }
    }
}
