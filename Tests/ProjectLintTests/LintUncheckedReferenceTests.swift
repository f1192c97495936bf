import Basics
import Foundation
import PBXProj
@testable import ProjectLint
import TestSupport
import TestThreads
import Testing

/// References whose path holds a build setting, or whose file a tool makes: what lint resolves
/// and checks, and what it reports once per reason instead of one missing file each.
@Suite("Lint: build settings in paths and generated files", .dedicatedThreads)
struct LintUncheckedReferenceTests {
    static func file(_ id: String, _ path: String, sourceTree: String = "\"<group>\"") -> String {
        "\(id) = {isa = PBXFileReference; path = \"\(path)\"; sourceTree = \(sourceTree); };"
    }

    /// A project with a Debug and a Release configuration (settings for each), `objects` from line 8.
    static func example(objects: [String], debug: String, release: String, files: [String]) -> LintExample {
        let ids = objects.map { String($0.prefix { $0 != " " }) }
        let base = LintExample("", objects: objects + ["RELEASE = {isa = XCBuildConfiguration; buildSettings = {\(release)}; name = Release; };"],
                               mainChildren: ids, settings: debug, files: files, expected: [])
        return LintExample("", text: base.project.replacingOccurrences(of: "buildConfigurations = (DEBUG)", with: "buildConfigurations = (DEBUG, RELEASE)"),
                           files: files, expected: [])
    }

    static func findings(_ example: LintExample) -> [String] {
        let rules: [any LintRule] = [MissingFileRule(), UncheckedReferenceRule()]
        return LintEngine.run(LintRuleExampleTests.context(example), rules: rules).findings.map {
            "\($0.severity.rawValue) \(LintRuleExampleTests.line($0))"
        }
    }

    @Test func knownSettingsAreResolvedAndCheckedTheRestIsOneNotePerSetting() {
        let example = Self.example(objects: [
            Self.file("A", "$(SRCROOT)/Vendor/lib.c"),
            Self.file("B", "$(SRCROOT)/Vendor/gone.c"),
            Self.file("C", "${PROJECT_DIR}/$(PROJECT_NAME)/Info.plist"),
            Self.file("D", "$(SOURCE_ROOT)/$(THIRD_PARTY)/zlib.h"),
            Self.file("E", "$(THIRD_PARTY)/missing.h"),
            Self.file("F", "$(CONFIG_DIR)/App.xcconfig"),
            Self.file("G", "$(SYSROOT_DIR)/share/qemu"),
            Self.file("H", "${SYSROOT_DIR}/lib/libglib.a"),
            Self.file("I", "$(SYSROOT_DIR)/include"),
            Self.file("J", "lib.c", sourceTree: "SRCROOT"),
        ], debug: "THIRD_PARTY = Vendor; CONFIG_DIR = Debug;", release: "THIRD_PARTY = Vendor; CONFIG_DIR = Release;",
           files: ["Vendor/lib.c", "Example/Info.plist", "Vendor/zlib.h"])
        #expect(Self.findings(example) == [
            "error 9: 'Vendor/gone.c' does not exist (file reference '$(SRCROOT)/Vendor/gone.c'); restore the file or remove the reference",
            "error 12: 'Vendor/missing.h' does not exist (file reference '$(THIRD_PARTY)/missing.h'); restore the file or remove the reference",
            "error 17: 'lib.c' does not exist (file reference 'lib.c'); restore the file or remove the reference",
            "note 13: 1 reference holds $(CONFIG_DIR), which Slipway cannot know outside a build: not checked (first: "
                + "'$(CONFIG_DIR)/App.xcconfig'); set it in the project's build settings, one value for every configuration, to check them",
            "note 14: 3 references hold $(SYSROOT_DIR), which Slipway cannot know outside a build: not checked (first: "
                + "'$(SYSROOT_DIR)/share/qemu'); set it in the project's build settings, one value for every configuration, to check them",
        ])
    }

    @Test func filesOfPodInstallGeneratorsAndTheBuildAreOneSummaryEach() {
        let pods = (1...4).map { Self.file("P\($0)", "Pods/Target Support Files/Pods-App/Pods-App-\($0).xcconfig") }
        let example = Self.example(objects: pods + [
            Self.file("Q", "Pods/Manifest.lock"),
            Self.file("R", "../Pods/Pods.xcodeproj"),
            Self.file("S", "Generated/DerivedSources/Schema.swift"),
            Self.file("T", "Carthage/Build/iOS/Alamofire.framework"),
            Self.file("U", "App.app", sourceTree: "BUILT_PRODUCTS_DIR"),
            Self.file("V", "AppTests.xctest", sourceTree: "BUILT_PRODUCTS_DIR"),
            Self.file("W", "Parser.swift", sourceTree: "DERIVED_FILE_DIR"),
            Self.file("X", "$(DERIVED_FILE_DIR)/Lexer.swift"),
            Self.file("Y", "Alamofire/Source/Session.swift", sourceTree: "PODS_ROOT"),
            Self.file("Z", "Podfile"),
        ], debug: "", release: "", files: ["Pods/Manifest.lock"])
        #expect(Self.findings(example) == [
            "error 21: 'Podfile' does not exist (file reference 'Podfile'); restore the file or remove the reference",
            "note 15: 1 reference under 'Carthage/Build/' is made by `carthage bootstrap`: not checked",
            "note 14: 1 reference under 'DerivedSources/' is made by a generator: not checked",
            "note 8: 6 references under 'Pods/' are made by `pod install`: not checked",
            "note 19: 1 reference relative to $(DERIVED_FILE_DIR) is made by the build: not checked",
        ])
    }

    /// `.gitmodules` comes from the checkout: only `path` entries of `[submodule]` sections count,
    /// quoted or not, in any case of key; a path that is absolute or leaves the repository is left out.
    @Test func gitmodulesPathsAreReadAsGitWritesThemAndEscapingOnesAreLeftOut() {
        let text = """
            # comment
            [core]
            \tpath = NotASubmodule
            [submodule "A"]
            \tpath = Vendor/A
            \turl = https://example.com/a.git
            [Submodule "B"]
            \tPath = "Vendor/B C"
            ; another comment
            [submodule "Up"]
            \tpath = ../outside
            [submodule "Abs"]
            \tpath = /etc
            [submodule "Dots"]
            \tpath = Vendor/../../x
            [submodule "Empty"]
            \tpath =
            """
        #expect(LintSubmodules.paths(in: text) == ["Vendor/A", "Vendor/B C"])
        #expect(LintSubmodules.paths(in: "").isEmpty)
        #expect(LintSubmodules.paths(in: "[submodule \"x\"\npath").isEmpty)
    }
}
