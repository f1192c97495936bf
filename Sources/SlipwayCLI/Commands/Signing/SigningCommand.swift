import AppleAPI
import ArgumentParser
import Basics
import Foundation
import Signing

/// `slipway signing`: certificates and profiles a team shares (fastlane match's job).
struct SigningCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "signing",
        abstract: "Share code signing certificates and profiles through an encrypted storage (fastlane match's job).",
        discussion: """
            The storage (git, S3 or a directory) holds certificates, private keys and provisioning \
            profiles, each encrypted with a key derived from one passphrase. It uses fastlane match's \
            layout and reads and writes match's own encryption, so a match storage works as it is. \
            See docs/signing.md.
            """,
        subcommands: [SigningSyncCommand.self, SigningListCommand.self, SigningNukeCommand.self, SigningPushCommand.self]
    )
}

/// `slipway signing sync`.
struct SigningSyncCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "sync",
        abstract: "Make sure a valid certificate and a profile per bundle id exist on App Store Connect and in the storage; install them.",
        discussion: """
            For each bundle id, a valid certificate of the type's kind and a profile that includes it \
            (and, for development and ad hoc, every enabled device) must exist on App Store Connect and \
            in the storage; what is missing, expired, revoked or (with --renew) expiring within 30 days is \
            created through the API and stored. Then the certificate and profiles are installed.

            --readonly (the default when CI=true) only reads the storage: it needs no API key, never \
            changes anything on Apple's side or in the storage, and fails clearly when something is \
            missing. --dry-run asks Apple and the storage and lists what it would create, without doing it.

            Examples:
              SLIPWAY_SIGNING_PASSPHRASE=... slipway signing sync --type app-store --bundle-id com.example.app \\
                  --storage git@github.com:example/certificates.git --key-id ABC123DEFG --issuer-id ... --key-file AuthKey.p8
              CI=true slipway signing sync --type app-store --bundle-id com.example.app --storage https://github.com/example/certificates.git
            """
    )

    @OptionGroup var global: GlobalOptions
    @OptionGroup var storage: SigningStorageOptions
    @OptionGroup var key: AppStoreKeyOptions

    @Option(help: ArgumentHelp("development, app-store, ad-hoc, enterprise or developer-id.", valueName: "type"))
    var type: String

    @Option(name: .customLong("bundle-id"), parsing: .upToNextOption,
            help: ArgumentHelp("The bundle ids that need a profile (repeat, or list several).", valueName: "id"))
    var bundleIDs: [String] = []

    @Option(help: ArgumentHelp("ios, macos, tvos or catalyst.", valueName: "platform"))
    var platform = "ios"

    @Flag(inversion: .prefixedNo, help: "Never change App Store Connect or the storage (default: on when CI=true).")
    var readonly: Bool?

    @Flag(help: "Replace a certificate or profile that expires within 30 days.")
    var renew = false

    @Flag(help: "Register a bundle id App Store Connect does not have.")
    var register = false

    @Flag(help: "Only report what would be created, deleted and stored.")
    var dryRun = false

    @OptionGroup var install: SigningInstallOptions

    @Flag(help: "Print the result as JSON.")
    var json = false

    func validate() throws {
        try storage.check()
        try install.check()
        guard SigningType(rawValue: type) != nil else {
            throw ValidationError("--type must be one of \(SigningType.allCases.map(\.rawValue).joined(separator: ", ")), not '\(type)'.")
        }
        guard SigningPlatform(rawValue: platform) != nil else {
            throw ValidationError("--platform must be one of ios, macos, tvos, catalyst, not '\(platform)'.")
        }
        guard !bundleIDs.isEmpty else { throw ValidationError("Name at least one app with --bundle-id.") }
        try key.check(required: false)
    }

    func run() async throws {
        let env = global.environment()
        let readOnly = readonly ?? (env.environment["CI"] == "true")
        try await storage.run(env, alsoMasking: install.secrets(env)) { run in
            var portal: AppStoreConnectClient?
            if !readOnly {
                guard key.keyId != nil else {
                    throw CommandInputError("a sync that may create certificates and profiles needs an App Store Connect key: give --key-id "
                        + "with --key-file or --key-env, or run with --readonly to use only what the storage has.")
                }
                portal = try run.open(key).client
            }
            let opened = try await run.open(readOnly: readOnly || dryRun)
            let redactor = run.redactor
            let sync = SigningSync(storage: opened, passphrase: run.passphrase, portal: portal,
                                   log: { [redactor] in env.standardError.write(redactor.redact($0) + "\n") })
            let request = SigningSyncRequest(
                type: SigningType(rawValue: type) ?? .appStore, platform: SigningPlatform(rawValue: platform) ?? .ios,
                bundleIDs: bundleIDs, readOnly: readOnly, renew: renew, register: register, dryRun: dryRun)
            let result = try await sync.run(request)
            let installed = dryRun ? nil : try await install.install(result, env: env, redactor: redactor)
            print(result, installed: installed, env: env, redactor: redactor)
        }
    }

    private func print(_ result: SigningSyncResult, installed: SigningInstallSummary?, env: CommandEnvironment, redactor: Redactor) {
        for warning in result.warnings {
            env.standardError.write(env.style.paint("warning: ", .yellow) + redactor.redact(warning) + "\n")
            if env.environment.isGitHubActions { env.print("::warning::" + warning) }
        }
        if json {
            var object = SigningReport.json(result)
            object["installed"] = installed?.json
            env.print(redactor.redact(SigningReport.text(object)))
            return
        }
        var lines = result.actions.isEmpty ? ["nothing to create: the storage and App Store Connect agree"] : result.actions
        if !result.certificateID.isEmpty {
            lines.append("certificate: \(result.certificateName) (\(result.certificateID)), team \(result.teamID)")
        }
        for profile in result.profiles where !profile.uuid.isEmpty {
            lines.append("profile: \(profile.bundleID) → '\(profile.name)' \(profile.uuid)")
        }
        lines += installed?.lines ?? []
        env.print(redactor.redact(lines.joined(separator: "\n")))
    }
}

/// JSON of sync results, shared by the commands.
enum SigningReport {
    static func json(_ result: SigningSyncResult) -> [String: Any] {
        [
            "certificate": ["id": result.certificateID, "name": result.certificateName,
                            "sha1": result.identity?.certificate.sha1Fingerprint ?? ""],
            "teamId": result.teamID,
            "profiles": result.profiles.map { ["bundleId": $0.bundleID, "name": $0.name, "uuid": $0.uuid, "path": $0.path] },
            "actions": result.actions,
            "warnings": result.warnings,
        ]
    }

    static func text(_ object: [String: Any]) -> String {
        let data = (try? JSONSerialization.data(withJSONObject: object, options: [.sortedKeys, .prettyPrinted, .withoutEscapingSlashes])) ?? Data()
        return String(decoding: data, as: UTF8.self)
    }
}
