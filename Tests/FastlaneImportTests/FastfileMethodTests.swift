@testable import FastlaneImport
import Testing
import TestThreads

/// `def` methods shadow actions and lanes, as in Ruby; top-level constants are read.
@Suite(.dedicatedThreads) struct FastfileMethodTests {
    /// Issue 40, point 4: the Fastfile's own commit_version_bump, not the built-in action.
    @Test func aDefShadowsTheActionAndIsInlined() throws {
        let lane = try ActionCase("commit_version_bump(message: 'Release 2.0')", before: """
            def commit_version_bump(message:)
              git_commit(path: ['Config/Version.xcconfig', 'CHANGELOG.md'], message: message)
            end

            """)
        #expect(try lane.step("git.commit").options == [
            DraftPair("message", .string("Release 2.0")),
            DraftPair("paths", .list([.string("Config/Version.xcconfig"), .string("CHANGELOG.md")])),
            DraftPair("allow-dirty", .bool(true)),
        ])
        #expect(lane.listed == [])
        #expect(lane.differences.contains("'commit_version_bump' is a helper method the Fastfile defines (fastlane/Fastfile:1); Ruby calls it, not an action of that name: its calls are inlined where it is called"))
        #expect(lane.lane.translated == ["git_commit"])
    }

    @Test func aDefWithControlFlowIsAHelperToTranslateByHand() throws {
        let lane = try ActionCase("run_ui_tests(['iPhone 15'])\nrun_ui_tests devices", before: """
            def run_ui_tests(devices)
              if devices.empty?
                UI.user_error!('no devices')
              end
              scan(devices: devices)
            end

            """)
        #expect(lane.kinds == [])
        #expect(lane.listed == [
            "run_ui_tests(['iPhone 15']): a helper method defined at fastlane/Fastfile:1 (its body is more than plain calls (line 2)); translate by hand",
            "run_ui_tests devices: a helper method defined at fastlane/Fastfile:1 (its body is more than plain calls (line 2)); translate by hand",
        ])
    }

    @Test func aDefArgumentOnlyRubyKnowsIsListedWhereItIsUsed() throws {
        let lane = try ActionCase("tag_build(number: compute_number)", before: "def tag_build(number:)\n  add_git_tag(build_number: number)\nend\n")
        #expect(lane.kinds == [])
        #expect(lane.listed == ["add_git_tag(build_number: …): its value (number) is only known when Ruby runs"])
    }

    @Test func topLevelConstantsAreUsedOrNotedOnce() throws {
        let source = """
            SCHEME = 'App'
            OUTPUT = "build/#{SCHEME}"
            STORAGE = storage_options()
            lane :a do
              gym(scheme: SCHEME, output_directory: OUTPUT)
            end
            lane :b do
              match(type: 'appstore', **STORAGE)
            end
            """
        let translation = FastlaneTranslator(fastfile: try Fastfile(source: source, path: "fastlane/Fastfile"), appfile: nil, matchfile: nil,
                                             survey: FastlaneTranslatorTests.survey).translate()
        let a = try #require(translation.lanes.first)
        #expect(a.draft.steps.first?.option("scheme") == .string("App"))
        #expect(a.draft.steps.last?.option("export-path") == .string("build/App"))
        #expect(translation.notes == [
            "fastlane/Fastfile:3: 'STORAGE = storage_options()' is a top-level value only Ruby knows; every argument that uses STORAGE is listed",
        ])
        #expect(translation.lanes.last?.untranslated.map(\.what) == ["match(**STORAGE)"])
    }

    @Test func methodsAndConstantsOfAnImportedFileAreMerged() throws {
        var fastfile = try Fastfile(source: "lane :a do\n  bump\nend\n", path: "fastlane/Fastfile")
        fastfile.merge(try Fastfile(source: "NAME = 'x'\ndef bump(type = 'minor')\n  increment_version_number(bump_type: type)\nend\n", path: "fastlane/helpers.rb"))
        #expect(fastfile.methods.map(\.name) == ["bump"])
        #expect(fastfile.methods.first?.parameters == [.positional("type", default: .string("minor"))])
        #expect(fastfile.constants.map(\.name) == ["NAME"])
        let lane = try #require(FastlaneTranslator(fastfile: fastfile, appfile: nil, matchfile: nil, survey: FastlaneTranslatorTests.survey).translate().lanes.first)
        #expect(lane.draft.steps.first?.option("strategy") == .string("minor"))
    }

    @Test func aDefShadowsEvenAnActionSlipwayNeedsNot() throws {
        let lane = try ActionCase("setup_ci", before: "def setup_ci\n  sh('./ci/setup.sh')\nend\n")
        #expect(try lane.step("run").option("command") == .string("cd fastlane && ./ci/setup.sh"))
        #expect(!lane.differences.contains { $0.hasPrefix("setup_ci: not needed") })
    }

    /// A hostile Fastfile whose helpers double at each level would take 2^40 steps: the walk
    /// stops at its budget and says so; constants that double stop at theirs.
    @Test func doublingHelpersAndConstantsStopAtABudget() throws {
        var source = "def f0\n  sh('true')\nend\n"
        for level in 1...40 { source += "def f\(level)\n  f\(level - 1)\n  f\(level - 1)\nend\n" }
        source += "C0 = ['x']\n"
        for level in 1...40 { source += "C\(level) = [C\(level - 1), C\(level - 1)]\n" }
        let lane = try ActionCase("f40\ngit_commit(path: C40, message: 'x')", before: source)
        #expect(lane.listed.filter { $0.hasSuffix(": the lane's private lanes and helper methods call each other for more than 20000 statements; the rest of the lane is not translated") }.count == 1)
        #expect(lane.steps.count < LaneBuilder.maximumStatements)
        let constants = FastlaneConstants.literals(of: try Fastfile(source: source, path: "fastlane/Fastfile"))
        #expect(constants["C10"]?.size == 3071)
        #expect(constants["C40"] == nil)
    }

    /// The same budget holds for private lanes calling each other (before, 2^40 statements).
    @Test func doublingPrivateLanesStopAtTheBudget() throws {
        var source = "private_lane :l0 do\n  sh('true')\nend\n"
        for level in 1...40 { source += "private_lane :l\(level) do\n  l\(level - 1)\n  l\(level - 1)\nend\n" }
        source += "lane :release do\n  l40\nend\n"
        let translation = FastlaneTranslator(fastfile: try Fastfile(source: source, path: "fastlane/Fastfile"), appfile: nil, matchfile: nil,
                                             survey: FastlaneTranslatorTests.survey).translate()
        let lane = try #require(translation.lanes.first { $0.draft.name == "release" })
        #expect(lane.untranslated.filter { $0.reason.hasPrefix("the lane's private lanes and helper methods call each other for more than 20000") }.count == 1)
    }
}
