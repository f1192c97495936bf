import AppleAPI
import Basics
import Foundation
import Signing
import Transport

/// `signing.sync`: fastlane match's `sync_code_signing` as a lane step.
public struct SigningSyncStep: Step {
    public static let description = StepDescription(
        id: "signing.sync",
        summary: "Sync a certificate and a profile per bundle id through the encrypted signing storage, and install them",
        discussion: """
            Makes sure a valid certificate of the type's kind, and for each bundle id a profile \
            that includes it (and, for development and ad hoc, every enabled device), exist on App \
            Store Connect and in the storage, creating what is missing, expired or revoked (and, \
            with renew, what expires within 30 days); then installs them. Read-only (the default \
            when CI=true) only reads the storage: no API key is needed and nothing is written \
            anywhere. Installs into a keychain on macOS (a temporary one by default when CI=true: \
            remove it with signing.cleanup in 'finally:') or into a directory (Linux, or \
            install: directory). The outputs feed xcode.export's manual signing options: \
            team-id, signing-certificate: certificate-name, profiles: { BUNDLE: profile-name }. \
            See docs/signing.md for a whole CI lane.
            """,
        options: [
            .required("type", .choice(SigningType.allCases.map(\.rawValue)), "What the profiles are for."),
            .required("bundle-ids", .list(.string), "The bundle ids that need a profile."),
            .optional("platform", .choice(SigningPlatform.allCases.map(\.rawValue)), default: .string("ios"), "The profiles' platform."),
            .required("passphrase", .string, "The storage's passphrase, from a secret: \"${{ secrets.SIGNING_PASSPHRASE }}\"."),
            .optional("storage", .string, default: .string(".slipway/signing"),
                      "A git URL, s3://bucket/prefix, or a directory (the default, for trying it out)."),
            .optional("format", .choice(["slipway", "match"]), default: .string("slipway"), "The format of a new, empty storage."),
            .optional("readonly", .bool, "Never change App Store Connect or the storage (default: true when CI=true)."),
            .optional("renew", .bool, default: .bool(false), "Replace what expires within 30 days."),
            .optional("register", .bool, default: .bool(false), "Register bundle ids App Store Connect does not have."),
            .optional("git-branch", .string, "git: the branch."),
            .optional("git-token", .string, "git: an https access token, from a secret."),
            .optional("s3-endpoint", .string, "s3: an S3-compatible endpoint (AWS's for the region by default)."),
            .optional("s3-region", .string, default: .string("us-east-1"), "s3: the region."),
            .optional("access-key-id", .string, "s3: the access key id (from a secret)."),
            .optional("secret-access-key", .string, "s3: the secret access key (from a secret)."),
            .optional("install", .choice(["keychain", "directory", "none"]),
                      "Where to install: keychain (macOS; the default there), directory (the default elsewhere) or none."),
            .optional("install-directory", .string, default: .string(".build/slipway/signing"), "directory: where the files go."),
            .optional("p12-password", .string, "directory: the password of the written .p12 (from a secret; empty by default)."),
            .optional("keychain", .string, "keychain: the keychain's path (default: a temporary one when CI=true, else the login keychain)."),
            .optional("keychain-password", .string, "keychain: its password, from a secret (a temporary keychain needs one)."),
            .optional("temporary-keychain", .bool, "keychain: create the keychain for this run (default: true when CI=true)."),
        ] + AppStoreConnection.specs(keyIDRequired: false),
        outputs: [
            OutputSpec("certificate-id", "The certificate's id on App Store Connect."),
            OutputSpec("certificate-name", "Its common name, e.g. 'Apple Distribution: Example Ltd (AB12CD34EF)'."),
            OutputSpec("certificate-sha1", "Its SHA-1, as `security find-identity` lists it."),
            OutputSpec("team-id", "The team id."),
            OutputSpec("profile-name", "The first bundle id's profile name."),
            OutputSpec("profile-uuid", "The first bundle id's profile UUID."),
            OutputSpec("profiles", "Every profile name by bundle id (a mapping; JSON text inside a longer string).", type: .map(.string)),
            OutputSpec("profile-uuids", "Every profile UUID by bundle id (a mapping; JSON text inside a longer string).", type: .map(.string)),
            OutputSpec("keychain", "The keychain installed into (empty for a directory)."),
            OutputSpec("install-directory", "The directory installed into (empty for a keychain).", file: true),
        ],
        examples: [
            StepExample("CI: read-only into a temporary keychain (macOS) or a directory (Linux)", """
                - signing.sync:
                    type: app-store
                    bundle-ids: [com.example.app]
                    storage: https://github.com/example/certificates.git
                    git-token: "${{ secrets.CERTIFICATES_TOKEN }}"
                    passphrase: "${{ secrets.SIGNING_PASSPHRASE }}"
                    keychain: build/ci.keychain
                    keychain-password: "${{ secrets.KEYCHAIN_PASSWORD }}"
                  id: signing
                """),
            AppStoreConnection.example("A member's run that may create what is missing", """
                - signing.sync:
                    type: development
                    bundle-ids: [com.example.app, com.example.app.widget]
                    storage: git@github.com:example/certificates.git
                    passphrase: "${{ secrets.SIGNING_PASSPHRASE }}"
                    readonly: false
                    register: true
                """),
        ],
        platforms: [.linux, .macOS]
    )

    let options: StepOptions
    let connection: AppStoreConnection

    public init(options: StepOptions) throws {
        connection = try SigningStepSupport.validate(options)
        self.options = options
    }

    public func plan(in context: StepContext) async throws -> [Effect] {
        let settings = try SigningStepSupport.Settings(options, context: context)
        var effects = [Effect(.network, "read the signing storage \(try options.requiredString("storage"))")]
        if !settings.readOnly {
            try connection.requireKey(in: context)
            effects.append(Effect(.network, "create on App Store Connect what is missing or expired: a \(settings.type.rawValue) "
                + "certificate, profiles for \(settings.bundleIDs.joined(separator: ", ")); store them"))
        }
        effects.append(Effect(.write, settings.installDescription))
        return effects
    }

    /// A dry run lists a directory storage (local and cheap: a file where the folder should be,
    /// or a link, fails as the run would); git and S3 storages are not contacted.
    public func check(in context: StepContext) async throws {
        guard let text = try options.string("storage"), !text.hasPrefix("<"),
              case .directory(let path) = try SigningStorageLocation.parse(text, baseDirectory: context.workingDirectory) else { return }
        _ = try await DirectorySigningStorage(root: path, readOnly: true, fileSystem: context.fileSystem).list()
    }

    public func run(in context: StepContext) async throws -> StepOutputs {
        try await AppStoreStepSupport.masked(context) { context, masker in try await runMasked(in: context, masker: masker) }
    }

    private func runMasked(in context: StepContext, masker: DerivedSecretMasker) async throws -> StepOutputs {
        let settings = try SigningStepSupport.Settings(options, context: context)
        let passphrase = try options.requiredString("passphrase")
        masker.add([passphrase] + settings.secrets)
        var portal: AppStoreConnectClient?
        if !settings.readOnly {
            portal = try await connection.client(context: context)
        }
        let http = RetryingHTTPClient(client: context.services.httpClient, policy: context.services.retryPolicy(4))
        let storage = try await settings.openStorage(passphrase: passphrase, http: http, context: context)
        let events = context.events
        let result = try await SigningSync(storage: storage, passphrase: passphrase, portal: portal,
                                           log: { events.log(.info, $0) })
            .run(SigningSyncRequest(type: settings.type, platform: settings.platform, bundleIDs: settings.bundleIDs,
                                    readOnly: settings.readOnly, renew: settings.renew, register: settings.register))
        for action in result.actions { context.events.log(.info, action) }
        for warning in result.warnings { context.events.log(.warning, warning) }
        let report = try await settings.install(result, context: context, masker: masker)
        return SigningStepSupport.outputs(result, installed: report)
    }
}
