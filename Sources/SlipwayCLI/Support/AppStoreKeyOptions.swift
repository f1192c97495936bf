import AppleAPI
import ArgumentParser
import Basics
import Foundation
import Networking

/// The App Store Connect API key options of `appstore check` and `signing sync|nuke`. The key is
/// read from a file or from an environment variable holding the .p8 text, never from an argument.
struct AppStoreKeyOptions: ParsableArguments {
    @Option(help: ArgumentHelp("The API key's issuer id (team keys; a UUID).", valueName: "uuid"))
    var issuerId: String?

    @Option(help: ArgumentHelp("The API key's id (10 characters).", valueName: "id"))
    var keyId: String?

    @Option(help: ArgumentHelp("The .p8 private key file.", valueName: "path"))
    var keyFile: String?

    @Option(help: ArgumentHelp("An environment variable holding the .p8 text.", valueName: "variable"))
    var keyEnv: String?

    @Flag(help: "The key is an individual key (no issuer id).")
    var individual = false

    @Option(help: .hidden)
    var apiUrl: String?

    /// Checks the combination; `required` demands a key.
    func check(required: Bool) throws {
        if keyId == nil {
            if required { throw ValidationError("Give the API key's id with --key-id.") }
            guard keyFile == nil, keyEnv == nil else { throw ValidationError("--key-file and --key-env need --key-id.") }
            return
        }
        guard (keyFile == nil) != (keyEnv == nil) else {
            throw ValidationError("Give the private key with exactly one of --key-file or --key-env.")
        }
        if let apiUrl, URL(string: apiUrl)?.scheme == nil {
            throw ValidationError("--api-url must be an absolute URL, not '\(apiUrl)'.")
        }
    }

    /// The key, or nil when no --key-id was given.
    /// - Throws: `ValidationError` or `AppStoreConnectKeyError`, naming the option or file.
    func load(_ env: CommandEnvironment) throws -> AppStoreConnectKey? {
        guard let keyId else { return nil }
        if let keyEnv {
            guard let text = env.environment[keyEnv], !text.isEmpty else {
                throw ValidationError("the environment variable \(keyEnv) holds no private key. Set it to the .p8 file's text.")
            }
            return try AppStoreConnectKey(issuerID: issuerId, keyID: keyId, privateKeyPEM: text,
                                          source: "in the environment variable \(keyEnv)", individual: individual)
        }
        let path = keyFile.map { $0.hasPrefix("/") ? $0 : env.projectDirectory + "/" + $0 } ?? ""
        return try AppStoreConnectKey.load(issuerID: issuerId, keyID: keyId, file: path, individual: individual)
    }

    /// A client for `key` whose log lines go to standard error, redacted. The key and every
    /// token the client mints join the command's masked secrets (`env.secrets`), so a server
    /// that echoes the token in an error is shown masked, whatever prints it.
    func client(_ key: AppStoreConnectKey, env: CommandEnvironment, redactor: Redactor) -> AppStoreConnectClient {
        let secrets = env.secrets
        secrets.add(key.secretsToMask)
        let tokens = AppStoreConnectTokenProvider(key: key, onNewToken: { secrets.add([$0.value]) })
        return AppStoreConnectClient(
            tokens: tokens, http: SystemHTTPClient(),
            baseURL: apiUrl.flatMap(URL.init(string:)) ?? AppStoreConnectClient.productionURL,
            log: { env.standardError.write(redactor.redact($0) + "\n") })
    }
}
