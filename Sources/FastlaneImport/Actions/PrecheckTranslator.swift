/// `precheck` / `check_app_store_metadata` → `appstore.preflight` (id `preflight`).
///
/// precheck downloads the listing from App Store Connect and looks at its words (placeholder
/// text, other platforms' names, profanity, unreachable URLs, a copyright date). appstore.preflight
/// checks what App Store Connect refuses instead, before the archive: the version and build
/// number (against App Store Connect with the key), embedded targets, Info.plist, privacy
/// manifest, signing and the listing's limits. precheck's wording rules have no equivalent and are
/// listed (docs/from-fastlane.md).
enum PrecheckTranslator: FastlaneActionTranslator {
    static let names = ["precheck", "check_app_store_metadata"]
    static let documentation = docs("precheck")
    static let wording = "precheck's wording rule: appstore.preflight checks what App Store Connect refuses (limits, versions, signing), not the listing's words; review them by hand"
    static let parameters: [FastlaneParameter] = [
        .handled("api_key_path", "appstore.preflight takes the key from the ASC_KEY_ID, ASC_ISSUER_ID and ASC_KEY secrets"),
        .handled("api_key", "appstore.preflight takes the key from the ASC_KEY_ID, ASC_ISSUER_ID and ASC_KEY secrets"),
        .handled("app_identifier", "appstore.preflight reads the bundle id from the project's app target, and checks that App Store Connect has it"),
        .handled("username", "no Apple ID login: the API key names the team"),
        .handled("team_id", "no Apple ID login: the API key names the team"),
        .handled("team_name", "no Apple ID login: the API key names the team"),
        .handled("platform", "platform: ios → IOS, appletvos → TV_OS, osx → MAC_OS"),
        .listed("default_rule_level", "appstore.preflight fails on what App Store Connect refuses and warns on the rest; there are no rule levels"),
        .listed("include_in_app_purchases", "appstore.preflight does not read in-app purchases"),
        .listed("use_live", "appstore.preflight checks the local metadata folder that appstore.metadata would send, not the live listing"),
        .listed("negative_apple_sentiment", wording),
        .listed("placeholder_text", wording),
        .listed("other_platforms", wording),
        .listed("future_functionality", wording),
        .listed("test_words", wording),
        .listed("curse_words", wording),
        .listed("free_stuff_in_iap", wording),
        .listed("custom_text", wording),
        .listed("copyright_date", wording),
        .listed("unreachable_urls", "appstore.preflight checks that URLs are absolute http(s) URLs, and does not fetch them"),
    ]
    static let defaults = [
        "precheck reads the listing on App Store Connect; appstore.preflight reads the metadata folder (fastlane/metadata) and the project",
    ]

    static func translate(_ call: RubyCall, _ statement: Fastfile.Statement, into builder: inout LaneBuilder) {
        var options = builder.appStoreKeyOptions()
        if let given = call.argument("platform")?.text {
            let platforms = ["ios": "IOS", "osx": "MAC_OS", "appletvos": "TV_OS"]
            if let mapped = platforms[given] {
                if given != "ios" { options.append(DraftPair("platform", .string(mapped))) }
            } else {
                builder.skipArgument(call.name, "platform", statement, "not ios, osx or appletvos; the lane checks IOS: set platform by hand")
            }
        }
        builder.add("appstore.preflight", id: "preflight", options, from: statement)
    }
}

extension LaneBuilder {
    /// The kinds of step that send a release to App Store Connect.
    static let appStoreKinds: Set<String> = ["appstore.upload", "appstore.metadata", "appstore.submit"]

    /// An App Store lane checks the release first: appstore.preflight (precheck's translation, or
    /// a new one) becomes the lane's first step, so that a refusal comes before the archive.
    mutating func putPreflightFirst() {
        guard draft.steps.contains(where: { Self.appStoreKinds.contains($0.kind) }) else { return }
        if let index = draft.steps.firstIndex(where: { $0.kind == "appstore.preflight" }) {
            if index > 0 { draft.steps.insert(draft.steps.remove(at: index), at: 0) }
            return
        }
        var options = appStoreKeyOptions()
        // The platform the lane sends to (deliver's platform: osx → MAC_OS), so the remote rules read that one.
        if let platform = draft.steps.lazy.filter({ Self.appStoreKinds.contains($0.kind) }).compactMap({ $0.option("platform") }).first {
            options.append(DraftPair("platform", platform))
        }
        // A lane that uploads a build and sends no listing nor submission (pilot's, or deliver's
        // binary-only upload) may upload a beta of any open version: the version being prepared
        // for the App Store, and the listing, are not its concern.
        if !draft.steps.contains(where: { $0.kind == "appstore.metadata" || $0.kind == "appstore.submit" }) {
            options.append(DraftPair("destination", .string("testflight")))
        }
        draft.steps.insert(DraftStep(kind: "appstore.preflight", id: "preflight", options: options, origin: nil), at: 0)
    }
}
