import ArgumentParser
import Basics
import Foundation
import Networking
import Signing

/// `slipway push send`.
struct PushSendCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "send",
        abstract: "Send one test notification through APNs with a .p8 auth key (token-based).",
        discussion: """
            POST /3/device/<token> over HTTP/2 to api.sandbox.push.apple.com (--sandbox, the default) or \
            api.push.apple.com (--production), with an ES256 provider token. The payload is checked (JSON \
            with 'aps', at most 4096 bytes; 5120 for voip) before anything is sent. Certificate-based \
            sending (.p12) is not supported: check a .p12 with 'slipway push check'.

            Example:
              slipway push send --device-token 0f3e...9a --topic com.example.app --key AuthKey_ABC123DEFG.p8 \\
                  --team-id TEAM123456 --message "Hello"
            """
    )

    @OptionGroup var global: GlobalOptions

    @Option(help: ArgumentHelp("The device token, hex.", valueName: "hex"))
    var deviceToken: String

    @Option(help: ArgumentHelp("apns-topic: the app's bundle id (with .voip, .complication... for those push types).", valueName: "bundle-id"))
    var topic: String

    @Option(help: ArgumentHelp("The APNs auth key (.p8).", valueName: "file"))
    var key: String

    @Option(help: ArgumentHelp("The key id (default: from the file name AuthKey_<KEYID>.p8).", valueName: "id"))
    var keyID: String?

    @Option(help: ArgumentHelp("The team id.", valueName: "id"))
    var teamID: String

    @Flag(help: "Send to api.sandbox.push.apple.com (apps built for development; the default).")
    var sandbox = false

    @Flag(help: "Send to api.push.apple.com (TestFlight and App Store builds).")
    var production = false

    @Option(help: ArgumentHelp("apns-push-type: \(APNsPushType.allCases.map(\.rawValue).joined(separator: ", ")).", valueName: "type"))
    var pushType = "alert"

    @Option(help: ArgumentHelp("apns-priority: 10, 5 or 1 (default: 5 for background types, else 10).", valueName: "n"))
    var priority: Int?

    @Option(help: ArgumentHelp("apns-expiration: a UNIX time, or 0 to deliver now or never (default 0).", valueName: "time"))
    var expiration: Int64 = 0

    @Option(help: ArgumentHelp("The JSON payload, or @FILE to read it from a file.", valueName: "json"))
    var payload: String?

    @Option(help: ArgumentHelp("An alert's text (the payload is made for you).", valueName: "text"))
    var message: String?

    @Option(help: .hidden)
    var host: String?

    @Option(help: ArgumentHelp("A PEM file of certificate authorities to trust instead of the system's (Linux: a TLS-inspecting proxy's CA).",
                               valueName: "file"))
    var caFile: String?

    @Flag(help: "Print the result as JSON.")
    var json = false

    func validate() throws {
        guard !(sandbox && production) else { throw ValidationError("Give --sandbox or --production, not both.") }
        guard !(payload != nil && message != nil) else { throw ValidationError("Give --payload or --message, not both.") }
        guard APNsPushType(rawValue: pushType) != nil else {
            throw ValidationError(PushCredentialError.unknownPushType(pushType).errorDescription ?? pushType)
        }
        if let host { guard URL(string: host)?.scheme == "https" else { throw ValidationError("--host must be an https:// URL.") } }
    }

    func run() async throws {
        let env = global.environment()
        var redactor = Redactor.none
        do {
            let type = APNsPushType(rawValue: pushType) ?? .alert
            let body = try payloadBytes(type, env: env)
            let notification = try APNsNotification(deviceToken: deviceToken, topic: topic, pushType: type, priority: priority,
                                                    expiration: expiration, payload: body)
            let authKey = try APNsAuthKey.load(file: path(key, env), keyID: keyID, teamID: teamID)
            redactor = Redactor(secrets: authKey.secretsToMask)
            let base = host.flatMap(URL.init(string:)) ?? (production ? APNsSender.productionHost : APNsSender.sandboxHost)
            guard let base else { throw CommandInputError("--host is not a URL.") }
            let sender = APNsSender(http: SystemHTTPClient(), key: authKey, host: base, trustedCertificatesFile: caFile.map { path($0, env) })
            let delivery = try await sender.send(notification)
            if json {
                env.print(redactor.redact(String(decoding: try JSONFormatting.encoder().encode(delivery), as: UTF8.self)))
            } else {
                env.print(redactor.redact("sent: APNs accepted the notification (apns-id \(delivery.apnsID ?? "none"), "
                    + "\(delivery.host), \(delivery.protocolVersion ?? "HTTP/2"))"))
            }
        } catch {
            throw Failure.report(error, in: env, redactor: redactor)
        }
    }

    private func payloadBytes(_ type: APNsPushType, env: CommandEnvironment) throws -> [UInt8] {
        guard let payload else { return APNsNotification.payload(message: message, pushType: type) }
        guard payload.hasPrefix("@") else { return Array(payload.utf8) }
        let file = path(String(payload.dropFirst()), env)
        // The file may sit in the checkout: the door refuses a link (or a folder link) out of it.
        // (A missing file is left to the reader, which says so in its own words.)
        if let door = env.fileSystem as? ProjectFileSystem, door.files.fileSystem.kind(of: file) != nil {
            _ = try door.files.checkedForReading(file)
        }
        return try PushFileKind.readPayload(file, pushType: type)
    }

    /// A file named on the command line: as given, or under -C's directory when one was given.
    private func path(_ file: String, _ env: CommandEnvironment) -> String {
        global.directory == nil ? file : PushFileKind.resolve(file, in: env.projectDirectory)
    }
}

extension PushFileKind {
    /// A payload file (a regular file; over 64 KiB it is refused by its size, unread).
    static func readPayload(_ path: String, pushType: APNsPushType) throws -> [UInt8] {
        let resolved = URL(fileURLWithPath: path).resolvingSymlinksInPath().path
        guard let attributes = try? FileManager.default.attributesOfItem(atPath: resolved) else {
            throw PushCredentialError.unreadableFile(file: path, reason: "there is no such file")
        }
        guard attributes[.type] as? FileAttributeType == .typeRegular else {
            throw PushCredentialError.unreadableFile(file: path, reason: "it is not a regular file")
        }
        let size = (attributes[.size] as? NSNumber)?.intValue ?? 0
        guard size <= 64 * 1024 else { throw PushCredentialError.payloadTooLarge(size: size, limit: pushType.payloadLimit) }
        guard let data = FileManager.default.contents(atPath: resolved) else {
            throw PushCredentialError.unreadableFile(file: path, reason: "it cannot be read (check its permissions)")
        }
        return Array(data.prefix(64 * 1024 + 1))
    }
}
