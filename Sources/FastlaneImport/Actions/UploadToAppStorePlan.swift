import Basics
import Foundation

/// The steps one `upload_to_app_store` call becomes, worked out argument by argument: the binary
/// first (appstore.metadata then knows its version, which deliver reads from the .ipa), the
/// listing, then the submission.
struct UploadToAppStorePlan {
    let call: RubyCall
    let statement: Fastfile.Statement
    /// The App Store platform; nil for deliver's default (ios), which is every step's default.
    private(set) var platform: DraftValue?
    private(set) var bundleID: DraftValue = .string("${{ inputs.bundle-id }}")
    /// `app_version`.
    private(set) var version: DraftValue?
    private(set) var submit = false
    /// deliver sets the release options and notes while sending the metadata: not with
    /// skip_metadata.
    private(set) var skipMetadata = false

    init(call: RubyCall, statement: Fastfile.Statement) {
        self.call = call
        self.statement = statement
    }

    mutating func read(_ builder: inout LaneBuilder) {
        if let given = call.argument("platform") {
            let platforms = ["ios": "IOS", "osx": "MAC_OS", "appletvos": "TV_OS", "tvos": "TV_OS", "xros": "VISION_OS"]
            if let text = given.text, let mapped = platforms[text] {
                platform = text == "ios" ? nil : .string(mapped)
            } else {
                builder.skipArgument(call.name, "platform", statement, "not ios, osx, appletvos, tvos or xros; the lane sends to IOS: set platform by hand")
            }
        }
        if let identifier = builder.bundleID(call.argument("app_identifier"), statement) {
            bundleID = identifier
        } else {
            builder.draft.requireInput("bundle-id", "The app's bundle id")
        }
        if call.argument("app_version") != nil { version = builder.literal(call, "app_version", statement)?.asString }
        submit = builder.flag(call, "submit_for_review", statement, default: false)
        skipMetadata = builder.flag(call, "skip_metadata", statement, default: false)
    }

    /// appstore.upload, unless skip_binary_upload or build_number (deliver then uploads
    /// nothing); its id.
    func upload(_ builder: inout LaneBuilder) -> String? {
        guard !builder.flag(call, "skip_binary_upload", statement, default: false), call.argument("build_number") == nil else { return nil }
        var options = builder.appStoreKeyOptions()
        if call.argument("ipa") == nil, call.argument("pkg") != nil {
            options.append(DraftPair("ipa", builder.binary(call, statement, keys: ["pkg"], input: "pkg", "The .pkg to upload")))
            options.append(DraftPair("bundle-id", bundleID))
            options.append(DraftPair("version", version ?? .string(builder.versionExpression(statement))))
            builder.draft.requireInput("build-number", "The .pkg's build number (CFBundleVersion)")
            options.append(DraftPair("build-number", .string("${{ inputs.build-number }}")))
            builder.differ("deliver reads a .pkg's version and build number from the package; appstore.upload takes them from the lane (version, build-number)")
        } else if call.argument("ipa") != nil || builder.draft.steps.contains(where: { $0.kind == "xcode.export" }) {
            options.append(DraftPair("ipa", builder.binary(call, statement, keys: ["ipa"], input: "ipa", "The .ipa to upload")))
        } else {
            builder.skipArgument(call.name, "ipa", statement, "none given and none built in the lane: deliver uploads the newest *.ipa (or *.pkg) in the "
                                 + "project folder when there is one; the lane uploads none: add an appstore.upload step if a build should go up")
            return nil
        }
        if let platform { options.append(DraftPair("platform", platform)) }
        return builder.add("appstore.upload", id: "upload", options, from: statement)
    }

    /// appstore.metadata, unless both the metadata and the screenshots are skipped.
    func metadata(_ builder: inout LaneBuilder, upload: String?) {
        let skipScreenshots = builder.flag(call, "skip_screenshots", statement, default: false)
        guard !(skipMetadata && skipScreenshots) else { return }
        guard !skipMetadata else {
            builder.skipArgument(call.name, "skip_metadata", statement, "appstore.metadata sends the folder's texts with the screenshots, never the "
                                 + "screenshots alone, so no step was written: add appstore.metadata by hand (it also sends the texts that differ) "
                                 + "or upload the screenshots in App Store Connect")
            return
        }
        // deliver's folders are in the fastlane folder, paths relative to the project folder.
        let folder = (builder.translator.fastfile.path as NSString).deletingLastPathComponent
        var options = builder.appStoreKeyOptions()
        options.append(DraftPair("bundle-id", bundleID))
        options.append(DraftPair("metadata-path", path("metadata_path", default: folder + "/metadata", &builder)))
        if let platform { options.append(DraftPair("platform", platform)) }
        if builder.flag(call, "edit_live", statement, default: false) {
            options.append(DraftPair("live", .bool(true)))
        } else if let version = version ?? upload.map({ .string("${{ steps.\($0).outputs.version }}") }) {
            options.append(DraftPair("version", version))
            if !builder.flag(call, "skip_app_version_update", statement, default: false) { options.append(DraftPair("create-version", .bool(true))) }
        }
        if call.argument("languages") != nil, let locales = builder.literal(call, "languages", statement) {
            options.append(DraftPair("locales", locales))
        }
        if skipScreenshots {
            options.append(DraftPair("skip-screenshots", .bool(true)))
        } else {
            options.append(DraftPair("screenshots-path", path("screenshots_path", default: folder + "/screenshots", &builder)))
            if builder.flag(call, "overwrite_screenshots", statement, default: false) { options.append(DraftPair("remove-screenshots", .bool(true))) }
        }
        builder.add("appstore.metadata", id: "metadata", options, from: statement)
        if upload != nil {
            builder.differ("deliver sends the listing, then the binary; the lane uploads the binary first, so that appstore.metadata "
                           + "edits the version of that build (deliver reads it from the .ipa)")
        }
        if !submit, call.argument("phased_release") == nil {
            builder.differ("deliver turns a phased release off when sending the metadata (phased_release defaults to false); "
                           + "the lane leaves it as it is: appstore.submit's phased-release sets it")
        }
    }

    private func path(_ key: String, default fallback: String, _ builder: inout LaneBuilder) -> DraftValue {
        guard call.argument(key) != nil else { return .string(fallback) }
        return builder.literal(call, key, statement) ?? .string(fallback)
    }

    /// appstore.submit for `submit_for_review: true`.
    func submission(_ builder: inout LaneBuilder, upload: String?) {
        var options = builder.appStoreKeyOptions()
        options.append(DraftPair("bundle-id", bundleID))
        let uploaded = upload.map { DraftValue.string("${{ steps.\($0).outputs.version }}") }
        options.append(DraftPair("version", version ?? uploaded ?? .string(builder.versionExpression(statement))))
        if let platform { options.append(DraftPair("platform", platform)) }
        if let upload {
            options.append(DraftPair("build-id", .string("${{ steps.\(upload).outputs.build-id }}")))
        } else if let number = call.argument("build_number").flatMap({ $0.text == "latest" ? nil : builder.literal(call, "build_number", statement) }) {
            options.append(DraftPair("build-number", number.asString))
        } else {
            builder.draft.requireInput("build-number", "The build to submit (deliver takes the version's latest build)")
            options.append(DraftPair("build-number", .string("${{ inputs.build-number }}")))
        }
        if skipMetadata {
            ignoredWithoutMetadata(&builder)
        } else {
            if call.argument("release_notes") != nil {
                if case .map(let notes)? = builder.literal(call, "release_notes", statement) { options.append(DraftPair("release-notes", .map(notes))) }
            }
            releaseType(&builder, into: &options)
            let phased = builder.flag(call, "phased_release", statement, default: false)
            options.append(DraftPair("phased-release", .bool(phased)))
        }
        if call.argument("release_notes") == nil || skipMetadata {
            builder.differ("appstore.submit sets What's New from CHANGELOG.md's entry for the version when there is one; deliver leaves "
                           + "the metadata folder's release_notes.txt (or what App Store Connect has): give release-notes, or remove the entry, to keep it")
        }
        if builder.flag(call, "run_precheck_before_submit", statement, default: true) {
            builder.differ("deliver runs precheck before submitting; the lane runs appstore.preflight first instead, which checks what App Store Connect refuses (limits, versions, build numbers, signing), not precheck's wording rules")
        }
        builder.add("appstore.submit", id: "submit", options, from: statement)
    }

    private func releaseType(_ builder: inout LaneBuilder, into options: inout [DraftPair]) {
        if let date = call.argument("auto_release_date") {
            guard case .number(let text) = date, let milliseconds = Double(text) else {
                builder.skipArgument(call.name, "auto_release_date", statement, "not a literal time in milliseconds; set release-type: SCHEDULED and earliest-release-date by hand")
                return
            }
            options.append(DraftPair("release-type", .string("SCHEDULED")))
            options.append(DraftPair("earliest-release-date", .string(DateText.iso8601(Date(timeIntervalSince1970: milliseconds / 1000)))))
        } else if call.argument("automatic_release") != nil {
            let automatic = builder.flag(call, "automatic_release", statement, default: false)
            options.append(DraftPair("release-type", .string(automatic ? "AFTER_APPROVAL" : "MANUAL")))
        }
    }

    /// deliver sets the release options and notes with the metadata; with skip_metadata it
    /// ignores them, and so does the lane.
    private func ignoredWithoutMetadata(_ builder: inout LaneBuilder) {
        let ignored = ["automatic_release", "auto_release_date", "phased_release", "release_notes"].filter { call.argument($0) != nil }
        guard !ignored.isEmpty else { return }
        builder.differ("\(call.name)'s \(ignored.joined(separator: ", ")): deliver sets them while sending the metadata, so with skip_metadata: true "
                       + "it ignores them; the lane does too (set them on appstore.submit if they were meant)")
    }

    /// Without a submission, the release options deliver sets on the version are listed.
    func listReleaseOptions(_ builder: inout LaneBuilder) {
        if skipMetadata {
            ignoredWithoutMetadata(&builder)
            return
        }
        for key in ["automatic_release", "auto_release_date", "phased_release"] where call.argument(key) != nil {
            builder.skipArgument(call.name, key, statement, "deliver sets it on the version without submitting; Slipway sets it with appstore.submit "
                                 + "(submit: false prepares the version with a build without submitting): add that step, or set it in App Store Connect")
        }
        if call.argument("release_notes") != nil {
            builder.skipArgument(call.name, "release_notes", statement, "write the texts to <locale>/release_notes.txt in the metadata folder; appstore.metadata sends them")
        }
    }
}
