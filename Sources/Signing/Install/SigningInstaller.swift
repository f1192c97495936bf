/// Where a signing identity and its profiles were installed: what `signing.sync` reports and
/// hands to `xcode.export` (profile names and UUIDs by bundle id).
public struct SigningInstallReport: Sendable, Equatable {
    /// Where the identity (certificate and private key) went.
    public enum IdentityLocation: Sendable, Equatable {
        /// Imported into the keychain at this path.
        case keychain(path: String)
        /// Written as files: the PKCS#12 (`<SHA-1>.p12`) and the DER certificate (`<SHA-1>.cer`).
        case files(pkcs12: String, certificate: String)
    }

    /// One installed profile.
    public struct InstalledProfile: Sendable, Equatable {
        /// The profile's name ("Name").
        public var name: String
        /// Its UUID, the file name it was installed under.
        public var uuid: String
        /// Its bundle id (`*` for a wildcard profile), if it has one.
        public var bundleID: String?
        /// Every file it was written to.
        public var paths: [String]

        /// Creates an entry.
        public init(name: String, uuid: String, bundleID: String?, paths: [String]) {
            self.name = name
            self.uuid = uuid
            self.bundleID = bundleID
            self.paths = paths
        }
    }

    /// The certificate's SHA-1 (upper-case hex), what `security find-identity` lists.
    public var certificateSHA1: String
    /// The certificate's common name, for `CODE_SIGN_IDENTITY` and export options.
    public var certificateName: String?
    /// Where the identity went.
    public var identity: IdentityLocation
    /// The profiles, in the order given.
    public var profiles: [InstalledProfile]
    /// The temporary keychain this install created, if it created one (remove it with
    /// `TemporaryKeychain.remove` or the `signing.cleanup` step).
    public var createdKeychain: String?
    /// Things the user should know: an identity that was already installed, a partition list
    /// that was not set because the keychain's password was not given.
    public var notes: [String]

    /// Creates a report.
    public init(certificateSHA1: String, certificateName: String?, identity: IdentityLocation,
                profiles: [InstalledProfile], createdKeychain: String? = nil, notes: [String] = []) {
        self.certificateSHA1 = certificateSHA1
        self.certificateName = certificateName
        self.identity = identity
        self.profiles = profiles
        self.createdKeychain = createdKeychain
        self.notes = notes
    }
}

/// Installs a signing identity and provisioning profiles where the build tools find them: a
/// keychain on macOS (`KeychainSigningInstaller`), a directory elsewhere
/// (`DirectorySigningInstaller`).
public protocol SigningInstaller: Sendable {
    /// Installs `identity` and `profiles`; re-running with the same ones succeeds.
    /// - Throws: `SigningInstallError`.
    func install(identity: SigningIdentity, profiles: [ProvisioningProfile]) async throws -> SigningInstallReport
}
