@testable import FastlaneImport
import Testing
import TestThreads

/// match (sync_code_signing) and pilot (upload_to_testflight), with fastlane's documented examples.
@Suite(.dedicatedThreads) struct SigningActionTranslatorTests {
    static let key = [DraftPair("key-id", .string("${{ secrets.ASC_KEY_ID }}")), DraftPair("issuer-id", .string("${{ secrets.ASC_ISSUER_ID }}")),
                      DraftPair("key", .string("${{ secrets.ASC_KEY }}"))]

    // https://docs.fastlane.tools/actions/sync_code_signing/
    @Test func syncCodeSigningDocumentedExamples() throws {
        let appstore = try ActionCase(#"sync_code_signing(type: "appstore", app_identifier: "tools.fastlane.app")"#)
        #expect(try appstore.step("signing.sync").options == [
            DraftPair("type", .string("app-store")), DraftPair("bundle-ids", .list([.string("tools.fastlane.app")])),
            DraftPair("passphrase", .string("${{ secrets.MATCH_PASSWORD }}")), DraftPair("storage", .string("${{ inputs.signing-storage }}")),
            DraftPair("format", .string("match")),
        ] + Self.key)
        #expect(appstore.listed == [])
        let readonly = try ActionCase(#"sync_code_signing(type: "development", readonly: true)"#)
        #expect(try readonly.step("signing.sync").option("readonly") == .bool(true))
        #expect(try readonly.step("signing.sync").option("bundle-ids") == .list([.string("com.example.app"), .string("com.example.app.widget")]))
        let two = try ActionCase(#"sync_code_signing(app_identifier: ["tools.fastlane.app", "tools.fastlane.sleepy"])"#)
        #expect(try two.step("signing.sync").option("bundle-ids") == .list([.string("tools.fastlane.app"), .string("tools.fastlane.sleepy")]))
        #expect(try two.step("signing.sync").option("type") == .string("development"))
        #expect(try ActionCase("match").kinds == ["signing.sync"])
    }

    /// Issue 40, point 6: every argument only Ruby knows is listed; the bundle ids fall back to
    /// the Appfile's (said); a splat's storage is a required input, never a guessed git URL.
    @Test func matchWithRubyValuesListsEachAndFallsBack() throws {
        let lane = try ActionCase("""
            match(type: 'appstore', app_identifier: APP_IDS, team_id: get_required_env('TEAM_ID'), readonly: true, **STORAGE_OPTIONS)
            """, appfile: "app_identifier 'com.example.app'\n")
        let step = try lane.step("signing.sync")
        #expect(step.option("bundle-ids") == .list([.string("com.example.app")]))
        #expect(step.option("storage") == .string("${{ inputs.signing-storage }}"))
        #expect(step.option("git-branch") == nil)
        #expect(lane.listed == [
            "match(**STORAGE_OPTIONS): a splat: the arguments it passes are only known when Ruby runs; write them out in the call (each becomes an option or is listed)",
            "match(app_identifier: …): its value (APP_IDS) is only known when Ruby runs; check bundle-ids, which the lane takes from the Matchfile's or Appfile's app_identifier",
            "match(team_id: …): its value (get_required_env('TEAM_ID')) is only known when Ruby runs; the lane does not have it: give the value by hand",
        ])
        #expect(lane.differences.contains("match's bundle ids are the Matchfile's or Appfile's app_identifier ('com.example.app')"))
        #expect(lane.differences.contains { $0.hasPrefix("match's storage comes from **STORAGE_OPTIONS, which only Ruby knows") })
        #expect(lane.lane.draft.inputs.map(\.name) == ["signing-storage"])
        #expect(lane.lane.draft.inputs.first?.defaultValue == nil)
    }

    @Test func aLiteralSplatConstantIsReadAsItsKeywords() throws {
        let lane = try ActionCase("match(type: 'appstore', **STORAGE)", before: "STORAGE = { storage_mode: 's3', s3_bucket: 'certs', s3_region: 'eu-west-1' }\n")
        let step = try lane.step("signing.sync")
        #expect(step.option("storage") == .string("s3://certs"))
        #expect(step.option("s3-region") == .string("eu-west-1"))
        #expect(lane.listed == [])
    }

    @Test func matchWithoutAnyBundleIdSaysWhereItLooked() throws {
        var survey = FastlaneTranslatorTests.survey
        survey.shippingTargets = []
        let lane = try ActionCase("match(type: 'appstore', app_identifier: ENV_IDS)", survey: survey)
        #expect(try lane.step("signing.sync").option("bundle-ids") == .list([.string("${{ inputs.bundle-id }}")]))
        #expect(lane.listed == ["match(app_identifier: …): its value (ENV_IDS) is only known when Ruby runs; check bundle-ids, which the lane takes from the bundle-id input"])
    }

    // https://docs.fastlane.tools/actions/upload_to_testflight/
    @Test func uploadToTestflightDocumentedExamples() throws {
        for alias in ["upload_to_testflight", "testflight", "pilot"] {
            let lane = try ActionCase(alias)
            #expect(lane.kinds == ["appstore.preflight", "appstore.upload"], "\(alias)")
            #expect(lane.listed == [])
        }
        #expect(try ActionCase("upload_to_testflight(skip_submission: true)").kinds == ["appstore.preflight", "appstore.upload"])
        let provider = try ActionCase(#"upload_to_testflight(username: "felix@krausefx.com", app_identifier: "com.krausefx.app", itc_provider: "abcde12345")"#)
        #expect(provider.kinds == ["appstore.preflight", "appstore.upload"])
        #expect(provider.listed == [])
        let info = try ActionCase("""
            upload_to_testflight(
              beta_app_feedback_email: "email@email.com",
              beta_app_description: "This is a description of my app",
              demo_account_required: true,
              notify_external_testers: false,
              changelog: "This is my changelog of things that have changed in a log"
            )
            """)
        #expect(info.kinds == ["appstore.preflight", "appstore.upload", "testflight.distribute"])
        #expect(try info.step("testflight.distribute").option("what-to-test") == .map([DraftPair("en-US", .string("This is my changelog of things that have changed in a log"))]))
        #expect(try info.step("testflight.distribute").option("notify") == .bool(false))
        let reason = "test information is set once in App Store Connect, not per upload; testflight.distribute sets What to Test only"
        #expect(info.listed == ["upload_to_testflight(beta_app_feedback_email: …): " + reason, "upload_to_testflight(beta_app_description: …): " + reason,
                                "upload_to_testflight(demo_account_required: …): " + reason])
        let localized = try ActionCase("""
            upload_to_testflight(localized_build_info: { "default": { whats_new: "Default changelog" }, "en-GB": { whats_new: "en-gb changelog" } })
            """)
        #expect(try localized.step("testflight.distribute").option("what-to-test") == .map([
            DraftPair("en-US", .string("Default changelog")), DraftPair("en-GB", .string("en-gb changelog")),
        ]))
    }

    /// Issue 40, point 5: testflight was "no step", and the whole TestFlight lane was dropped.
    @Test func testflightIsPilot() throws {
        let lane = try ActionCase(#"testflight(groups: ["QA"], ipa: "build/App.ipa")"#)
        #expect(lane.kinds == ["appstore.preflight", "appstore.upload", "testflight.distribute"])
        #expect(try lane.step("appstore.upload").option("ipa") == .string("build/App.ipa"))
        #expect(lane.lane.translated == ["testflight"])
    }
}
