import ArgumentParser
import Basics
import Foundation
import Signing

/// `slipway signing push add|remove`: push certificates (.p12) in the encrypted signing storage.
struct SigningPushCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "push",
        abstract: "Keep APNs push certificates (.p12) in the signing storage, beside certificates and profiles.",
        discussion: """
            They are stored under push/<sandbox|production|both>/<bundle id>.p12, encrypted like every \
            other file (fastlane match has no such folder and ignores it). 'slipway signing list' shows \
            them and warns 30 days before they expire. Apple's API cannot create push certificates: make \
            them in Certificates, Identifiers & Profiles (or use a .p8 key). See docs/push.md.
            """,
        subcommands: [SigningPushAddCommand.self, SigningPushRemoveCommand.self]
    )
}

/// `slipway signing push add`.
struct SigningPushAddCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "add",
        abstract: "Check a push .p12 (as 'slipway push check' does) and store it.",
        discussion: """
            Example:
              SLIPWAY_SIGNING_PASSPHRASE=... P12_PASSWORD=... slipway signing push add push.p12 --password-env P12_PASSWORD \\
                  --storage git@github.com:example/certificates.git
            """
    )

    @OptionGroup var global: GlobalOptions
    @OptionGroup var storage: SigningStorageOptions

    @Argument(help: ArgumentHelp("The push certificate with its key (.p12).", valueName: "file"))
    var file: String

    @Option(help: ArgumentHelp("An environment variable holding the .p12's password (empty by default).", valueName: "variable"))
    var passwordEnv: String?

    func validate() throws { try storage.check() }

    func run() async throws {
        let env = global.environment()
        try await storage.run(env) { run in
            let password = try PushFileKind.password(passwordEnv, env: env)
            run.mask(password.isEmpty ? [] : [password])
            let redactor = run.redactor
            let path = global.directory == nil ? file : PushFileKind.resolve(file, in: env.projectDirectory)
            let push = try PushCertificate.load(file: path, password: password)
            let report = try PushCredentialCheck.report(push, file: file, topic: nil, now: Date())
            let opened = try await run.open(readOnly: false)
            let stored = try await opened.addPushCertificate(push, file: file)
            try await opened.save(message: "Add push certificate \(stored)")
            env.print(redactor.redact("stored \(stored) (\(report.subject ?? "?"), \(report.environment), expires \(report.expires ?? "?"))"))
            for warning in report.warnings { env.print(redactor.redact("warning: " + warning)) }
        }
    }
}

/// `slipway signing push remove`.
struct SigningPushRemoveCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "remove",
        abstract: "Delete a bundle id's push certificate from the storage (it is not revoked at Apple).")

    @OptionGroup var global: GlobalOptions
    @OptionGroup var storage: SigningStorageOptions

    @Option(help: ArgumentHelp("The bundle id.", valueName: "id"))
    var bundleID: String

    @Option(help: ArgumentHelp("sandbox, production or both (every one when omitted).", valueName: "environment"))
    var environment: String?

    func validate() throws {
        try storage.check()
        if let environment, PushCertificate.Environment(rawValue: environment) == nil {
            throw ValidationError("--environment must be sandbox, production or both, not '\(environment)'.")
        }
    }

    func run() async throws {
        let env = global.environment()
        try await storage.run(env) { run in
            let redactor = run.redactor
            let opened = try await run.open(readOnly: false)
            let removed = try await opened.removePushCertificates(bundleID: bundleID,
                                                                  environment: environment.flatMap(PushCertificate.Environment.init(rawValue:)))
            try await opened.save(message: "Remove push certificate of \(bundleID)")
            for path in removed { env.print(redactor.redact("removed \(path)")) }
        }
    }
}
