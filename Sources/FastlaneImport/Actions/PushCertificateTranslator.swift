/// `get_push_certificate` / `pem`: not a lane step. fastlane makes push certificates through the
/// Apple Developer website; Apple's API cannot, so Slipway checks and stores a certificate made in
/// the portal (`slipway push check`, `slipway signing push add`). The call is listed with those
/// commands, its arguments filled in.
enum PushCertificateTranslator: FastlaneActionTranslator {
    static let names = ["get_push_certificate", "pem"]
    static let documentation = docs("get_push_certificate")
    static let makesSteps = false
    static let parameters: [FastlaneParameter] = [
        .handled("platform", "the certificate says its platform; nothing to give"),
        .handled("development", "the certificate says its environment (sandbox or production); make the one you need in the portal"),
        .handled("website_push", "listed with the call: Slipway checks APNs certificates, not website push ones"),
        .handled("generate_p12", "export the .p12 from Keychain Access; 'slipway signing push add' stores it encrypted"),
        .handled("active_days_limit", "'slipway push check' and 'slipway signing list' warn 30 days before expiry"),
        .handled("force", "nothing is created: renew in the portal"),
        .handled("save_private_key", "the key stays in the .p12 stored by 'slipway signing push add'"),
        .handled("app_identifier", "--topic of 'slipway push check'"),
        .handled("username", "no Apple ID login is needed"),
        .handled("team_id", "no Apple ID login is needed"),
        .handled("team_name", "no Apple ID login is needed"),
        .handled("p12_password", "--password-env VAR (the password comes from an environment variable)"),
        .handled("pem_name", "Slipway writes no .pem; servers use the .p12 or a .p8 key"),
        .handled("output_path", "Slipway writes no .pem; servers use the .p12 or a .p8 key"),
        .handled("new_profile", "a Ruby block: run your upload after 'slipway signing push add' instead"),
    ]
    static let defaults = ["fastlane logs in with an Apple ID and renews the certificate when it expires within 30 days"]

    /// The listed line: what to run instead, with the call's bundle id and password variable.
    static func replacement(_ call: RubyCall) -> String {
        if case .bool(true)? = call.argument("website_push") {
            return "not a lane step: Slipway has no website push certificates; make it in the portal (Certificates → Website Push ID) and keep it where your web server reads it"
        }
        var check = "slipway push check push.p12"
        var add = "slipway signing push add push.p12"
        if case .environment(let variable)? = call.argument("p12_password") {
            check += " --password-env \(variable)"
            add += " --password-env \(variable)"
        } else if call.argument("p12_password") != nil {
            check += " --password-env P12_PASSWORD"
            add += " --password-env P12_PASSWORD"
        }
        if let topic = call.argument("app_identifier")?.text { check += " --topic \(topic)" }
        return "not a lane step: Apple's API cannot make push certificates (fastlane drives the portal's website). "
            + "Make it in the portal (Identifiers → the app → Push Notifications) and export it as .p12, then '\(check)' "
            + "and '\(add) --storage URL' (docs/push.md); or use a .p8 key, checked with 'slipway push check AuthKey_KEYID.p8 --team-id TEAM'"
    }

    static func translate(_ call: RubyCall, _ statement: Fastfile.Statement, into builder: inout LaneBuilder) {
        builder.skip(statement, replacement(call))
        // The whole call is listed: its arguments are not listed once more, one by one.
        for pair in call.keywords { builder.accountFor(call.name, pair.key, statement) }
    }
}
