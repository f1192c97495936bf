@testable import FastlaneImport
import Testing
import TestThreads
import Xcode

/// Translating fastlane's common actions into steps; everything else is listed with its line.
@Suite(.dedicatedThreads) struct FastlaneTranslatorTests {
    /// A survey of an app with one extension, as `XcodeProjectSurvey.survey` would find it.
    static var survey: XcodeProjectSurvey {
        var survey = XcodeProjectSurvey()
        survey.container = try? XcodeContainer(path: "App.xcworkspace")
        survey.project = "App.xcodeproj"
        survey.shippingTargets = [
            .init(name: "App", productType: "com.apple.product-type.application", bundleID: "com.example.app", versionSource: "Config/Version.xcconfig"),
            .init(name: "Widget", productType: "com.apple.product-type.app-extension", bundleID: "com.example.app.widget", versionSource: "Config/Version.xcconfig"),
        ]
        return survey
    }

    func translate(_ source: String, appfile: String? = nil, matchfile: String? = nil) throws -> FastlaneTranslation {
        FastlaneTranslator(fastfile: try Fastfile(source: source, path: "fastlane/Fastfile"),
                           appfile: try appfile.map { try FastlaneSettings(source: $0, path: "fastlane/Appfile") },
                           matchfile: try matchfile.map { try FastlaneSettings(source: $0, path: "fastlane/Matchfile") },
                           survey: Self.survey).translate()
    }

    @Test func theCommonActionsBecomeOneLaneWithTypedHandOvers() throws {
        let translation = try translate("""
            lane :beta do
              ensure_git_status_clean
              match(type: "appstore")
              increment_version_number(bump_type: "minor")
              increment_build_number(build_number: latest_testflight_build_number + 1)
              scan(devices: ["iPhone 15 (17.2)"], only_testing: "AppTests")
              gym(scheme: "App", export_method: "app-store", output_directory: "build")
              notes = changelog_from_git_commits(merge_commit_filtering: "only_include_merges")
              pilot(changelog: notes, groups: ["QA"])
              commit_version_bump(message: "Bump")
              add_git_tag(tag: "v1")
              push_to_git_remote
            end
            """, appfile: "app_identifier 'com.example.app'\nteam_id 'ABCDE12345'\n",
            matchfile: "git_url 'https://git.example.com/certs.git'\ngit_branch 'main'\n")
        let lane = try #require(translation.lanes.first)
        #expect(lane.untranslated == [])
        #expect(lane.draft.steps.map(\.kind) == [
            "appstore.preflight", "git.ensure-clean", "signing.sync", "appstore.build-number", "version.bump", "xcode.test", "xcode.archive", "xcode.export",
            "changelog.update", "appstore.upload", "testflight.distribute", "git.commit", "git.tag", "git.push",
        ])
        func step(_ kind: String) throws -> DraftStep { try #require(lane.draft.steps.first { $0.kind == kind }) }
        #expect(try step("signing.sync").options == [
            DraftPair("type", .string("app-store")),
            DraftPair("bundle-ids", .list([.string("com.example.app")])),
            DraftPair("passphrase", .string("${{ secrets.MATCH_PASSWORD }}")),
            DraftPair("storage", .string("https://git.example.com/certs.git")),
            DraftPair("git-branch", .string("main")),
            DraftPair("format", .string("match")),
            DraftPair("key-id", .string("${{ secrets.ASC_KEY_ID }}")),
            DraftPair("issuer-id", .string("${{ secrets.ASC_ISSUER_ID }}")),
            DraftPair("key", .string("${{ secrets.ASC_KEY }}")),
        ])
        #expect(try step("version.bump").options == [
            DraftPair("xcodeproj", .string("App.xcodeproj")),
            DraftPair("strategy", .string("minor")),
            DraftPair("build-number", .string("${{ steps.build-number.outputs.next }}")),
        ])
        #expect(try step("xcode.test").options == [
            DraftPair("workspace", .string("App.xcworkspace")),
            DraftPair("scheme", .string("${{ inputs.scheme }}")),
            DraftPair("destinations", .list([.string("platform=iOS Simulator,name=iPhone 15,OS=17.2")])),
            DraftPair("only-testing", .list([.string("AppTests")])),
        ])
        #expect(try step("xcode.export").options == [
            DraftPair("archive", .string("${{ steps.archive.outputs.archive }}")),
            DraftPair("export-path", .string("build")),
            DraftPair("method", .string("app-store-connect")),
            DraftPair("team-id", .string("ABCDE12345")),
            DraftPair("signing", .string("${{ steps.signing }}")),
        ])
        #expect(try step("changelog.update").options == [
            DraftPair("version", .string("${{ steps.version.outputs.version }}")), DraftPair("style", .string("subjects")),
            DraftPair("merge-commits", .string("only")), DraftPair("create", .bool(true)),
        ])
        #expect(try step("appstore.upload").option("ipa") == .string("${{ steps.export.outputs.path }}"))
        #expect(try step("testflight.distribute").option("changelog") == .string("CHANGELOG.md"))
        #expect(try step("testflight.distribute").option("version") == .string("${{ steps.version.outputs.version }}"))
        #expect(try step("testflight.distribute").option("bundle-id") == .string("com.example.app"))
        #expect(try step("git.commit").option("paths") == .list([.string("Config/Version.xcconfig")]))
        #expect(try step("git.push").option("tags") == .list([.string("${{ steps.tag.outputs.tag }}")]))
        #expect(lane.draft.secrets.map(\.name) == ["MATCH_PASSWORD", "ASC_KEY_ID", "ASC_ISSUER_ID", "ASC_KEY"])
        #expect(lane.draft.inputs.map(\.name) == ["scheme"])
    }

    @Test func whatIsNotTranslatedIsListedWithItsLineAndReason() throws {
        let translation = try translate("""
            lane :ship do |options|
              hockey(notes: "x")
              gym(scheme: "App", xcargs: "-quiet", export_method: options[:method])
              if is_ci
                match(type: "adhoc")
              end
              match(type: "appstore", readonly: some_helper)
              UI.message("done")
              increment_build_number(build_number: compute_number())
              slack(message: "shipped") if ENV["SLACK_URL"]
            end
            """)
        let lane = try #require(translation.lanes.first)
        #expect(lane.untranslated.map { "\($0.location) \($0.what): \($0.reason)" } == [
            "fastlane/Fastfile:2 hockey(notes: \"x\"): Slipway has no step for 'hockey'; use a 'run' step or a plugin step",
            "fastlane/Fastfile:3 gym(xcargs: …): xcode.archive has no option for '-quiet'; add it by hand (build-settings, or a 'run' step) if it is needed",
            "fastlane/Fastfile:4 if is_ci …: a Ruby 'if' block (lines 4-6): what runs depends on Ruby; translate the branch you need by hand",
            "fastlane/Fastfile:7 match(readonly: …): its value (some_helper) is only known when Ruby runs",
            "fastlane/Fastfile:8 UI.message(\"done\"): Ruby code, not an action; do it in a 'run' step or drop it",
            "fastlane/Fastfile:9 increment_build_number(build_number: …): its value (compute_number()) is only known when Ruby runs; give version.bump's build-number by hand",
            "fastlane/Fastfile:10 slack(message: \"shipped\") if ENV[\"SLACK_URL\"]: runs only 'if ENV[\"SLACK_URL\"]'; Slipway lanes have no Ruby conditions: keep the step or drop it by hand",
        ])
        // The lane option became an input.
        #expect(lane.draft.inputs.map(\.name) == ["method", "signing-storage"])
        #expect(lane.draft.steps.first { $0.kind == "xcode.export" }?.option("method") == .string("${{ inputs.method }}"))
        #expect(lane.draft.yaml().contains("#   fastlane/Fastfile:2 hockey(notes: \"x\"): Slipway has no step for 'hockey'"))
    }

    @Test func xcargsFlagsThatAreOptionsAndBuildSettingsAreTranslated() throws {
        let translation = try translate("""
            lane :beta do
              build_app(scheme: "App", xcargs: "-skipPackagePluginValidation -skipMacroValidation -allowProvisioningUpdates SWIFT_ACTIVE_COMPILATION_CONDITIONS=BETA")
              scan(scheme: "App", xcargs: "-allowProvisioningUpdates -parallel-testing-enabled NO")
              gym(scheme: "App", xcargs: "-skipMacroValidation OTHER=$(X)")
            end
            """)
        let lane = try #require(translation.lanes.first)
        let archive = try #require(lane.draft.steps.first { $0.kind == "xcode.archive" })
        #expect(archive.option("skip-package-plugin-validation") == .bool(true))
        #expect(archive.option("skip-macro-validation") == .bool(true))
        #expect(archive.option("allow-provisioning-updates") == .bool(true))
        #expect(archive.option("build-settings") == .map([DraftPair("SWIFT_ACTIVE_COMPILATION_CONDITIONS", .string("BETA"))]))
        #expect(lane.untranslated.map { "\($0.location) \($0.what): \($0.reason)" } == [
            "fastlane/Fastfile:3 scan(xcargs: …): xcode.test has no option for '-allowProvisioningUpdates -parallel-testing-enabled NO'; add it by hand (build-settings, or a 'run' step) if it is needed",
            "fastlane/Fastfile:4 gym(xcargs: …): xcode.archive has no option for 'OTHER=$(X)'; add it by hand (build-settings, or a 'run' step) if it is needed",
        ])
    }

    @Test func privateLanesAndBeforeAllAreInlinedWhereFastlaneRunsThem() throws {
        let translation = try translate("""
            before_all do
              ensure_git_status_clean
            end
            private_lane :tests do
              scan(scheme: "AppTests")
            end
            lane :ci do
              tests
              sh("cd .. && make lint")
            end
            """)
        #expect(translation.lanes.map(\.draft.name) == ["ci"])
        let lane = try #require(translation.lanes.first)
        #expect(lane.draft.steps.map(\.kind) == ["git.ensure-clean", "xcode.test", "run"])
        #expect(lane.draft.steps.last?.option("command") == .string("cd fastlane && cd .. && make lint"))
    }

    @Test func theWrittenLaneReadsBackAsTheSameSteps() throws {
        let translation = try translate("""
            lane :tag do
              increment_build_number(build_number: ENV["BUILD_NUMBER"])
              add_git_tag
              push_to_git_remote(remote: "upstream", tags: false)
            end
            """)
        let text = try #require(translation.lanes.first).draft.yaml()
        #expect(text == """
            # Translated by 'slipway init --from-fastlane' from the lane 'tag' in fastlane/Fastfile:1.
            # Check it with 'slipway validate tag --platform macos'; what was not translated is listed
            # at the end of this file and was printed by init.
            description: Translated from fastlane's 'tag' lane

            steps:
              # fastlane/Fastfile:2 increment_build_number(build_number: ENV["BUILD_NUMBER"])
              - version.bump:
                  xcodeproj: App.xcodeproj
                  build-number: "${{ env.BUILD_NUMBER }}"
                  strategy: keep
                id: version
              # fastlane/Fastfile:3 add_git_tag
              - git.tag:
                  name: "builds/tag/${{ env.BUILD_NUMBER }}"
                  message: "builds/tag/${{ env.BUILD_NUMBER }} (fastlane)"
                id: tag
              # fastlane/Fastfile:4 push_to_git_remote(remote: "upstream", tags: false)
              - git.push:
                  remote: upstream

            """)
    }

    @Test func inlinedLanesSeeTheirCallersArgumentsAndEnvironmentSettingsAreSorted() throws {
        let translation = try translate("""
            private_lane :archive do |options|
              gym(scheme: options[:scheme], output_directory: options[:output])
              ipa_path = lane_context[:IPA]
              ipa_path
            end
            lane :release do |options|
              ENV['FASTLANE_USER'] = ENV['APPLE_ID']
              ENV['LOKALISE_TOKEN'] = ENV.fetch('LOKALISE_API_TOKEN')
              ENV['MODE'] = 'release'
              path = archive(scheme: "App", output: options[:dir])
              increment_build_number(build_number: latest_testflight_build_number(version: "2.0", app_identifier: "com.example.app") + 1)
            end
            """)
        let lane = try #require(translation.lanes.first { $0.draft.name == "release" })
        #expect(lane.draft.steps.first { $0.kind == "xcode.archive" }?.option("scheme") == .string("App"))
        #expect(lane.draft.steps.first { $0.kind == "xcode.export" }?.option("export-path") == .string("${{ inputs.dir }}"))
        #expect(lane.draft.inputs.map(\.name) == ["dir"])
        #expect(lane.draft.environment == [DraftPair("LOKALISE_TOKEN", .string("${{ secrets.LOKALISE_API_TOKEN }}")), DraftPair("MODE", .string("release"))])
        #expect(lane.differences.contains("ENV[FASTLANE_USER] = …: fastlane's own settings; Slipway's steps take options and secrets instead"))
        #expect(lane.draft.steps.first { $0.kind == "appstore.build-number" }?.options.filter { ["bundle-id", "version"].contains($0.key) }
                == [DraftPair("bundle-id", .string("com.example.app")), DraftPair("version", .string("2.0"))])
        #expect(lane.untranslated.map(\.what) == ["ipa_path = lane_context[:IPA]"])
    }

    @Test func gymfileAndScanfileGiveDefaults() throws {
        let fastfile = try Fastfile(source: "lane :ship do\n  gym\n  scan(scheme: \"Tests\")\nend\n", path: "fastlane/Fastfile")
        var translator = FastlaneTranslator(fastfile: fastfile, appfile: nil, matchfile: nil, survey: Self.survey)
        translator.gymfile = try FastlaneSettings(source: "scheme 'App-Release'\nconfiguration \"Release\"\n", path: "fastlane/Gymfile")
        translator.scanfile = try FastlaneSettings(source: "scheme 'App'\ndevice 'iPad Air'\n", path: "fastlane/Scanfile")
        let lane = try #require(translator.translate().lanes.first)
        #expect(lane.draft.steps.first { $0.kind == "xcode.archive" }?.option("scheme") == .string("App-Release"))
        #expect(lane.draft.steps.first { $0.kind == "xcode.archive" }?.option("configuration") == .string("Release"))
        #expect(lane.draft.steps.first { $0.kind == "xcode.test" }?.option("scheme") == .string("Tests"))
        #expect(lane.draft.steps.first { $0.kind == "xcode.test" }?.option("destinations") == .list([.string("platform=iOS Simulator,name=iPad Air")]))
    }

    @Test func fastfileTextInCommentsCannotAddKeysToTheLane() throws {
        // A line separator (U+2028) is a line break to YAML 1.1: in a comment it would start a new line.
        let translation = try translate("lane :evil do\n  ensure_git_status_clean\n  hockey(notes: \"x\u{2028}steps: []\u{85}env: {A: b}\")\nend\n")
        let text = try #require(translation.lanes.first).draft.yaml()
        #expect(!text.unicodeScalars.contains { $0 == "\u{2028}" || $0 == "\u{85}" })
        #expect(text.contains("#   fastlane/Fastfile:3 hockey(notes: \"x?steps: []?env: {A: b}\"): Slipway has no step for 'hockey'"))
        #expect(text.components(separatedBy: "\nsteps:").count == 2, "one steps key")
    }

    @Test func aBundleIdTakenFromTheProjectIsSaid() throws {
        let lane = try #require(try translate("lane :beta do\n  pilot(groups: [\"QA\"])\nend\n").lanes.first)
        #expect(lane.draft.steps.last?.option("bundle-id") == .string("com.example.app"))
        #expect(lane.differences.contains("no app_identifier in the action or the Appfile: the bundle id com.example.app is the project's target 'App'; check it"))
    }
}
