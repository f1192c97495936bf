import PBXProj

/// File references lint does not check, one note per reason: files that `pod install`, a
/// generator or the build makes, and paths under a build setting Slipway cannot know.
public struct UncheckedReferenceRule: LintRule {
    public init() {}
    public var id: String { "unchecked-reference" }
    public var summary: String {
        "File references lint does not check for existence, one note per reason: missing files under `Pods/` (made by "
            + "`pod install`), `Carthage/Build/` or `DerivedSources/`, paths under a build folder (`$(DERIVED_FILE_DIR)/...`), "
            + "and paths holding a build setting other than `SRCROOT`, `PROJECT_DIR`, `SOURCE_ROOT`, "
            + "`PROJECT_NAME` or one the project sets to one value in every configuration; missing files that git ignores "
            + "(a build's output, such as a Run Script's `build/` folder); files inside a git submodule that is not checked out "
            + "(`.gitmodules` lists it, its folder is missing or empty), one note per submodule. Files that build settings name "
            + "(`missing-setting-file`) are counted in the same notes, each file once."
    }
    public var defaultSeverity: LintSeverity { .note }
    public var examples: [LintExample] {
        [LintExample("CocoaPods' files before `pod install`, the app's product and a path under a setting of the build machine",
                     objects: ["A = {isa = PBXFileReference; path = \"Pods/Target Support Files/Pods-App/Pods-App.debug.xcconfig\"; sourceTree = \"<group>\"; };",
                               "B = {isa = PBXFileReference; path = \"Pods/Target Support Files/Pods-App/Pods-App.release.xcconfig\"; sourceTree = \"<group>\"; };",
                               "C = {isa = PBXFileReference; explicitFileType = wrapper.application; path = App.app; sourceTree = BUILT_PRODUCTS_DIR; };",
                               "D = {isa = PBXFileReference; path = \"$(SYSROOT_DIR)/share/qemu\"; sourceTree = \"<group>\"; };",
                               "E = {isa = PBXFileReference; path = \"$(SYSROOT_DIR)/lib/libz.a\"; sourceTree = \"<group>\"; };",
                               "F = {isa = PBXFileReference; path = \"$(MODE)/x.c\"; sourceTree = \"<group>\"; };"],
                     mainChildren: ["A", "B", "C", "D", "E", "F"], files: [],
                     expected: [
                        "8: 2 references under 'Pods/' are made by `pod install`: not checked",
                        "13: 1 reference holds $(MODE), which Slipway cannot know outside a build: not checked "
                            + "(first: '$(MODE)/x.c'); set it in the project's build settings, one value for every configuration, to check them",
                        "11: 2 references hold $(SYSROOT_DIR), which Slipway cannot know outside a build: not checked "
                            + "(first: '$(SYSROOT_DIR)/share/qemu'); set it in the project's build settings, one value for every configuration, to check them",
                     ]),
         LintExample("a submodule that is not checked out: its files and the Info.plist a setting names there",
                     objects: ["V = {isa = PBXGroup; children = (A, B); path = Vendor/Lib; sourceTree = \"<group>\"; };",
                               "A = {isa = PBXFileReference; path = Lib.xcodeproj; sourceTree = \"<group>\"; };",
                               "B = {isa = PBXFileReference; path = Sources/Lib.swift; sourceTree = \"<group>\"; };"],
                     mainChildren: ["V"], settings: "INFOPLIST_FILE = Vendor/Lib/Info.plist;", files: [],
                     texts: [".gitmodules": "[submodule \"Lib\"]\n\tpath = Vendor/Lib\n\turl = https://example.com/lib.git\n"],
                     expected: [
                        "9: 2 references and 1 build setting inside submodule 'Vendor/Lib' are not checked: the submodule is not checked out "
                            + "(first: 'Vendor/Lib/Lib.xcodeproj'); run `git submodule update --init` to fetch it",
                     ])]
    }

    public func check(_ context: LintContext) -> [LintFinding] {
        context.references.unchecked.sorted { $0.key < $1.key }.map { reason, found in
            let count = Self.count(found)
            let verb = found.references + found.settings == 1 ? "is" : "are"
            switch reason {
            case .generatedFolder(let folder):
                let maker = folder == "Pods" ? "`pod install`" : (folder == "Carthage/Build" ? "`carthage bootstrap`" : "a generator")
                return finding("\(count) under '\(folder)/' \(verb) made by \(maker): not checked", at: found.first, in: context,
                               subject: folder)
            case .buildFolder(let setting):
                return finding("\(count) relative to $(\(setting)) \(verb) made by the build: not checked", at: found.first, in: context)
            case .ignoredByGit:
                return finding("\(count) \(found.references == 0 ? "naming" : "to") missing files that git ignores (a build's output) \(verb) not checked "
                               + "(first: '\(found.path)'); build once to make them, or stop ignoring them if they belong in the repository",
                               at: found.first, in: context)
            case .unknownSetting(let setting):
                return finding("\(count) \(found.references + found.settings == 1 ? "holds" : "hold") $(\(setting)), which Slipway cannot know outside a build: "
                               + "not checked (first: '\(found.path)'); set it in the project's build settings, one value for every "
                               + "configuration, to check them", at: found.first, in: context)
            case .submodule(let submodule):
                return finding("\(count) inside submodule '\(submodule)' \(verb) not checked: the submodule is not checked out "
                               + "(first: '\(found.path)'); run `git submodule update --init` to fetch it", at: found.first, in: context,
                               subject: found.path)
            }
        }
    }

    /// `2 references`, `1 build setting`, `3 references and 1 build setting`.
    static func count(_ found: LintReferences.UncheckedCount) -> String {
        func counted(_ count: Int, _ noun: String) -> String { "\(count) \(noun)\(count == 1 ? "" : "s")" }
        switch (found.references, found.settings) {
        case (let references, 0): return counted(references, "reference")
        case (0, let settings): return counted(settings, "build setting")
        case (let references, let settings): return counted(references, "reference") + " and " + counted(settings, "build setting")
        }
    }
}
