import Basics
import PBXProj
import Sync
import Testing
import TestThreads

/// The planner as a pure function: hand-made projects against listings that exist only in memory.
@Suite("Sync planner", .dedicatedThreads)
struct SyncPlannerTests {
    @Test("a group without a folder gets one, and its files move into it")
    func groupsGetFolders() throws {
        let mini = MiniProject(children: [.group(nil, path: "App", [.group("Models", [.file("User.swift")])])])
        let plan = try mini.plan(files: ["App/User.swift"])
        #expect(plan.moveList == ["App/User.swift → App/Models/User.swift"])
        #expect(plan.edit(.path, of: "Models")?.newValue == "Models")
        #expect(plan.edit(.name, of: "Models")?.newValue == nil && plan.edit(.name, of: "Models") != nil)
        #expect(plan.conflicts.isEmpty)
        try expectSecondPlanEmpty(mini, files: ["App/User.swift"], plan: plan)
    }

    @Test("localized files move with their .lproj folder and keep their names (Base .strings stay .strings)")
    func localizedVariants() throws {
        let mini = MiniProject(children: [.group(nil, path: "App", [.group("Resources", [
            .variant("Localizable.strings", [.file("Base.lproj/Localizable.strings", name: "Base"), .file("de.lproj/Localizable.strings", name: "de")]),
        ])])])
        let files = ["App/Base.lproj/Localizable.strings", "App/de.lproj/Localizable.strings"]
        let plan = try mini.plan(files: files)
        #expect(Set(plan.moveList) == [
            "App/Base.lproj/Localizable.strings → App/Resources/Base.lproj/Localizable.strings",
            "App/de.lproj/Localizable.strings → App/Resources/de.lproj/Localizable.strings",
        ])
        #expect(plan.edits.allSatisfy { $0.key != .path || $0.subject == "Resources" }, "the variants' paths still resolve")
        try expectSecondPlanEmpty(mini, files: files, plan: plan)
    }

    @Test("model versions, bundles and frameworks move whole; asset catalogs and folder references (folder, folder.*) stay")
    func bundlesMoveWhole() throws {
        let mini = MiniProject(children: [.group("Resources", [
            .file("Assets.xcassets", type: "folder.assetcatalog"),
            .file("Fixtures", type: "folder"),
            .version("Model.xcdatamodeld", [.file("Model.xcdatamodel", type: "wrapper.xcdatamodel")]),
            .file("Settings.bundle", type: "wrapper.plug-in"),
            .file("Vendor.framework", type: "wrapper.framework"),
        ])])
        let files = [
            "Assets.xcassets/Contents.json", "Assets.xcassets/AppIcon.appiconset/Contents.json", "Fixtures/a.json",
            "Model.xcdatamodeld/.xccurrentversion", "Model.xcdatamodeld/Model.xcdatamodel/contents",
            "Settings.bundle/Root.plist", "Vendor.framework/Vendor",
        ]
        let plan = try mini.plan(files: files)
        #expect(Set(plan.moveList) == [
            "Model.xcdatamodeld → Resources/Model.xcdatamodeld", "Settings.bundle → Resources/Settings.bundle",
            "Vendor.framework → Resources/Vendor.framework",
        ])
        #expect(plan.unmoved == [
            UnmovedReference(path: "Assets.xcassets", reason: .folderReference), UnmovedReference(path: "Fixtures", reason: .folderReference),
        ])
        #expect(plan.edit(.path, of: "Model.xcdatamodel") == nil, "a model version's path is relative to its model")
        try expectSecondPlanEmpty(mini, files: files, plan: plan)
    }

    @Test("a synchronized folder stays where it is; its exception sets are untouched, its path follows its group's new folder")
    func synchronizedFolders() throws {
        let mini = MiniProject(children: [.group("Features", [.synchronized("Login", exceptions: ["Info.plist"])])])
        let files = ["Login/Info.plist", "Login/LoginView.swift", "Login/Deep/Nested.swift"]
        let plan = try mini.plan(files: files)
        #expect(plan.moves.isEmpty, "\(plan.moveList)")
        #expect(plan.unmoved == [UnmovedReference(path: "Login", reason: .synchronizedFolder)])
        let project = try mini.project()
        let exceptionIDs = Set(project.synchronizedRootGroups.flatMap(\.exceptions).map(\.rawValue))
        #expect(!plan.edits.contains { exceptionIDs.contains($0.object) })
        #expect(plan.edit(.path, of: "Login")?.newValue == "../Login", "it keeps pointing at its folder from the group's new one")
        try expectSecondPlanEmpty(mini, files: files, plan: plan)
    }

    @Test("SOURCE_ROOT, absolute, build-product, SDK and variable references and files outside the folder stay, and still resolve")
    func referencesThatStay() throws {
        let mini = MiniProject(children: [.group("Sources", [
            .file("Shared/Config.swift", sourceTree: "SOURCE_ROOT"),
            .file("/opt/include/x.h", sourceTree: "<absolute>"),
            .file("App.app", sourceTree: "BUILT_PRODUCTS_DIR"),
            .file("System/Library/Frameworks/UIKit.framework", sourceTree: "SDKROOT"),
            .file("Generated.swift", sourceTree: "DERIVED_FILE_DIR"),
            .file("../Outside.swift"),
            .file("Inside.swift"),
        ])])
        let files = ["Shared/Config.swift", "Inside.swift"]
        let plan = try mini.plan(files: files)
        #expect(plan.moveList == ["Inside.swift → Sources/Inside.swift"])
        #expect(plan.edit(.path, of: "Outside.swift")?.newValue == "../../Outside.swift")
        #expect(plan.unmoved.contains(UnmovedReference(path: "../Outside.swift", reason: .outsideProject)))
        for subject in ["Config.swift", "x.h", "App.app", "UIKit.framework", "Generated.swift"] {
            #expect(plan.edit(.path, of: subject) == nil, "\(subject)")
        }
    }

    @Test("a SOURCE_ROOT reference inside a moving bundle follows it")
    func sourceRootInsideMovedFolder() throws {
        let mini = MiniProject(children: [.group("Resources", [.file("Fixtures.bundle", type: "wrapper.plug-in")]),
                                          .file("Fixtures.bundle/seed.json", sourceTree: "SOURCE_ROOT")])
        let plan = try mini.plan(files: ["Fixtures.bundle/seed.json"])
        #expect(plan.moveList == ["Fixtures.bundle → Resources/Fixtures.bundle"])
        #expect(plan.edit(.path, of: "seed.json")?.newValue == "Resources/Fixtures.bundle/seed.json")
    }

    @Test("a file listed by two groups goes where the first one (after sorting) puts it; the other keeps a valid path")
    func multiReferenced() throws {
        let mini = MiniProject(children: [.group(nil, path: "App", [
            .group("Zeta", [.file("Shared.swift", label: "shared")]),
            .group("Alpha", [.same("shared")]),
        ])])
        let plan = try mini.plan(files: ["App/Shared.swift"])
        #expect(plan.moveList == ["App/Shared.swift → App/Alpha/Shared.swift"])
        #expect(plan.multiReferenced.count == 1)
        #expect(plan.multiReferenced.first?.madeProjectRelative == true)
        #expect(plan.edit(.sourceTree, of: "Shared.swift")?.newValue == "SOURCE_ROOT")
        #expect(plan.edit(.path, of: "Shared.swift")?.newValue == "App/Alpha/Shared.swift")
        #expect(plan.edit(.name, of: "Shared.swift")?.newValue == "Shared.swift", "what Xcode shows stays the same")
        try expectSecondPlanEmpty(mini, files: ["App/Shared.swift"], plan: plan)
    }

    @Test("conflicts are all reported at once and nothing is planned to move past them")
    func conflicts() throws {
        let mini = MiniProject(children: [
            .group("Twice", [.file("a/Foo.swift"), .file("b/Foo.swift")]),
            .group("Slash/Name", [.file("c.swift")]),
            .group("Models", [.file("User.swift")]),
        ])
        let plan = try mini.plan(files: ["a/Foo.swift", "b/Foo.swift", "c.swift", "User.swift", "Models/User.swift"])
        let kinds = Set(plan.conflicts.map(\.kind))
        #expect(kinds == [.sameTarget, .groupNameWithSlash, .targetOccupied], "\(plan.conflicts)")
        #expect(plan.conflicts.first { $0.kind == .targetOccupied }?.path == "Models/User.swift")
    }

    @Test("two groups whose folders differ only in case clash on a case-insensitive disk, not on a case-sensitive one")
    func caseOnlyClash() throws {
        let mini = MiniProject(children: [.group("Views", [.file("A.swift")]), .group("views", [.file("B.swift")])])
        let insensitive = try mini.plan(files: ["A.swift", "B.swift"], caseSensitive: false)
        #expect(insensitive.conflicts.map(\.kind) == [.caseOnlyClash])
        let sensitive = try mini.plan(files: ["A.swift", "B.swift"], caseSensitive: true)
        #expect(sensitive.conflicts.isEmpty)
    }

    @Test("on a case-insensitive disk a folder whose name differs only in case is already in place (names from display names)")
    func caseInsensitiveInPlace() throws {
        let mini = MiniProject(children: [.group("Models", path: "models", [.file("User.swift")])])
        let names = SyncOptions(foldersFrom: .names)
        #expect(try mini.plan(files: ["models/User.swift"], caseSensitive: false, options: names).isEmpty)
        let sensitive = try mini.plan(files: ["models/User.swift"], caseSensitive: true, options: names)
        #expect(sensitive.moveList == ["models/User.swift → Models/User.swift"])
        #expect(try mini.plan(files: ["models/User.swift"], caseSensitive: true).isEmpty, "by default the group keeps its path's folder")
    }

    @Test("build settings naming moved files follow them, keeping a $(SRCROOT)/ prefix")
    func buildSettings() throws {
        var mini = MiniProject(children: [.group(nil, path: "App", [
            .group("Supporting Files", [.file("Info.plist"), .file("Prefix.pch")]), .file("App.entitlements"),
        ])])
        mini.settings = [
            "INFOPLIST_FILE": "App/Info.plist", "GCC_PREFIX_HEADER": "$(SRCROOT)/App/Prefix.pch",
            "CODE_SIGN_ENTITLEMENTS": "App/App.entitlements", "PRODUCT_NAME": "App/Info.plist",
        ]
        let plan = try mini.plan(files: ["App/Info.plist", "App/Prefix.pch", "App/App.entitlements"])
        let settings = Dictionary(uniqueKeysWithValues: plan.edits.filter { $0.key == .buildSetting }.map { ($0.setting ?? "", $0.newValue ?? "") })
        #expect(settings == ["INFOPLIST_FILE": "App/Supporting Files/Info.plist", "GCC_PREFIX_HEADER": "$(SRCROOT)/App/Supporting Files/Prefix.pch"])
    }

    @Test("Products, Frameworks, Pods and excluded groups stay; an exclusion naming no group is an error")
    func exclusions() throws {
        let mini = MiniProject(children: [
            .group("Frameworks", [.file("Vendor.framework", type: "wrapper.framework")]),
            .group("Pods", [.file("Pods.xcconfig")]),
            .group(nil, path: "App", [.group("Vendor", [.file("Lib.m")]), .group("Code", [.file("Main.swift")])]),
        ])
        let files = ["Vendor.framework/Vendor", "Pods.xcconfig", "App/Lib.m", "App/Main.swift"]
        let plan = try mini.plan(files: files, options: SyncOptions(exclusions: ["App/Vendor"], groupsWithoutPath: .folder))
        #expect(plan.moveList == ["App/Main.swift → App/Code/Main.swift"])
        let all = try mini.plan(files: files, options: SyncOptions(defaultExclusions: false, groupsWithoutPath: .folder))
        #expect(all.moveList.contains("Pods.xcconfig → Pods/Pods.xcconfig"))
        #expect(throws: SyncError.unknownGroups(names: ["/App/Vendr"], suggestions: ["/App/Vendr": "/App/Vendor"])) {
            try mini.plan(files: files, options: SyncOptions(exclusions: ["/App/Vendr"]))
        }
    }

    @Test("--groups-without-path virtual: a group with only a name gets no folder; its files stay anywhere inside its parent's folder, and only files outside it move")
    func virtualGroups() throws {
        let mini = MiniProject(children: [.group(nil, path: "App", [
            .group("Views", [.file("ListView.swift"), .file("../Stray.swift")]),
            .group("Models", [.file("Item.swift")]),
        ])])
        let files = ["App/ListView.swift", "App/Item.swift", "Stray.swift"]
        let folder = try mini.plan(files: files, options: SyncOptions(groupsWithoutPath: .folder))
        #expect(Set(folder.moveList) == ["App/ListView.swift → App/Views/ListView.swift", "Stray.swift → App/Views/Stray.swift", "App/Item.swift → App/Models/Item.swift"])
        let virtual = SyncOptions(groupsWithoutPath: .virtual)
        #expect(SyncOptions() == virtual, "virtual is the default")
        let plan = try mini.plan(files: files, options: SyncOptions())
        #expect(plan.moveList == ["Stray.swift → App/Stray.swift"])
        #expect(plan.edits.allSatisfy { $0.key != .path || $0.newValue != "Views" })
        try expectSecondPlanEmpty(mini, files: files, plan: plan, options: virtual)
    }

    @Test("a file a tool finds by its place (Package.swift, a podspec, Podfile.lock) never moves; it is listed as not moved")
    func toolManifestsStay() throws {
        let mini = MiniProject(children: [.group("Deployment", [.file("Tool/Package.swift"), .file("App.podspec"), .file("Podfile.lock"), .file("Notes.md")])])
        let plan = try mini.plan(files: ["Tool/Package.swift", "App.podspec", "Podfile.lock", "Notes.md"])
        #expect(plan.moveList == ["Notes.md → Deployment/Notes.md"])
        #expect(Set(plan.unmoved.filter { $0.reason == .toolManifest }.map(\.path)) == ["Tool/Package.swift", "App.podspec", "Podfile.lock"])
    }

    @Test("files nothing refers to go along when their group's folder moves, and are listed")
    func carriedAlong() throws {
        let mini = MiniProject(children: [.group("New", path: "Old", [.file("A.swift")])])
        let files = ["Old/A.swift", "Old/notes.txt", "Old/Sub/b.txt"]
        let names = SyncOptions(foldersFrom: .names)
        let plan = try mini.plan(files: files, options: names)
        #expect(plan.referenceMoves.map { "\($0.source) → \($0.destination)" } == ["Old/A.swift → New/A.swift"])
        #expect(Set(plan.carried.map { "\($0.source) → \($0.destination)" }) == ["Old/notes.txt → New/notes.txt", "Old/Sub → New/Sub"])
        #expect(plan.edit(.path, of: "New")?.newValue == "New")
        try expectSecondPlanEmpty(mini, files: files, plan: plan, options: names)
        #expect(try mini.plan(files: files).isEmpty, "by default the group keeps its path's folder")
    }

    @Test("--prune deletes only unreferenced source and image files in folders the project accounts for: not in a subfolder nothing refers to, nor where a Package.swift or another project owns the folder")
    func prune() throws {
        let mini = MiniProject(children: [.group(nil, path: "App", [
            .file("A.swift"), .file("Fixtures", type: "folder"), .synchronized("Feature"),
            .group("Vendor", path: "Vendor", [.file("Lib.m")]),
            .group(nil, path: "Server", [.file("main.swift")]),
            .group(nil, path: "Demo", [.file("Demo.swift")]),
        ])])
        let files = [
            "App/A.swift", "App/stray.swift", "App/logo.png", "App/notes.txt", "App/Fixtures/x.swift",
            "App/Feature/unlisted.swift", "App/Vendor/Lib.m", "App/Vendor/old.m", "App/Loose/deep.m",
            "App/__Snapshots__/ATests/testA.1.png", "App/Server/main.swift", "App/Server/Package.swift", "App/Server/Other.swift",
            "App/Demo/Demo.swift", "App/Demo/Demo.xcodeproj/project.pbxproj", "App/Demo/Helper.m", "README.md",
        ]
        let plan = try mini.plan(files: files, options: SyncOptions(prune: true, exclusions: ["/App/Vendor"], groupsWithoutPath: .folder))
        #expect(Set(plan.pruned) == ["App/stray.swift", "App/logo.png"])
        #expect(plan.moves.allSatisfy { $0.reason != .pruned || $0.destination.hasPrefix("App.xcodeproj/.slipway-sync-trash/") })
        #expect(try mini.plan(files: files).pruned.isEmpty, "nothing is deleted without --prune")
    }

    @Test("a relative symbolic link that would point elsewhere after the move is a conflict; an absolute one moves")
    func symbolicLinks() throws {
        let mini = MiniProject(children: [.group("Links", [.file("relative.swift"), .file("absolute.swift")])])
        let plan = try mini.plan(files: ["target.swift"], links: ["relative.swift": "target.swift", "absolute.swift": "/opt/target.swift"])
        #expect(plan.conflicts.map(\.kind) == [.symbolicLinkWouldBreak])
        #expect(plan.conflicts.first?.path == "relative.swift")
    }

    @Test("a symbolic link that stays, pointing at a file the sync moves, is a conflict (it would dangle)")
    func linkToMovedFile() throws {
        let mini = MiniProject(children: [.group("Core", [.file("Binder.swift")])])
        let plan = try mini.plan(files: ["Binder.swift", "Other/"], links: ["Other/Binder.swift": "../Binder.swift"])
        #expect(plan.moves.map(\.source) == ["Binder.swift"])
        #expect(plan.conflicts.map(\.kind) == [.symbolicLinkWouldBreak])
        #expect(plan.conflicts.first?.path == "Other/Binder.swift")
        #expect(plan.conflicts.first?.message == "this symbolic link points to '../Binder.swift', which the sync would move to 'Core/Binder.swift'; the link would dangle. Move the file and update the link by hand, or exclude its group (--exclude)")
    }

    @Test("sorting by name puts folders first and is only a children edit; --no-sort-by-name keeps the order")
    func sorting() throws {
        let mini = MiniProject(children: [.group(nil, path: "App", [.file("b.swift"), .group(nil, path: "Zed", []), .file("A.swift")])])
        let files = ["App/b.swift", "App/A.swift", "App/Zed/"]
        let plan = try mini.plan(files: files)
        #expect(plan.moves.isEmpty)
        #expect(plan.edits.map(\.key) == [.children])
        #expect(plan.edits.first?.newValue == "Zed, A.swift, b.swift")
        #expect(try mini.plan(files: files, options: SyncOptions(sortByName: false, groupsWithoutPath: .folder)).isEmpty)
    }

    @Test("a name equal to the new path is dropped")
    func namesEqualToPath() throws {
        let mini = MiniProject(children: [.group("Models", path: "Models", [.file("Sub/X.swift", name: "X.swift")])])
        let plan = try mini.plan(files: ["Models/Sub/X.swift"], options: SyncOptions(foldersFrom: .names))
        #expect(plan.moveList == ["Models/Sub/X.swift → Models/X.swift"])
        #expect(plan.edit(.name, of: "Models") != nil)
        #expect(plan.edit(.name, of: "X.swift")?.newValue == nil && plan.edit(.name, of: "X.swift") != nil)
        #expect(plan.edit(.path, of: "X.swift")?.newValue == "X.swift")
        #expect(try mini.plan(files: ["Models/Sub/X.swift"]).isEmpty, "by default a file inside its group's folder stays")
    }

    @Test("references missing from disk stay, keep pointing where they did, and are reported")
    func missingReferences() throws {
        let mini = MiniProject(children: [.group("Gone", [.file("Ghost.swift")])])
        let plan = try mini.plan(files: [])
        #expect(plan.moves.isEmpty)
        #expect(plan.unmoved == [UnmovedReference(path: "Ghost.swift", reason: .missing)])
        #expect(plan.edit(.path, of: "Ghost.swift")?.newValue == "../Ghost.swift")
    }

    /// Applies the plan to the listing and the project in memory and plans again: nothing left.
    func expectSecondPlanEmpty(_ mini: MiniProject, files: [String], plan: SyncPlan, options: SyncOptions = MiniProject.folderOptions) throws {
        var project = try mini.project()
        try plan.applyEdits(to: &project)
        let moved = files.map { file -> String in
            for move in plan.moves where file == move.source || file.hasPrefix(move.source + "/") {
                return move.destination + file.dropFirst(move.source.count)
            }
            return file
        }
        let edited = try PBXProject(bytes: try project.serialized(), projectName: "App")
        var entries = moved.map { DirectoryListing.Entry(path: $0, kind: .file) }
        entries.append(DirectoryListing.Entry(path: "App.xcodeproj/project.pbxproj", kind: .file))
        let listing = DirectoryListing(root: "/project", entries: entries)
        let second = try SyncPlanner.plan(project: edited, listing: listing, options: options, projectBundle: "App.xcodeproj")
        #expect(second.isEmpty, "second plan: \(second.moveList) \(second.edits.map(\.summary))")
    }
}

extension SyncPlannerTests {
    @Test("a localized file outside a variant group keeps its .lproj folder too")
    func localizedPlainReference() throws {
        let mini = MiniProject(children: [.group(nil, path: "App", [.group("Interface", [.file("Base.lproj/Main.storyboard")])])])
        let plan = try mini.plan(files: ["App/Base.lproj/Main.storyboard"])
        #expect(plan.moveList == ["App/Base.lproj/Main.storyboard → App/Interface/Base.lproj/Main.storyboard"])
        #expect(plan.edit(.path, of: "Main.storyboard") == nil, "'Base.lproj/Main.storyboard' still resolves")
        try expectSecondPlanEmpty(mini, files: ["App/Base.lproj/Main.storyboard"], plan: plan)
    }
}

extension SyncPlannerTests {
    @Test("a reference behind a symbolic link is reported as such, not as missing; a link leaving the project says so")
    func referencesBehindLinks() throws {
        let mini = MiniProject(children: [.group("App", [
            .file("Linked/File.swift"), .file("Up/Shared.swift"), .file("Inner/Other.swift"), .file("Real/Ghost.swift"),
        ])])
        let plan = try mini.plan(files: ["Sources/Other.swift", "Real/"],
                                 links: ["Linked": "/elsewhere", "Up": "../../shared", "Inner": "Sources"])
        #expect(plan.moves.isEmpty)
        #expect(Set(plan.unmoved) == [
            UnmovedReference(path: "Linked/File.swift", reason: .behindLinkOutsideProject, link: "Linked", linkDestination: "/elsewhere"),
            UnmovedReference(path: "Up/Shared.swift", reason: .behindLinkOutsideProject, link: "Up", linkDestination: "../../shared"),
            UnmovedReference(path: "Inner/Other.swift", reason: .behindSymbolicLink, link: "Inner", linkDestination: "Sources"),
            UnmovedReference(path: "Real/Ghost.swift", reason: .missing),
        ])
        let lines = SyncReport(project: "/project/App.xcodeproj", mode: .dryRun, plan: plan).lines()
        #expect(lines.contains("  Linked/File.swift (behind the symbolic link 'Linked' → '/elsewhere', which leads outside the project folder)"))
        #expect(lines.contains("  Inner/Other.swift (behind the symbolic link 'Inner' → 'Sources'; links are not followed)"))
        #expect(lines.contains("  Real/Ghost.swift (not on disk)"))
        #expect(!lines.contains { $0.contains("Linked/File.swift (not on disk)") })
    }
}
