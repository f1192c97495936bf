import Testing
import TestThreads
@testable import PBXProj

/// Reading and writing build settings, and version stamping across targets.
@Suite("Build settings", .dedicatedThreads)
struct BuildSettingsTests {
    let project: PBXProject

    init() throws {
        project = try PBXProject(bytes: Array(SampleProject.text.utf8), projectName: "Sample")
    }

    @Test("the configurations of targets and of the project")
    func selection() throws {
        let all = try project.configurations(targets: nil)
        #expect(all.map(\.targetName) == ["App", "App", "AppTests", "AppTests"])
        let projectLevel = try project.configurations(targets: [])
        #expect(projectLevel.map(\.configuration.name) == ["Debug", "Release"])
        #expect(projectLevel.allSatisfy { $0.targetName == nil && $0.ownerID == SampleProject.project })
        let release = try project.configurations(targets: ["App"], configurations: ["Release"])
        #expect(release.map(\.configuration.id) == [SampleProject.appRelease])
    }

    @Test("unknown targets and configurations are named with the ones that exist")
    func unknownNames() throws {
        #expect(throws: PBXProjError.invalidArgument(message: "no target named 'Nope'; the project's targets are 'App', 'AppTests'")) {
            try project.configurations(targets: ["Nope"])
        }
        #expect(throws: PBXProjError.invalidArgument(message: "no build configuration named 'Beta'; the configurations are 'Debug', 'Release'")) {
            try project.configurations(targets: ["App"], configurations: ["Beta"])
        }
    }

    @Test("setting, changing and removing one setting")
    func setOne() throws {
        var edited = project
        try edited.setBuildSetting("SWIFT_VERSION", to: "6.0", in: SampleProject.appDebug)
        try edited.setBuildSetting("OTHER_SWIFT_FLAGS", to: ["-warnings-as-errors", "$(inherited)"], in: SampleProject.appDebug)
        try edited.setBuildSetting("INFOPLIST_FILE", to: nil, in: SampleProject.appDebug)
        let reread = try PBXProject(bytes: try edited.serialized(), projectName: "Sample")
        let settings = try #require(reread.buildSettings(of: SampleProject.appDebug))
        #expect(settings["SWIFT_VERSION"] == "6.0")
        #expect(settings["OTHER_SWIFT_FLAGS"] == ["-warnings-as-errors", "$(inherited)"])
        #expect(settings["INFOPLIST_FILE"] == nil)
        #expect(settings.keys == ["CURRENT_PROJECT_VERSION", "MARKETING_VERSION", "OTHER_SWIFT_FLAGS", "PRODUCT_BUNDLE_IDENTIFIER", "PRODUCT_NAME", "SWIFT_VERSION"])
        #expect(try reread.canonicalSerialized() == (try edited.serialized()))
        #expect(throws: PBXProjError.wrongObjectKind(id: SampleProject.appGroup.rawValue, isa: "PBXGroup", expected: "an XCBuildConfiguration")) {
            var other = project
            try other.setBuildSetting("A", to: "B", in: SampleProject.appGroup)
        }
    }

    @Test("version stamping updates every configuration that has the setting and reports targets without it")
    func stampVersion() throws {
        var edited = project
        let update = try edited.setBuildSetting("MARKETING_VERSION", to: "2.0.0")
        #expect(update.changedConfigurations == [SampleProject.appDebug, SampleProject.appRelease])
        #expect(update.targetsLackingSetting == ["AppTests"])
        #expect(try edited.targetsLacking(buildSetting: "MARKETING_VERSION") == ["AppTests"])
        let reread = try PBXProject(bytes: try edited.serialized(), projectName: "Sample")
        #expect(reread.buildSettings(of: SampleProject.appRelease)?["MARKETING_VERSION"] == "2.0.0")
        // Only the two MARKETING_VERSION lines changed.
        #expect(LineDiff.changedLineCount(Array(SampleProject.text.utf8), try edited.serialized()) > 0)
        let changed = Set(LineDiff.lines(try edited.serialized())).subtracting(LineDiff.lines(Array(SampleProject.text.utf8)))
        #expect(changed == ["\t\t\t\tMARKETING_VERSION = 2.0.0;"])
    }

    @Test("stamping named targets, adding where missing")
    func stampNamedTargets() throws {
        var edited = project
        let update = try edited.setBuildSetting("CURRENT_PROJECT_VERSION", to: "8", targets: ["AppTests"], addWhereMissing: true)
        #expect(update.changedConfigurations.count == 2)
        #expect(update.targetsLackingSetting == ["AppTests"])
        let tests = try #require(edited.target(named: "AppTests"))
        #expect(edited.buildConfigurations(of: tests.id).allSatisfy { $0.buildSettings["CURRENT_PROJECT_VERSION"] == "8" })
        #expect(edited.buildConfigurations(of: SampleProject.appTarget).allSatisfy { $0.buildSettings["CURRENT_PROJECT_VERSION"] == "7" })
    }

    @Test("setting the same value again changes nothing")
    func idempotent() throws {
        var edited = project
        let update = try edited.setBuildSetting("MARKETING_VERSION", to: "1.2.0")
        #expect(update.changedConfigurations.isEmpty)
        #expect(!edited.hasChanges)
    }
}
