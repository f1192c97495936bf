import Basics

/// `sync_code_signing` (`match`) → `signing.sync` (id `signing`, `format: match`). How the
/// storage is read is in MatchTranslator+Storage.swift.
enum MatchTranslator: FastlaneActionTranslator {
    static let names = ["sync_code_signing", "match"]
    static let documentation = docs("sync_code_signing")
    static let defaults = [
        "type development, storage_mode git, git_branch master (signing.sync: the repository's default branch)",
        "the settings of the Matchfile, then the Appfile, apply where the call does not set them",
        "readonly false: match creates what is missing; signing.sync is read-only when CI=true unless readonly: false",
    ]

    private static let nuke = "only used by 'match nuke', which is not a lane action"
    private static let portal = "signing.sync creates profiles through the App Store Connect API with the defaults; set it up in the portal by hand if needed"

    static let parameters: [FastlaneParameter] = [
        .handled("type", "signing.sync's type (appstore → app-store, adhoc → ad-hoc, developer_id → developer-id)"),
        .listed("additional_cert_types", "signing.sync syncs one certificate type per step; add a step for the installer certificate"),
        .handled("readonly", "signing.sync's readonly (is_ci: its default)"),
        .handled("generate_apple_certs", "signing.sync uses Apple Development/Distribution certificates, as match does since Xcode 11"),
        .listed("skip_provisioning_profiles", "signing.sync always syncs the profiles with the certificate"),
        .handled("app_identifier", "signing.sync's bundle-ids (else the Matchfile's or Appfile's, else the project's targets)"),
        .handled("api_key_path", "the App Store Connect key comes from the ASC_KEY_ID, ASC_ISSUER_ID and ASC_KEY secrets"),
        .handled("api_key", "the App Store Connect key comes from the ASC_KEY_ID, ASC_ISSUER_ID and ASC_KEY secrets"),
        .handled("username", "not needed: signing.sync signs in with the App Store Connect key"),
        .handled("team_id", "the App Store Connect key belongs to one team"),
        .handled("team_name", "the App Store Connect key belongs to one team"),
        .handled("storage_mode", "git, s3: signing.sync's storage; others are listed"),
        .handled("git_url", "signing.sync's storage"),
        .handled("git_branch", "signing.sync's git-branch"),
        .listed("git_full_name", "signing.sync commits as git config's user; set user.name in a 'run' step before it"),
        .listed("git_user_email", "signing.sync commits as git config's user; set user.email in a 'run' step before it"),
        .handled("shallow_clone", "signing.sync reads the branch it needs; no effect on what is installed"),
        .handled("clone_branch_directly", "signing.sync reads the branch it needs; no effect on what is installed"),
        .handled("git_basic_authorization", "signing.sync's git-token (an https access token, from a secret)"),
        .handled("git_bearer_authorization", "signing.sync's git-token (an https access token, from a secret)"),
        .handled("git_private_key", "signing.sync's git-token (an https access token, from a secret)"),
        .listed("google_cloud_bucket_name", "signing.sync reads git, s3 or a folder, not Google Cloud Storage"),
        .listed("google_cloud_keys_file", "signing.sync reads git, s3 or a folder, not Google Cloud Storage"),
        .listed("google_cloud_project_id", "signing.sync reads git, s3 or a folder, not Google Cloud Storage"),
        .listed("skip_google_cloud_account_confirmation", "signing.sync reads git, s3 or a folder, not Google Cloud Storage"),
        .handled("s3_region", "signing.sync's s3-region"),
        .handled("s3_access_key", "signing.sync's access-key-id, from the AWS_ACCESS_KEY_ID secret"),
        .handled("s3_secret_access_key", "signing.sync's secret-access-key, from the AWS_SECRET_ACCESS_KEY secret"),
        .listed("s3_session_token", "signing.sync takes an access key id and secret, not a session token"),
        .handled("s3_bucket", "signing.sync's storage s3://BUCKET/PREFIX"),
        .handled("s3_object_prefix", "signing.sync's storage s3://BUCKET/PREFIX"),
        .listed("s3_skip_encryption", "signing.sync always encrypts what it stores"),
        .listed("gitlab_project", "signing.sync reads git, s3 or a folder, not GitLab secure files"),
        .listed("gitlab_host", "signing.sync reads git, s3 or a folder, not GitLab secure files"),
        .listed("job_token", "signing.sync reads git, s3 or a folder, not GitLab secure files"),
        .listed("private_token", "signing.sync reads git, s3 or a folder, not GitLab secure files"),
        .handled("keychain_name", "signing.sync's keychain"),
        .handled("keychain_password", "signing.sync's keychain-password, from a secret"),
        .handled("force", "said: signing.sync remakes profiles when devices or certificates change, not on every run"),
        .handled("force_for_new_devices", "said: signing.sync remakes development and ad hoc profiles when devices change"),
        .listed("include_mac_in_profiles", "signing.sync's profiles include the devices of their platform only"),
        .listed("include_all_certificates", "signing.sync's profiles name the one certificate it syncs"),
        .listed("certificate_id", "signing.sync picks the certificate of its type in the storage"),
        .handled("force_for_new_certificates", "said: signing.sync remakes profiles when the certificate changes"),
        .handled("renew_expired_certs", "signing.sync's renew"),
        .listed("skip_confirmation", nuke),
        .listed("safe_remove_certs", nuke),
        .handled("skip_docs", "signing.sync writes no README into the storage"),
        .handled("platform", "signing.sync's platform"),
        .listed("derive_catalyst_app_identifier", "give the maccatalyst. bundle ids in bundle-ids"),
        .listed("template_name", portal),
        .listed("profile_name", "signing.sync names profiles as match does ('match AppStore BUNDLE_ID')"),
        .listed("fail_on_name_taken", portal),
        .listed("skip_certificate_matching", "only used by 'match import'"),
        .listed("output_path", "signing.sync installs into the keychain (or install: directory, install-directory)"),
        .handled("skip_set_partition_list", "signing.sync sets the keychain's partition list itself"),
        .listed("force_legacy_encryption", "signing.sync reads both of match's encryptions and writes the current one"),
        .handled("verbose", "how much is printed"),
    ]

    static let types = ["appstore": "app-store", "adhoc": "ad-hoc", "development": "development", "enterprise": "enterprise",
                        "developer_id": "developer-id"]

    static func translate(_ call: RubyCall, _ statement: Fastfile.Statement, into builder: inout LaneBuilder) {
        let settings = Settings(call: call, builder: builder)
        let type = settings.argument("type")?.text ?? "development"
        guard let mapped = types[type] else {
            builder.skip(statement, "match type '\(type)' has no signing.sync type (app-store, ad-hoc, development, enterprise, developer-id)")
            return
        }
        var options = [DraftPair("type", .string(mapped))]
        options.append(DraftPair("bundle-ids", bundleIDs(call, statement, settings, &builder)))
        if let platform = settings.argument("platform")?.text {
            options.append(DraftPair("platform", .string(["macos": "macos", "tvos": "tvos", "catalyst": "catalyst"][platform] ?? "ios")))
        }
        builder.draft.requireSecret("MATCH_PASSWORD", "The passphrase of match's encrypted storage")
        options.append(DraftPair("passphrase", .string("${{ secrets.MATCH_PASSWORD }}")))
        guard storage(call, statement, settings, into: &options, &builder) else { return }
        options.append(DraftPair("format", .string("match")))
        // Creating or renewing needs the App Store Connect key (read-only syncs do not use it).
        options += builder.appStoreKeyOptions()
        behaviour(call, statement, settings, into: &options, &builder)
        builder.add("signing.sync", id: "signing", options, from: statement)
    }

    /// readonly, renew, the keychain, and what force means.
    static func behaviour(_ call: RubyCall, _ statement: Fastfile.Statement, _ settings: Settings, into options: inout [DraftPair],
                          _ builder: inout LaneBuilder) {
        if case .expression("is_ci")? = settings.argument("readonly") {
            builder.accountFor(call.name, "readonly", statement)
            builder.differ("match's readonly: is_ci: signing.sync is read-only by default when CI=true")
        } else if let readonly = builder.literal(call, "readonly", statement, settings: true) {
            options.append(DraftPair("readonly", readonly))
        }
        if let renew = builder.literal(call, "renew_expired_certs", statement, settings: true) { options.append(DraftPair("renew", renew)) }
        if let keychain = builder.literal(call, "keychain_name", statement, settings: true) { options.append(DraftPair("keychain", keychain)) }
        if call.argument("keychain_password") != nil || builder.translator.setting("keychain_password", lane: builder.lane) != nil {
            builder.draft.requireSecret("MATCH_KEYCHAIN_PASSWORD", "The password of the keychain match installed into")
            options.append(DraftPair("keychain-password", .string("${{ secrets.MATCH_KEYCHAIN_PASSWORD }}")))
        }
        if ["force_for_new_devices", "force", "force_for_new_certificates"].contains(where: { settings.argument($0) != nil }) {
            builder.differ("match's force/force_for_new_devices: signing.sync remakes development and ad hoc profiles when devices change")
        }
    }

    /// app_identifier as bundle-ids; when the call's is only known to Ruby (listed) or missing,
    /// the Matchfile's or Appfile's, else the project's targets, said either way.
    static func bundleIDs(_ call: RubyCall, _ statement: Fastfile.Statement, _ settings: Settings, _ builder: inout LaneBuilder) -> DraftValue {
        var unknown = false
        if let given = call.argument("app_identifier") {
            if let list = builder.value(.array(given.list), statement: statement) { return list }
            builder.skipArgument(call.name, "app_identifier", statement,
                                 "its value (\(LaneBuilder.source(of: given))) is only known when Ruby runs; check bundle-ids, which the lane takes from \(fallbackSource(builder))")
            unknown = true
        }
        if let file = builder.translator.setting("app_identifier", lane: builder.lane),
           let list = builder.value(.array(file.list), statement: statement) {
            if unknown { builder.differ("match's bundle ids are the Matchfile's or Appfile's app_identifier (\(LaneBuilder.source(of: file)))") }
            return list
        }
        let ids = builder.translator.survey.bundleIDs
        if !ids.isEmpty {
            builder.differ("match without a literal app_identifier: bundle-ids are the project's app and extension targets (\(ids.joined(separator: ", ")))")
            return .list(ids.map(DraftValue.string))
        }
        builder.draft.requireInput("bundle-id", "The app's bundle id")
        builder.differ("match without app_identifier, and no bundle id found in the Matchfile, Appfile or project: the lane signs the bundle-id input; add the extensions' ids to bundle-ids")
        return .list([.string("${{ inputs.bundle-id }}")])
    }

    static func fallbackSource(_ builder: LaneBuilder) -> String {
        if builder.translator.setting("app_identifier", lane: builder.lane) != nil { return "the Matchfile's or Appfile's app_identifier" }
        return builder.translator.survey.bundleIDs.isEmpty ? "the bundle-id input" : "the project's targets"
    }

    /// A call's argument, else the Matchfile's (then the Appfile's) setting.
    struct Settings {
        let call: RubyCall
        let builder: LaneBuilder
        func argument(_ key: String) -> RubyValue? { call.argument(key) ?? builder.translator.setting(key, lane: builder.lane) }
    }
}
