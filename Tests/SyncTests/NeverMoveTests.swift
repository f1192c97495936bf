import Basics
import Foundation
import Networking
import Steps
import Sync
import Testing
import TestSupport
import TestThreads

/// What `slipway sync` never moves (issue 38), the default for name-only groups, and what
/// `--check` gates, through the binary where users meet them.
@Suite("Sync never moves", .dedicatedThreads)
struct NeverMoveTests {
    /// A project folder in a temporary directory: `files` (content: their path), the project's
    /// pbxproj, optionally a git repository with everything committed.
    struct Scene {
        let directory: TemporaryDirectory
        var root: String { directory.path }
        var bundle: String { root + "/App.xcodeproj" }

        init(_ mini: MiniProject, files: [String], git: Bool = false) throws {
            directory = try TemporaryDirectory(prefix: "sync-never-moves")
            for file in files {
                if file.hasSuffix("/") {
                    try FileManager.default.createDirectory(atPath: directory.path + "/" + file, withIntermediateDirectories: true)
                } else {
                    try directory.write(file, file + "\n")
                }
            }
            try directory.write("App.xcodeproj/project.pbxproj", mini.text())
            if git {
                try GitFixture.run(["init", "--quiet", "--initial-branch=main"], in: directory.path)
                try GitFixture.run(["add", "-A"], in: directory.path)
                try GitFixture.run(["commit", "--quiet", "-m", "tree"], in: directory.path)
            }
        }

        func sync(_ arguments: [String]) throws -> CommandResult {
            try CommandResult.run(Binaries.slipway, ["sync", bundle] + arguments)
        }

        func exists(_ path: String) -> Bool { FileManager.default.fileExists(atPath: root + "/" + path) }
    }

    static func atTop(_ area: String) -> String {
        "'\(area)' is at the top of the project folder, where git, CI and people find it: nothing moves out of or into it"
    }

    static let notBuilt = "built by no target, and at the top of the project folder or in a top-level folder that holds no group's folder: tools and scripts find it there"

    /// The issue's framework: path-less groups Aux and Docs list the repository's own files.
    static var auxProject: MiniProject {
        MiniProject(children: [
            .group(nil, path: "App", [.file("AppDelegate.swift"), .file("../Misplaced.swift")]),
            .group("Aux", [
                .file(".github/workflows/ci.yml", type: "text.yaml"), .file(".swiftlint.yml", type: "text.yaml"),
                .file("fastlane/Fastfile", type: "text"), .file("fastlane/actions/helper.rb", type: "text.script.ruby"),
                .file("Makefile", type: "sourcecode.make"), .file("scripts/build.sh", type: "text.script.sh"),
                .file("swiftgen.yml", type: "text.yaml"),
            ]),
            .group("Docs", [.file("README.md", type: "net.daringfireball.markdown"), .file("LICENSE", type: "text"),
                            .file("App/Guide/CHANGELOG.md", type: "net.daringfireball.markdown")]),
        ], built: ["AppDelegate.swift", "../Misplaced.swift"])
    }

    static let auxFiles = [
        "App/AppDelegate.swift", "Misplaced.swift", ".github/workflows/ci.yml", ".swiftlint.yml", "fastlane/Fastfile",
        "fastlane/actions/helper.rb", "Makefile", "scripts/build.sh", "swiftgen.yml", "README.md", "LICENSE",
        "App/Guide/CHANGELOG.md", ".gitignore",
    ]

    @Test("dotfiles and dot-folders at the top, fastlane/, README/LICENSE/CHANGELOG and files no target builds stay, even listed by path-less groups given folders; each is listed with its reason")
    func repositoryFilesStay() throws {
        let scene = try Scene(Self.auxProject, files: Self.auxFiles, git: true)
        let dry = try scene.sync(["--groups-without-path", "folder", "--dry-run"])
        #expect(dry.status == 0, "\(dry.standardError)")
        let expected = [
            "Moves (1):", "  Misplaced.swift → App/Misplaced.swift",
            "  .github/workflows/ci.yml (\(Self.atTop(".github")))",
            "  .swiftlint.yml (\(Self.atTop(".swiftlint.yml")))",
            "  fastlane/Fastfile (a tool finds it where it is (a package manifest, Podfile, podspec or lockfile))",
            "  fastlane/actions/helper.rb (\(Self.atTop("fastlane")))",
            "  Makefile (\(Self.notBuilt))", "  scripts/build.sh (\(Self.notBuilt))", "  swiftgen.yml (\(Self.notBuilt))",
            "  README.md (\(Self.atTop("README.md")))", "  LICENSE (\(Self.atTop("LICENSE")))",
            "  App/Guide/CHANGELOG.md (a README, LICENSE or CHANGELOG never moves on its own)",
        ]
        let lines = dry.standardOutput.split(separator: "\n").map(String.init)
        for line in expected { #expect(lines.contains(line), "missing '\(line)' in:\n\(dry.standardOutput)") }
        #expect(lines.contains("Not moved (10):"), "\(dry.standardOutput)")

        let json = try scene.sync(["--groups-without-path", "folder", "--dry-run", "--json"])
        let report = try JSONDecoder().decode(SyncReport.self, from: Data(json.standardOutput.utf8))
        #expect(report.plan.unmoved.first { $0.path == ".github/workflows/ci.yml" } == UnmovedReference(
            path: ".github/workflows/ci.yml", reason: .repositoryFile, area: ".github"))

        let before = try Snapshot.of(scene.root)
        let sync = try scene.sync(["--groups-without-path", "folder"])
        #expect(sync.status == 0, "\(sync.standardOutput)\(sync.standardError)")
        let after = try Snapshot.of(scene.root)
        for file in Self.auxFiles where file != "Misplaced.swift" {
            #expect(after[file] == before[file], "\(file) stayed, unchanged")
        }
        #expect(!scene.exists("Misplaced.swift") && scene.exists("App/Misplaced.swift"))
        #expect(!scene.exists("Aux") && !scene.exists("Docs"), "no folder is made for what stays")
        let check = try scene.sync(["--groups-without-path", "folder", "--check"])
        #expect(check.status == 0, "\(check.standardOutput)\(check.standardError)")
    }

    @Test("nothing moves out of, into or within a folder that holds a Package.swift, found in the listing")
    func swiftPackageFolderStays() throws {
        let mini = MiniProject(children: [
            .group(nil, path: "App", [.file("AppDelegate.swift"), .file("../Kit/Sources/Kit/Kit.swift"), .file("../Kit/include/Kit.h", type: "sourcecode.c.h")]),
            .group(nil, path: "Kit", [.file("../Loose.swift")]),
        ])
        let files = ["App/AppDelegate.swift", "Kit/Package.swift", "Kit/Sources/Kit/Kit.swift", "Kit/include/Kit.h", "Loose.swift"]
        let scene = try Scene(mini, files: files)
        let before = try Snapshot.of(scene.root)
        let check = try scene.sync(["--check", "--no-git"])
        #expect(check.status == 0, "\(check.standardOutput)\(check.standardError)")
        let package = "'Kit' holds a Package.swift, which finds its files by their place: nothing moves into, out of or within it"
        for line in ["  Kit/Sources/Kit/Kit.swift (\(package))", "  Kit/include/Kit.h (\(package))", "  Loose.swift (\(package))"] {
            #expect(check.standardOutput.contains(line + "\n"), "missing '\(line)' in:\n\(check.standardOutput)")
        }
        let sync = try scene.sync(["--no-git"])
        #expect(sync.status == 0, "\(sync.standardError)")
        #expect(try Snapshot.of(scene.root).filter { !$0.key.hasPrefix("App.xcodeproj") } == before.filter { !$0.key.hasPrefix("App.xcodeproj") })
    }

    @Test("a git submodule (from .gitmodules, not checked out) and a checked-out one (its own .git): nothing moves into, out of or within them")
    func submodulesStay() throws {
        let mini = MiniProject(children: [
            .group(nil, path: "App", [.file("AppDelegate.swift"), .file("../Vendor/Checked/Source.swift")]),
            .group(nil, path: "Vendor/Lib", [.file("../../Loose.swift")]),
            .group("Carried", path: "Old", [.file("Kept.swift")]),
        ])
        let files = ["App/AppDelegate.swift", "Vendor/Checked/Source.swift", "Vendor/Checked/.git", "Vendor/Lib/", "Loose.swift",
                     "Old/Kept.swift", "Old/Nested/", ".gitmodules"]
        let scene = try Scene(mini, files: files)
        try scene.directory.write(".gitmodules", "[submodule \"Lib\"]\n\tpath = Vendor/Lib\n\turl = https://example.com/lib.git\n[submodule \"Nested\"]\n\tpath = \"Old/Nested\"\n")
        try GitFixture.run(["init", "--quiet"], in: scene.root)
        let before = try Snapshot.of(scene.root)
        let dry = try scene.sync(["--dry-run", "--no-git"])
        #expect(dry.status == 0, "\(dry.standardError)")
        #expect(dry.standardOutput.contains("  Vendor/Checked/Source.swift ('Vendor/Checked' is a git submodule: nothing moves into, out of or within it)\n"), "\(dry.standardOutput)")
        #expect(dry.standardOutput.contains("  Loose.swift ('Vendor/Lib' is a git submodule: nothing moves into, out of or within it)\n"), "\(dry.standardOutput)")
        // synx's layout moves the folder of 'Carried': its unreferenced entries go along, but
        // not the (empty, not checked out) submodule inside it.
        let names = try scene.sync(["--dry-run", "--no-git", "--folders-from", "names"])
        #expect(names.status == 0, "\(names.standardError)")
        #expect(names.standardOutput.contains("  Old/Kept.swift → Carried/Kept.swift\n"), "\(names.standardOutput)")
        #expect(!names.standardOutput.contains("Old/Nested"), "the submodule is not carried: \(names.standardOutput)")
        #expect(try Snapshot.of(scene.root) == before)
        let check = try scene.sync(["--check", "--no-git"])
        #expect(check.status == 0, "\(check.standardOutput)\(check.standardError)")
    }

    @Test("folder references and synchronized folders stay where they are; their paths follow their group")
    func foldersStay() throws {
        let mini = MiniProject(children: [
            .group(nil, path: "App", [.file("AppDelegate.swift")]),
            .group("Resources", [.file("Fixtures", type: "folder"), .file("Media.xcassets", type: "folder.assetcatalog"), .synchronized("Login")]),
        ])
        let files = ["App/AppDelegate.swift", "Fixtures/a.json", "Media.xcassets/Contents.json", "Login/LoginView.swift"]
        let scene = try Scene(mini, files: files)
        let dry = try scene.sync(["--dry-run", "--no-git", "--groups-without-path", "folder"])
        #expect(dry.status == 0, "\(dry.standardError)")
        for line in ["  Fixtures (a folder reference stays where it is)", "  Media.xcassets (a folder reference stays where it is)",
                     "  Login (a synchronized folder stays where it is)"] {
            #expect(dry.standardOutput.contains(line + "\n"), "missing '\(line)' in:\n\(dry.standardOutput)")
        }
        #expect(!dry.standardOutput.contains("Moves ("), "\(dry.standardOutput)")
        let sync = try scene.sync(["--no-git", "--groups-without-path", "folder"])
        #expect(sync.status == 0, "\(sync.standardError)")
        for file in files { #expect(scene.exists(file), "\(file) stayed") }
        let check = try scene.sync(["--check", "--no-git", "--groups-without-path", "folder"])
        #expect(check.status == 0, "\(check.standardOutput)")
    }

    @Test("--prune never deletes inside a synchronized folder (every file there is the target's), while it prunes beside it")
    func pruneSparesSynchronizedFolders() throws {
        let mini = MiniProject(children: [
            .group(nil, path: "App", [.file("AppDelegate.swift")]),
            .group(nil, path: "Features", [.file("Shared.swift"), .synchronized("Login", exceptions: ["Info.plist"])]),
        ])
        let files = ["App/AppDelegate.swift", "Features/Shared.swift", "Features/Stale.swift", "Features/Login/LoginView.swift",
                     "Features/Login/Info.plist", "Features/Login/Sub/Deep.swift", "Features/Login/Assets.xcassets/Contents.json"]
        let scene = try Scene(mini, files: files)
        let dry = try scene.sync(["--dry-run", "--no-git", "--prune"])
        #expect(dry.status == 0, "\(dry.standardOutput)\(dry.standardError)")
        #expect(dry.standardOutput.contains("Features/Stale.swift"), "the unreferenced file beside the folder is pruned:\n\(dry.standardOutput)")
        #expect(!dry.standardOutput.contains("Features/Login/"), "nothing inside the synchronized folder:\n\(dry.standardOutput)")
        let sync = try scene.sync(["--no-git", "--prune"])
        #expect(sync.status == 0, "\(sync.standardOutput)\(sync.standardError)")
        #expect(!scene.exists("Features/Stale.swift"))
        for file in files where file != "Features/Stale.swift" { #expect(scene.exists(file), "\(file) stayed") }
    }

    @Test("Xcode's Recovered References gets no folder, its files stay, and it never makes --check fail (nor --check-order)")
    func recoveredReferences() throws {
        let mini = MiniProject(children: [
            .group(nil, path: "App", [.file("AppDelegate.swift")]),
            .group("Recovered References", [.file("Old/Zeta.swift"), .file("Old/Alpha.swift")]),
        ])
        let files = ["App/AppDelegate.swift", "Old/Zeta.swift", "Old/Alpha.swift"]
        let scene = try Scene(mini, files: files)
        let before = try Snapshot.of(scene.root)
        for options in [[], ["--groups-without-path", "folder"], ["--check-order"], ["--folders-from", "names"]] {
            let check = try scene.sync(["--check", "--no-git"] + options)
            #expect(check.status == 0, "\(options): \(check.standardOutput)\(check.standardError)")
            #expect(check.standardOutput.contains("  Old/Zeta.swift (listed by Xcode's 'Recovered References', which gets no folder)\n"),
                    "\(options): \(check.standardOutput)")
        }
        #expect(try Snapshot.of(scene.root) == before)
    }

    @Test("the default keeps path-less groups virtual: a maintained app plans nothing; --groups-without-path folder gives synx's folders")
    func defaultIsVirtual() throws {
        let mini = MiniProject(children: [.group(nil, path: "App", [
            .group("Models", [.file("Item.swift")]), .group("Views", [.file("ListView.swift")]), .file("AppDelegate.swift"),
        ])])
        let files = ["App/ListView.swift", "App/Item.swift", "App/AppDelegate.swift"]
        let scene = try Scene(mini, files: files, git: true)
        let before = try Snapshot.of(scene.root)
        let check = try scene.sync(["--check"])
        #expect(check.status == 0, "\(check.standardOutput)\(check.standardError)")
        #expect(check.standardOutput.hasSuffix("': the folders already match the groups.\n"), "\(check.standardOutput)")
        let folder = try scene.sync(["--check", "--groups-without-path", "folder"])
        #expect(folder.status == 1)
        #expect(folder.standardOutput.contains("  App/ListView.swift → App/Views/ListView.swift\n"), "\(folder.standardOutput)")
        let sync = try scene.sync([])
        #expect(sync.status == 0 && sync.standardOutput.hasSuffix("': the folders already match the groups.\n"), "\(sync.standardOutput)")
        #expect(try Snapshot.of(scene.root) == before)
        let help = try CommandResult.run(Binaries.slipway, ["sync", "--help"])
        #expect(help.standardOutput.contains("'virtual' (default) none"), "\(help.standardOutput)")
        #expect(help.standardOutput.contains("--check-order"), "\(help.standardOutput)")
    }

    @Test("--check gates placement: a tidy project whose only difference is the children's order passes, and fails with --check-order")
    func checkOrder() async throws {
        let mini = MiniProject(children: [.group(nil, path: "App", [.file("b.swift"), .file("A.swift")])])
        let scene = try Scene(mini, files: ["App/b.swift", "App/A.swift"], git: true)
        let before = try Snapshot.of(scene.root)
        let check = try scene.sync(["--check"])
        #expect(check.status == 0, "\(check.standardOutput)\(check.standardError)")
        #expect(check.standardOutput.hasSuffix("': the folders already match the groups.\n"), "\(check.standardOutput)")
        let ordered = try scene.sync(["--check", "--check-order"])
        #expect(ordered.status == 1, "\(ordered.standardOutput)")
        #expect(ordered.standardOutput.contains("  sort the children of 'App' by name\n"), "\(ordered.standardOutput)")
        #expect(ordered.standardOutput.contains("is out of sync with its groups: 0 move(s), 0 carried, 0 deleted, 1 pbxproj edit(s) needed."), "\(ordered.standardOutput)")
        let alone = try scene.sync(["--check-order"])
        #expect(alone.status == 64)
        #expect(alone.standardError.contains("--check-order goes with --check"), "\(alone.standardError)")
        #expect(try Snapshot.of(scene.root) == before)

        // The lane step: check passes, check with check-order fails; check-order alone is refused.
        let context = StepContext(laneName: "test", stepID: "sync", workingDirectory: scene.root, environment: Environment(),
                                  fileSystem: LocalFileSystem(), processRunner: LocalProcessRunner(), events: SyncStepTests.Collector(),
                                  services: StepServices(httpClient: SystemHTTPClient()))
        let step = try SyncStep(options: StepOptions(["project": .string("App.xcodeproj"), "check": .bool(true)], for: SyncStep.description))
        #expect(try await step.run(in: context)["moved"] == "0")
        let strict = try SyncStep(options: StepOptions(
            ["project": .string("App.xcodeproj"), "check": .bool(true), "check-order": .bool(true)], for: SyncStep.description))
        await #expect(throws: StepError.self) { try await strict.run(in: context) }
        #expect(throws: StepError.invalidOption(name: "check-order", problem: "goes with check: true (it makes the check fail on unsorted children too)")) {
            try SyncStep(options: StepOptions(["project": .string("App.xcodeproj"), "check-order": .bool(true)], for: SyncStep.description))
        }
        #expect(try Snapshot.of(scene.root) == before)
    }
}
