import ArgumentParser
import Basics
import Foundation
import Networking
import Signing

/// `slipway push`: check APNs credentials and send a test notification (fastlane pem's
/// neighbourhood; Apple's API cannot create push certificates, see docs/push.md).
struct PushCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "push",
        abstract: "Check APNs credentials (.p8 keys, push .p12 certificates) and send a test notification.",
        discussion: """
            Exit codes: 0 the credential is valid (warnings included) or the notification was accepted; \
            1 the credential is not valid, or APNs refused the notification (Apple's reason is explained); \
            64 bad usage. See docs/push.md.
            """,
        subcommands: [PushCheckCommand.self, PushSendCommand.self]
    )
}

/// `slipway push check`.
struct PushCheckCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "check",
        abstract: "Check an APNs auth key (.p8) or a push certificate (.p12) without sending anything.",
        discussion: """
            A .p8 must be the P-256 key Apple's portal made (its key id comes from AuthKey_<KEYID>.p8 unless \
            --key-id gives it); a .p12 must hold an Apple Push Services certificate and its key: its \
            environments, topics and expiry are shown, and it is refused when expired (warned within 30 days).

            Examples:
              slipway push check AuthKey_ABC123DEFG.p8 --team-id TEAM123456
              APNS_P12_PASSWORD=... slipway push check push.p12 --password-env APNS_P12_PASSWORD --topic com.example.app --json
            """
    )

    @OptionGroup var global: GlobalOptions

    @Argument(help: ArgumentHelp("The .p8 key or .p12 certificate.", valueName: "file"))
    var file: String

    @Option(help: ArgumentHelp(".p8: the key id (default: from the file name AuthKey_<KEYID>.p8).", valueName: "id"))
    var keyID: String?

    @Option(help: ArgumentHelp(".p8: the team id (required for a .p8).", valueName: "id"))
    var teamID: String?

    @Option(help: ArgumentHelp("The topic (bundle id) that must be allowed.", valueName: "bundle-id"))
    var topic: String?

    @Option(help: ArgumentHelp(".p12: an environment variable holding its password (empty by default).", valueName: "variable"))
    var passwordEnv: String?

    @Flag(help: "Print the result as JSON.")
    var json = false

    func validate() throws {
        if PushFileKind(file) == .key {
            guard teamID != nil else { throw ValidationError("A .p8 key needs --team-id (the Team ID of your developer account).") }
            guard passwordEnv == nil else { throw ValidationError("--password-env is for .p12 files; a .p8 key has no password.") }
        } else {
            guard keyID == nil, teamID == nil else { throw ValidationError("--key-id and --team-id are for .p8 keys, not '\(file)'.") }
        }
    }

    func run() async throws {
        let env = global.environment()
        var redactor = Redactor.none
        do {
            let path = global.directory == nil ? file : PushFileKind.resolve(file, in: env.projectDirectory)
            let report: PushCredentialReport
            if PushFileKind(file) == .key {
                report = try PushCredentialCheck.key(file: path, keyID: keyID, teamID: teamID ?? "", topic: topic)
            } else {
                let password = try PushFileKind.password(passwordEnv, env: env)
                redactor = Redactor(secrets: password.isEmpty ? [] : [password])
                report = try PushCredentialCheck.certificate(file: path, password: password, topic: topic, now: Date())
            }
            env.print(redactor.redact(json ? try report.json() : report.text))
            if json {
                for warning in report.warnings { env.standardError.write(env.style.paint("warning: ", .yellow) + redactor.redact(warning) + "\n") }
            }
            if env.environment.isGitHubActions {
                for warning in report.warnings { env.print("::warning::" + redactor.redact(warning)) }
            }
        } catch {
            throw Failure.report(error, in: env, redactor: redactor)
        }
    }
}

/// Whether a file is a .p8 key or a .p12 certificate, from its extension.
enum PushFileKind: Equatable {
    case key, certificate

    init(_ file: String) { self = file.lowercased().hasSuffix(".p8") ? .key : .certificate }

    static func resolve(_ file: String, in directory: String) -> String {
        file.hasPrefix("/") ? file : directory + "/" + file
    }

    /// The value of `variable`, or "" when none is named.
    static func password(_ variable: String?, env: CommandEnvironment) throws -> String {
        guard let variable else { return "" }
        guard let value = env.environment[variable] else {
            throw CommandInputError("--password-env names '\(variable)', which is not set. Export it with the .p12's password.")
        }
        return value
    }
}
