@testable import FastlaneImport
import Testing
import TestThreads

/// The translators of the actions Slipway covers another way than fastlane (issue 40, points 2
/// and 5), with fastlane's documented examples.
@Suite(.dedicatedThreads) struct CoveredActionTranslatorTests {
    static let keys = [DraftPair("key-id", .string("${{ secrets.ASC_KEY_ID }}")), DraftPair("issuer-id", .string("${{ secrets.ASC_ISSUER_ID }}")),
                       DraftPair("key", .string("${{ secrets.ASC_KEY }}"))]

    // https://docs.fastlane.tools/actions/deploygate/
    @Test func deploygateDocumentedExamples() throws {
        let lane = try ActionCase("""
            deploygate(
              api_token: "...",
              user: "target username or organization name",
              ipa: "./ipa_file.ipa",
              message: "Build #{lane_context[SharedValues::BUILD_NUMBER]}",
              distribution_key: "(Optional) Target Distribution Key",
              distribution_name: "(Optional) Target Distribution Name"
            )
            deploygate(
              api_token: "...",
              user: "target username or organization name",
              apk: "./apk_file.apk",
              message: "Build #{lane_context[SharedValues::BUILD_NUMBER]}",
              distribution_key: "(Optional) Target Distribution Key",
              distribution_name: "(Optional) Target Distribution Name"
            )
            """)
        #expect(lane.kinds == ["upload", "upload"])
        #expect(lane.steps[0].options == [
            DraftPair("to", .string("deploygate")), DraftPair("files", .list([.string("./ipa_file.ipa")])),
            DraftPair("owner", .string("target username or organization name")), DraftPair("token", .string("${{ secrets.DEPLOYGATE_API_TOKEN }}")),
            DraftPair("distribution-key", .string("(Optional) Target Distribution Key")),
            DraftPair("distribution-name", .string("(Optional) Target Distribution Name")),
        ])
        #expect(lane.steps[1].option("files") == .list([.string("./apk_file.apk")]))
        #expect(lane.listed.count == 2)
        #expect(lane.listed.allSatisfy { $0.hasPrefix("deploygate(message: …): its value") })
        #expect(lane.differences.contains("deploygate's api_token is written in the Fastfile: the lane takes it from the secret DEPLOYGATE_API_TOKEN instead; set that secret, and revoke the one in the Fastfile (it stays in the repository's history)"))
        #expect(lane.lane.draft.secrets.map(\.name) == ["DEPLOYGATE_API_TOKEN"])
    }

    @Test func deploygateWithoutAFileOrABuildAsksForIt() throws {
        let lane = try ActionCase("deploygate(user: 'team', api_token: ENV['DG_KEY'], release_note: 'QA build', disable_notify: true)")
        #expect(lane.steps[0].options == [
            DraftPair("to", .string("deploygate")), DraftPair("files", .list([.string("${{ inputs.ipa }}")])),
            DraftPair("owner", .string("team")), DraftPair("token", .string("${{ secrets.DG_KEY }}")),
            DraftPair("message", .string("No changelog provided")), DraftPair("release-note", .string("QA build")),
            DraftPair("disable-notify", .bool(true)),
        ])
        #expect(lane.listed == [])
        #expect(lane.lane.draft.inputs.map(\.name) == ["ipa"])
    }

    // https://docs.fastlane.tools/actions/upload_to_app_store/
    @Test func uploadToAppStoreDocumentedExamples() throws {
        let lane = try ActionCase("""
            upload_to_app_store(
              force: true, # Set to true to skip verification of HTML preview
              itc_provider: "abcde12345" # pass a specific value to the iTMSTransporter -itc_provider option
            )
            deliver   # alias for "upload_to_app_store"
            appstore  # alias for "upload_to_app_store"
            """, appfile: "app_identifier 'com.example.app'\n")
        #expect(lane.kinds == ["appstore.preflight", "appstore.metadata", "appstore.metadata", "appstore.metadata"])
        #expect(lane.steps[1].options == Self.keys + [
            DraftPair("bundle-id", .string("com.example.app")), DraftPair("metadata-path", .string("fastlane/metadata")),
            DraftPair("screenshots-path", .string("fastlane/screenshots")),
        ])
        let reason = "none given and none built in the lane: deliver uploads the newest *.ipa (or *.pkg) in the project folder when there is one; "
            + "the lane uploads none: add an appstore.upload step if a build should go up"
        #expect(lane.listed == ["upload_to_app_store(ipa: …): " + reason, "deliver(ipa: …): " + reason, "appstore(ipa: …): " + reason])
    }

    @Test func uploadToAppStoreWithAPackageAScheduledReleaseAndNotesByLocale() throws {
        let lane = try ActionCase("""
            deliver(pkg: "build/App.pkg", platform: "osx", app_version: "3.0", submit_for_review: true, skip_screenshots: true,
                    auto_release_date: 1767225600000, phased_release: true, release_notes: { 'en-US' => "Fixes", 'de-DE' => "Fehler behoben" },
                    reject_if_possible: true, price_tier: 0, description: { 'en-US' => "An app" })
            """, appfile: "app_identifier 'com.example.mac'\n")
        #expect(lane.kinds == ["appstore.preflight", "appstore.upload", "appstore.metadata", "appstore.submit"])
        #expect(lane.steps[1].options == Self.keys + [
            DraftPair("ipa", .string("build/App.pkg")), DraftPair("bundle-id", .string("com.example.mac")), DraftPair("version", .string("3.0")),
            DraftPair("build-number", .string("${{ inputs.build-number }}")), DraftPair("platform", .string("MAC_OS")),
        ])
        #expect(lane.steps[3].options == Self.keys + [
            DraftPair("bundle-id", .string("com.example.mac")), DraftPair("version", .string("3.0")), DraftPair("platform", .string("MAC_OS")),
            DraftPair("build-id", .string("${{ steps.upload.outputs.build-id }}")),
            DraftPair("release-notes", .map([DraftPair("en-US", .string("Fixes")), DraftPair("de-DE", .string("Fehler behoben"))])),
            DraftPair("release-type", .string("SCHEDULED")), DraftPair("earliest-release-date", .string("2026-01-01T00:00:00Z")),
            DraftPair("phased-release", .bool(true)),
        ])
        #expect(lane.listed == [
            "deliver(reject_if_possible: …): appstore.submit does not withdraw a version in review; remove it from review in App Store Connect first",
            "deliver(price_tier: …): Slipway does not set prices; set them in App Store Connect",
            "deliver(description: …): write it to <locale>/description.txt in the metadata folder; appstore.metadata sends the folder's texts",
        ])
    }

    @Test func uploadToAppStoreWithoutASubmissionListsTheReleaseOptions() throws {
        let lane = try ActionCase("""
            gym
            upload_to_app_store(skip_screenshots: true, phased_release: true, automatic_release: false)
            upload_to_app_store(skip_metadata: true, phased_release: true)
            """)
        #expect(lane.kinds == ["appstore.preflight", "xcode.archive", "xcode.export", "appstore.upload", "appstore.metadata", "appstore.upload"])
        let setLater = "deliver sets it on the version without submitting; Slipway sets it with appstore.submit (submit: false prepares the "
            + "version with a build without submitting): add that step, or set it in App Store Connect"
        #expect(lane.listed.contains("upload_to_app_store(phased_release: …): " + setLater))
        #expect(lane.listed.contains("upload_to_app_store(automatic_release: …): " + setLater))
        #expect(lane.listed.contains { $0.hasPrefix("upload_to_app_store(skip_metadata: …): appstore.metadata sends the folder's texts with the screenshots") })
        #expect(lane.differences.contains("upload_to_app_store's phased_release: deliver sets them while sending the metadata, so with skip_metadata: true "
                                          + "it ignores them; the lane does too (set them on appstore.submit if they were meant)"))
    }

    /// edit_live: the live version, whose promotional text alone App Store Connect takes.
    @Test func uploadToAppStoreEditingTheLiveVersion() throws {
        let lane = try ActionCase("""
            deliver(edit_live: true, skip_binary_upload: true, skip_screenshots: true, app_version: "1.2")
            """, appfile: "app_identifier 'com.example.app'\n")
        #expect(lane.kinds == ["appstore.preflight", "appstore.metadata"])
        #expect(lane.steps[1].options == Self.keys + [
            DraftPair("bundle-id", .string("com.example.app")), DraftPair("metadata-path", .string("fastlane/metadata")),
            DraftPair("live", .bool(true)), DraftPair("skip-screenshots", .bool(true)),
        ])
        #expect(lane.listed == [])
    }

    /// With skip_metadata, deliver submits an existing build and leaves the release options alone.
    @Test func uploadToAppStoreSubmittingAnExistingBuildWithoutMetadata() throws {
        let lane = try ActionCase("""
            deliver(submit_for_review: true, skip_metadata: true, skip_screenshots: true, automatic_release: true, build_number: "42", app_version: "1.2")
            """, appfile: "app_identifier 'com.example.app'\n")
        #expect(lane.kinds == ["appstore.preflight", "appstore.submit"])
        #expect(lane.steps[1].options == Self.keys + [
            DraftPair("bundle-id", .string("com.example.app")), DraftPair("version", .string("1.2")), DraftPair("build-number", .string("42")),
        ])
        #expect(lane.listed == [])
        #expect(lane.differences.contains("deliver's automatic_release: deliver sets them while sending the metadata, so with skip_metadata: true "
                                          + "it ignores them; the lane does too (set them on appstore.submit if they were meant)"))
    }

    // https://docs.fastlane.tools/actions/slack/
    @Test func slackDocumentedExample() throws {
        let lane = try ActionCase("slack(message: \"App successfully released!\", slack_url: ENV['RELEASES_WEBHOOK'], pretext: 'Release', fail_on_error: false)")
        #expect(lane.steps[0].options == [
            DraftPair("service", .string("slack")), DraftPair("url", .string("${{ secrets.RELEASES_WEBHOOK }}")),
            DraftPair("message", .string("App successfully released!")), DraftPair("title", .string("Release")),
            DraftPair("fail-on-error", .bool(false)),
        ])
        #expect(lane.listed == [])
        #expect(lane.lane.draft.secrets.map(\.name) == ["RELEASES_WEBHOOK"])
    }

    // https://github.com/afonsograca/fastlane-plugin-synx (its Fastfile)
    @Test func synxDocumentedExample() throws {
        let lane = try ActionCase("synx")
        #expect(lane.steps[0].kind == "sync")
        #expect(lane.steps[0].options == [DraftPair("project", .string("App.xcodeproj")), DraftPair("folders-from", .string("names"))])
        #expect(lane.listed == [])
        let excluded = try ActionCase("synx(xcodeproj: 'ios/Shop.xcodeproj', exclusion: '/Shop/Vendor', no_default_exclusions: true, no_color: true)")
        #expect(excluded.steps[0].options == [
            DraftPair("project", .string("ios/Shop.xcodeproj")), DraftPair("folders-from", .string("names")),
            DraftPair("exclude", .list([.string("/Shop/Vendor")])), DraftPair("default-exclusions", .bool(false)),
        ])
    }

    // https://docs.fastlane.tools/actions/get_push_certificate/ (the third example without its
    // new_profile block: Slipway's Ruby reader does not follow a `proc do … end` inside a call's
    // parentheses, and lists the call's lines as Ruby code instead)
    @Test func getPushCertificateDocumentedExamplesAreListedWithTheCommands() throws {
        let lane = try ActionCase("""
            get_push_certificate
            pem # alias for "get_push_certificate"
            get_push_certificate(
              force: true, # create a new profile, even if the old one is still valid
              app_identifier: "net.sunapps.9", # optional app identifier,
              save_private_key: true
            )
            """)
        #expect(lane.steps.isEmpty)
        #expect(lane.lane.untranslated.count == 3)
        #expect(lane.lane.untranslated.allSatisfy { $0.reason.hasPrefix("not a lane step: Apple's API cannot make push certificates") })
        #expect(lane.lane.untranslated.last?.reason.contains("'slipway push check push.p12 --topic net.sunapps.9'") == true)
        // A value only Ruby knows is in the listed call already.
        let constant = try ActionCase("pem(app_identifier: APP_ID, development: true)")
        #expect(constant.lane.untranslated.count == 1)
    }

    // https://docs.fastlane.tools/actions/cocoapods/
    @Test func cocoapodsDocumentedExamples() throws {
        let lane = try ActionCase("""
            cocoapods
            cocoapods(
              clean_install: true,
              podfile: "./CustomPodfile"
            )
            """)
        #expect(lane.steps.map { $0.option("command") } == [.string("pod install"), .string("cd . && pod install --clean-install")])
        #expect(lane.listed == [])
    }

    @Test func cocoapodsWithValuesOnlyRubyKnowsListsThem() throws {
        let lane = try ActionCase("cocoapods(repo_update: ENV['CI'] == 'true', podfile: PODFILE)")
        #expect(lane.steps.isEmpty)
        #expect(lane.lane.untranslated.map(\.reason).contains("cocoapods with a podfile only Ruby knows: write the run step by hand (cd FOLDER && pod install)"))
    }
}

/// The covered actions' translators are registered under every name, and each parameter is in its
/// table once.
@Suite(.dedicatedThreads) struct CoveredActionRegistryTests {
    @Test func everyNameFindsItsTranslatorAndEveryParameterIsListedOnce() {
        let translators: [any FastlaneActionTranslator.Type] = [DeployGateTranslator.self, UploadToAppStoreTranslator.self, SlackTranslator.self,
                                                               SynxTranslator.self, PushCertificateTranslator.self, CocoaPodsTranslator.self]
        for translator in translators {
            for name in translator.names { #expect(FastlaneActionRegistry.translator(for: name) == translator, "\(name)") }
            let names = translator.parameters.map(\.name)
            #expect(Set(names).count == names.count, "\(translator.names[0]) lists a parameter twice")
            #expect(translator.documentation.hasPrefix("https://"))
        }
        #expect(UploadToAppStoreTranslator.parameters.count == 75)  // deliver/lib/deliver/options.rb
        #expect(!PushCertificateTranslator.makesSteps)
    }
}
