import Foundation
import SlipwayCLI
import Testing
import TestSupport
import TestThreads

/// Issue 40 through the binary: every argument and call is translated with the same effect or
/// listed with what to do (points 1, 3, 4, 6 and 7).
@Suite(.dedicatedThreads) struct InitFromFastlaneRulesTests {
    let base = InitFromFastlaneTests()

    func slipway(_ arguments: [String], in directory: String) throws -> CommandResult {
        try base.slipway(arguments, in: directory)
    }

    func lane(_ name: String, in folder: TemporaryDirectory) throws -> String {
        try String(contentsOfFile: folder.path + "/lanes/\(name).yml", encoding: .utf8)
    }

    /// Point 1: `git_commit(path: SOME_CONSTANT)` must not become a commit of every change.
    @Test func aCommitPathOnlyRubyKnowsFailsValidationUntilItIsWritten() throws {
        let folder = try base.project(fastfile: """
            lane :release do
              increment_build_number(build_number: 42)
              git_commit(path: VERSION_FILE, message: 'Bump')
              push_to_git_remote
            end
            """)
        let result = try slipway(["init", "--from-fastlane"], in: folder.path)
        #expect(result.status == 0, "\(result.standardError)")
        #expect(result.standardOutput.contains("""
              not translated: fastlane/Fastfile:3 git_commit(path: …) — its value (VERSION_FILE) is only known when Ruby runs: fastlane commits only those paths, and git.commit without paths would commit every tracked change. The step's paths is ${{ inputs.git-commit-paths }}, an input the lane does not declare, so 'slipway validate' fails until you write the paths there

            """))
        let text = try lane("release", in: folder)
        #expect(text.contains("      paths: \"${{ inputs.git-commit-paths }}\"\n      allow-dirty: true\n"))
        let before = try Snapshot.of(folder.path)
        let validate = try slipway(["validate", "release", "--platform", "macos"], in: folder.path)
        #expect(validate.status == 2)
        #expect(validate.standardError.contains("lanes/release.yml:16:15: error: 'inputs.git-commit-paths' refers to an undeclared input. Declare it under 'inputs:'."),
                "\(validate.standardOutput)\(validate.standardError)")
        #expect(validate.standardOutput.contains("✗ release: 1 problem(s)"), "\(validate.standardOutput)")
        #expect(try Snapshot.of(folder.path) == before)

        // Written by hand, the lane validates.
        try folder.write("lanes/release.yml", text.replacingOccurrences(of: "\"${{ inputs.git-commit-paths }}\"", with: "[Config/Version.xcconfig]"))
        let fixed = try slipway(["validate", "release", "--platform", "macos"], in: folder.path)
        #expect(fixed.status == 0, "\(fixed.standardOutput)\(fixed.standardError)")
    }

    /// Points 3 and 4: the version bump says where it starts; a Fastfile's own
    /// commit_version_bump is the Fastfile's, not the action.
    @Test func theProjectsVersionAndTheFastfilesOwnMethod() throws {
        let folder = try base.project(fastfile: """
            def commit_version_bump(message:)
              git_commit(path: ['App.xcodeproj/project.pbxproj'], message: message)
            end

            lane :release do
              increment_version_number(bump_type: 'minor')
              commit_version_bump(message: 'Release')
            end
            """)
        let result = try slipway(["init", "--from-fastlane"], in: folder.path)
        #expect(result.status == 0, "\(result.standardError)")
        #expect(result.standardOutput.contains("""
              differs:        increment_version_number: version.bump's strategy minor starts from the project's version (MARKETING_VERSION in App.xcodeproj, where the app and its extensions define it), as fastlane does; a result at or below the latest release tag is refused
              differs:        'commit_version_bump' is a helper method the Fastfile defines (fastlane/Fastfile:1); Ruby calls it, not an action of that name: its calls are inlined where it is called

            """))
        let text = try lane("release", in: folder)
        #expect(text.contains("""
              # fastlane/Fastfile:2 git_commit(path: ['App.xcodeproj/project.pbxproj'], message: message)
              - git.commit:
                  message: Release
                  paths: [App.xcodeproj/project.pbxproj]
                  allow-dirty: true
            """))
        #expect(result.standardOutput.contains("0 items not translated"))
    }

    /// Point 6: match's non-literal arguments are each listed; the Appfile's bundle id is used
    /// (said), and the storage a splat sets is a required input.
    @Test func matchWithRubyValues() throws {
        let folder = try base.project(fastfile: """
            platform :ios do
              lane :certs do
                match(app_identifier: APP_ID, team_id: get_required_env('TEAM_ID'), readonly: true, **STORAGE_OPTIONS)
              end
            end
            """, appfile: "app_identifier 'com.example.app'\n")
        let result = try slipway(["init", "--from-fastlane"], in: folder.path)
        #expect(result.status == 0, "\(result.standardError)")
        #expect(result.standardOutput.contains("""
              not translated: fastlane/Fastfile:3 match(**STORAGE_OPTIONS) — a splat: the arguments it passes are only known when Ruby runs; write them out in the call (each becomes an option or is listed)
              not translated: fastlane/Fastfile:3 match(app_identifier: …) — its value (APP_ID) is only known when Ruby runs; check bundle-ids, which the lane takes from the Matchfile's or Appfile's app_identifier
              not translated: fastlane/Fastfile:3 match(team_id: …) — its value (get_required_env('TEAM_ID')) is only known when Ruby runs; the lane does not have it: give the value by hand

            """))
        #expect(!result.standardOutput.contains("no bundle id found"))
        #expect(result.standardOutput.contains("differs:        match's bundle ids are the Matchfile's or Appfile's app_identifier ('com.example.app')"))
        let text = try lane("certs", in: folder)
        #expect(text.contains("  signing-storage:\n    description: \"match's storage, which **STORAGE_OPTIONS sets in the Fastfile: a git URL, s3://BUCKET/PREFIX or a folder\"\n    required: true\n"))
        #expect(text.contains("      storage: \"${{ inputs.signing-storage }}\"\n"))
    }

    /// Point 7: include_symbols, skip_package_ipa, the platform lane's tag, a `sh` on gym's
    /// .ipa, Ruby helpers and top-level assignments.
    @Test func argumentsAreCarriedOrListed() throws {
        let folder = try base.project(fastfile: """
            OUTPUT = 'build'
            STORAGE = storage_from_vault()

            def run_ui_tests(devices)
              devices.each { |d| scan(device: d) }
            end

            platform :ios do
              lane :release do
                increment_build_number(build_number: 7)
                gym(scheme: 'App', export_method: 'app-store', include_symbols: false, output_directory: OUTPUT)
                sh('cd .. && rm App.ipa')
                add_git_tag
                run_ui_tests(['iPhone 15'])
              end
              lane :archive_only do
                gym(scheme: 'App', skip_package_ipa: true, archive_path: 'build/App')
              end
            end
            """)
        let result = try slipway(["init", "--from-fastlane"], in: folder.path)
        #expect(result.status == 0, "\(result.standardError)")
        #expect(result.standardOutput.contains("""
              not translated: fastlane/Fastfile:12 sh('cd .. && rm App.ipa') — names a file gym made (.ipa) where gym put it; xcode.export puts its file at ${{ steps.export.outputs.path }} (in build) and the dSYMs stay in the archive: write the command with that path in a run step
              not translated: fastlane/Fastfile:14 run_ui_tests(['iPhone 15']) — a helper method defined at fastlane/Fastfile:4 (its body is more than plain calls (line 5)); translate by hand

            """))
        #expect(!result.standardOutput.contains("Slipway has no step for 'run_ui_tests'"))
        #expect(result.standardOutput.contains("note: fastlane/Fastfile:2: 'STORAGE = storage_from_vault()' is a top-level value only Ruby knows; every argument that uses STORAGE is listed"))
        #expect(result.standardOutput.contains("differs:        gym's skip_package_ipa: true: no xcode.export step; the lane stops at the archive (${{ steps.archive.outputs.archive }})"))
        let release = try lane("release", in: folder)
        #expect(release.contains("      export-path: build\n"))
        #expect(release.contains("      upload-symbols: false\n"))
        #expect(release.contains("      name: builds/iosrelease/7\n      message: builds/iosrelease/7 (fastlane)\n"))
        #expect(!release.contains("rm App.ipa\n"))
        let archive = try lane("archive-only", in: folder)
        #expect(archive.contains("      archive-path: build/App.xcarchive\n"))
        #expect(!archive.contains("xcode.export"))
    }
}
