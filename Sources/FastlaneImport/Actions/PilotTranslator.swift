import Basics

/// `upload_to_testflight` (`pilot`, `testflight`) → `appstore.upload` (id `upload`) and, when
/// the build goes to testers, `testflight.distribute` (id `testflight`).
enum PilotTranslator: FastlaneActionTranslator {
    static let names = ["upload_to_testflight", "pilot", "testflight"]
    static let documentation = docs("upload_to_testflight")
    static let defaults = [
        "the .ipa is the one gym made last (lane_context); the lane uses the last xcode.export's path",
        "pilot waits for processing unless skip_waiting_for_build_processing; so does appstore.upload unless wait-for-processing: false",
    ]

    private static let testers = "tester commands are not a lane action: 'slipway testflight testers' (docs/testflight-testers.md)"
    private static let appInfo = "test information is set once in App Store Connect, not per upload; testflight.distribute sets What to Test only"
    private static let key = "the App Store Connect key comes from the ASC_KEY_ID, ASC_ISSUER_ID and ASC_KEY secrets"

    static let parameters: [FastlaneParameter] = [
        .handled("api_key_path", key), .handled("api_key", key),
        .handled("username", "not needed: the steps sign in with the App Store Connect key"),
        .handled("app_identifier", "testflight.distribute's bundle-id (else the Appfile's, else the project's app)"),
        .handled("app_platform", "appstore.upload's platform"),
        .handled("apple_id", "not needed: the API finds the app by its bundle id"),
        .handled("ipa", "appstore.upload's ipa (else the last xcode.export's file)"),
        .handled("pkg", "appstore.upload's ipa (it takes a .pkg too)"),
        .listed("demo_account_required", appInfo),
        .listed("beta_app_review_info", appInfo),
        .listed("localized_app_info", appInfo),
        .listed("beta_app_description", appInfo),
        .listed("beta_app_feedback_email", appInfo),
        .handled("localized_build_info", "testflight.distribute's what-to-test, by locale (whats_new)"),
        .handled("changelog", "testflight.distribute's what-to-test (en-US), or the changelog.update entry it was made from"),
        .handled("skip_submission", "true: appstore.upload only"),
        .handled("skip_waiting_for_build_processing", "appstore.upload's wait-for-processing: false, and no distribution (said)"),
        .handled("update_build_info_on_upload", "deprecated in fastlane; What to Test is set after processing"),
        .listed("app_clip_invocations", "testflight.distribute does not set App Clip invocations; set them in App Store Connect"),
        .listed("overwrite_app_clip_invocations", "testflight.distribute does not set App Clip invocations; set them in App Store Connect"),
        .listed("distribute_only", "distributes an earlier upload: write a testflight.distribute step with version and build-number by hand"),
        .handled("uses_non_exempt_encryption", "testflight.distribute's uses-non-exempt-encryption"),
        .handled("distribute_external", "false: testflight.distribute's submit-for-review: false"),
        .handled("notify_external_testers", "testflight.distribute's notify"),
        .listed("app_version", "appstore.upload reads the version from the .ipa; set appstore.upload's version if it must differ"),
        .listed("build_number", "appstore.upload reads the build number from the .ipa; set appstore.upload's build-number if it must differ"),
        .listed("expire_previous_builds", "testflight.distribute does not expire builds; expire them in App Store Connect"),
        .listed("first_name", testers), .listed("last_name", testers), .listed("email", testers), .listed("testers_file_path", testers),
        .handled("groups", "testflight.distribute's groups"),
        .handled("team_id", "the App Store Connect key belongs to one team"),
        .handled("team_name", "the App Store Connect key belongs to one team"),
        .handled("dev_portal_team_id", "the App Store Connect key belongs to one team"),
        .handled("itc_provider", "not needed: appstore.upload uses the App Store Connect API, not the Transporter"),
        .handled("provider_public_id", "not needed: appstore.upload uses the App Store Connect API, not altool"),
        .handled("wait_processing_interval", "appstore.upload polls with its own interval (poll-interval)"),
        .listed("wait_processing_timeout_duration", "appstore.upload waits up to its timeout (default 60m); set timeout to the seconds fastlane waited"),
        .handled("wait_for_uploaded_build", "testflight.distribute distributes the uploaded build (build-id)"),
        .listed("reject_build_waiting_for_review", "testflight.distribute does not withdraw earlier builds from review"),
        .handled("submit_beta_review", "false: testflight.distribute's submit-for-review: false"),
    ]

    static func translate(_ call: RubyCall, _ statement: Fastfile.Statement, into builder: inout LaneBuilder) {
        var upload = builder.appStoreKeyOptions()
        upload.append(DraftPair("ipa", ipa(call, statement, &builder)))
        let skipWaiting: Bool
        if case .bool(true)? = call.argument("skip_waiting_for_build_processing") { skipWaiting = true } else { skipWaiting = false }
        if skipWaiting { upload.append(DraftPair("wait-for-processing", .bool(false))) }
        if let platform = call.argument("app_platform")?.text {
            let platforms = ["ios": "IOS", "osx": "MAC_OS", "appletvos": "TV_OS", "xros": "VISION_OS"]
            if let mapped = platforms[platform] { upload.append(DraftPair("platform", .string(mapped))) }
        }
        let uploadID = builder.add("appstore.upload", id: "upload", upload, from: statement) ?? "upload"
        if case .bool(true)? = call.argument("skip_submission") { return }
        let wantsDistribution = ["groups", "changelog", "distribute_external", "localized_build_info"].contains { call.argument($0) != nil }
        guard wantsDistribution else { return }
        if skipWaiting {
            builder.differ("pilot's skip_waiting_for_build_processing: the build cannot be distributed before it is processed, so no testflight.distribute step was added")
            return
        }
        distribute(call, statement, build: uploadID, &builder)
    }

    static func ipa(_ call: RubyCall, _ statement: Fastfile.Statement, _ builder: inout LaneBuilder) -> DraftValue {
        if let ipa = builder.literal(call, "ipa", statement) ?? builder.literal(call, "pkg", statement) { return ipa }
        if let export = builder.draft.steps.last(where: { $0.kind == "xcode.export" })?.id {
            return .string("${{ steps.\(export).outputs.path }}")
        }
        builder.draft.requireInput("ipa", "The .ipa to upload")
        return .string("${{ inputs.ipa }}")
    }

    static func distribute(_ call: RubyCall, _ statement: Fastfile.Statement, build uploadID: String, _ builder: inout LaneBuilder) {
        var distribute = builder.appStoreKeyOptions()
        let bundleID = builder.bundleID(call.argument("app_identifier"), statement)
        if bundleID == nil { builder.draft.requireInput("bundle-id", "The app's bundle id") }
        distribute.append(DraftPair("bundle-id", bundleID ?? .string("${{ inputs.bundle-id }}")))
        distribute.append(DraftPair("build-id", .string("${{ steps.\(uploadID).outputs.build-id }}")))
        if let groups = call.argument("groups") {
            if let list = builder.value(.array(groups.list), statement: statement) { distribute.append(DraftPair("groups", list)) }
        }
        whatToTest(call, statement, into: &distribute, &builder)
        if let notify = builder.literal(call, "notify_external_testers", statement) {
            distribute.append(DraftPair("notify", notify))
        }
        if case .bool(false)? = call.argument("distribute_external") {
            distribute.append(DraftPair("submit-for-review", .bool(false)))
        } else if case .bool(false)? = call.argument("submit_beta_review") {
            distribute.append(DraftPair("submit-for-review", .bool(false)))
        }
        if let encryption = builder.literal(call, "uses_non_exempt_encryption", statement) {
            distribute.append(DraftPair("uses-non-exempt-encryption", encryption))
        }
        builder.add("testflight.distribute", id: "testflight", distribute, from: statement)
    }

    /// changelog (a text, or the changelog.update entry it came from) and localized_build_info.
    static func whatToTest(_ call: RubyCall, _ statement: Fastfile.Statement, into options: inout [DraftPair], _ builder: inout LaneBuilder) {
        if let changelog = call.argument("changelog") {
            if case .expression(let name) = changelog, builder.bindings[name] == .changelog,
               let step = builder.draft.steps.last(where: { $0.kind == "changelog.update" }) {
                options.append(DraftPair("version", .string(builder.versionExpression(statement))))
                options.append(DraftPair("changelog", step.option("path") ?? .string("CHANGELOG.md")))
            } else if let text = builder.value(changelog, statement: statement) {
                options.append(DraftPair("what-to-test", .map([DraftPair("en-US", text)])))
            } else {
                builder.skipArgument(call.name, "changelog", statement,
                                     "its value (\(LaneBuilder.source(of: changelog))) is only known when Ruby runs; set what-to-test or changelog on testflight.distribute")
            }
        }
        guard let localized = call.argument("localized_build_info") else { return }
        guard case .hash(let locales) = localized else { return } // listed after translate: only Ruby knows it
        var texts: [DraftPair] = []
        for locale in locales {
            guard case .hash(let fields) = locale.value, let whatsNew = fields.first(where: { $0.key == "whats_new" })?.value,
                  let text = builder.value(whatsNew, statement: statement) else {
                builder.skipArgument(call.name, "localized_build_info[\(locale.key)]", statement, "not a literal whats_new text; set what-to-test for it by hand")
                continue
            }
            texts.append(DraftPair(locale.key == "default" ? "en-US" : locale.key, text))
        }
        if locales.contains(where: { $0.key == "default" }) {
            builder.differ("pilot's localized_build_info 'default' applies to every locale; the lane sets it for en-US (add the app's other locales to what-to-test)")
        }
        if !texts.isEmpty {
            options.removeAll { $0.key == "what-to-test" }
            options.append(DraftPair("what-to-test", .map(texts)))
        }
    }
}
