import Basics
import Foundation
import PBXProj
import Sync
import Testing
import TestSupport
import TestThreads

/// synx's own fixture (`spec/dummy` in venmo/synx) and the layout synx's spec documents after a
/// sync (`spec/synx/expected_file_structure.yml`), with the differences Slipway makes on purpose.
@Suite("synx's fixture", .dedicatedThreads)
struct SynxFixtureTests {
    static let base = "venmo__synx__dummy"

    /// The files synx's spec expects after a sync (its expected_file_structure.yml, flattened),
    /// plus the project folder's own files, which synx does not list.
    static let synxLayout: Set<String> = [
        "dummy/FolderWithGroupNotLinked/data.json",
        "dummy/Resources/image.png",
        "dummy/data.json",
        "dummy/image-not-in-xcodeproj.png",
        "dummy/AlreadySynced/Core Data.xcdatamodeld/.xccurrentversion",
        "dummy/AlreadySynced/Core Data.xcdatamodeld/Core Data.xcdatamodel/contents",
        "dummy/AlreadySynced/Core Data.xcdatamodeld/Core Data 2.xcdatamodel/contents",
        "dummy/AlreadySynced/Core Data.xcdatamodeld/Core Data 3.xcdatamodel/contents",
        "dummy/AlreadySynced/Core Data.xcdatamodeld/Core Data 4.xcdatamodel/contents",
        "dummy/AlreadySynced/FolderNotInXcodeProj/AnotherFileNotInXcodeProj.h",
        "dummy/AlreadySynced/NSObject+abc.h",
        "dummy/AlreadySynced/NSObject+abc.m",
        "dummy/AlreadySynced/Woot.h",
        "dummy/AlreadySynced/Woot.m",
        "dummy/AlreadySynced/stuff.xml",
        "dummy/GroupThatDoubleReferencesFile/ManyFiles.h",
        "dummy/GroupThatDoubleReferencesFile/ManyFiles.m",
        "dummy/Supporting Files/dummy-Prefix.pch",
        "dummy/Supporting Files/en.lproj/Localizable.strings",
        "dummy/Supporting Files/de.lproj/Localizable.strings",
        "dummy/dummy.h",
        "dummy/dummy.m",
        "dummy/FileNotInXcodeProj.h",
        "dummy/SuchGroup/Wow.h",
        "dummy/SuchGroup/Wow.m",
        "dummy/SuchGroup/VeryChildGroup/Wowwww.h",
        "dummy/SuchGroup/VeryChildGroup/Wowwww.m",
        "dummyTests/Other Files/en.lproj/InfoPlist.strings",
        "dummyTests/Supporting Files/dummyTests-prefix.pch",
        "dummyTests/Supporting Files/dummyTests-Info.plist",
        "dummyTests/dummyTests.m",
        "dummy.xcodeproj/project.pbxproj",
        "dummy.xcodeproj/project.xcworkspace/contents.xcworkspacedata",
        "dummy.xcodeproj/xcuserdata/marklarsen.xcuserdatad/xcschemes/dummy.xcscheme",
        "dummy.xcodeproj/xcuserdata/marklarsen.xcuserdatad/xcschemes/xcschememanagement.plist",
    ]

    /// Where Slipway differs from synx, on purpose:
    /// - `Wowwww.h`/`.m` are `SOURCE_ROOT`-relative references: issue #4 says those do not move
    ///   (synx moved them into `SuchGroup/VeryChildGroup`); their paths stay valid.
    /// - `FolderWithGroupNotLinked/data.json`: the project refers to `FolderWithGroupNotLinked/`
    ///   but the repository has `folderWithGroupNotLinked/`. synx ran on macOS's case-insensitive
    ///   disk, where the two are one folder, and recreated it with the group's spelling. On a
    ///   case-sensitive disk the reference does not resolve, so Slipway leaves the file where it
    ///   is, reports the reference as missing, and points it at the group's new folder as before.
    ///   On a case-insensitive disk Slipway finds the file and, since the paths differ only in
    ///   case, treats it as already in place (the folder keeps its spelling on disk).
    static let slipwayDifferences: [String: String?] = [
        "dummy/SuchGroup/VeryChildGroup/Wowwww.h": "dummy/AlreadySynced/FolderNotInXcodeProj/Wowwww.h",
        "dummy/SuchGroup/VeryChildGroup/Wowwww.m": "dummy/AlreadySynced/FolderNotInXcodeProj/Wowwww.m",
        "dummy/FolderWithGroupNotLinked/data.json": "dummy/folderWithGroupNotLinked/data.json",
    ]

    static var expectedLayout: Set<String> {
        var layout = synxLayout
        for (synx, slipway) in slipwayDifferences {
            layout.remove(synx)
            if let slipway { layout.insert(slipway) }
        }
        return layout
    }

    private func fixture(git: Bool = true) throws -> CorpusTree? {
        guard let entries = try CorpusTree.entries(for: "synx fixture"), let entry = entries.first(where: { $0.baseName == Self.base })
        else { return nil }
        return try CorpusTree(entry, git: git)
    }

    /// Files (not folders) under the project folder, without `.git`.
    private func files(_ tree: CorpusTree) -> Set<String> {
        Set(TreeSnapshot(tree.root).entries.keys.filter { !$0.hasSuffix("/") })
    }

    private func folders(_ tree: CorpusTree) -> Set<String> {
        Set(TreeSnapshot(tree.root).entries.keys.filter { $0.hasSuffix("/") }.map { String($0.dropLast()) })
    }

    @Test("the layout matches synx's documented result, except where Slipway differs on purpose")
    func layout() throws {
        guard let tree = try fixture() else { return }
        let report = try ProjectSync(fileSystem: LocalFileSystem(), environment: Environment()).run(tree.projectPath, options: SyncOptions(foldersFrom: .names), mode: .apply)
        #expect(report.plan.conflicts.isEmpty)
        #expect(files(tree) == Self.expectedLayout, "\(files(tree).symmetricDifference(Self.expectedLayout))")
        // synx's spec counts every folder's entries: no folder the moves emptied is left behind.
        let expectedFolders = Set(Self.expectedLayout.flatMap { path in
            var result: [String] = []
            var current = (path as NSString).deletingLastPathComponent
            while !current.isEmpty { result.append(current); current = (current as NSString).deletingLastPathComponent }
            return result
        })
        #expect(folders(tree) == expectedFolders, "\(folders(tree).symmetricDifference(expectedFolders))")
        #expect(report.plan.unmoved.contains(UnmovedReference(path: "dummy/FolderWithGroupNotLinked/data.json", reason: .missing)))
        #expect(report.plan.multiReferenced.map(\.path).sorted() == [
            "dummy/GroupThatDoubleReferencesFile/ManyFiles.h", "dummy/GroupThatDoubleReferencesFile/ManyFiles.m",
        ])
    }

    @Test("the prefix header and Info.plist settings follow their files, as synx's spec expects")
    func buildSettings() throws {
        guard let tree = try fixture(git: false) else { return }
        _ = try ProjectSync(fileSystem: LocalFileSystem(), environment: Environment()).run(tree.projectPath, options: SyncOptions(useGit: false, foldersFrom: .names), mode: .apply)
        let project = try PBXProject(contentsOf: tree.projectPath)
        for configuration in project.buildConfigurations(of: try #require(project.target(named: "dummy")).id) {
            #expect(configuration.buildSettings["GCC_PREFIX_HEADER"]?.string == "dummy/Supporting Files/dummy-Prefix.pch")
            #expect(configuration.buildSettings["INFOPLIST_FILE"] == nil)
        }
        for configuration in project.buildConfigurations(of: try #require(project.target(named: "dummyTests")).id) {
            // Already this value before the sync: synx's case-insensitive disk made it match
            // `dummyTests-prefix.pch`; on a case-sensitive disk it names no file, before or after.
            #expect(configuration.buildSettings["GCC_PREFIX_HEADER"]?.string == "dummyTests/Supporting Files/dummyTests-Prefix.pch")
            #expect(configuration.buildSettings["INFOPLIST_FILE"]?.string == "dummyTests/Supporting Files/dummyTests-Info.plist")
        }
    }

    @Test("the group structure is unchanged: same children (reordered by name), double references kept")
    func groupStructure() throws {
        guard let tree = try fixture(git: false) else { return }
        let before = try PBXProject(contentsOf: tree.projectPath)
        _ = try ProjectSync(fileSystem: LocalFileSystem(), environment: Environment()).run(tree.projectPath, options: SyncOptions(useGit: false, foldersFrom: .names), mode: .apply)
        let after = try PBXProject(contentsOf: tree.projectPath)
        for group in before.groups {
            #expect(Set(after.fileElement(group.id)?.children ?? []) == Set(group.children), "\(group.displayName ?? "")")
        }
    }

    @Test("--prune removes exactly the files synx's spec expects it to remove")
    func prune() throws {
        guard let tree = try fixture() else { return }
        let report = try ProjectSync(fileSystem: LocalFileSystem(), environment: Environment())
            .run(tree.projectPath, options: SyncOptions(prune: true, foldersFrom: .names), mode: .apply)
        let removed: Set<String> = [
            "dummy/image-not-in-xcodeproj.png", "dummy/FileNotInXcodeProj.h", "dummy/AlreadySynced/FolderNotInXcodeProj/AnotherFileNotInXcodeProj.h",
        ]
        #expect(Set(report.plan.pruned) == removed)
        #expect(files(tree) == Self.expectedLayout.subtracting(removed))
        #expect(try porcelainStatus(tree.root).filter { $0.hasPrefix("D ") }.count == 3)
        #expect(!FileManager.default.fileExists(atPath: tree.projectPath + "/" + SyncJournal.trashFolderName))
    }

    @Test("exclusions: an excluded group stays; one naming no group is refused before anything moves")
    func exclusions() throws {
        guard let tree = try fixture() else { return }
        let sync = ProjectSync(fileSystem: LocalFileSystem(), environment: Environment())
        let before = TreeSnapshot(tree.root)
        do {
            _ = try sync.run(tree.projectPath, options: SyncOptions(exclusions: ["/dummy/DoesntExist"], foldersFrom: .names), mode: .apply)
            Issue.record("an unknown group was accepted")
        } catch SyncError.unknownGroups(let names, _) {
            #expect(names == ["/dummy/DoesntExist"])
        }
        #expect(TreeSnapshot(tree.root) == before)
        let report = try sync.run(tree.projectPath, options: SyncOptions(exclusions: ["dummy/SuchGroup"], foldersFrom: .names), mode: .apply)
        #expect(!report.plan.moves.contains { $0.source.hasPrefix("dummy/Wow") })
        #expect(FileManager.default.fileExists(atPath: tree.root + "/dummy/Wow.h"))
    }

    @Test("through the binary: --check exits 1, sync exits 0 and git shows renames, --check then exits 0")
    func binary() throws {
        guard let tree = try fixture() else { return }
        let check = try CommandResult.run(Binaries.slipway, ["sync", tree.projectPath, "--check", "--folders-from", "names"])
        #expect(check.status == 1, "\(check.standardError)")
        #expect(check.standardOutput.contains("dummy/image.png → dummy/Resources/image.png"))
        let sync = try CommandResult.run(Binaries.slipway, ["sync", tree.projectPath, "--no-color", "--folders-from", "names"])
        #expect(sync.status == 0, "\(sync.standardError)")
        #expect(sync.standardOutput.contains("Synced: 13 move(s)"), "\(sync.standardOutput)")
        let status = try porcelainStatus(tree.root)
        #expect(status.contains("R  dummy/image.png -> dummy/Resources/image.png"), "\(status)")
        #expect(status.allSatisfy { $0.hasPrefix("R  ") || $0 == "M  dummy.xcodeproj/project.pbxproj" }, "\(status)")
        let after = try CommandResult.run(Binaries.slipway, ["sync", tree.projectPath, "--check", "--folders-from", "names"])
        #expect(after.status == 0, "\(after.standardOutput)")
        let json = try CommandResult.run(Binaries.slipway, ["sync", tree.projectPath, "--dry-run", "--json", "--folders-from", "names"])
        let object = try JSONSerialization.jsonObject(with: Data(json.standardOutput.utf8)) as? [String: Any]
        #expect(object?["mode"] as? String == "dry-run")
    }
}
