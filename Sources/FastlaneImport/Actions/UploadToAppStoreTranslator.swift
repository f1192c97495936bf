/// `upload_to_app_store` / `deliver` / `appstore` → `appstore.upload` (the binary),
/// `appstore.metadata` (the listing's texts and screenshots) and, with `submit_for_review: true`,
/// `appstore.submit`. Which steps depends on the arguments, as in fastlane: by default deliver
/// sends the metadata, the screenshots and the binary, and submits only when asked.
enum UploadToAppStoreTranslator: FastlaneActionTranslator {
    static let names = ["upload_to_app_store", "deliver", "appstore"]
    static let documentation = docs("upload_to_app_store")

    /// Where a deliver parameter's text goes in the metadata folder.
    static let folderFields = ["name": "name.txt", "subtitle": "subtitle.txt", "description": "description.txt",
                               "keywords": "keywords.txt", "promotional_text": "promotional_text.txt", "privacy_url": "privacy_url.txt",
                               "support_url": "support_url.txt", "marketing_url": "marketing_url.txt",
                               "apple_tv_privacy_policy": "apple_tv_privacy_policy.txt"]

    static let parameters: [FastlaneParameter] = [
        .handled("api_key_path", "the appstore steps take the key from the ASC_KEY_ID, ASC_ISSUER_ID and ASC_KEY secrets"),
        .handled("api_key", "the appstore steps take the key from the ASC_KEY_ID, ASC_ISSUER_ID and ASC_KEY secrets"),
        .handled("username", "no Apple ID login: the API key names the team"),
        .handled("app_identifier", "bundle-id (else the Appfile's app_identifier, else the project's app)"),
        .handled("app_version", "version of appstore.metadata (created when missing, as deliver does) and appstore.submit"),
        .handled("ipa", "appstore.upload's ipa; without ipa and pkg, the lane's last xcode.export (deliver takes gym's .ipa)"),
        .handled("pkg", "appstore.upload's ipa (a .pkg), with bundle-id, version and build-number"),
        .handled("build_number", "appstore.submit's build-number; no binary is uploaded (as in deliver)"),
        .handled("platform", "platform: ios → IOS, osx → MAC_OS, appletvos/tvos → TV_OS, xros → VISION_OS"),
        .handled("edit_live", "appstore.metadata's live: true (the live version takes promotional text only; any other change stops the step)"),
        .listed("use_live_version", "appstore.metadata edits the version being prepared; 'slipway appstore metadata pull' reads the live one"),
        .maps("metadata_path", to: "metadata-path"),
        .maps("screenshots_path", to: "screenshots-path"),
        .listed("app_clip_header_images_path", "appstore.metadata does not send App Clip header images; upload them in App Store Connect"),
        .listed("app_clip_default_experience_metadata_path", "appstore.metadata does not send App Clip experiences; set them in App Store Connect"),
        .listed("app_previews_path", "appstore.metadata does not send app previews (videos); upload them in App Store Connect"),
        .listed("preview_frame_time_code", "appstore.metadata does not send app previews (videos); upload them in App Store Connect"),
        .listed("overwrite_preview_videos", "appstore.metadata does not send app previews (videos); upload them in App Store Connect"),
        .handled("skip_binary_upload", "no appstore.upload step"),
        .handled("skip_screenshots", "skip-screenshots: true"),
        .handled("skip_metadata", "no appstore.metadata step when screenshots are skipped too; listed otherwise"),
        .handled("skip_app_version_update", "appstore.metadata's version without create-version"),
        .handled("force", "not needed: nothing is shown or asked before sending"),
        .maps("overwrite_screenshots", to: "remove-screenshots"),
        .listed("screenshot_processing_timeout", "appstore.metadata waits for Apple's processing with its own limit; there is no option to set it"),
        .handled("sync_screenshots", "appstore.metadata always sends only the screenshots whose checksum differs"),
        .handled("submit_for_review", "an appstore.submit step"),
        .listed("verify_only", "run the lane with 'slipway run LANE --dry-run': appstore.metadata checks both folders and sends nothing"),
        .listed("reject_if_possible", "appstore.submit does not withdraw a version in review; remove it from review in App Store Connect first"),
        .listed("version_check_wait_retry_limit", "the appstore steps wait and retry with their own limits; there is no option to set it"),
        .handled("automatic_release", "appstore.submit's release-type: AFTER_APPROVAL (true) or MANUAL (false)"),
        .handled("auto_release_date", "appstore.submit's release-type: SCHEDULED and earliest-release-date"),
        .handled("phased_release", "appstore.submit's phased-release (deliver's default is false)"),
        .listed("reset_ratings", "appstore.submit does not reset the rating summary; choose it in App Store Connect when releasing"),
        .listed("price_tier", "Slipway does not set prices; set them in App Store Connect"),
        .listed("app_rating_config_path", "Slipway does not send the age rating; answer the questionnaire in App Store Connect"),
        .listed("submission_information", "appstore.submit has no submission information: declare encryption with ITSAppUsesNonExemptEncryption in "
                + "Info.plist, and content rights and the advertising identifier in App Store Connect"),
        .handled("team_id", "no Apple ID login: the API key names the team"),
        .handled("team_name", "no Apple ID login: the API key names the team"),
        .handled("dev_portal_team_id", "no Apple ID login: the API key names the team"),
        .handled("dev_portal_team_name", "no Apple ID login: the API key names the team"),
        .handled("itc_provider", "no Transporter: appstore.upload uses the App Store Connect API"),
        .handled("provider_public_id", "no Transporter: appstore.upload uses the App Store Connect API"),
        .handled("run_precheck_before_submit", "the lane runs appstore.preflight first (what App Store Connect refuses), not precheck's wording rules"),
        .handled("precheck_default_rule_level", "no effect: appstore.preflight, first in the lane, has no rule levels (said with the submission)"),
        .handled("precheck_include_in_app_purchases", "no effect: appstore.preflight does not read in-app purchases (said with the submission)"),
        .listed("individual_metadata_items", "removed from deliver (deprecated); drop it"),
        .listed("app_icon", "removed from deliver (deprecated): the icon comes from the binary"),
        .listed("apple_watch_app_icon", "removed from deliver (deprecated): the icon comes from the binary"),
        .listed("copyright", "write it to copyright.txt in the metadata folder; appstore.metadata sends it"),
        .listed("primary_category", "appstore.metadata does not send categories yet; set them in App Store Connect"),
        .listed("secondary_category", "appstore.metadata does not send categories yet; set them in App Store Connect"),
        .listed("primary_first_sub_category", "appstore.metadata does not send categories yet; set them in App Store Connect"),
        .listed("primary_second_sub_category", "appstore.metadata does not send categories yet; set them in App Store Connect"),
        .listed("secondary_first_sub_category", "appstore.metadata does not send categories yet; set them in App Store Connect"),
        .listed("secondary_second_sub_category", "appstore.metadata does not send categories yet; set them in App Store Connect"),
        .listed("trade_representative_contact_information", "no longer used by App Store Connect (deprecated in deliver); drop it"),
        .listed("app_review_information", "appstore.metadata does not send App Review information yet; set it in App Store Connect"),
        .listed("app_clip_review_information", "appstore.metadata does not send App Review information yet; set it in App Store Connect"),
        .listed("app_review_attachment_file", "appstore.metadata does not send App Review attachments; add it in App Store Connect"),
    ] + folderFields.keys.sorted().map { key in
        FastlaneParameter.listed(key, "write it to <locale>/\(folderFields[key] ?? key) in the metadata folder; appstore.metadata sends the folder's texts")
    } + [
        .handled("release_notes", "appstore.submit's release-notes with submit_for_review; else listed (write <locale>/release_notes.txt)"),
        .maps("languages", to: "locales"),
        .listed("ignore_language_directory_validation", "appstore.metadata always refuses a folder that is not an App Store locale; rename or remove it"),
        .listed("app_clip_default_experience_subtitle", "appstore.metadata does not send App Clip experiences; set them in App Store Connect"),
        .listed("app_clip_default_experience_action", "appstore.metadata does not send App Clip experiences; set them in App Store Connect"),
        .handled("app", "the app is found by its bundle id"),
    ]
    static let defaults = [
        "uploads the metadata, the screenshots and the binary (the .ipa gym made); submits only with submit_for_review: true",
        "metadata_path and screenshots_path default to the fastlane folder's metadata and screenshots",
        "phased_release defaults to false: deliver turns a phased release off",
        "the version is the binary's (app_version), created on App Store Connect when missing",
        "precheck runs before a submission (run_precheck_before_submit: true)",
    ]

    /// deliver's settings in the Deliverfile, where the call does not give them.
    static func prepare(_ call: RubyCall, builder: LaneBuilder) -> RubyCall {
        builder.withDefaults(call, from: builder.translator.deliverfile)
    }

    static func translate(_ call: RubyCall, _ statement: Fastfile.Statement, into builder: inout LaneBuilder) {
        var plan = UploadToAppStorePlan(call: call, statement: statement)
        plan.read(&builder)
        let upload = plan.upload(&builder)
        plan.metadata(&builder, upload: upload)
        if plan.submit {
            plan.submission(&builder, upload: upload)
        } else {
            plan.listReleaseOptions(&builder)
        }
    }
}
