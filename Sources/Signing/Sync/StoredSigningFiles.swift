import Foundation

/// A certificate a storage holds: `certs/<kind>/<id>.cer`, with or without its `.p12`.
public struct StoredCertificate: Sendable {
    /// Apple's certificate id (the file name).
    public let id: String
    /// The storage folder it is in.
    public let kind: SigningCertificateKind
    /// The certificate.
    public let certificate: SigningCertificate
    /// Whether the storage has its private key (`<id>.p12`).
    public let hasKey: Bool

    /// `certs/<kind>/<id>.cer`.
    public var certificatePath: String { SigningLayout.certificatePath(kind: kind, id: id) }
    /// `certs/<kind>/<id>.p12`.
    public var keyPath: String { SigningLayout.privateKeyPath(kind: kind, id: id) }
}

/// A profile a storage holds.
public struct StoredProfile: Sendable {
    /// Its path in the storage.
    public let path: String
    /// The profile.
    public let profile: ProvisioningProfile
}

extension EncryptedSigningStorage {
    private static func listing(_ files: [String]?, of storage: EncryptedSigningStorage) async throws -> [String] {
        if let files { return files }
        return try await storage.list()
    }

    /// The certificates under `certs/<kind>/` (every kind when nil), read and decrypted, sorted by
    /// id. `files` is the storage's listing when the caller has it.
    /// - Throws: `SigningStorageError` (a wrong passphrase, an altered file), or
    ///   `SigningCertificateError` for a file that is not a certificate.
    public func storedCertificates(kind: SigningCertificateKind?, files: [String]? = nil) async throws -> [StoredCertificate] {
        let files = try await Self.listing(files, of: self)
        let paths = Set(files)
        var found: [StoredCertificate] = []
        for path in files {
            guard case let .certificate(fileKind, id)? = SigningLayout.entry(for: path), kind == nil || fileKind == kind else { continue }
            let certificate = try SigningCertificate(bytes: try await read(path), file: fileName(path))
            found.append(StoredCertificate(id: id, kind: fileKind, certificate: certificate,
                                           hasKey: paths.contains(SigningLayout.privateKeyPath(kind: fileKind, id: id))))
        }
        return found.sorted { $0.id < $1.id }
    }

    /// The profiles under `profiles/<kind>/` (every kind when nil), read and decrypted.
    /// - Throws: as `storedCertificates`, or `SigningCertificateError` for a file that is not a profile.
    public func storedProfiles(kind: SigningProfileKind?, files: [String]? = nil) async throws -> [StoredProfile] {
        let files = try await Self.listing(files, of: self)
        var found: [StoredProfile] = []
        for path in files {
            guard case let .profile(fileKind, _, _)? = SigningLayout.entry(for: path), kind == nil || fileKind == kind else { continue }
            found.append(StoredProfile(path: path, profile: try ProvisioningProfile(bytes: try await read(path), file: fileName(path))))
        }
        return found
    }

    /// The certificate and private key of `stored`. Slipway's storages keep a PKCS#12 protected by
    /// the storage's passphrase; fastlane match's keep the key alone, PEM-encoded, under the same
    /// `.p12` name (fastlane's `cert` writes it so), and both are read either way.
    /// - Throws: `SigningStorageError.fileNotFound` without a key; `SigningCertificateError` for a
    ///   key that is unreadable or not the certificate's.
    public func identity(of stored: StoredCertificate, passphrase: String) async throws -> SigningIdentity {
        let bytes = try await read(stored.keyPath)
        let keyFile = fileName(stored.keyPath)
        if bytes.starts(with: Array("-----BEGIN".utf8)) {
            let key = try SigningPrivateKey(bytes: bytes, file: keyFile)
            return try SigningIdentity(certificate: stored.certificate, key: key, keyFile: keyFile,
                                       certificateFile: fileName(stored.certificatePath))
        }
        let identity: SigningIdentity
        do {
            identity = try SigningIdentity(pkcs12: bytes, password: passphrase, file: keyFile)
        } catch SigningCertificateError.wrongPKCS12Password {
            // A .p12 put in by hand (or by match's `import`) is often exported without a password.
            identity = try SigningIdentity(pkcs12: bytes, password: "", file: keyFile)
        }
        guard identity.certificate.der == stored.certificate.der else {
            return try SigningIdentity(certificate: stored.certificate, key: identity.key, keyFile: keyFile,
                                       certificateFile: fileName(stored.certificatePath))
        }
        return identity
    }

    /// Writes `identity` as `certs/<kind>/<id>.cer` and `.p12`, in the storage's format (a
    /// PKCS#12 protected by `passphrase` for Slipway's; the PEM key for match's).
    /// - Throws: `SigningStorageError`, `SigningCertificateError.encodingFailed`.
    public func write(identity: SigningIdentity, id: String, kind: SigningCertificateKind, passphrase: String) async throws {
        let keyBytes: [UInt8]
        switch format {
        case .slipway: keyBytes = try identity.pkcs12(password: passphrase)
        case .match: keyBytes = Array(identity.key.rsa.pemRepresentation.utf8)
        }
        try await write(SigningLayout.certificatePath(kind: kind, id: id), identity.certificate.der)
        try await write(SigningLayout.privateKeyPath(kind: kind, id: id), keyBytes)
    }
}
