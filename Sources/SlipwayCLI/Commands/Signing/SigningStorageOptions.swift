import AppleAPI
import ArgumentParser
import Basics
import Foundation
import Git
import Networking
import Signing
import Transport

/// Where the signing storage is and how to open it (`signing sync|list|nuke`).
struct SigningStorageOptions: ParsableArguments {
    @Option(help: ArgumentHelp(
        "The storage: a git URL (https://, ssh://, git@host:path, file://, or a path ending in .git), s3://bucket/prefix, or a directory.",
        valueName: "address"))
    var storage = ".slipway/signing"

    @Option(help: ArgumentHelp("git: the branch (the repository's default branch when omitted).", valueName: "name"))
    var gitBranch: String?

    @Option(help: ArgumentHelp("git: an environment variable holding an access token for https.", valueName: "variable"))
    var gitTokenEnv: String?

    @Option(help: ArgumentHelp("s3: an S3-compatible endpoint URL (AWS's for the region when omitted). Credentials come from "
        + "AWS_ACCESS_KEY_ID, AWS_SECRET_ACCESS_KEY and AWS_SESSION_TOKEN.", valueName: "url"))
    var s3Endpoint: String?

    @Option(help: ArgumentHelp("s3: the bucket's region.", valueName: "region"))
    var s3Region = "us-east-1"

    @Option(help: ArgumentHelp("The environment variable holding the storage's passphrase (MATCH_PASSWORD is read when this one is unset).",
                               valueName: "variable"))
    var passphraseEnv = "SLIPWAY_SIGNING_PASSPHRASE"

    @Option(help: ArgumentHelp("The format of a new, empty storage: slipway (scrypt + AES-256-GCM) or match (fastlane match's v2).",
                               valueName: "format"))
    var format: String = "slipway"

    func check() throws {
        guard EncryptedSigningStorage.Format(rawValue: format) != nil else {
            throw ValidationError("--format must be slipway or match, not '\(format)'.")
        }
        if let s3Endpoint, URL(string: s3Endpoint)?.scheme == nil {
            throw ValidationError("--s3-endpoint must be an absolute URL, not '\(s3Endpoint)'.")
        }
    }

    /// Runs `body` with the storage's passphrase and a redactor of every secret the command
    /// holds (the passphrase, the AWS secret, the git token, `alsoMasking`, and a key opened
    /// through the run); whatever is thrown is reported masked, with the exit code it carries.
    func run(_ env: CommandEnvironment, alsoMasking others: @autoclosure () -> [String] = [],
             _ body: (SigningStorageRun) async throws -> Void) async throws {
        let masked = Locked<[String]>([])
        do {
            let passphrase = try passphrase(env)
            masked.withLock { $0 = secrets(env, passphrase: passphrase) + others() }
            try await body(SigningStorageRun(options: self, env: env, passphrase: passphrase, masked: masked))
        } catch {
            throw Failure.report(error, in: env, redactor: Redactor(secrets: masked.value))
        }
    }

    /// The passphrase, and every form of it to mask.
    /// - Throws: `CommandInputError` naming the variable when it is unset or empty.
    func passphrase(_ env: CommandEnvironment) throws -> String {
        if let value = env.environment[passphraseEnv], !value.isEmpty { return value }
        if passphraseEnv == "SLIPWAY_SIGNING_PASSPHRASE", let match = env.environment["MATCH_PASSWORD"], !match.isEmpty { return match }
        throw CommandInputError("the environment variable \(passphraseEnv) holds no passphrase. Set it to the signing storage's "
            + "passphrase (keep it in your CI's secrets).")
    }

    /// Opens the storage, decrypting with `passphrase`.
    /// - Throws: `SigningStorageError`.
    func open(_ env: CommandEnvironment, passphrase: String, readOnly: Bool) async throws -> EncryptedSigningStorage {
        let location = try SigningStorageLocation.parse(storage, baseDirectory: env.projectDirectory)
        var credentials: AWSCredentials?
        if let id = env.environment["AWS_ACCESS_KEY_ID"], let secret = env.environment["AWS_SECRET_ACCESS_KEY"] {
            credentials = AWSCredentials(accessKeyID: id, secretAccessKey: secret, sessionToken: env.environment["AWS_SESSION_TOKEN"])
        }
        let settings = SigningStorageLocation.Settings(
            readOnly: readOnly, cacheDirectory: env.environment.slipwayCacheDirectory, gitBranch: gitBranch,
            gitCredentials: gitTokenEnv.flatMap { env.environment[$0] }.map(GitCredentials.token),
            s3Endpoint: s3Endpoint.flatMap(URL.init(string:)), s3Region: s3Region, s3Credentials: credentials,
            http: RetryingHTTPClient(client: SystemHTTPClient(), policy: RetryPolicy()), environment: env.environment.variables)
        return try await EncryptedSigningStorage.open(try await location.open(settings), passphrase: passphrase,
                                                      newFormat: EncryptedSigningStorage.Format(rawValue: format) ?? .slipway)
    }

    /// The secrets to mask: the passphrase, the AWS secret and the git token.
    func secrets(_ env: CommandEnvironment, passphrase: String) -> [String] {
        [passphrase, env.environment["AWS_SECRET_ACCESS_KEY"], env.environment["AWS_SESSION_TOKEN"],
         gitTokenEnv.flatMap { env.environment[$0] }].compactMap { $0 }.filter { !$0.isEmpty }
    }
}

/// A signing command's run inside `SigningStorageOptions.run`: the passphrase, the redactor of
/// the secrets so far, and the storage and key to open.
struct SigningStorageRun {
    let options: SigningStorageOptions
    let env: CommandEnvironment
    /// The storage's passphrase.
    let passphrase: String
    fileprivate let masked: Locked<[String]>

    /// Masks every secret the command holds so far.
    var redactor: Redactor { Redactor(secrets: masked.value) }

    /// Adds secrets to mask (in the output and in the error reported).
    func mask(_ secrets: [String]) {
        masked.withLock { $0 += secrets }
    }

    /// Opens the storage (see `SigningStorageOptions.open`).
    func open(readOnly: Bool) async throws -> EncryptedSigningStorage {
        try await options.open(env, passphrase: passphrase, readOnly: readOnly)
    }

    /// Opens the App Store Connect key (see `AppStoreKeyOptions.open`); its secrets are masked
    /// from then on.
    func open(_ key: AppStoreKeyOptions) throws -> AppStoreConnectSession {
        let session = try key.open(env, alsoMasking: masked.value)
        mask(session.key.secretsToMask)
        return session
    }
}
