import AppleAPI
import Basics
import Foundation
import Git
import Signing
import Transport

/// The options, storage and installation of `signing.sync`.
enum SigningStepSupport {
    /// Checks what can be checked before the lane runs; returns the App Store Connect
    /// connection, whose key (optional: read-only runs need none) is checked when given.
    /// - Throws: `StepError.invalidOption` naming the option.
    static func validate(_ options: StepOptions) throws -> AppStoreConnection {
        let bundleIDs = try options.strings("bundle-ids")
        guard !bundleIDs.isEmpty else {
            throw StepError.invalidOption(name: "bundle-ids", problem: "is empty; list the bundle ids that need a profile")
        }
        if let storage = try options.string("storage"), !storage.contains("${{") {
            do {
                _ = try SigningStorageLocation.parse(storage, baseDirectory: "/")
            } catch {
                throw StepError.invalidOption(name: "storage", problem: errorText(error))
            }
        }
        if try options.string("install") == "keychain", options.platform != .macOS {
            throw StepError.invalidOption(name: "install", problem: "keychain needs macOS's security tool; on Linux use install: directory or none")
        }
        let connection = try AppStoreConnection(optionalKeyIn: options)
        for name in ["temporary-keychain", "readonly", "renew", "register"] { _ = try options.bool(name) }
        return connection
    }

    /// The step's settings, resolved in a context (CI, paths).
    struct Settings {
        let options: StepOptions
        let type: SigningType
        let platform: SigningPlatform
        let bundleIDs: [String]
        let readOnly: Bool
        let renew: Bool
        let register: Bool
        let install: String
        let isCI: Bool

        init(_ options: StepOptions, context: StepContext) throws {
            self.options = options
            type = SigningType(rawValue: try options.requiredString("type")) ?? .appStore
            platform = SigningPlatform(rawValue: try options.requiredString("platform")) ?? .ios
            bundleIDs = try options.strings("bundle-ids")
            isCI = context.environment["CI"] == "true"
            readOnly = try options.bool("readonly", default: isCI)
            renew = try options.bool("renew")
            register = try options.bool("register")
            install = try options.string("install") ?? (options.platform == .macOS ? "keychain" : "directory")
        }

        /// The S3 secret and git token, to mask.
        var secrets: [String] {
            ["secret-access-key", "git-token", "keychain-password", "p12-password"].compactMap { try? options.string($0) }
        }

        var installDescription: String {
            switch install {
            case "keychain": return "install the certificate into a keychain and the profiles into ~/Library"
            case "directory": return "install the certificate and profiles into \((try? options.string("install-directory")) ?? "")"
            default: return "install nothing"
            }
        }

        func openStorage(passphrase: String, http: RetryingHTTPClient, context: StepContext) async throws -> EncryptedSigningStorage {
            let location = try SigningStorageLocation.parse(try options.requiredString("storage"),
                                                            baseDirectory: context.workingDirectory)
            var credentials: AWSCredentials?
            if let id = try options.string("access-key-id"), let secret = try options.string("secret-access-key") {
                credentials = AWSCredentials(accessKeyID: id, secretAccessKey: secret)
            }
            let settings = SigningStorageLocation.Settings(
                readOnly: readOnly, cacheDirectory: context.environment.slipwayCacheDirectory, gitBranch: try options.string("git-branch"),
                gitCredentials: try options.string("git-token").map(GitCredentials.token),
                s3Endpoint: try options.string("s3-endpoint").flatMap(URL.init(string:)),
                s3Region: try options.requiredString("s3-region"), s3Credentials: credentials, http: http,
                environment: context.environment.variables, fileSystem: context.fileSystem)
            let format = EncryptedSigningStorage.Format(rawValue: try options.requiredString("format")) ?? .slipway
            return try await EncryptedSigningStorage.open(try await location.open(settings), passphrase: passphrase, newFormat: format)
        }

        /// Installs `result` as the options say.
        func install(_ result: SigningSyncResult, context: StepContext, masker: DerivedSecretMasker) async throws -> SigningInstallReport? {
            guard let identity = result.identity, install != "none" else { return nil }
            let profiles = result.profiles.compactMap(\.profile)
            if install == "directory" {
                let directory = context.resolve(try options.requiredString("install-directory"))
                return try await DirectorySigningInstaller(directory: directory, p12Password: try options.string("p12-password") ?? "",
                                                     fileSystem: context.fileSystem)
                    .install(identity: identity, profiles: profiles)
            }
            let installer = KeychainSigningInstaller(keychain: try keychain(context: context, masker: masker),
                                                     runner: context.processRunner,
                                                     homeDirectory: context.environment["HOME"] ?? NSHomeDirectory(),
                                                     security: "security", environment: context.environment.variables,
                                                     fileSystem: context.fileSystem)
            return try await installer.install(identity: identity, profiles: profiles)
        }

        private func keychain(context: StepContext, masker: DerivedSecretMasker) throws -> KeychainTarget {
            let temporary = try options.bool("temporary-keychain", default: isCI)
            let password = try options.string("keychain-password")
            guard temporary else {
                let home = context.environment["HOME"] ?? NSHomeDirectory()
                return .existing(path: try options.string("keychain").map(context.resolve) ?? home + "/Library/Keychains/login.keychain-db",
                                 password: password)
            }
            let path = try options.string("keychain").map(context.resolve)
                ?? context.resolve(".build/slipway/\(context.laneName)-signing.keychain-db")
            let secret = password ?? UUID().uuidString + UUID().uuidString
            masker.add([secret])
            return .temporary(path: path, password: secret)
        }
    }

    /// The step's outputs.
    static func outputs(_ result: SigningSyncResult, installed: SigningInstallReport?) -> StepOutputs {
        func json(_ pairs: [(String, String)]) -> String {
            let object = Dictionary(pairs, uniquingKeysWith: { first, _ in first })
            let data = (try? JSONSerialization.data(withJSONObject: object, options: [.sortedKeys, .withoutEscapingSlashes])) ?? Data()
            return String(decoding: data, as: UTF8.self)
        }
        var keychain = "", directory = ""
        switch installed?.identity {
        case .keychain(let path)?: keychain = path
        case .files(let pkcs12, _)?: directory = (pkcs12 as NSString).deletingLastPathComponent
        case nil: break
        }
        return [
            "certificate-id": result.certificateID,
            "certificate-name": result.certificateName,
            "certificate-sha1": result.identity?.certificate.sha1Fingerprint ?? "",
            "team-id": result.teamID,
            "profile-name": result.profiles.first?.name ?? "",
            "profile-uuid": result.profiles.first?.uuid ?? "",
            "profiles": json(result.profiles.map { ($0.bundleID, $0.name) }),
            "profile-uuids": json(result.profiles.map { ($0.bundleID, $0.uuid) }),
            "keychain": keychain,
            "install-directory": directory,
        ]
    }
}
