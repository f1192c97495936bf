import AppleAPI
import ArgumentParser
import Basics
import Foundation
import Signing

/// `slipway signing list`.
struct SigningListCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "list",
        abstract: "List the storage's certificates and profiles, their expiry dates, and which profiles include which devices.",
        discussion: """
            Reads and decrypts every file (read-only: nothing is written). Certificates and profiles \
            that expire within 30 days are warned about; 'slipway signing sync --renew' replaces them.

            Example:
              SLIPWAY_SIGNING_PASSPHRASE=... slipway signing list --storage git@github.com:example/certificates.git --json
            """
    )

    @OptionGroup var global: GlobalOptions
    @OptionGroup var storage: SigningStorageOptions

    @Flag(help: "Print the inventory as JSON.")
    var json = false

    func validate() throws { try storage.check() }

    func run() async throws {
        let env = global.environment()
        try await storage.run(env) { run in
            let redactor = run.redactor
            let inventory = try await SigningInventory.read(try await run.open(readOnly: true))
            if json {
                env.print(redactor.redact(SigningReport.text(inventory.json)))
            } else {
                env.print(redactor.redact(inventory.text))
            }
            if env.environment.isGitHubActions {
                for warning in inventory.warnings { env.print("::warning::" + redactor.redact(warning)) }
            }
            // An expired push certificate fails the listing: APNs refuses it, unlike an expired
            // signing certificate, which 'signing sync --renew' replaces.
            if let expired = inventory.expiredPushCertificates.first {
                throw PushCredentialError.expired(file: expired.file, date: expired.expires ?? "?")
            }
        }
    }
}

/// `slipway signing nuke`.
struct SigningNukeCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "nuke",
        abstract: "Revoke a type's certificates, delete its profiles on App Store Connect, and delete their files from the storage.",
        discussion: """
            By default only what the storage holds is revoked and deleted on Apple's side; \
            --all-on-account takes every certificate and profile of the type on the account, as \
            fastlane match's nuke does. Nothing happens without --confirm: --dry-run (or no flag) prints \
            the plan. Revoking a distribution certificate invalidates every profile made with it.

            Example:
              slipway signing nuke --type development --storage ... --key-id ABC123DEFG --key-file AuthKey.p8 --dry-run
            """
    )

    @OptionGroup var global: GlobalOptions
    @OptionGroup var storage: SigningStorageOptions
    @OptionGroup var key: AppStoreKeyOptions

    @Option(help: ArgumentHelp("development, app-store, ad-hoc, enterprise or developer-id.", valueName: "type"))
    var type: String

    @Option(help: ArgumentHelp("ios, macos, tvos or catalyst.", valueName: "platform"))
    var platform = "ios"

    @Flag(help: "Every certificate and profile of the type on the account, not only the storage's.")
    var allOnAccount = false

    @Flag(help: "Only print what would be revoked and deleted.")
    var dryRun = false

    @Flag(help: "Do it.")
    var confirm = false

    func validate() throws {
        try storage.check()
        try key.check(required: true)
        guard SigningType(rawValue: type) != nil else {
            throw ValidationError("--type must be one of \(SigningType.allCases.map(\.rawValue).joined(separator: ", ")), not '\(type)'.")
        }
        guard SigningPlatform(rawValue: platform) != nil else {
            throw ValidationError("--platform must be one of ios, macos, tvos, catalyst, not '\(platform)'.")
        }
    }

    func run() async throws {
        let env = global.environment()
        try await storage.run(env) { run in
            let portal = try run.open(key).client
            let redactor = run.redactor
            let writes = confirm && !dryRun
            let nuke = SigningNuke(storage: try await run.open(readOnly: !writes), portal: portal)
            let signingType = SigningType(rawValue: type) ?? .development
            let items = try await nuke.plan(type: signingType, platform: SigningPlatform(rawValue: platform) ?? .ios,
                                            allOnAccount: allOnAccount)
            guard !items.isEmpty else {
                env.print("nothing to remove for \(type)")
                return
            }
            guard writes else {
                env.print(redactor.redact((["would:"] + items.map { "  " + $0.description }).joined(separator: "\n")))
                if !dryRun {
                    throw SigningSyncError.confirmationRequired(summary: "remove \(items.count) item(s), listed above")
                }
                return
            }
            try await nuke.perform(items, type: signingType, log: { [redactor] in env.print(redactor.redact($0)) })
        }
    }
}
