/// Actions Slipway's steps make unnecessary: no step, and the reason said.
enum SetupCITranslator: FastlaneActionTranslator {
    static let names = ["setup_ci"]
    static let documentation = docs("setup_ci")
    static let notNeeded: String? = "Slipway's signing.sync makes its own temporary keychain on CI"
    static let parameters: [FastlaneParameter] = ["force", "provider", "timeout", "keychain_name", "set_default_keychain"]
        .map { FastlaneParameter.handled($0, "no step: signing.sync makes its own temporary keychain on CI") }
    static func translate(_ call: RubyCall, _ statement: Fastfile.Statement, into builder: inout LaneBuilder) {}
}

enum AppStoreConnectAPIKeyTranslator: FastlaneActionTranslator {
    static let names = ["app_store_connect_api_key"]
    static let documentation = docs("app_store_connect_api_key")
    static let notNeeded: String? = "the appstore steps take the key from the ASC_KEY_ID, ASC_ISSUER_ID and ASC_KEY secrets"
    static let parameters: [FastlaneParameter] = ["key_id", "issuer_id", "key_filepath", "key_content", "is_key_content_base64", "duration",
                                                  "in_house", "set_spaceship_token"]
        .map { FastlaneParameter.handled($0, "no step: the ASC_KEY_ID, ASC_ISSUER_ID and ASC_KEY secrets hold the key") }
    static func translate(_ call: RubyCall, _ statement: Fastfile.Statement, into builder: inout LaneBuilder) {}
}

enum ClearDerivedDataTranslator: FastlaneActionTranslator {
    static let names = ["clear_derived_data"]
    static let documentation = docs("clear_derived_data")
    static let notNeeded: String? = "Slipway's xcode steps use the derived-data-path option when given"
    static let parameters: [FastlaneParameter] = [.handled("derived_data_path", "no step: give the xcode steps a derived-data-path")]
    static func translate(_ call: RubyCall, _ statement: Fastfile.Statement, into builder: inout LaneBuilder) {}
}

enum XcversionTranslator: FastlaneActionTranslator {
    static let names = ["xcversion"]
    static let documentation = docs("xcversion")
    static let notNeeded: String? = "use an xcode.select step or the xcode option of the xcode.* steps"
    static let parameters: [FastlaneParameter] = [.handled("version", "no step: an xcode.select step or the xcode option of the xcode.* steps")]
    static func translate(_ call: RubyCall, _ statement: Fastfile.Statement, into builder: inout LaneBuilder) {}
}

/// `latest_testflight_build_number` / `app_store_build_number` → `appstore.build-number`
/// (id `build-number`), also when used as a value (`latest_testflight_build_number + 1`).
enum BuildNumberQueryTranslator: FastlaneActionTranslator {
    static let names = ["latest_testflight_build_number", "app_store_build_number"]
    static let documentation = docs("latest_testflight_build_number")
    static let parameters: [FastlaneParameter] = [
        .handled("api_key_path", "the App Store Connect key comes from the ASC_KEY_ID, ASC_ISSUER_ID and ASC_KEY secrets"),
        .handled("api_key", "the App Store Connect key comes from the ASC_KEY_ID, ASC_ISSUER_ID and ASC_KEY secrets"),
        .listed("live", "appstore.build-number reads the builds uploaded (TestFlight), not the live App Store version"),
        .handled("app_identifier", "appstore.build-number's bundle-id"),
        .handled("username", "not needed: the step signs in with the App Store Connect key"),
        .handled("version", "appstore.build-number's version"),
        .handled("platform", "appstore.build-number's platform"),
        .listed("initial_build_number", "appstore.build-number's latest is 0 when the app has no build; check it if fastlane's initial number differed"),
        .handled("team_id", "the App Store Connect key belongs to one team"),
        .handled("team_name", "the App Store Connect key belongs to one team"),
    ]
    static func translate(_ call: RubyCall, _ statement: Fastfile.Statement, into builder: inout LaneBuilder) {
        _ = builder.buildNumberStep(statement, query: call)
    }
}
