import Basics
import Foundation

/// The keychain to install into.
public enum KeychainTarget: Sendable, Equatable {
    /// A keychain made for this run (CI): created if missing, unlocked, first in the search list
    /// and the default; remove it with `TemporaryKeychain.remove` (the `signing.cleanup` step).
    case temporary(path: String, password: String)
    /// A keychain that exists (e.g. the login keychain). With its password it is unlocked and the
    /// key's partition list is set, so `codesign` uses the key without a prompt; without it, both
    /// are skipped (the report says so) and macOS may ask for access on first use.
    case existing(path: String, password: String?)

    /// The keychain's path.
    public var path: String {
        switch self {
        case .temporary(let path, _), .existing(let path, _): return path
        }
    }

    /// The keychain's password, if known.
    public var password: String? {
        switch self {
        case .temporary(_, let password): return password
        case .existing(_, let password): return password
        }
    }
}

/// Installs into a macOS keychain through `security` (what fastlane's `setup_ci`,
/// `create_keychain` and match's import do), and copies profiles where Xcode looks for them:
/// `~/Library/MobileDevice/Provisioning Profiles` (Xcode 15 and older) and
/// `~/Library/Developer/Xcode/UserData/Provisioning Profiles` (Xcode 16), as `<UUID>.mobileprovision`.
///
/// The identity goes in as a PKCS#12 made in memory with a random one-time password, written to
/// a 0600 temporary file that is removed after `security import`. Nothing here is macOS-only
/// Swift: it only runs `security`, so tests run it against a stand-in.
public struct KeychainSigningInstaller: SigningInstaller {
    /// The applications allowed to use the imported key without asking (`security import -T`).
    public static let trustedApplications = ["/usr/bin/codesign", "/usr/bin/security", "/usr/bin/productbuild", "/usr/bin/productsign"]
    /// The partition list set on the key (`set-key-partition-list -S`).
    public static let partitionList = "apple-tool:,apple:,codesign:"

    /// The keychain.
    public let keychain: KeychainTarget
    /// The home folder whose `Library` receives the profiles.
    public let homeDirectory: String
    let runner: any ProcessRunner
    let security: String
    let environment: [String: String]
    let temporaryDirectory: String
    let fileSystem: any FileSystem

    /// An installer.
    /// - Parameters:
    ///   - security: the `security` executable (a path, or a name looked up in `environment`'s PATH).
    ///   - temporaryDirectory: where the one-time PKCS#12 file is written (and removed).
    ///   - fileSystem: where the profiles, the keychain's state file and the PKCS#12 file are written.
    public init(keychain: KeychainTarget, runner: any ProcessRunner, homeDirectory: String,
                security: String = "/usr/bin/security", environment: [String: String] = ProcessInfo.processInfo.environment,
                temporaryDirectory: String = NSTemporaryDirectory(), fileSystem: any FileSystem = LocalFileSystem()) {
        self.keychain = keychain
        self.runner = runner
        self.homeDirectory = homeDirectory
        self.security = security
        self.environment = environment
        self.temporaryDirectory = temporaryDirectory
        self.fileSystem = fileSystem
    }

    /// The secrets this installer knows (the keychain password): register them with the lane's
    /// redactor. The one-time PKCS#12 password never leaves the installer.
    public var secrets: [String] { keychain.password.flatMap { $0.isEmpty ? nil : [$0] } ?? [] }

    /// The folders profiles are copied to.
    public var profileDirectories: [String] {
        [homeDirectory + "/Library/MobileDevice/Provisioning Profiles",
         homeDirectory + "/Library/Developer/Xcode/UserData/Provisioning Profiles"]
    }

    public func install(identity: SigningIdentity, profiles: [ProvisioningProfile]) async throws -> SigningInstallReport {
        for profile in profiles { try AtomicFile.checkFileName(profile.uuid, profile: profile.name) }
        let oneTimePassword = Self.randomPassword()
        let tool = SecurityTool(executable: security, runner: runner, environment: environment,
                                redactor: Redactor(secrets: secrets + [oneTimePassword]))
        var notes: [String] = []
        var created: String?
        switch keychain {
        case let .temporary(path, password):
            if try await TemporaryKeychain.prepare(path: path, password: password, tool: tool, fileSystem: fileSystem) { created = path }
        case let .existing(path, password):
            if let password { try await tool.run("unlock-keychain", ["-p", .secret(password), SecurityArgument(path)]) }
        }
        if try await importIdentity(identity, password: oneTimePassword, tool: tool) {
            notes.append("the identity \(identity.certificate.sha1Fingerprint) was already in '\(keychain.path)'")
        }
        if let password = keychain.password {
            try await tool.run("set-key-partition-list", ["-S", SecurityArgument(Self.partitionList), "-s",
                                                          "-k", .secret(password), SecurityArgument(keychain.path)])
        } else {
            notes.append("the key's partition list was not set (no keychain password was given): codesign may ask for "
                + "access to the key the first time; give the keychain password to avoid the prompt")
        }
        let installed = try installProfiles(profiles)
        return SigningInstallReport(certificateSHA1: identity.certificate.sha1Fingerprint,
                                    certificateName: identity.certificate.commonName,
                                    identity: .keychain(path: keychain.path), profiles: installed,
                                    createdKeychain: created, notes: notes)
    }

    /// Imports the identity; returns true when the keychain already held it.
    private func importIdentity(_ identity: SigningIdentity, password: String, tool: SecurityTool) async throws -> Bool {
        let p12: [UInt8]
        do { p12 = try identity.pkcs12(password: password) } catch {
            throw SigningInstallError.cannotWrite(path: "a PKCS#12 for \(identity.certificate.sha1Fingerprint)",
                                                  detail: error.localizedDescription)
        }
        let file = (temporaryDirectory.hasSuffix("/") ? temporaryDirectory : temporaryDirectory + "/")
            + "slipway-identity-\(UUID().uuidString).p12"
        try AtomicFile.store(p12, at: file, mode: 0o600, fileSystem: fileSystem)
        defer { try? fileSystem.remove(file) }
        var arguments: [SecurityArgument] = [SecurityArgument(file), "-k", SecurityArgument(keychain.path),
                                             "-P", .secret(password), "-f", "pkcs12"]
        for application in Self.trustedApplications { arguments += ["-T", SecurityArgument(application)] }
        let result = try await tool.attempt("import", arguments)
        if result.status.isSuccess { return false }
        if (result.errorText + result.outputText).contains("already exists in the keychain") { return true }
        throw tool.failure("import", arguments, result)
    }

    private func installProfiles(_ profiles: [ProvisioningProfile]) throws -> [SigningInstallReport.InstalledProfile] {
        guard !profiles.isEmpty else { return [] }
        for directory in profileDirectories where !fileSystem.existsFollowingLinks(directory) {
            try AtomicFile.makeDirectory(directory, mode: 0o755, fileSystem: fileSystem)
        }
        return try profiles.map { profile in
            let paths = profileDirectories.map { $0 + "/\(profile.uuid).mobileprovision" }
            for path in paths { try AtomicFile.store(profile.data, at: path, mode: 0o644, fileSystem: fileSystem) }
            return .init(name: profile.name, uuid: profile.uuid, bundleID: profile.bundleID, paths: paths)
        }
    }

    /// 32 random letters and digits (about 190 bits).
    static func randomPassword() -> String {
        let alphabet = Array("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789")
        var generator = SystemRandomNumberGenerator()
        return String((0..<32).map { _ in alphabet[Int(generator.next(upperBound: UInt64(alphabet.count)))] })
    }
}
