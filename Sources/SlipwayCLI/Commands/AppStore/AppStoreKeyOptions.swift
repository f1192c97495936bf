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

    /// The message when a command that needs a key has no `--key-id`.
    static let missingKeyID = "Give the API key's id with --key-id."

    /// Checks the combination; `required` demands a key. `--api-url` follows the steps'
    /// `api-url` rule (`AppStoreConnectSettings.baseURL`).
    func check(required: Bool) throws {
        if keyId == nil {
            if required { throw ValidationError(Self.missingKeyID) }
            guard keyFile == nil, keyEnv == nil else { throw ValidationError("--key-file and --key-env need --key-id.") }
            return
        }
        guard (keyFile == nil) != (keyEnv == nil) else {
            throw ValidationError("Give the private key with exactly one of --key-file or --key-env.")
        }
        if let apiUrl, AppStoreConnectSettings.baseURL(apiUrl) == nil {
            throw ValidationError("--api-url must be \(AppStoreConnectSettings.baseURLRule), not '\(apiUrl)'.")
        }
    }

    /// The settings the options give, or nil when no --key-id was given.
    /// - Throws: `CommandInputError` when --key-env names a variable that holds no key.
    func settings(_ env: CommandEnvironment) throws -> AppStoreConnectSettings? {
        guard let keyId else { return nil }
        let source: AppStoreConnectSettings.KeySource
        if let keyEnv {
            guard let text = env.environment[keyEnv], !text.isEmpty else {
                throw CommandInputError("the environment variable \(keyEnv) holds no private key. Set it to the .p8 file's text.")
            }
            source = .text(text, source: "in the environment variable \(keyEnv)")
        } else {
            source = .file(keyFile.map { $0.hasPrefix("/") ? $0 : env.projectDirectory + "/" + $0 } ?? "")
        }
        return AppStoreConnectSettings(issuerID: issuerId, keyID: keyId, individual: individual, keySource: source,
                                       baseURL: apiUrl.flatMap(AppStoreConnectSettings.baseURL) ?? AppStoreConnectClient.productionURL)
    }

    /// The key, or nil when no --key-id was given.
    /// - Throws: `CommandInputError` or `AppStoreConnectKeyError`, naming the option or file.
    func load(_ env: CommandEnvironment) throws -> AppStoreConnectKey? {
        try settings(env)?.loadKey()
    }

    /// Loads the key and makes the redactor of its secrets (and of `alsoMasking`) and a client
    /// whose log lines go to standard error, redacted. The key and every token the client mints
    /// join the command's masked secrets (`env.secrets`), so a server that echoes the token in
    /// an error is shown masked, whatever prints it.
    /// - Throws: `CommandInputError` (no --key-id, an empty --key-env) or
    ///   `AppStoreConnectKeyError`: bad input (exit 2), nothing sent.
    func open(_ env: CommandEnvironment, alsoMasking others: [String] = []) throws -> AppStoreConnectSession {
        guard let settings = try settings(env) else { throw CommandInputError(Self.missingKeyID) }
        let key = try settings.loadKey()
        let redactor = Redactor(secrets: others + key.secretsToMask)
        let secrets = env.secrets
        secrets.add(key.secretsToMask)
        let client = settings.client(key: key, http: SystemHTTPClient(), onNewToken: { secrets.add([$0.value]) },
                                     log: { env.standardError.write(redactor.redact($0) + "\n") })
        return AppStoreConnectSession(key: key, client: client, redactor: redactor)
    }

    /// `open`, reporting a key that cannot be loaded (exit 2, nothing sent): for commands whose
    /// first act is opening the key.
    func openOrReport(_ env: CommandEnvironment) throws -> AppStoreConnectSession {
        do {
            return try open(env)
        } catch {
            throw Failure.report(error, in: env)
        }
    }
}

/// An opened App Store Connect key: the key, its client, and the redactor of its secrets.
struct AppStoreConnectSession {
    /// The key.
    let key: AppStoreConnectKey
    /// The client (the system's HTTP client, `AppStoreConnectSettings`' retries).
    let client: AppStoreConnectClient
    /// Masks the key's secrets (and those given to `open`).
    let redactor: Redactor

    /// Runs `body`; whatever it throws is reported, masked, with the exit code it carries.
    func run<T>(_ env: CommandEnvironment, _ body: (AppStoreConnectClient) async throws -> T) async throws -> T {
        do {
            return try await body(client)
        } catch {
            throw Failure.report(error, in: env, redactor: redactor)
        }
    }
}
