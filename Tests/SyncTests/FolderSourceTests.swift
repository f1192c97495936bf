import Basics
import Foundation
import PBXProj
import Steps
import Sync
import Testing
import TestSupport
import TestThreads

/// `--folders-from`: a group with both a display name and a path keeps its path's folder by
/// default (Xcode's tie); `--folders-from names` gives synx's layout.
@Suite("Sync folders from paths or names", .dedicatedThreads)
struct FolderSourceTests {
    /// A tidy app whose groups show other names than their folders'.
    static var tidy: MiniProject { MiniProject(children: [.group("My App", path: "MyApp", [
        .file("AppDelegate.swift"),
        .file("Support/Info.plist", type: "text.plist.xml"),
        .group("Screens and Views", path: "Views", [.file("Home.swift"), .file("Parts/Header.swift")]),
    ])]) }
    static let tidyFiles = ["MyApp/AppDelegate.swift", "MyApp/Support/Info.plist", "MyApp/Views/Home.swift", "MyApp/Views/Parts/Header.swift"]

    private func planner() -> SyncPlannerTests { SyncPlannerTests() }

    @Test("groups with a name and a path, already tidy: nothing moves and no path or name changes")
    func tidyProjectStays() throws {
        let plan = try Self.tidy.plan(files: Self.tidyFiles)
        #expect(plan.moves.isEmpty, "\(plan.moveList)")
        #expect(plan.edits.filter { $0.key != .children }.isEmpty, "\(plan.edits)")
        #expect(plan.conflicts.isEmpty && plan.unmoved.isEmpty)
    }

    @Test("--folders-from names keeps synx's layout: folders named after the display names, files straight in them")
    func namesGiveSynxLayout() throws {
        let plan = try Self.tidy.plan(files: Self.tidyFiles, options: SyncOptions(foldersFrom: .names))
        #expect(Set(plan.moveList) == [
            "MyApp/AppDelegate.swift → My App/AppDelegate.swift", "MyApp/Support/Info.plist → My App/Info.plist",
            "MyApp/Views/Home.swift → My App/Screens and Views/Home.swift",
            "MyApp/Views/Parts/Header.swift → My App/Screens and Views/Header.swift",
        ])
        #expect(plan.edit(.path, of: "My App")?.newValue == "My App")
        try planner().expectSecondPlanEmpty(Self.tidy, files: Self.tidyFiles, plan: plan, options: SyncOptions(foldersFrom: .names))
    }

    @Test("a file outside its group's folder moves into the group's path folder, not a folder named after the display name")
    func strayFileGoesToPathFolder() throws {
        let mini = MiniProject(children: [.group("My App", path: "MyApp", [.file("AppDelegate.swift"), .file("../Stray.swift")])])
        let files = ["MyApp/AppDelegate.swift", "Stray.swift"]
        let plan = try mini.plan(files: files)
        #expect(plan.moveList == ["Stray.swift → MyApp/Stray.swift"])
        #expect(plan.edit(.path, of: "Stray.swift")?.newValue == "Stray.swift")
        #expect(plan.edit(.path, of: "My App") == nil && plan.edit(.name, of: "My App") == nil)
        try planner().expectSecondPlanEmpty(mini, files: files, plan: plan)
    }

    @Test("a group with only a name gets a folder named after it; a group with a path below it keeps its folder, and only its path changes")
    func nameOnlyGroupGetsFolder() throws {
        let mini = MiniProject(children: [
            .group("Features", [.file("Stray.swift"), .group("Login Screen", path: "Login", [.file("LoginView.swift")])]),
            .group("Resources", [.group(nil, path: "Resources/Certificates", [.file("root.cer", type: "file")])]),
        ])
        let files = ["Stray.swift", "Login/LoginView.swift", "Resources/Certificates/root.cer"]
        let plan = try mini.plan(files: files)
        #expect(plan.moveList == ["Stray.swift → Features/Stray.swift"])
        #expect(plan.edit(.path, of: "Features")?.newValue == "Features")
        #expect(plan.edit(.path, of: "Login Screen")?.newValue == "../Login", "the group keeps its folder")
        #expect(plan.edit(.name, of: "Login Screen") == nil)
        #expect(plan.edit(.path, of: "Certificates")?.newValue == "Certificates", "the same folder, now below its parent's")
        #expect(plan.edit(.path, of: "LoginView.swift") == nil && plan.edit(.path, of: "root.cer") == nil)
        try planner().expectSecondPlanEmpty(mini, files: files, plan: plan)
    }

    @Test("a display name with a '/' is no conflict when the group has a path; with --folders-from names it is")
    func slashInDisplayName() throws {
        let mini = MiniProject(children: [.group("Header / Footer", path: "Chrome", [.file("Header.swift")])])
        let files = ["Chrome/Header.swift"]
        let plan = try mini.plan(files: files)
        #expect(plan.conflicts.isEmpty && plan.moves.isEmpty)
        let names = try mini.plan(files: files, options: SyncOptions(foldersFrom: .names))
        #expect(names.conflicts.map(\.message) == [
            "the group's name has a '/', which cannot be a folder name; rename the group (or exclude it with --exclude)",
        ])
    }

    @Test("a group whose path climbs out with '..' keeps the folder it names; its files stay")
    func pathClimbingOut() throws {
        let mini = MiniProject(children: [.group(nil, path: "App", [.group("Shared Code", path: "../Shared", [.file("Util.swift")])])])
        let files = ["App/Main.swift", "Shared/Util.swift"]
        let plan = try mini.plan(files: files)
        #expect(plan.moves.isEmpty, "\(plan.moveList)")
        #expect(plan.edits.filter { $0.key != .children }.isEmpty, "\(plan.edits)")
    }

    @Test("the sync step takes folders-from; any other value is refused naming the option")
    func stepOption() throws {
        let names = try SyncStep(options: StepOptions(["project": .string("App.xcodeproj"), "folders-from": .string("names")], for: SyncStep.description))
        #expect(names.options.foldersFrom == .names)
        let standard = try SyncStep(options: StepOptions(["project": .string("App.xcodeproj")], for: SyncStep.description))
        #expect(standard.options.foldersFrom == .paths)
        #expect(throws: StepError.invalidOption(name: "folders-from", problem: "must be 'paths' or 'names', not 'display'")) {
            try SyncStep(options: StepOptions(["project": .string("App.xcodeproj"), "folders-from": .string("display")], for: SyncStep.description))
        }
        #expect(standard.options.groupsWithoutPath == .virtual, "name-only groups stay virtual by default")
        let folder = try SyncStep(options: StepOptions(["project": .string("App.xcodeproj"), "groups-without-path": .string("folder")], for: SyncStep.description))
        #expect(folder.options.groupsWithoutPath == .folder)
    }

    @Test("through the binary: --folders-from names moves to display-name folders, the default keeps path folders, --help teaches it, bad values are refused")
    func binary() throws {
        let directory = try TemporaryDirectory(prefix: "sync-folders-from")
        let root = directory.path
        for file in Self.tidyFiles { try CorpusTree.write(root + "/" + file, contents: file) }
        try FileManager.default.createDirectory(atPath: root + "/App.xcodeproj", withIntermediateDirectories: true)
        try Data(Self.tidy.text().utf8).write(to: URL(fileURLWithPath: root + "/App.xcodeproj/project.pbxproj"))
        let before = try Snapshot.of(root)

        let check = try CommandResult.run(Binaries.slipway, ["sync", root + "/App.xcodeproj", "--check", "--no-git", "--no-sort-by-name"])
        #expect(check.status == 0, "\(check.standardOutput)\(check.standardError)")
        #expect(check.standardOutput.contains("the folders already match the groups"), "\(check.standardOutput)")

        let names = try CommandResult.run(Binaries.slipway, ["sync", root + "/App.xcodeproj", "--check", "--no-git", "--folders-from", "names"])
        #expect(names.status == 1)
        #expect(names.standardOutput.contains("MyApp/Views/Home.swift → My App/Screens and Views/Home.swift"), "\(names.standardOutput)")

        let bad = try CommandResult.run(Binaries.slipway, ["sync", root + "/App.xcodeproj", "--folders-from", "display"])
        #expect(bad.status == 64)
        #expect(bad.standardError.contains("The value 'display' is invalid for '--folders-from <paths|names>'"), "\(bad.standardError)")

        let both = try CommandResult.run(Binaries.slipway, ["sync", root + "/App.xcodeproj", "--folders-from", "names", "--groups-without-path", "virtual"])
        #expect(both.status == 64)
        #expect(both.standardError.contains("--groups-without-path applies to --folders-from paths"), "\(both.standardError)")
        let virtual = try CommandResult.run(Binaries.slipway, ["sync", root + "/App.xcodeproj", "--check", "--no-git", "--no-sort-by-name", "--groups-without-path", "virtual"])
        #expect(virtual.status == 0, "\(virtual.standardOutput)\(virtual.standardError)")

        let recover = try CommandResult.run(Binaries.slipway, ["sync", root + "/App.xcodeproj", "--recover", "--folders-from", "names"])
        #expect(recover.status == 64)
        #expect(recover.standardError.contains("--recover takes no other sync options"), "\(recover.standardError)")
        #expect(try Snapshot.of(root) == before, "nothing changed on disk")

        let help = try CommandResult.run(Binaries.slipway, ["sync", "--help"])
        #expect(help.standardOutput.contains("--folders-from <paths|names>"), "\(help.standardOutput)")
        #expect(help.standardOutput.contains("'--folders-from names' gives synx's layout instead"), "\(help.standardOutput)")
        #expect(help.standardOutput.contains("--groups-without-path <folder|virtual>"), "\(help.standardOutput)")
    }
}
