import Basics
import Foundation
import ProjectLint
import TestSupport
import TestThreads
import Testing

/// Issue 38, point 5: lint on checked-out app trees gives no error or advice to delete where the
/// tree is sound: files of a synchronized folder are in the project, a setting's file that git
/// ignores is a note like a reference's, and a submodule not checked out is one note. A file
/// that is really missing stays an error.
@Suite("slipway xcodeproj lint on real trees", .dedicatedThreads)
struct XcodeprojLintRealTreeTests {
    /// A pbxproj with `objects` (one per line) before the root object, whose main group lists
    /// `mainChildren`, whose targets are `targets`, and whose project configurations Debug and
    /// Release have `debug` and `release` as their entries (settings and base configuration).
    static func pbxproj(objects: [String], mainChildren: [String], targets: [String] = [],
                        debug: String = "buildSettings = {};", release: String = "buildSettings = {};") -> String {
        """
        // !$*UTF8*$!
        {
        \tarchiveVersion = 1;
        \tclasses = {
        \t};
        \tobjectVersion = 77;
        \tobjects = {
        \(objects.map { "\t\t" + $0 + "\n" }.joined())\
        \t\tROOT = {isa = PBXProject; buildConfigurationList = LIST; mainGroup = MAIN; targets = (\(targets.joined(separator: ", "))); };
        \t\tMAIN = {isa = PBXGroup; children = (\(mainChildren.joined(separator: ", "))); sourceTree = "<group>"; };
        \t\tLIST = {isa = XCConfigurationList; buildConfigurations = (DEBUG, RELEASE); };
        \t\tDEBUG = {isa = XCBuildConfiguration; \(debug) name = Debug; };
        \t\tRELEASE = {isa = XCBuildConfiguration; \(release) name = Release; };
        \t};
        \trootObject = ROOT;
        }

        """
    }

    /// A folder holding `App.xcodeproj` with `text`, the empty `files`, and a lint configuration
    /// that leaves out the rules about the file's form.
    static func folder(_ text: String, files: [String]) throws -> TemporaryDirectory {
        let folder = try TemporaryDirectory(prefix: "slipway-lint-tree")
        try folder.write("App.xcodeproj/project.pbxproj", text)
        for file in files { try folder.write(file, "") }
        try folder.write(".slipway/lint.yml", "rules:\n  non-canonical-format: off\n  settings-in-project: off\n")
        return folder
    }

    static func lint(_ folder: TemporaryDirectory) async throws -> ProcessResult {
        try await Binaries.runSlipway(["xcodeproj", "lint", "App.xcodeproj"], in: folder.path)
    }

    /// The finding lines of a human report (without the file heading and the summary).
    static func findings(_ result: ProcessResult) -> [String] {
        result.outputText.split(separator: "\n").map(String.init).filter { $0.hasPrefix("  ") }
    }

    @Test func filesOfASynchronizedFolderAreInTheProjectAtAnyDepth() async throws {
        let text = Self.pbxproj(objects: [
            "S = {isa = PBXFileSystemSynchronizedRootGroup; exceptions = (X, Y); path = App; sourceTree = \"<group>\"; };",
            "X = {isa = PBXFileSystemSynchronizedBuildFileExceptionSet; membershipExceptions = (Info.plist, Nested/Skip.swift); target = T; };",
            "Y = {isa = PBXFileSystemSynchronizedGroupBuildPhaseMembershipExceptionSet; buildPhase = P; membershipExceptions = (Nested/Deep/Tool.swift); };",
            "G = {isa = PBXGroup; children = (A); path = App/Legacy; sourceTree = \"<group>\"; };",
            "A = {isa = PBXFileReference; lastKnownFileType = sourcecode.swift; path = Old.swift; sourceTree = \"<group>\"; };",
            "R = {isa = PBXFileReference; lastKnownFileType = sourcecode.swift; path = App/Nested/Shared.swift; sourceTree = \"<group>\"; };",
            "O = {isa = PBXGroup; children = (B, C); path = Other; sourceTree = \"<group>\"; };",
            "B = {isa = PBXFileReference; lastKnownFileType = sourcecode.swift; path = Kept.swift; sourceTree = \"<group>\"; };",
            "C = {isa = PBXFileReference; lastKnownFileType = sourcecode.swift; path = Stray.swift; sourceTree = \"<group>\"; };",
            "BA = {isa = PBXBuildFile; fileRef = A; };",
            "BB = {isa = PBXBuildFile; fileRef = B; };",
            "P = {isa = PBXSourcesBuildPhase; files = (BA, BB); };",
            "T = {isa = PBXNativeTarget; buildPhases = (P); fileSystemSynchronizedGroups = (S); name = App; productType = \"com.apple.product-type.application\"; };",
        ], mainChildren: ["S", "G", "R", "O"], targets: ["T"])
        let folder = try Self.folder(text, files: [
            "App/Main.swift", "App/Info.plist", "App/Nested/Skip.swift", "App/Nested/Shared.swift", "App/Nested/Deep/Tool.swift",
            "App/Legacy/Old.swift", "App/Legacy/New.swift", "App/Legacy/Art.png", "Other/Kept.swift", "Other/Stray.swift",
            "Other/Forgotten.swift",
        ])
        let before = try Snapshot.of(folder.path)
        let result = try await Self.lint(folder)
        #expect(result.status == .exited(0), "\(result.outputText)\(result.errorText)")
        #expect(Self.findings(result) == [
            "  16:3: warning: 'Stray.swift' is in no target; add it to one or remove it [source-in-no-target]",
            "  -: warning: 'Other/Forgotten.swift' is in the folder of a group but not in the project; add it or delete it [unreferenced-file]",
        ], "\(result.outputText)")
        #expect(result.outputText.hasSuffix("0 errors, 2 warnings, 0 notes in App.xcodeproj/project.pbxproj\n"))
        #expect(!result.outputText.contains("'App/"), "a file of the synchronized folder was reported: \(result.outputText)")
        #expect(try Snapshot.of(folder.path) == before, "lint changed the disk")
    }

    /// The files a target's settings name in a generated, git-ignored folder: the `.xcconfig` both
    /// configurations are based on (a reference), the Info.plist (a reference and a setting), the
    /// entitlements (a setting only) and an Xcode 16 base `.xcconfig` in a synchronized folder.
    static func generatedSettingsProject(prefixHeader: Bool) -> String {
        let settings = "INFOPLIST_FILE = Generated/Info.plist; CODE_SIGN_ENTITLEMENTS = \"$(SRCROOT)/Generated/App.entitlements\";"
            + (prefixHeader ? " GCC_PREFIX_HEADER = App/Prefix.pch;" : "")
        return pbxproj(objects: [
            "S = {isa = PBXFileSystemSynchronizedRootGroup; path = App; sourceTree = \"<group>\"; };",
            "G = {isa = PBXGroup; children = (C, I); path = Generated; sourceTree = \"<group>\"; };",
            "C = {isa = PBXFileReference; lastKnownFileType = text.xcconfig; path = App.xcconfig; sourceTree = \"<group>\"; };",
            "I = {isa = PBXFileReference; lastKnownFileType = text.plist.xml; path = Info.plist; sourceTree = \"<group>\"; };",
            "TLIST = {isa = XCConfigurationList; buildConfigurations = (TDEBUG, TRELEASE); };",
            "TDEBUG = {isa = XCBuildConfiguration; baseConfigurationReference = C; buildSettings = {\(settings)}; name = Debug; };",
            "TRELEASE = {isa = XCBuildConfiguration; baseConfigurationReference = C; buildSettings = {\(settings)}; name = Release; };",
            "T = {isa = PBXNativeTarget; buildConfigurationList = TLIST; buildPhases = (); fileSystemSynchronizedGroups = (S); name = App; };",
        ], mainChildren: ["S", "G"], targets: ["T"],
           debug: "baseConfigurationReferenceAnchor = S; baseConfigurationReferenceRelativePath = Config/Base.generated.xcconfig; buildSettings = {};")
    }

    @Test func aSettingsFileThatGitIgnoresIsANoteLikeAReferenceToIt() async throws {
        let folder = try Self.folder(Self.generatedSettingsProject(prefixHeader: true), files: ["App/Main.swift"])
        try folder.write(".gitignore", "Generated/\n*.generated.xcconfig\n")
        // off-pool: a test's own set-up; git runs as a child process and returns at once.
        try GitFixture.run(["init", "--quiet", "--initial-branch=main"], in: folder.path)
        let before = try Snapshot.of(folder.path)
        let result = try await Self.lint(folder)
        #expect(result.status == .exited(1), "\(result.outputText)\(result.errorText)")
        #expect(Self.findings(result) == [
            "  10:3: note: 2 references and 2 build settings to missing files that git ignores (a build's output) are not checked "
                + "(first: 'Generated/App.xcconfig'); build once to make them, or stop ignoring them if they belong in the repository [unchecked-reference]",
            "  13:3: error: GCC_PREFIX_HEADER of configuration 'Debug' (target 'App') names 'App/Prefix.pch', which does not exist; fix the setting or restore the file [missing-setting-file]",
            "  14:3: error: GCC_PREFIX_HEADER of configuration 'Release' (target 'App') names 'App/Prefix.pch', which does not exist; fix the setting or restore the file [missing-setting-file]",
        ], "\(result.outputText)")
        #expect(try Snapshot.of(folder.path) == before, "lint changed the disk")

        // Not ignored, the same files are errors (the synchronized folder's base .xcconfig too).
        try folder.write(".gitignore", "")
        let errors = try await Self.lint(folder)
        #expect(errors.status == .exited(1))
        #expect(Self.findings(errors).contains(
            "  10:3: error: 'Generated/App.xcconfig' does not exist (file reference 'App.xcconfig'); restore the file or remove the reference [missing-file]"),
                "\(errors.outputText)")
        #expect(Self.findings(errors).contains(
            "  13:3: error: CODE_SIGN_ENTITLEMENTS of configuration 'Debug' (target 'App') names 'Generated/App.entitlements', which does not exist; fix the setting or restore the file [missing-setting-file]"),
                "\(errors.outputText)")
        #expect(Self.findings(errors).contains(
            "  19:3: error: the base configuration file of 'Debug' (project) is 'App/Config/Base.generated.xcconfig', which does not exist; choose the .xcconfig again in Xcode or restore the file [missing-setting-file]"),
                "\(errors.outputText)")
        #expect(!errors.outputText.contains("[unchecked-reference]"), "\(errors.outputText)")
    }

    @Test func aSubmoduleNotCheckedOutIsOneNoteAndAMissingFileElsewhereStaysAnError() async throws {
        let text = Self.pbxproj(objects: [
            "V = {isa = PBXGroup; children = (L, W); path = Vendor; sourceTree = \"<group>\"; };",
            "L = {isa = PBXGroup; children = (A, B, C); path = Lib; sourceTree = \"<group>\"; };",
            "A = {isa = PBXFileReference; lastKnownFileType = \"wrapper.pb-project\"; path = Lib.xcodeproj; sourceTree = \"<group>\"; };",
            "B = {isa = PBXFileReference; path = Sources/Lib.h; sourceTree = \"<group>\"; };",
            "C = {isa = PBXFileReference; path = Sources/Lib.c; sourceTree = \"<group>\"; };",
            "W = {isa = PBXGroup; children = (D, E); path = Other; sourceTree = \"<group>\"; };",
            "D = {isa = PBXFileReference; path = Other.h; sourceTree = \"<group>\"; };",
            "E = {isa = PBXFileReference; path = Gone.h; sourceTree = \"<group>\"; };",
            "F = {isa = PBXFileReference; path = App/Gone.h; sourceTree = \"<group>\"; };",
        ], mainChildren: ["V", "F"], debug: "buildSettings = {MODULEMAP_FILE = Vendor/Lib/module.modulemap;};")
        let folder = try Self.folder(text, files: ["Vendor/Other/Other.h", "App/Main.h"])
        try FileManager.default.createDirectory(atPath: folder.path + "/Vendor/Lib", withIntermediateDirectories: true)
        try folder.write(".gitmodules", "[submodule \"Lib\"]\n\tpath = Vendor/Lib\n\turl = https://example.com/lib.git\n"
                         + "[submodule \"Other\"]\n\tpath = \"Vendor/Other\"\n\turl = https://example.com/other.git\n"
                         + "[submodule \"Escape\"]\n\tpath = ../../outside\n")
        // off-pool: a test's own set-up; git runs as a child process and returns at once.
        try GitFixture.run(["init", "--quiet", "--initial-branch=main"], in: folder.path)
        let before = try Snapshot.of(folder.path)
        let result = try await Self.lint(folder)
        #expect(result.status == .exited(1), "\(result.outputText)\(result.errorText)")
        #expect(Self.findings(result) == [
            "  15:3: error: 'Vendor/Other/Gone.h' does not exist (file reference 'Gone.h'); restore the file or remove the reference [missing-file]",
            "  16:3: error: 'App/Gone.h' does not exist (file reference 'App/Gone.h'); restore the file or remove the reference [missing-file]",
            "  10:3: note: 3 references and 1 build setting inside submodule 'Vendor/Lib' are not checked: the submodule is not checked out "
                + "(first: 'Vendor/Lib/Lib.xcodeproj'); run `git submodule update --init` to fetch it [unchecked-reference]",
        ], "\(result.outputText)")
        #expect(try Snapshot.of(folder.path) == before, "lint changed the disk")

        // Checked out, the submodule's missing files are errors again.
        try folder.write("Vendor/Lib/Lib.xcodeproj/project.pbxproj", "")
        let checkedOut = try await Self.lint(folder)
        #expect(Self.findings(checkedOut).contains(
            "  11:3: error: 'Vendor/Lib/Sources/Lib.h' does not exist (file reference 'Sources/Lib.h'); restore the file or remove the reference [missing-file]"),
                "\(checkedOut.outputText)")
        #expect(!checkedOut.outputText.contains("submodule"), "\(checkedOut.outputText)")
    }

    /// A folder the build makes, ignored only as a folder (`Library/`), is a note; a setting naming
    /// a tracked file in another case is the case mismatch it is (a warning), even where an ignore
    /// rule covers the name too.
    @Test func aMissingFolderIgnoredAsAFolderIsANoteAndASettingsFileInAnotherCaseIsACaseMismatch() async throws {
        let text = Self.pbxproj(objects: [
            "L = {isa = PBXFileReference; lastKnownFileType = folder; name = Library; path = Resources/Library; sourceTree = \"<group>\"; };",
            "V = {isa = PBXFileReference; lastKnownFileType = folder; name = vim; path = Resources/vim; sourceTree = \"<group>\"; };",
        ], mainChildren: ["L", "V"], debug: "buildSettings = {INFOPLIST_FILE = SmartKeys/Info.plist;};")
        let folder = try Self.folder(text, files: ["smartkeys/Info.plist", "Resources/Fonts/a.ttf"])
        try folder.write(".gitignore", "Library/\nSmartKeys/*\n")
        // off-pool: a test's own set-up; git runs as a child process and returns at once.
        try GitFixture.run(["init", "--quiet", "--initial-branch=main"], in: folder.path)
        let before = try Snapshot.of(folder.path)
        let result = try await Self.lint(folder)
        #expect(result.status == .exited(1), "\(result.outputText)\(result.errorText)")
        #expect(Self.findings(result) == [
            "  9:3: error: 'Resources/vim' does not exist (file reference 'vim'); restore the file or remove the reference [missing-file]",
            "  13:3: warning: INFOPLIST_FILE of configuration 'Debug' (project) names 'SmartKeys/Info.plist', which is on disk as 'smartkeys/Info.plist'; "
                + "it builds only on a case-insensitive disk: rename the file or fix the setting so that they match [case-mismatch]",
            "  8:3: note: 1 reference to missing files that git ignores (a build's output) is not checked (first: 'Resources/Library'); "
                + "build once to make them, or stop ignoring them if they belong in the repository [unchecked-reference]",
        ], "\(result.outputText)")
        #expect(try Snapshot.of(folder.path) == before, "lint changed the disk")
    }

    /// `.gitmodules` is the checkout's: read through the door, so a link to a device or out of the
    /// project is not read (its files stay errors) and lint neither hangs nor crashes.
    @Test func aGitmodulesLinkedOutOfTheProjectIsNotRead() async throws {
        let text = Self.pbxproj(objects: [
            "A = {isa = PBXFileReference; path = Vendor/Lib/Lib.h; sourceTree = \"<group>\"; };",
        ], mainChildren: ["A"])
        let folder = try Self.folder(text, files: [])
        let outside = try TemporaryDirectory(prefix: "slipway-lint-outside")
        try outside.write("gitmodules", "[submodule \"Lib\"]\n\tpath = Vendor/Lib\n")
        // off-pool: a test's own set-up; git runs as a child process and returns at once.
        try GitFixture.run(["init", "--quiet", "--initial-branch=main"], in: folder.path)
        for target in ["/dev/zero", outside.path + "/gitmodules"] {
            try? FileManager.default.removeItem(atPath: folder.path + "/.gitmodules")
            try FileManager.default.createSymbolicLink(atPath: folder.path + "/.gitmodules", withDestinationPath: target)
            let before = try Snapshot.of(folder.path)
            let result = try await Self.lint(folder)
            #expect(result.status == .exited(1), "\(target): \(result.outputText)\(result.errorText)")
            #expect(Self.findings(result) == [
                "  8:3: error: 'Vendor/Lib/Lib.h' does not exist (file reference 'Vendor/Lib/Lib.h'); restore the file or remove the reference [missing-file]",
            ], "\(target): \(result.outputText)")
            #expect(try Snapshot.of(folder.path) == before, "lint changed the disk")
        }
    }
}
