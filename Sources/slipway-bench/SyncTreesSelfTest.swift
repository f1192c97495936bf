import Foundation

/// `slipway-bench sync-trees --self-test`: the checker on a small tree, with a pretend sync that
/// breaks exactly what issue #38 describes, to show that it counts what it should, and does not
/// count a reference that was rewritten.
enum SyncTreesSelfTest {
    static let files: [String: String] = [
        ".github/workflows/ci.yml": "jobs:\n  build:\n    steps:\n      - run: ./scripts/build.sh\n",
        ".swiftlint.yml": "excluded:\n  - App/Generated\n",
        "scripts/build.sh": "#!/bin/sh\n# builds\nswiftgen config run --config swiftgen.yml\n",
        "swiftgen.yml": "strings:\n  inputs: App/en.lproj/Localizable.strings\n  outputs:\n    output: App/Generated/Strings.swift\n",
        "Config/Base.xcconfig": "INFOPLIST_FILE = App/Info.plist\nGCC_PREFIX_HEADER = App/Prefix.pch\nPRODUCT_NAME = App\n",
        "App/Info.plist": "<plist/>\n",
        "App/Prefix.pch": "// prefix\n",
        "App/main.swift": "print(1)\n",
        "App/en.lproj/Localizable.strings": "\"a\" = \"b\";\n",
        "App/Generated/Strings.swift": "// generated\n",
        "Kit/Package.swift": "let package = Package(name: \"Kit\", targets: [\n  .target(name: \"Kit\", path: \"Sources\",\n    exclude: [\"Notes.md\"],\n    publicHeadersPath: \"include\")\n])\n",
        "Kit/Sources/include/A.h": "// A\n",
        "Kit/Sources/include/B.h": "// B\n",
        "Kit/Sources/include/C.h": "// C\n",
        "Kit/Sources/Notes.md": "notes\n",
        "Kit/Sources/k.m": "// k\n",
        "App.xcodeproj/project.pbxproj": """
            // !$*UTF8*$!
            {
            \tarchiveVersion = 1;
            \tclasses = {
            \t};
            \tobjectVersion = 56;
            \tobjects = {
            \t\tAAAAAAAAAAAAAAAAAAAAAA01 /* Project object */ = {isa = PBXProject; buildConfigurationList = AAAAAAAAAAAAAAAAAAAAAA05; mainGroup = AAAAAAAAAAAAAAAAAAAAAA02; targets = (); };
            \t\tAAAAAAAAAAAAAAAAAAAAAA02 = {isa = PBXGroup; children = (AAAAAAAAAAAAAAAAAAAAAA03, ); sourceTree = "<group>"; };
            \t\tAAAAAAAAAAAAAAAAAAAAAA03 /* App */ = {isa = PBXGroup; children = (AAAAAAAAAAAAAAAAAAAAAA04, ); path = App; sourceTree = "<group>"; };
            \t\tAAAAAAAAAAAAAAAAAAAAAA04 /* main.swift */ = {isa = PBXFileReference; lastKnownFileType = sourcecode.swift; path = main.swift; sourceTree = "<group>"; };
            \t\tAAAAAAAAAAAAAAAAAAAAAA05 = {isa = XCConfigurationList; buildConfigurations = (AAAAAAAAAAAAAAAAAAAAAA06, ); };
            \t\tAAAAAAAAAAAAAAAAAAAAAA06 /* Debug */ = {isa = XCBuildConfiguration; buildSettings = {HEADER_SEARCH_PATHS = "$(SRCROOT)/Kit/Sources/include"; }; name = Debug; };
            \t};
            \trootObject = AAAAAAAAAAAAAAAAAAAAAA01;
            }

            """,
    ]

    static func run() throws {
        let root = NSTemporaryDirectory() + "slipway-bench-sync-trees-self-test-\(getpid())"
        let manager = FileManager.default
        defer { try? manager.removeItem(atPath: root) }
        for (path, text) in files {
            try manager.createDirectory(atPath: root + "/" + (path as NSString).deletingLastPathComponent, withIntermediateDirectories: true)
            try Data(text.utf8).write(to: URL(fileURLWithPath: root + "/" + path))
        }
        let before = SyncTreesSnapshot.take(root: root)
        var problems: [String] = []
        func expect(_ condition: Bool, _ what: String) { if !condition { problems.append(what) } }
        let named = Set(before.named.map(\.path))
        for path in ["App/Info.plist", "App/Prefix.pch", "swiftgen.yml", "scripts/build.sh", "App/Generated", "Kit/Sources/include",
                     "App/en.lproj/Localizable.strings", "Kit/Sources/Notes.md", ".github/workflows/ci.yml", "Kit/Sources"] {
            expect(named.contains(path), "'\(path)' should be named before the sync")
        }
        expect(before.references["App.xcodeproj"]?["AAAAAAAAAAAAAAAAAAAAAA04"] == "App/main.swift", "main.swift's reference should resolve")

        // The pretend sync: what #38 saw, plus one move done right.
        let moves: [(String, String)] = [
            ("App/Info.plist", "Support/Info.plist"),        // the xcconfig still names App/Info.plist: 1 gone
            ("App/Prefix.pch", "Support/Prefix.pch"),        // the xcconfig is rewritten below: not a break
            ("swiftgen.yml", "Resources/swiftgen.yml"),      // found by place and named by build.sh: 1 gone
            ("Kit/Sources/include/A.h", "Headers/A.h"),      // out of publicHeadersPath, the target and the package: 1 file
            ("App/main.swift", "Sources/main.swift"),        // the pbxproj is not updated: 1 reference unresolved
        ]
        for (source, destination) in moves {
            try manager.createDirectory(atPath: root + "/" + (destination as NSString).deletingLastPathComponent, withIntermediateDirectories: true)
            try manager.moveItem(atPath: root + "/" + source, toPath: root + "/" + destination)
        }
        try Data("INFOPLIST_FILE = App/Info.plist\nGCC_PREFIX_HEADER = Support/Prefix.pch\nPRODUCT_NAME = App\n".utf8)
            .write(to: URL(fileURLWithPath: root + "/Config/Base.xcconfig"))
        let after = SyncTreesSnapshot.take(root: root)
        let breaks = SyncTreesBreaks.compare(before: before, after: after, moves: SyncTreesMoves(moves: moves.map { ($0.0, $0.1) }), root: root)
        let gone = Set(breaks.vanished.map(\.path))
        expect(gone == ["App/Info.plist", "swiftgen.yml"],
               "gone should be App/Info.plist and swiftgen.yml, is \(gone.sorted())")
        expect(!gone.contains("App/Prefix.pch"), "a rewritten xcconfig setting is not a break")
        expect(breaks.filesLeft == 1 && breaks.leftFolders.allSatisfy { $0.file == "Kit/Sources/include/A.h" },
               "one file (A.h) should have left its named folders, found \(breaks.leftFolders.map(\.file))")
        expect(Set(breaks.leftFolders.map(\.folder)) == ["Kit", "Kit/Sources", "Kit/Sources/include"],
               "A.h left the package, its target and publicHeadersPath, found \(Set(breaks.leftFolders.map(\.folder)).sorted())")
        expect(breaks.unresolvedReferences == ["App.xcodeproj AAAAAAAAAAAAAAAAAAAAAA04 App/main.swift"],
               "main.swift's reference should no longer resolve, found \(breaks.unresolvedReferences)")
        let lost = SyncTreesBreaks.lost(before: [("1", "a.swift"), ("2", "b.swift"), ("3", "App.xcodeproj/project.pbxproj")],
                                        after: [("1", "moved/a.swift"), ("4", "App.xcodeproj/project.pbxproj")])
        expect(lost == ["b.swift"], "a file whose content is gone is lost (the pbxproj is rewritten), found \(lost)")

        // And nothing is counted when nothing moved.
        let unchanged = SyncTreesBreaks.compare(before: after, after: SyncTreesSnapshot.take(root: root), moves: SyncTreesMoves(), root: root)
        expect(unchanged.total == 0, "an untouched tree has no breaks, found \(unchanged.total)")

        guard problems.isEmpty else { throw BenchError("self-test failed:\n  " + problems.joined(separator: "\n  ")) }
        print("sync-trees self-test passed: \(breaks.vanishedPaths) path(s) gone (\(gone.sorted().joined(separator: ", "))), "
              + "\(breaks.filesLeft) file out of named folders, \(breaks.unresolvedReferences.count) reference unresolved, 1 lost; rewritten setting not counted")
    }
}
