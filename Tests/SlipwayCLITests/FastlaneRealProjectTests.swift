import Foundation
import Testing
import TestSupport
import TestThreads

/// `init --from-fastlane` on a real project file: home-assistant/iOS's pbxproj from the shared
/// corpus (a CocoaPods project whose version lives in Configuration/Version.xcconfig, reached
/// through the Pods and project xcconfigs), with a Fastfile written here in the shape of that
/// app's lanes (a `setup` private lane run from `before_all`, `run_tests`, a `create_archive`
/// private lane returning `build_ios_app`'s ipa, an upload, a Gymfile, an Appfile and a Matchfile
/// reading the environment). The written lanes must validate as on macOS and plan from Linux.
@Suite(.dedicatedThreads) struct FastlaneRealProjectTests {
    static let fastfile = """
        fastlane_version '2.137.0'
        default_platform :ios

        before_all do
          setup
        end

        private_lane :setup do
          ENV['FASTLANE_TEAM_ID'] = ENV.fetch('HOMEASSISTANT_TEAM_ID', nil)
          ENV['LOKALISE_PROJECT_ID'] = ENV.fetch('HOMEASSISTANT_LOKALIZE_PROJECT_ID', nil)
          app_store_connect_api_key if ENV['APP_STORE_CONNECT_API_KEY_KEY']
        end

        desc 'Run tests'
        lane :test do
          run_tests(
            project: 'HomeAssistant.xcodeproj',
            scheme: 'Tests-Unit',
            result_bundle: true,
            destination: 'platform=iOS Simulator,name=iPhone 16,OS=18.2'
          )
        end

        platform :ios do
          private_lane :create_archive do
            sync_code_signing(type: 'appstore', readonly: is_ci)
            increment_build_number(build_number: ENV['GITHUB_RUN_NUMBER'])
            ipa_path = build_ios_app(
              export_method: 'app-store',
              output_directory: './build/ios',
              export_options: { signingStyle: 'manual' }
            )
            ipa_path
          end

          lane :build do
            ipa_path = create_archive
            upload_to_testflight(ipa: ipa_path, skip_waiting_for_build_processing: true)
          end
        end
        """

    static func scheme(_ target: String) -> String {
        """
        <?xml version="1.0" encoding="UTF-8"?>
        <Scheme LastUpgradeVersion = "1500" version = "1.7">
           <BuildAction parallelizeBuildables = "YES" buildImplicitDependencies = "YES">
              <BuildActionEntries>
                 <BuildActionEntry buildForTesting = "YES" buildForRunning = "YES" buildForProfiling = "YES" buildForArchiving = "YES" buildForAnalyzing = "YES">
                    <BuildableReference BuildableIdentifier = "primary" BlueprintIdentifier = "B657A8E51CA646EB00121384" BuildableName = "\(target).app" BlueprintName = "\(target)" ReferencedContainer = "container:HomeAssistant.xcodeproj">
                    </BuildableReference>
                 </BuildActionEntry>
              </BuildActionEntries>
           </BuildAction>
           <LaunchAction buildConfiguration = "Release"></LaunchAction>
           <ArchiveAction buildConfiguration = "Release" revealArchiveInOrganizer = "YES"></ArchiveAction>
        </Scheme>
        """
    }

    @Test func homeAssistantsLanesTranslateValidateAsMacOSAndPlan() throws {
        guard let corpus = Corpus.pbxprojDirectory else {
            print("skipped: the shared corpus (../shared/corpus/pbxproj) is not here")
            return
        }
        let pbxproj = try String(contentsOfFile: corpus + "/files/home-assistant__iOS__HomeAssistant-2021-01-objv53.pbxproj", encoding: .utf8)
        let repo = try GitFixture(prefix: "slipway-ha")
        var files: [String: String] = [
            ".gitignore": "/.slipway/\n/build/\n",
            "HomeAssistant.xcodeproj/project.pbxproj": pbxproj,
            "HomeAssistant.xcodeproj/xcshareddata/xcschemes/App-Release.xcscheme": Self.scheme("App"),
            "HomeAssistant.xcodeproj/xcshareddata/xcschemes/Tests-Unit.xcscheme": Self.scheme("Tests-App"),
            "Configuration/Version.xcconfig": "MARKETING_VERSION = 2021.1\nCURRENT_PROJECT_VERSION = 2021.1.3\n",
            "Configuration/HomeAssistant.xcconfig": "#include \"Version.xcconfig\"\nDEVELOPMENT_TEAM = QMQYCKL255\n",
            "fastlane/Fastfile": Self.fastfile,
            "fastlane/Appfile": "apple_id ENV[\"HOMEASSISTANT_APPLE_ID\"]\nteam_id ENV[\"HOMEASSISTANT_TEAM_ID\"]\n",
            "fastlane/Matchfile": "git_url ENV[\"HOMEASSISTANT_CERTIFICATE_GIT\"]\ntype \"appstore\"\n",
            "fastlane/Gymfile": "project \"HomeAssistant.xcodeproj\"\nclean true\nscheme \"App-Release\"\n",
            "CHANGELOG.md": "# Changelog\n\n## [Unreleased]\n",
        ]
        for name in ["debug", "beta", "release"] {
            files["Configuration/HomeAssistant.\(name).xcconfig"] = "#include \"HomeAssistant.xcconfig\"\n"
        }
        // The xcconfigs `pod install` writes: present, as after 'pod install'.
        for match in pbxproj.matches(of: /path = "(Pods\/Target Support Files\/[^"]+\.xcconfig)"/) {
            files[String(match.1)] = "OTHER_LDFLAGS = $(inherited) -ObjC\n"
        }
        try repo.commit("chore: start", files: files)
        try repo.git("tag", "2021.1")

        let translated = try CommandResult.run(Binaries.slipway, ["init", "--from-fastlane"], in: repo.path, environment: ["NO_COLOR": "1"])
        #expect(translated.status == 0, "\(translated.standardError)")
        #expect(translated.standardOutput.contains("lane 'test' → lanes/test.yml, 1 step from 2 actions"), "\(translated.standardOutput)")
        #expect(translated.standardOutput.contains("lane 'ios build' → lanes/build.yml, 6 steps from 5 actions"), "\(translated.standardOutput)")
        #expect(translated.standardOutput.hasSuffix("2 lanes written, 0 items not translated. Next: 'slipway validate NAME --platform macos' for each lane.\n"))
        let lane = try String(contentsOfFile: repo.path + "/lanes/build.yml", encoding: .utf8)
        for expected in ["  - signing.sync:\n", "      storage: \"${{ env.HOMEASSISTANT_CERTIFICATE_GIT }}\"\n",
                         "      build-number: \"${{ env.GITHUB_RUN_NUMBER }}\"\n      strategy: keep\n",
                         "      scheme: App-Release\n", "      signing-style: manual\n",
                         "      ipa: \"${{ steps.export.outputs.path }}\"\n      wait-for-processing: false\n",
                         "  LOKALISE_PROJECT_ID: \"${{ env.HOMEASSISTANT_LOKALIZE_PROJECT_ID }}\"\n"] {
            #expect(lane.contains(expected), "missing \(expected) in:\n\(lane)")
        }

        for name in ["test", "build"] {
            let validated = try CommandResult.run(Binaries.slipway, ["validate", name, "--platform", "macos"], in: repo.path,
                                                  environment: ["NO_COLOR": "1"])
            #expect(validated.status == 0, "\(name): \(validated.standardOutput)\(validated.standardError)")
        }
        let before = try Snapshot.of(repo.path).filter { !$0.key.hasPrefix(".git/") }
        let plan = try CommandResult.run(Binaries.slipway, ["run", "build", "--dry-run", "--platform", "macos", "--input", "bundle-id=io.robbie.HomeAssistant"], in: repo.path,
                                         environment: ["NO_COLOR": "1", "GITHUB_RUN_NUMBER": "7", "HOMEASSISTANT_CERTIFICATE_GIT": "\(repo.path)/no-storage"])
        // The version lives in Configuration/Version.xcconfig, reached through the Pods and project xcconfigs.
        #expect(plan.standardOutput.contains("would write: Configuration/Version.xcconfig:2 CURRENT_PROJECT_VERSION 2021.1.3 -> 7"), "\(plan.standardOutput)\(plan.standardError)")
        #expect(plan.standardOutput.contains("xcodebuild -project "), "\(plan.standardOutput)")
        #expect(try Snapshot.of(repo.path).filter { !$0.key.hasPrefix(".git/") } == before)
    }
}
