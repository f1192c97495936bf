import ArgumentParser
import Basics
import Foundation
import Signing
import Steps

/// How `signing sync` installs what it synced: a keychain on macOS (a temporary one on CI), a
/// directory elsewhere.
struct SigningInstallOptions: ParsableArguments {
    @Option(help: ArgumentHelp("keychain (macOS), directory, or none. Default: keychain on macOS, directory elsewhere.", valueName: "how"))
    var install: String?

    @Option(help: ArgumentHelp("directory: where the .p12, .cer and profiles go.", valueName: "path"))
    var installDirectory = ".build/slipway/signing"

    @Option(help: ArgumentHelp("directory: an environment variable holding the written .p12's password (empty by default).",
                               valueName: "variable"))
    var p12PasswordEnv: String?

    @Option(help: ArgumentHelp("keychain: the keychain's path (default: a temporary one when CI=true, else the login keychain).",
                               valueName: "path"))
    var keychain: String?

    @Option(help: ArgumentHelp("keychain: an environment variable holding the keychain's password.", valueName: "variable"))
    var keychainPasswordEnv: String?

    @Flag(inversion: .prefixedNo, help: "keychain: create the keychain for this run, as fastlane's setup_ci does (default: on when CI=true).")
    var temporaryKeychain: Bool?

    func check() throws {
        if let install, !["keychain", "directory", "none"].contains(install) {
            throw ValidationError("--install must be keychain, directory or none, not '\(install)'.")
        }
        if install == "keychain", Platform.current != .macOS {
            throw ValidationError("--install keychain needs macOS's security tool; on Linux use --install directory or none.")
        }
    }

    private var how: String {
        install ?? (Platform.current == .macOS ? "keychain" : "directory")
    }

    /// Installs `result`; nil when told not to (or a dry run made nothing to install).
    func install(_ result: SigningSyncResult, env: CommandEnvironment, redactor: Redactor) async throws -> SigningInstallSummary? {
        guard let identity = result.identity, how != "none" else { return nil }
        let profiles = result.profiles.compactMap(\.profile)
        let report: SigningInstallReport
        if how == "directory" {
            let directory = installDirectory.hasPrefix("/") ? installDirectory : env.projectDirectory + "/" + installDirectory
            let password = p12PasswordEnv.flatMap { env.environment[$0] } ?? ""
            report = try await DirectorySigningInstaller(directory: directory, p12Password: password, fileSystem: env.fileSystem).install(identity: identity, profiles: profiles)
        } else {
            report = try await KeychainSigningInstaller(keychain: try target(env), runner: env.processRunner,
                                                        homeDirectory: env.environment["HOME"] ?? NSHomeDirectory(),
                                                        environment: env.environment.variables, fileSystem: env.fileSystem)
                .install(identity: identity, profiles: profiles)
        }
        return SigningInstallSummary(report)
    }

    private func target(_ env: CommandEnvironment) throws -> KeychainTarget {
        let password = keychainPasswordEnv.flatMap { env.environment[$0] }
        let resolve = { (path: String) in path.hasPrefix("/") ? path : env.projectDirectory + "/" + path }
        guard temporaryKeychain ?? (env.environment["CI"] == "true") else {
            let home = env.environment["HOME"] ?? NSHomeDirectory()
            return .existing(path: keychain.map(resolve) ?? home + "/Library/Keychains/login.keychain-db", password: password)
        }
        guard let password, !password.isEmpty else {
            throw CommandInputError("a temporary keychain needs a password: give --keychain-password-env naming a variable that holds one.")
        }
        return .temporary(path: keychain.map(resolve) ?? env.projectDirectory + "/.build/slipway/signing.keychain-db", password: password)
    }

    /// The passwords to mask.
    func secrets(_ env: CommandEnvironment) -> [String] {
        [keychainPasswordEnv, p12PasswordEnv].compactMap { $0.flatMap { env.environment[$0] } }.filter { !$0.isEmpty }
    }
}

/// What was installed where.
struct SigningInstallSummary {
    var lines: [String]
    var json: [String: Any]

    init(_ report: SigningInstallReport) {
        var lines: [String] = []
        var json: [String: Any] = ["certificateSha1": report.certificateSHA1,
                                   "profiles": report.profiles.map { ["uuid": $0.uuid, "name": $0.name, "paths": $0.paths] }]
        switch report.identity {
        case .keychain(let path):
            lines.append("installed the certificate into the keychain \(path)")
            json["keychain"] = path
        case .files(let pkcs12, let certificate):
            lines.append("installed the certificate as \(pkcs12) and \(certificate)")
            json["pkcs12"] = pkcs12
            json["certificateFile"] = certificate
        }
        for profile in report.profiles { lines.append("installed the profile \(profile.uuid) as " + profile.paths.joined(separator: ", ")) }
        if let created = report.createdKeychain {
            lines.append("created the temporary keychain \(created): remove it with the signing.cleanup step when done")
            json["createdKeychain"] = created
        }
        lines += report.notes
        json["notes"] = report.notes
        self.lines = lines
        self.json = json
    }
}
