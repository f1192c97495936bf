import Basics
import Foundation

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Installs into a directory, for Linux (tests, and tools that only need the files) and for
/// macOS tools that take files rather than a keychain:
///
///     DIRECTORY/                                   0700
///       <SHA-1>.p12                                0600  PKCS#12 with `p12Password`
///       <SHA-1>.cer                                0600  the certificate, DER
///       Provisioning Profiles/                     0700
///         <UUID>.mobileprovision                   0600
///
/// Every file is replaced atomically, so a re-run never leaves a partial file.
public struct DirectorySigningInstaller: SigningInstaller {
    /// The folder (created when missing; its mode is set to 0700).
    public let directory: String
    /// The password of the PKCS#12 file written there ("" for none). Register it as a secret
    /// when it is not empty.
    public let p12Password: String
    let fileSystem: any FileSystem

    /// An installer writing into `directory` through `fileSystem`.
    public init(directory: String, p12Password: String = "", fileSystem: any FileSystem = LocalFileSystem()) {
        self.directory = directory.count > 1 && directory.hasSuffix("/") ? String(directory.dropLast()) : directory
        self.p12Password = p12Password
        self.fileSystem = fileSystem
    }

    /// The folder profiles are written to.
    public var profilesDirectory: String { directory + "/Provisioning Profiles" }

    public func install(identity: SigningIdentity, profiles: [ProvisioningProfile]) async throws -> SigningInstallReport {
        let sha1 = identity.certificate.sha1Fingerprint
        let p12: [UInt8]
        do {
            p12 = try identity.pkcs12(password: p12Password)
        } catch {
            throw SigningInstallError.cannotWrite(path: directory + "/\(sha1).p12", detail: error.localizedDescription)
        }
        try AtomicFile.makeDirectory(directory, mode: 0o700, fileSystem: fileSystem)
        let p12Path = directory + "/\(sha1).p12"
        let cerPath = directory + "/\(sha1).cer"
        try AtomicFile.store(p12, at: p12Path, mode: 0o600, fileSystem: fileSystem)
        try AtomicFile.store(identity.certificate.der, at: cerPath, mode: 0o600, fileSystem: fileSystem)
        var installed: [SigningInstallReport.InstalledProfile] = []
        if !profiles.isEmpty { try AtomicFile.makeDirectory(profilesDirectory, mode: 0o700, fileSystem: fileSystem) }
        for profile in profiles {
            try AtomicFile.checkFileName(profile.uuid, profile: profile.name)
            let path = profilesDirectory + "/\(profile.uuid).mobileprovision"
            try AtomicFile.store(profile.data, at: path, mode: 0o600, fileSystem: fileSystem)
            installed.append(.init(name: profile.name, uuid: profile.uuid, bundleID: profile.bundleID, paths: [path]))
        }
        return SigningInstallReport(certificateSHA1: sha1, certificateName: identity.certificate.commonName,
                                    identity: .files(pkcs12: p12Path, certificate: cerPath), profiles: installed)
    }
}
